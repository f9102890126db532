"""The history list's view model, over a real store: which matches it lists, in what order, filtered how."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.service import Services
from companion.storage import Store
from companion.ui.viewmodel import AppModel, Screen

from tests.play import play
from tests.storage.builders import hand_for

CLASSIC = preset("classic")


def seed(store):
    """r1 won by Ben, r2 drawn, r3 abandoned, p1 won by Anna and Dora, r4 still in play (listed nowhere)."""
    table = play(store)
    r1 = table.start(Match(rules=CLASSIC, sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=1), hands=(hand_for(0),)))
    tie = Match(rules=CLASSIC, sides=(Side("Anna"), Side("Chris")), goal=Goal(hands=2),
                hands=(hand_for(0), hand_for(0)))
    first = hand_for(0)                              # 6 : 29, the second side wins
    swapped = replace(first, cards=first.cards[::-1], counting=first.counting[::-1], xeris=first.xeris[::-1],
                      ten_of_diamonds=1 - first.ten_of_diamonds, two=1 - first.two)
    r2 = table.start(Match(rules=CLASSIC, sides=tie.sides, goal=tie.goal, hands=(hand_for(0), swapped)))
    r3 = table.start(Match.new(CLASSIC, [Side("Ben"), Side("Chris")]))
    table.record_hand(r3.id, hand_for(1))
    table.abandon(r3.id)
    p1 = table.start(Match(rules=preset("partnership"), sides=(Side("Reds", ("Anna", "Dora")),
                                                                 Side("Blues", ("Ben", "Chris"))),
                           goal=Goal(hands=1), hands=(hand_for(2),)))
    r4 = table.start(Match.new(CLASSIC, [Side("Anna"), Side("Ben")]))
    return r1, r2, r3, p1, r4


def test_the_history_lists_finished_and_abandoned_matches_newest_first_not_the_match_in_play(services, store):
    r1, r2, r3, p1, r4 = seed(store)
    vm = AppModel(services)
    assert [s.id for s in vm.history.summaries()] == [p1.id, r3.id, r2.id, r1.id]
    rows = {row.id: row for row in vm.history.rows()}
    assert rows[r1.id].title == "Anna · Ben" and rows[r1.id].detail.endswith("Ben won")
    assert rows[r2.id].detail.endswith("drawn")
    assert rows[r3.id].detail.endswith("abandoned")
    assert "to 151" in rows[r3.id].detail and "1 hand" in rows[r1.id].detail


def test_the_history_filters_by_player_partnerships_included_and_by_rules(services, store):
    r1, r2, r3, p1, _ = seed(store)
    vm = AppModel(services)
    chris = next(p.id for p in services.library.players() if p.name == "Chris")
    vm.history.filter_player(chris)
    assert [s.id for s in vm.history.summaries()] == [p1.id, r3.id, r2.id]
    vm.history.filter_rules("partnership")
    assert [s.id for s in vm.history.summaries()] == [p1.id]
    vm.history.filter_player(chris)                    # tapped again: off
    vm.history.filter_rules("classic")                 # another rule set replaces the first
    assert [s.id for s in vm.history.summaries()] == [r3.id, r2.id, r1.id]
    assert vm.history.recent() == []                   # the home screen shows no filtered list


def test_a_past_match_opens_read_only_and_a_stopped_one_can_be_continued(services, store):
    _, _, r3, _, r4 = seed(store)
    vm = AppModel(services)
    vm.record.open(r3.id)
    assert vm.screen is Screen.RECORD and vm.record.can_continue
    assert vm.record.status_line() == "Stopped unfinished."
    vm.record.continue_match()                      # another match is in play: asked first, nothing stopped yet
    assert vm.session.question.ident == "confirm-replace" and "Anna · Ben, 0 : 0" in vm.session.question.text
    assert not services.table.get(r4.id).abandoned
    vm.confirm()
    assert vm.screen is Screen.SCOREBOARD and vm.scoreboard.record.id == r3.id
    assert services.table.get(r4.id).abandoned      # the match that was in play is stopped in its place


def test_a_player_page_is_worked_out_and_shown(services, store):
    seed(store)
    vm = AppModel(services)
    anna = next(p.id for p in services.library.players() if p.name == "Anna")
    vm.player.open(anna)
    figures = {f.key: f.value for f in vm.player.page.figures}
    assert vm.player.page.name == "Anna"
    assert (figures["stat-matches"], figures["stat-won"]) == ("3", "1")   # lost r1, drew r2, won p1


def test_the_history_the_ratings_and_a_player_page_read_no_match_file_on_a_store_just_opened(open_store,
                                                                                            monkeypatch):
    """Each match's figures are kept with its index entry (#27): a page adds them up, however many matches."""
    with open_store() as store:
        *history, playing = seed(store)
    read: list[str] = []
    real = Store._read_match
    monkeypatch.setattr(Store, "_read_match", lambda self, path: read.append(path.stem) or real(self, path))
    with open_store() as store:
        services = Services.over(store)
        vm = AppModel(services)
        assert len(vm.history.rows()) == 4
        anna = next(p.id for p in services.library.players() if p.name == "Anna")
        vm.player.open(anna)
        assert {f.key: f.value for f in vm.player.page.figures}["stat-matches"] == "3"
        vm.ratings.open()
        assert vm.ratings.page is not None and vm.ratings.page.rows
    assert read == [playing.id]            # the match in play, which the app opens at its table; no other


def test_an_unknown_screen_is_an_error_not_home(services):
    import pytest

    vm = AppModel(services)
    with pytest.raises(ValueError):
        vm.session.go("nowhere")
    from companion.ui.views import SCREENS

    assert set(SCREENS) == set(Screen)


def test_an_export_names_the_laptops_folder_only_on_the_laptop_a_served_phone_is_told_of_its_download(services):
    """The served app told a phone the laptop's own path of the export ("History exported to /home/…"): a place
    the phone cannot open. The laptop's own window says the path; a phone, that its browser downloads it."""
    match = Match.new(preset("classic"), [Side("Anna"), Side("Ben")], Goal(hands=1))
    services.table.start(replace(match, hands=(hand_for(0),)))
    for local, said in ((True, "History exported to "), (False, "History exported: the zip is being downloaded.")):
        app = AppModel(services)
        app.session.local = local
        app.history.open()
        app.history.export_all()
        assert app.session.notice.text.startswith(said)
        assert app.history.download is not None and app.history.download[0].endswith(".zip")
        if not local:
            assert str(services.library.folder) not in app.session.notice.text


def test_a_long_history_shows_a_page_of_rows_and_adds_the_next_under_them(services, store):
    """A club's 5,000 matches were 5,000 rows built and drawn at once (#27): the list shows a page, and "show
    more" adds the next page under the rows shown; a filter starts again from one page."""
    from companion.ui.viewmodel.history import PAGE
    from tests.screens import ScreenPhone

    table = play(store)
    first = table.start(Match(rules=CLASSIC, sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=1),
                              hands=(hand_for(0),)))
    for _ in range(2 * PAGE + 19):
        table.start(Match(rules=CLASSIC, sides=(Side("Anna"), Side("Chris")), goal=Goal(hands=1),
                          hands=(hand_for(0),)))
    phone = ScreenPhone(AppModel(services))
    vm = phone.vm
    vm.history.open()
    everything = [s.id for s in services.library.matches() if s.is_history]
    newest_first = [s.id for s in sorted(services.library.matches(), key=lambda s: (s.when, s.id), reverse=True)]
    assert len(everything) == 2 * PAGE + 20
    shown = vm.history.rows()
    assert [r.id for r in shown] == newest_first[:PAGE] and first.id not in {r.id for r in shown}
    assert phone.text_of("history-more") == f"Show {PAGE} more matches"
    assert phone.text_of("to-top") == "Back to the top"     # a long list's way back up to its filters
    phone.tap("history-more")
    assert [r.id for r in vm.history.rows()] == newest_first[:2 * PAGE]
    phone.tap("history-more")
    assert [r.id for r in vm.history.rows()] == newest_first and vm.history.rows()[-1].id == first.id
    assert vm.history.more_count() == 0 and not phone.has_text("more match")
    ben = next(p.id for p in services.library.players() if p.name == "Ben")
    vm.history.filter_player(ben)                       # a filter: one page again, of its own matches
    assert [r.id for r in vm.history.rows()] == [first.id] and vm.history.more_count() == 0
    assert phone.by_id_count("to-top") == 0               # one row: nothing to go back up to
    vm.history.filter_player(ben)
    assert len(vm.history.rows()) == PAGE and vm.history.more_count() == PAGE


def test_the_count_of_hidden_matches_and_the_rows_follow_the_filters(services, store):
    """Matches stopped before their first hand are counted without building the list (#27)."""
    table = play(store)
    for names in (("Anna", "Ben"), ("Anna", "Chris"), ("Ben", "Chris")):
        table.abandon(table.start(Match.new(CLASSIC, [Side(n) for n in names])).id)
    seed(store)
    vm = AppModel(services)
    assert vm.history.hidden_count() == 3 and len(vm.history.rows()) == 4
    anna = next(p.id for p in services.library.players() if p.name == "Anna")
    vm.history.filter_player(anna)
    assert vm.history.hidden_count() == 2
    vm.history.toggle_empty()
    assert vm.history.hidden_count() == 0 and len(vm.history.rows()) == 2 + 3   # r1, r2, p1 and two empties


def test_slow_work_that_fails_is_said_in_words_and_leaves_no_spinner_or_disabled_button(services, store,
                                                                                        monkeypatch, caplog):
    """A player page, the leaderboard, an import and an export whose work raises (a bug, or the disk): the screen
    is put back as it was before the work began and what went wrong is said, where the spinner stayed forever."""
    from companion.history.cache import HistoryCache
    from companion.service.backups import Backups
    from companion.ui.viewmodel.session import Tone

    seed(store)
    vm = AppModel(services)
    anna = next(p.id for p in services.library.players() if p.name == "Anna")
    vm.history.open()

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(HistoryCache, "player_figures", broken)
    vm.player.open(anna)
    assert vm.screen is Screen.HISTORY and vm.player.page is None
    assert vm.session.notice.tone is Tone.PROBLEM and "division by zero" in vm.session.notice.text
    assert "slow work failed" in caplog.text                       # a bug: logged with its traceback too
    monkeypatch.setattr(HistoryCache, "leaderboard", broken)
    vm.ratings.open()
    assert vm.screen is Screen.HISTORY and vm.ratings.page is None
    monkeypatch.setattr(Backups, "import_files", broken)
    monkeypatch.setattr(Backups, "archive", lambda *_: (_ for _ in ()).throw(OSError(28, "No space left")))
    vm.history.import_files([("a.xeri", b"{}")])
    assert vm.history.busy is None and vm.history.progress is None
    vm.history.export_all()
    assert vm.history.busy is None and "disk is full" in vm.session.notice.text
