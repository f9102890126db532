"""The view model, without a page: every intent the screens send, and what the screens then show."""

from companion.engine import Status
from companion.ui.draft import TIE
from companion.ui.state import AppState


def start(state, names=("Anna", "Ben"), layout="two", preset=None, goal=None):
    state.new_match()
    if layout != "two":
        state.setup_layout(layout)
    if preset:
        state.setup_preset(preset)
    for i, n in enumerate(names):
        state.setup_name(i, n)
    if goal:
        for k, v in goal.items():
            state.setup_option(k, v)
    state.start_match()
    assert state.screen == "match", state.notice


def enter(state, most=0, counting=(0, 12), ten=0, two=1, xeris=None):
    state.end_hand()
    assert state.screen == "entry"
    state.draft_tap("set_most", most)
    state.draft_tap("set_counting", *counting)
    state.draft_tap("set_holder", "ten", ten)
    state.draft_tap("set_holder", "two", two)
    for side, n in enumerate(xeris or ()):
        for _ in range(n):
            state.draft_tap("step", "xeris", side, 1)
    assert state.save_reason() is None, state.save_reason()
    state.save_hand()
    assert state.screen == "match"


def test_a_new_match_opens_the_scoreboard_with_the_first_dealer_named(state):
    start(state)
    assert state.side_names == ["Anna", "Ben"]
    assert state.notice == "Match started: Anna deals first."
    assert state.standing.totals == (0, 0)


def test_a_match_needs_a_different_name_for_every_player(state):
    state.new_match()
    state.setup_name(0, "Anna")
    state.setup_name(1, "anna")
    state.start_match()
    assert state.screen == "setup" and state.notice == "Every player needs a different name."


def test_live_taps_prefill_the_entry_and_are_cleared_by_save(state):
    start(state)
    state.tap_xeri(0, "xeri")
    state.tap_xeri(1, "jack_xeri")
    state.tap_xeri(1, "xeri")
    state.undo_tap()
    assert state.seat_count(1, "xeri") == 0 and state.seat_count(1, "jack_xeri") == 1
    state.end_hand()
    assert state.draft.xeris == [1, 0] and state.draft.jack_xeris == [0, 1]
    state.back()
    enter(state)
    assert state.standing.totals == (26, 29)
    assert state.record.live.taps == ()
    assert state.flash == 0


def test_save_stays_disabled_with_the_reason_in_words(state):
    start(state)
    state.end_hand()
    assert state.save_reason() == "Say who has most cards (or a tie)."
    state.draft_tap("set_most", TIE)
    state.draft_tap("set_counting", 0, 12)
    state.draft_tap("set_holder", "ten", 0)
    assert state.save_reason() == "Say who took the 2♣."
    state.draft_tap("set_holder", "two", 1)
    for _ in range(3):
        state.draft_tap("step", "jack_xeris", 0, 1)
    assert state.save_reason() == "3 jack xeris in one hand: four jacks allow at most 2."
    state.save_hand()
    assert state.screen == "entry" and state.record.match.hands == ()


def test_a_race_to_151_is_extended_to_251_and_then_won(state):
    start(state)
    enter(state)
    enter(state, xeris=(6, 7))
    assert state.standing.totals == (92, 88) and state.standing.target == 151
    enter(state, xeris=(6, 7))
    assert state.standing.totals == (168, 167)
    assert state.standing.target == 251 and "251" in state.goal_line()
    enter(state, xeris=(7, 0))
    assert state.standing.status is Status.WON and state.standing.winner == 0


def test_undo_and_edit_ask_first_and_change_the_totals(state):
    start(state)
    enter(state)
    enter(state, most=1, counting=(0, 5), ten=1, two=1)
    state.ask("undo")
    assert state.confirm == ("undo",)
    state.confirmed()
    assert state.standing.totals == (16, 9)
    state.ask("edit", 0)
    state.confirmed()
    assert state.screen == "entry" and state.editing == 0
    state.draft_tap("set_counting", 0, 15)
    state.save_hand()
    assert state.standing.totals == (19, 6)
    assert [t.action for t in state.record.trail] == ["undo", "edit"]


def test_a_partnership_match_seats_partners_opposite_and_passes_the_deal(state):
    start(state, names=("Nikos", "Sofia", "Eleni", "Petros"), layout="partners",
          goal={"goal_kind": "hands", "hands": 2})
    assert state.side_names == ["Nikos & Sofia", "Eleni & Petros"]
    seats = [seat.player for seat in state.match.seats]
    assert seats == ["Nikos", "Eleni", "Sofia", "Petros"]
    state.tap_xeri(1, "xeri")  # Eleni
    enter(state, most=1, counting=(1, 11), ten=1, two=1)
    assert state.standing.totals == (9, 26)
    assert state.match.seats[state.standing.next_dealer].player == "Eleni"
    enter(state, most=1, counting=(1, 11), ten=1, two=1)
    assert state.standing.status is Status.WON and state.standing.winner == 1


def test_the_unfinished_match_and_its_live_taps_come_back_in_a_new_session(store):
    first = AppState(store)
    start(first)
    first.tap_xeri(0, "xeri")
    again = AppState(store)
    assert again.record.id == first.record.id
    assert again.seat_count(0, "xeri") == 1


def test_rematch_keeps_the_sides_and_moves_the_deal_on(state):
    start(state, goal={"goal_kind": "hands", "hands": 1})
    enter(state)
    assert state.standing.is_over
    state.rematch()
    assert state.side_names == ["Anna", "Ben"] and state.match.first_dealer == 1 and state.match.hands == ()


def test_share_text_is_the_plain_score_sheet(state):
    start(state)
    enter(state)
    text = state.share_text()
    assert "Hand 1 (Anna deals)" in text and "Running total" in text


def test_language_and_theme_are_remembered(store):
    s = AppState(store)
    s.set_language("el")
    s.set_theme("dark")
    again = AppState(store)
    assert again.lang == "el" and again.theme == "dark"
    assert again.tr("home.new_match") == "Νέα παρτίδα"


def test_known_players_are_suggested_by_what_was_typed(state):
    start(state)
    state.new_match()
    state.setup_name(0, "")
    state.setup_name(1, "")
    assert state.name_suggestions("a") == ["Anna"]
    state.setup_name(0, "Anna")
    assert state.name_suggestions("") == ["Ben"]


def test_the_rules_screen_describes_the_rule_set_of_this_match(state):
    start(state)
    state.show_rules("current")
    assert state.shown_rules() == state.match.rules


def test_every_intent_moves_the_revision_on_so_the_page_redraws(state):
    state.new_match()
    before = state.revision
    state.setup_name(0, "Zoe")  # changes only a nested value
    assert state.revision == before + 1


def test_two_sessions_tapping_xeris_on_one_match_keep_both_taps(store):
    a = AppState(store)
    start(a)
    b = AppState(store)          # a second phone opens the app on the same match
    b.continue_match()
    a.tap_xeri(0, "xeri")
    b.tap_xeri(1, "xeri")
    assert store.get(a.record.id).live.per_side([0, 1], 2) == ((1, 1), (0, 0))


def test_a_match_deleted_by_another_session_brings_this_one_home_with_a_message(store):
    a, b = AppState(store), AppState(store)
    start(a)
    b.delete_match(a.record.id)
    a.tap_xeri(0, "xeri")
    assert a.screen == "home" and a.record is None and "could not be opened" in a.notice


def test_a_question_left_open_does_not_follow_into_the_rematch(state):
    start(state, goal={"goal_kind": "hands", "hands": 1})
    enter(state)
    state.ask("edit", 0)
    state.rematch()
    assert state.confirm is None and state.flash is None and state.breakdown is None


def test_the_last_hand_can_be_undone_even_after_it_decided_the_match(state):
    start(state, goal={"goal_kind": "hands", "hands": 1})
    enter(state)
    assert state.standing.is_over
    state.ask("undo")
    state.confirmed()
    assert not state.standing.is_over and state.match.hands == ()


def test_switching_layout_shows_the_names_that_will_be_used(state):
    state.new_match()
    state.setup_name(0, "Zoe")
    state.setup_name(1, "Yan")
    state.setup_layout("partners")
    assert state.setup.names[:2] == ["Zoe", "Yan"] and state.setup.player_names()[:2] == ["Zoe", "Yan"]


def test_three_players_are_only_offered_rule_sets_for_three(state):
    state.new_match()
    state.setup_layout("three")
    assert state.setup.preset == "greek-online" and state.setup.seats == 3
    state.setup_layout("partners")
    state.setup_layout("three")
    assert state.setup.preset == "greek-online" and not state.setup.rules().partnerships


def test_importing_files_from_another_device_says_what_was_new_skipped_and_unreadable(tmp_path, state):
    from companion.storage import Store

    with Store(tmp_path / "other") as other:
        s = AppState(other)
        start(s, goal={"goal_kind": "hands", "hands": 1})
        enter(s)
        exported = other.export_match(s.record.id).encode("utf-8")
    state.import_files([("anna-ben.json", exported), ("again.json", exported), ("bad.json", b"{nope")])
    assert state.notice.startswith("1 match imported. 1 was already here. 1 file could not be read (bad.json:")
    assert [i.side_names for i in state.history_items()] == [("Anna", "Ben")]


def test_a_change_on_one_phone_is_announced_and_shown_on_the_other(store):
    a = AppState(store)
    start(a)
    b = AppState(store)
    b.continue_match()
    a.announce = b.refresh            # what the page's pub/sub does between browser sessions
    a.tap_xeri(0, "xeri")
    assert b.seat_count(0, "xeri") == 1
    b.end_hand()
    a.end_hand()
    enter_taps = (("set_most", 0), ("set_counting", 0, 12), ("set_holder", "ten", 0), ("set_holder", "two", 1))
    for tap in enter_taps:
        a.draft_tap(*tap)
    a.save_hand()
    assert b.standing.totals == (26, 9) and b.notice.startswith("This match was just changed on another device")
