"""The screens as controls, without a browser: what only the control tree can show."""

from __future__ import annotations

import flet as ft

from companion.ui.viewmodel import AppModel, Screen
from companion.ui.views import render


def walk(control):
    yield control
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        if isinstance(child, list):
            for c in child:
                yield from walk(c)
        elif child is not None and hasattr(child, "__dataclass_fields__"):
            yield from walk(child)


def test_the_pile_counts_ask_a_phone_for_its_number_keypad(services):
    vm = AppModel(services)
    vm.setup.open()
    vm.setup.set_name(0, "Anna")
    vm.setup.set_name(1, "Ben")
    vm.setup.start()
    vm.scoreboard.end_hand()
    vm.entry.toggle_counts()
    frame = render(vm)
    fields = [c for part in frame.body for c in walk(part) if isinstance(c, ft.TextField)]
    assert len(fields) == 2
    assert all(f.keyboard_type == ft.KeyboardType.NUMBER for f in fields)


def test_a_watching_phone_is_offered_nothing_that_changes_the_table(services):
    from companion.net.access import Access
    from companion.ui.viewmodel import Session

    owner = AppModel(services)
    owner.setup.open()
    owner.setup.set_name(0, "Anna")
    owner.setup.set_name(1, "Ben")
    owner.setup.start()
    watcher = AppModel(services, session=Session(services, access=Access.WATCHER))
    watcher.scoreboard.open()
    frame = render(watcher)
    idents = {getattr(c, "identifier", None) for part in frame.body + frame.footer + frame.actions for c in walk(part)}
    assert not idents & {"xeri-0", "jack-xeri-0", "end-hand", "undo-hand", "abandon-match", "undo-tap"}
    assert {"live-counts", "watching"} <= idents


def test_the_widths_the_screens_measure_names_against_are_the_pages_own():
    # views.common.column_width mirrors ui.app.layout and make_main: if one changes, names are measured
    # against a column of another width, and a name said to fit would be cut.
    from companion.ui.views import frame as page
    from companion.ui.views import common

    assert common.PHONE_COLUMN == page.MAX_WIDTH


def test_a_name_is_measured_as_wide_as_roboto_draws_it():
    from companion.ui.views.metrics import fitting_size, text_width

    # Roboto's advances: "Anna" is 1336 + 1130 + 1130 + 1114 units of 2048; bold has a 3 % margin.
    assert text_width("Anna", 16, bold=False) == (1336 + 1130 + 1130 + 1114) / 2048 * 16
    assert text_width("Κωνσταντίνος", 16) > text_width("Κωνσταντίνα", 16) > text_width("Anna", 16)
    assert fitting_size("Κωνσταντίνος", 200, 16, least=10) == 16        # fits as it is
    assert 10 < fitting_size("Κωνσταντίνος", 80, 16, least=10) < 16     # smaller, to fit
    assert fitting_size("Chrysanthemumalexandrinapapadopouloukara", 80, 16, least=10) == 10   # the least; then cut
    assert text_width("Mia 🐱", 16) > text_width("Mia ", 16) + 16           # an emoji is wider than a letter


def test_the_score_sheet_is_drawn_again_when_a_hand_is_replaced_by_another_version(services):
    # Found by the browser sync test: two phones saved hand 1 differently while apart; the group's version
    # took the place of this phone's, with as many hands and edits as before, and the totals changed while the
    # sheet, kept from the redraw before (keyed by how many hands), still showed this phone's version.
    from dataclasses import replace

    from companion.engine import record_hand
    from tests.storage.builders import hand_for, new_match

    started = services.table.start(new_match(hands=1))
    vm = AppModel(services)
    vm.scoreboard.open()

    def row_label() -> str:
        frame = render(vm)
        rows = [c for part in frame.body for c in walk(part) if getattr(c, "identifier", None) == "hand-0"]
        return rows[0].label

    before = row_label()
    assert row_label() == before                       # drawn again from the same match: kept
    current = services.table.get(started.id)
    other = replace(current, match=record_hand(new_match(), hand_for(4)))
    assert len(other.match.hands) == len(current.match.hands) and other.trail == current.trail   # as many hands, edits
    services.table.apply_shared(other, current.revision)
    vm.scoreboard.refresh(started.id)
    assert row_label() != before


def test_names_of_one_row_are_drawn_at_one_size_on_two_lines_broken_between_words_where_that_is_larger():
    from companion.ui.views.metrics import row_size, wrapped
    from companion.ui.views.widgets import per_row

    long = "Χαραλάμπης-Κωνσταντίνος & Eleni"
    assert wrapped(long, 160, 12) == ["Χαραλάμπης-Κωνσταντίνος", "& Eleni"]     # after the hyphen or a space only
    assert wrapped(long, 128, 12) == ["Χαραλάμπης-", "Κωνσταντίνος & Eleni"]
    assert wrapped("Chrysanthemumalexandrinapapadopouloukara", 80, 16) is None  # never mid-word
    size, lines = row_size([long, "Οι Αετοί"], 150, 15, least=10)
    assert lines == 2 and 14 <= size <= 15                              # both at that size, not 15 and 10.5
    assert row_size(["Anna", "Ben"], 150, 15, least=10) == (15, 1)
    # The entry's Most cards row keeps two names to a row (it was one a row with a 40-letter name).
    assert per_row([long, "Οι Αετοί", "Tie"], 336, 4) == 1
    assert per_row([long, "Οι Αετοί", "Tie"], 336, 4, lines=2) == 2


def test_a_partnership_with_a_forty_letter_name_keeps_two_choices_a_row_and_every_player_on_a_small_phone(services):
    """At 360×640 with "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλο" in a team: the entry's choices two to a row,
    the counting tabs side by side, and the four players' xeri buttons at the least touch height so every row is
    on the screen."""
    vm = AppModel(services)
    vm.session.viewport = (360, 640)
    vm.setup.open()
    vm.setup.set_layout("partners")
    for i, name in enumerate(("Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλος"[:40], "Eleni", "Νίκος", "Petros")):
        vm.setup.set_name(i, name)
    vm.setup.start()
    frame = render(vm)
    buttons = [c for part in frame.body for c in walk(part) if isinstance(c, ft.FilledButton)]
    assert len(buttons) == 4 and all(b.height == 48 for b in buttons)
    vm.scoreboard.end_hand()
    frame = render(vm)
    rows = [c for part in frame.body for c in walk(part) if isinstance(c, ft.Row)]

    def row_of(ident: str):
        return next(r for r in rows if any(getattr(c, "identifier", None) == ident for c in r.controls))

    assert {getattr(c, "identifier", None) for c in row_of("most-0").controls} == {"most-0", "most-1"}
    assert {getattr(c, "identifier", None) for c in row_of("counting-side-0").controls} == {"counting-side-0",
                                                                                            "counting-side-1"}
    assert {getattr(c, "identifier", None) for c in row_of("ten-0").controls} == {"ten-0", "ten-1"}


def test_home_offers_the_rules_once(services):
    # It had a Rules button in its body and a Rules book in its header: two ways to one page, twice the words.
    vm = AppModel(services)
    frame = render(vm)
    controls = [c for part in frame.body + frame.footer + frame.actions for c in walk(part)]
    rules = vm.tr("nav.rules")
    said = [c for c in controls if getattr(c, "identifier", None) in ("open-rules", "open-rules-button")
            or getattr(c, "text", None) == rules or getattr(c, "tooltip", None) == rules
            or getattr(c, "label", None) == rules]
    assert len({id(c) for c in said if getattr(c, "identifier", None) == "open-rules"}) == 1
    assert not any(getattr(c, "identifier", None) == "open-rules-button" or getattr(c, "text", None) == rules
                   for c in said)


def test_a_tap_on_another_phone_redraws_only_what_it_changed_and_a_new_language_or_theme_redraws_everything(services):
    # Every phone at a table redraws for every tap (#27): the parts a tap leaves as they were are given back as
    # the very controls drawn before, which Flet does not compare again; what the tap changed is drawn anew.
    from companion.engine.live import TapKind
    from companion.net.access import Access
    from companion.ui.app import draw
    from companion.ui.viewmodel import Session
    from tests.screens import walk

    from .vm import start

    tapper = AppModel(services)
    start(tapper)
    tapper.scoreboard.tap(1, TapKind.XERI)                  # Undo tap is there on both phones from the start
    phone = AppModel(services)
    phone.scoreboard.open()

    def drawn() -> dict[str, ft.Control]:
        return {c.identifier: c for c, _ in walk(draw(phone, hooks=True)[1]) if getattr(c, "identifier", None)}

    def tap_elsewhere(seat: int) -> None:
        tapper.scoreboard.tap(seat, TapKind.XERI)
        phone.scoreboard.refresh(tapper.scoreboard.record.id)

    before = drawn()
    tap_elsewhere(0)
    after = drawn()
    same = {"goal-line", "total-0", "total-1", "dealer-line", "undo-tap", "xeri-1", "jack-xeri-1", "undo-hand",
            "abandon-match", "match-rules", "end-hand", "no-hands"}
    assert {i for i in same if after[i] is before[i]} == same
    changed = {"xeri-0", "jack-xeri-0", "status", "app-seen"}
    assert {i for i in changed if after[i] is not before[i]} == changed
    assert after["xeri-0"].label == "Xeri for Anna (now 1)" and after["xeri-1"].label == "Xeri for Ben (now 1)"

    watcher = AppModel(services, session=Session(services, access=Access.WATCHER))   # no table code: the counts
    watcher.scoreboard.open()
    counts = draw(watcher, hooks=True)[1]
    tap_elsewhere(1)
    watcher.scoreboard.refresh(tapper.scoreboard.record.id)
    again = draw(watcher, hooks=True)[1]
    rows = [[c for c, _ in walk(frame) if getattr(c, "identifier", None) == "live-counts"][0].content.controls
            for frame in (counts, again)]
    assert rows[1][0] is rows[0][0] and rows[1][1] is not rows[0][1]         # Anna's counts as they were; Ben's new

    phone.settings.set_language("el")
    greek = drawn()
    assert not {i for i in same if greek[i] is after[i]}
    assert greek["xeri-1"].label == "Ξερή για Ben (τώρα 2)" and greek["match-rules"].label != after["match-rules"].label
    phone.settings.set_theme("dark" if not phone.session.dark else "light")
    dark = drawn()          # drawn in the palette's colours: anew; in the theme's own (Flutter's to swap): kept
    assert not {i for i in ("goal-line", "total-0", "total-1", "xeri-1", "jack-xeri-1", "no-hands") if dark[i] is greek[i]}


def test_a_years_wins_per_month_label_a_few_months_the_last_always_and_long_figures_stay_on_one_line(services):
    """Twelve "Jan 2023" labels ran into one another at 360 px, and 4935/10000 hands won broke over two lines."""
    import flet_charts as fch

    from companion.history.stats import MonthWins
    from companion.ui.viewmodel import Screen
    from companion.ui.viewmodel.player import Figure, PlayerPage
    from tests.screens import walk as drawn

    vm = AppModel(services)
    months = tuple(MonthWins(f"2023-{m:02d}", 1, 2) for m in range(1, 13))
    vm.player.page = PlayerPage("Anna", (Figure("stat-hands-won", "hands won", "4935/10000"),
                                         Figure("stat-won", "won", "366")), (), months, (), (),
                                tuple(f"M{m}" for m in range(1, 13)))
    vm.session.screen = Screen.PLAYER
    controls = [c for root in render(vm).body for c, _ in drawn(root)]
    bars = next(c for c in controls if isinstance(c, fch.BarChart))
    assert [label.label.value for label in bars.bottom_axis.labels] == ["M3", "M6", "M9", "M12"]
    sizes = {t.value: t.size for t in controls if isinstance(t, ft.Text) and t.value in ("4935/10000", "366")}
    assert sizes == {"4935/10000": 15, "366": 24}


def test_every_screen_but_home_is_imported_when_first_drawn_and_each_one_is_there():
    # Issue #27: a start imports home's view only; the others come with their screen (and the browser build's
    # snapshot holds them: browser_build.SNAPSHOT_ALSO). A misspelt module or name would show only on that screen.
    import importlib

    from companion.ui import browser_build, views

    later = {screen: view for screen, view in views.SCREENS.items() if isinstance(view, views.Later)}
    assert set(views.SCREENS) - set(later) == {Screen.HOME}
    for view in later.values():
        assert callable(getattr(importlib.import_module(view.module), view.name))
    assert {view.module for view in later.values()} < set(views.LATER) <= set(browser_build.SNAPSHOT_ALSO)
    assert "companion.ui.views.picture" in views.LATER


def test_a_dropped_event_is_said_without_lowering_flets_own_log_level(caplog):
    # Flet hands its logger's level to the uvicorn of its own web server (the desktop app on a Linux without a
    # display), whose DEBUG prints every WebSocket frame: a typed password with it. Flet's level stays as it was.
    import logging

    from flet.messaging import session as flet_session

    from companion import logs
    from companion.ui.app import LOST_EVENT, say_lost_events

    logs.configure()
    level = logging.getLogger("flet").getEffectiveLevel()
    say_lost_events()
    say_lost_events()
    assert logging.getLogger("flet").getEffectiveLevel() == level >= logging.INFO
    assert isinstance(flet_session.logger.inner, logging.Logger)          # wrapped once
    with caplog.at_level(logging.WARNING):
        flet_session.logger.debug(LOST_EVENT, 41)
        flet_session.logger.debug("Schedule_update(%s)", "x")
    assert [r.getMessage() for r in caplog.records] == [
        "an event for control 41 came after the control left the page; Flet dropped it"]
