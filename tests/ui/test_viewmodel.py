"""The view model, without a page: every intent the screens send, and what the screens then show."""

from companion.engine import Status
from companion.ui.viewmodel import TIE, AppModel, Screen
from companion.engine.live import TapKind

from .vm import enter, start


def test_a_new_match_opens_the_scoreboard_with_the_first_dealer_named(app):
    start(app)
    assert app.scoreboard.side_names == ["Anna", "Ben"]
    assert app.session.notice.text == "Match started: Anna deals first."
    assert app.scoreboard.standing.totals == (0, 0)


def test_a_match_needs_a_different_name_for_every_player(app):
    app.setup.open()
    app.setup.set_name(0, "Anna")
    app.setup.set_name(1, "anna")
    app.setup.start()
    assert app.screen is Screen.SETUP and app.session.notice.text == "Every player needs a different name."


def test_live_taps_prefill_the_entry_and_are_cleared_by_save(app):
    start(app)
    app.scoreboard.tap(0, TapKind.XERI)
    app.scoreboard.tap(1, TapKind.JACK_XERI)
    app.scoreboard.tap(1, TapKind.XERI)
    app.scoreboard.undo_tap()
    assert app.scoreboard.seat_count(1, TapKind.XERI) == 0 and app.scoreboard.seat_count(1, TapKind.JACK_XERI) == 1
    app.scoreboard.end_hand()
    assert app.entry.draft.xeris == [1, 0] and app.entry.draft.jack_xeris == [0, 1]
    app.back()
    enter(app)
    assert app.scoreboard.standing.totals == (26, 29)
    assert app.scoreboard.record.live.taps == ()
    assert app.scoreboard.flash == 0


def test_save_stays_disabled_with_the_reason_in_words(app):
    start(app)
    app.scoreboard.end_hand()
    assert app.entry.save_reason() == "Say who has most cards (or a tie)."
    app.entry.set_most(TIE)
    app.entry.set_counting(0, 12)
    app.entry.set_ten(0)
    assert app.entry.save_reason() == "Say who took the 2♣."
    app.entry.set_two(1)
    for _ in range(3):
        app.entry.step(TapKind.JACK_XERI, 0, 1)
    assert app.entry.save_reason() == "3 jack xeris in one hand: four jacks allow at most 2."
    app.entry.save()
    assert app.screen is Screen.ENTRY and app.scoreboard.record.match.hands == ()


def test_a_race_to_151_is_extended_to_251_and_then_won(app):
    start(app)
    enter(app)
    enter(app, xeris=(6, 7))
    assert app.scoreboard.standing.totals == (92, 88) and app.scoreboard.standing.target == 151
    enter(app, xeris=(6, 7))
    assert app.scoreboard.standing.totals == (168, 167)
    assert app.scoreboard.standing.target == 251 and "251" in app.scoreboard.goal_line()
    enter(app, xeris=(7, 0))
    assert app.scoreboard.standing.status is Status.WON and app.scoreboard.standing.winner == 0


def test_undo_and_edit_ask_first_and_change_the_totals(app):
    start(app)
    enter(app)
    enter(app, most=1, counting=(0, 5), ten=1, two=1)
    app.scoreboard.ask_undo()
    assert app.session.question.text == ("Undo hand 2? It opens again as it was saved, to correct and save or to "
                                         "discard; the trail keeps it.")
    undone = app.scoreboard.match.hands[1]
    app.confirm()
    assert app.screen is Screen.ENTRY and app.entry.reopened == undone and app.entry.draft.entry() == undone
    assert app.scoreboard.standing.totals == (16, 9)
    app.entry.leave()
    app.scoreboard.ask_edit(0)
    app.confirm()
    assert app.screen is Screen.ENTRY and app.entry.editing == 0
    app.entry.set_counting(0, 15)
    app.entry.save()
    assert app.scoreboard.standing.totals == (19, 6)
    assert [t.action for t in app.scoreboard.record.trail] == ["undo", "edit"]


def test_a_partnership_match_seats_partners_opposite_and_passes_the_deal(app):
    start(app, names=("Nikos", "Sofia", "Eleni", "Petros"), layout="partners",
          goal={"goal_kind": "hands", "hands": 2})
    assert app.scoreboard.side_names == ["Nikos & Sofia", "Eleni & Petros"]
    seats = [seat.player for seat in app.scoreboard.match.seats]
    assert seats == ["Nikos", "Eleni", "Sofia", "Petros"]
    app.scoreboard.tap(1, TapKind.XERI)  # Eleni
    enter(app, most=1, counting=(1, 11), ten=1, two=1)
    assert app.scoreboard.standing.totals == (9, 26)
    assert app.scoreboard.match.seats[app.scoreboard.standing.next_dealer].player == "Eleni"
    enter(app, most=1, counting=(1, 11), ten=1, two=1)
    assert app.scoreboard.standing.status is Status.WON and app.scoreboard.standing.winner == 1


def test_the_unfinished_match_and_its_live_taps_come_back_in_a_new_session(services):
    first = AppModel(services)
    start(first)
    first.scoreboard.tap(0, TapKind.XERI)
    again = AppModel(services)
    assert again.scoreboard.record.id == first.scoreboard.record.id
    assert again.scoreboard.seat_count(0, TapKind.XERI) == 1


def test_rematch_keeps_the_sides_and_moves_the_deal_on(app):
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    assert app.scoreboard.standing.is_over
    app.scoreboard.rematch()
    assert app.scoreboard.side_names == ["Anna", "Ben"] and app.scoreboard.match.first_dealer == 1 and app.scoreboard.match.hands == ()


def test_share_text_is_the_plain_score_sheet(app):
    start(app)
    enter(app)
    text = app.scoreboard.share_text()
    assert "Hand 1 (Anna deals)" in text and "Running total" in text


def test_language_and_theme_are_remembered(services):
    s = AppModel(services)
    s.settings.set_language("el")
    s.settings.set_theme("dark")
    again = AppModel(services)
    assert again.session.lang == "el" and again.session.theme == "dark"
    assert again.tr("home.new_match") == "Νέα παρτίδα"


def test_known_players_are_suggested_by_what_was_typed(app):
    start(app)
    app.setup.open()
    app.setup.set_name(0, "a")
    app.setup.set_name(1, "")
    assert app.setup.name_suggestions(0) == ["Anna"]
    app.setup.set_name(0, "Anna")
    assert app.setup.name_suggestions(1) == ["Ben"]


def test_the_rules_screen_describes_the_rule_set_of_this_match(app):
    start(app)
    app.rules.open("current")
    assert app.rules.rules() == app.scoreboard.match.rules


def test_every_intent_moves_the_revision_on_so_the_page_redraws(app):
    app.setup.open()
    before = app.session.revision
    app.setup.set_name(0, "Zoe")  # changes only a nested value
    assert app.session.revision == before + 1


def test_two_sessions_tapping_xeris_on_one_match_keep_both_taps(services, store):
    a = AppModel(services)
    start(a)
    b = AppModel(services)          # a second phone opens the app on the same match
    b.scoreboard.open()
    a.scoreboard.tap(0, TapKind.XERI)
    b.scoreboard.tap(1, TapKind.XERI)
    assert store.get(a.scoreboard.record.id).live.per_side([0, 1], 2) == ((1, 1), (0, 0))


def test_a_match_deleted_by_another_session_brings_this_one_home_with_a_message(services):
    a, b = AppModel(services), AppModel(services)
    start(a)
    b.record.open(a.scoreboard.record.id)
    b.record.delete()
    a.scoreboard.tap(0, TapKind.XERI)
    assert a.screen is Screen.HOME and "could not be opened" in a.session.notice.text


def test_a_question_left_open_does_not_follow_into_the_rematch(app):
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    app.scoreboard.ask_edit(0)
    app.scoreboard.rematch()
    assert app.session.question is None and app.scoreboard.flash is None and app.scoreboard.opened is None


def test_the_last_hand_can_be_undone_even_after_it_decided_the_match(app):
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    assert app.scoreboard.standing.is_over
    app.scoreboard.ask_undo()
    app.confirm()
    assert not app.scoreboard.standing.is_over and app.scoreboard.match.hands == ()


def test_switching_layout_shows_the_names_that_will_be_used(app):
    app.setup.open()
    app.setup.set_name(0, "Zoe")
    app.setup.set_name(1, "Yan")
    app.setup.set_layout("partners")
    assert app.setup.form.names[:2] == ["Zoe", "Yan"] and app.setup.form.player_names()[:2] == ["Zoe", "Yan"]


def test_three_players_are_only_offered_rule_sets_for_three(app):
    app.setup.open()
    app.setup.set_layout("three")
    assert app.setup.form.preset == "greek-online" and app.setup.form.seats == 3
    app.setup.set_layout("partners")
    app.setup.set_layout("three")
    assert app.setup.form.preset == "greek-online" and not app.setup.form.rules().partnerships


def test_importing_files_from_another_device_says_what_was_new_skipped_and_unreadable(tmp_path, app):
    from companion.service import Services
    from companion.storage import Store

    with Store(tmp_path / "other") as other:
        s = AppModel(Services.over(other))
        start(s, goal={"goal_kind": "hands", "hands": 1})
        enter(s)
        exported = s.services.library.export_match(s.scoreboard.record.id).encode("utf-8")
    app.history.import_files([("anna-ben.json", exported), ("again.json", exported), ("bad.json", b"{nope")])
    assert app.session.notice.text.startswith(
        "1 match imported. 1 was already here. 1 file could not be read (bad.json:")
    assert [i.sides for i in app.history.summaries()] == [("Anna", "Ben")]


def test_a_change_on_one_phone_is_announced_and_shown_on_the_other(services):
    a = AppModel(services)
    start(a)
    b = AppModel(services)
    b.scoreboard.open()
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])   # what the page's pub/sub does
    a.scoreboard.tap(0, TapKind.XERI)
    assert b.scoreboard.seat_count(0, TapKind.XERI) == 1
    b.scoreboard.end_hand()
    a.scoreboard.end_hand()
    a.entry.set_most(0)
    a.entry.set_counting(0, 12)
    a.entry.set_ten(0)
    a.entry.set_two(1)
    a.entry.save()
    assert b.scoreboard.standing.totals == (26, 9)
    assert b.entry.stale is not None and b.entry.stale_line().startswith("Hand 1 was saved on another phone")


def test_a_stale_hand_entry_is_refused_where_the_person_looks_and_keeps_what_was_typed(services):
    a = AppModel(services)
    start(a)
    b = AppModel(services)                     # a second phone on the same match
    b.scoreboard.open()
    a.scoreboard.end_hand()                         # phone A opens the entry for hand 1
    for tap in (lambda m: m.set_most(0), lambda m: m.set_counting(0, 12), lambda m: m.set_ten(0),
                lambda m: m.set_two(1)):
        tap(a.entry)
    enter(b)                                   # phone B saves hand 1 first
    a.entry.save()                             # A's save is refused: no second hand 1
    assert a.screen is Screen.ENTRY and a.entry.draft is not None and a.entry.save_reason() is None
    assert a.entry.stale_line() == ("Hand 1 was saved on another phone, so this one was not: discard it, "
                                    "or go on with the next hand.")
    assert len(services.table.get(a.scoreboard.record.id).match.hands) == 1
    assert a.scoreboard.record.revision == b.scoreboard.record.revision     # the scoreboard behind it is up to date


def test_a_tap_from_a_phone_that_still_shows_a_finished_match_is_told_not_crashed(services):
    a = AppModel(services)
    start(a, goal={"goal_kind": "hands", "hands": 1})
    b = AppModel(services)
    b.scoreboard.open()
    enter(a)                                   # A's hand decides the match
    b.scoreboard.tap(0, TapKind.XERI)                     # B still shows the hand in play
    assert b.session.notice.tone.value == "problem"
    assert services.table.get(a.scoreboard.record.id).live.taps == ()


def test_a_rematch_on_one_phone_moves_the_other_phone_to_the_new_match(services):
    a = AppModel(services)
    start(a, goal={"goal_kind": "hands", "hands": 1})
    b = AppModel(services)
    b.scoreboard.open()
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])
    enter(a)
    assert b.scoreboard.standing.is_over
    a.scoreboard.rematch()
    assert b.scoreboard.record.id == a.scoreboard.record.id and not b.scoreboard.standing.is_over
    assert b.session.notice.text.startswith("A rematch was started on another phone")


def test_back_from_the_hand_entry_keeps_what_was_typed_for_the_same_hand(app):
    start(app)
    app.scoreboard.end_hand()
    app.entry.set_most(1)
    app.entry.set_counting(0, 7)
    app.back()
    assert app.screen is Screen.SCOREBOARD
    app.scoreboard.tap(1, TapKind.XERI)                       # a xeri tapped meanwhile reaches the kept form
    app.scoreboard.end_hand()
    assert app.entry.draft.majority() == 1 and app.entry.draft.counting.values == [7, 13]
    assert app.entry.draft.xeris == [0, 1]


def test_the_hand_is_previewed_before_save_with_each_sides_total_after_it(app):
    start(app)
    enter(app)                                     # 16 : 9
    app.scoreboard.end_hand()
    for tap in (lambda m: m.set_most(1), lambda m: m.set_counting(0, 5), lambda m: m.set_ten(1),
                lambda m: m.set_two(1)):
        tap(app.entry)
    assert app.entry.preview().text == "Ben wins the hand — Anna: hand 5, total 16 → 21 · Ben: hand 20, total 9 → 29"


def test_an_edit_is_previewed_old_to_new_for_the_hand_and_the_total_and_a_side_unchanged_without_an_arrow(app):
    start(app)
    enter(app)                                     # hand 1: 16 : 9
    enter(app)                                     # hand 2: 16 : 9, totals 32 : 18
    app.scoreboard.ask_edit(0)
    app.confirm()
    assert app.entry.preview().text.endswith("Anna: hand 16, total 32 · Ben: hand 9, total 18")  # nothing changed
    app.entry.set_two(0)                           # the 2♣ to Anna instead: hand 1 17 : 8
    assert app.entry.preview().text.endswith("Anna: hand 16 → 17, total 32 → 33 · Ben: hand 9 → 8, total 18 → 17")


def test_a_problem_is_said_in_words_and_its_field_is_marked(app):
    start(app)
    app.scoreboard.end_hand()
    for _ in range(3):
        app.entry.step(TapKind.JACK_XERI, 1, 1)
    assert app.entry.problems_line() == "3 jack xeris in one hand: four jacks allow at most 2."
    assert app.entry.flagged("jack_xeris") == {None}
    app.entry.step(TapKind.XERI, 0, 30)                  # a second problem: said as "and 1 more"
    assert app.entry.problems_line().endswith("(and 1 more: tap)")


def test_changing_the_table_size_goes_back_to_its_usual_rules(app):
    app.setup.open()
    app.setup.set_layout("three")
    assert app.setup.form.preset == "greek-online"
    app.setup.set_layout("two")                    # greek-online fits two players too, but two play classic
    assert app.setup.form.preset == "classic"
    assert app.setup.rules_line() == "Classic · first to 151, then 251"


def test_an_undo_asked_before_another_phone_saved_a_hand_undoes_nothing(services):
    a = AppModel(services)
    start(a)
    enter(a)
    b = AppModel(services)
    b.scoreboard.open()
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])
    b.session.announce = lambda m: a.scoreboard.refresh(m["match"], m["replaces"])
    a.scoreboard.ask_undo()                     # "Undo hand 1?"
    enter(b)                               # hand 2 saved on the other phone; A's screen follows
    a.confirm()
    assert len(services.table.get(a.scoreboard.record.id).match.hands) == 2
    assert "changed on another phone" in a.session.notice.text


def test_an_edit_opened_before_the_group_replaced_that_hand_is_refused_in_words(services):
    # Nothing is counted more or less when the group's version of a hand displaces this device's (same
    # hands, trail and taps): the form must still see it and say what happened, keeping what was typed.
    from dataclasses import replace

    a = AppModel(services)
    start(a)
    enter(a)
    enter(a)
    a.scoreboard.ask_edit(0)
    a.confirm()
    a.entry.set_counting(0, 15)
    m = a.scoreboard.record.id
    current = services.table.get(m)
    theirs = replace(current.match.hands[0], counting=(10, 10))
    group = replace(current, match=replace(current.match, hands=(theirs, current.match.hands[1])))
    assert services.table.apply_shared(group, current.revision) is not None
    a.entry.save()
    assert a.screen is Screen.ENTRY and a.entry.draft is not None
    assert a.entry.stale_line() == ("Hand 1 now counts as another device saved it (the group kept that version), "
                                    "so this was not saved: check the numbers and save again.")
    assert services.table.get(m).match.hands[0] == theirs and services.table.get(m).trail == ()


def test_go_on_after_another_phone_saved_the_hand_returns_to_the_scoreboard_of_the_hand_in_progress(services):
    a, b = AppModel(services), AppModel(services)
    start(a)
    b.scoreboard.refresh(a.scoreboard.record.id)
    a.scoreboard.end_hand()
    a.entry.set_most(0)
    enter(b)                                           # B saves hand 1 first
    a.entry.set_counting(0, 12)
    a.entry.set_ten(0)
    a.entry.set_two(1)
    a.entry.save()                                     # refused: the form is stale
    assert a.entry.stale is not None and a.entry.reopen_label() == "Go on with hand 2"
    a.entry.reopen()
    assert a.screen is Screen.SCOREBOARD and len(a.scoreboard.match.hands) == 1


def test_the_entrys_xeris_follow_the_taps_until_changed_by_hand_and_can_use_the_taps_again(services):
    a, b = AppModel(services), AppModel(services)
    start(a)
    b.scoreboard.refresh(a.scoreboard.record.id)
    a.scoreboard.end_hand()                            # A opens the entry; B, at the table, taps a xeri
    b.scoreboard.tap(0, TapKind.XERI)
    a.scoreboard.refresh(a.scoreboard.record.id)      # what the page does when B's tap is told
    assert a.entry.stale is None and a.entry.draft.xeris == [1, 0]       # followed, not a stale form
    a.entry.step(TapKind.XERI, 1, 1)                  # changed here by hand
    b.scoreboard.tap(0, TapKind.XERI)
    a.scoreboard.refresh(a.scoreboard.record.id)
    assert a.entry.stale is None and a.entry.draft.xeris == [1, 1]       # the person's stand
    assert a.entry.xeris_note() == "Changed here: taps on the scoreboard no longer change these."
    a.entry.use_taps()
    assert a.entry.draft.xeris == [2, 0] and a.entry.xeris_note() == "Filled in from the taps during the hand."
    for tap in (lambda m: m.set_most(0), lambda m: m.set_counting(0, 12), lambda m: m.set_ten(0),
                lambda m: m.set_two(1)):
        tap(a.entry)
    a.entry.save()                                    # saved on the match as it is now: B's taps are in it
    assert a.scoreboard.match.hands[0].xeris == (2, 0)
