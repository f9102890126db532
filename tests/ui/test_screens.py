"""Whole flows at the table, tapped on the app's own screens without a browser (tests/screens.py): the
control with each identifier is on screen, enabled, and sends the intent a person expects, and the screen
then says what the match became. These were browser tests (tests/e2e) that proved nothing a browser adds;
what only a browser shows stays there (docs/decisions.md lists which test proves what now)."""

from __future__ import annotations

import pytest

from companion.ui.viewmodel import AppModel
from tests.flows import enter_hand, fill_partnership, new_match, reopen, start_two_player_match, total
from tests.screens import ScreenPhone
from tests.seed import Seeded, seed_history


@pytest.fixture
def app(services) -> ScreenPhone:
    return ScreenPhone(AppModel(services))


@pytest.fixture
def table(services):
    """`table()`: another phone on the same match store, told of every other phone's change as the page's
    pub/sub tells it (`PageAdapter.on_message` → `refresh`)."""
    phones: list[ScreenPhone] = []

    def another() -> ScreenPhone:
        phone = ScreenPhone(AppModel(services))
        phones.append(phone)
        phone.vm.session.announce = lambda message, me=phone: [
            p.vm.scoreboard.refresh(message["match"], message.get("replaces")) for p in phones if p is not me]
        return phone

    return another


# --- from test_flows -----------------------------------------------------------------------------------------

def test_a_classic_match_to_151_with_live_xeris_a_jack_xeri_and_the_251_extension(app):
    start_two_player_match(app)
    app.see("first to 151")
    app.tap("xeri-0")
    app.tap("jack-xeri-1")
    app.see("Jack xeri for Ben (now 1)")
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    assert (total(app, 0), total(app, 1)) == (26, 29)
    enter_hand(app, xeris_plus=(6, 6))            # 26+76, 29+69
    assert (total(app, 0), total(app, 1)) == (102, 98)
    enter_hand(app, xeris_plus=(6, 6))            # both pass 151 in the same hand
    assert (total(app, 0), total(app, 1)) == (178, 167)
    app.see("played on to 251")
    app.see("Both passed 151: played on to 251")   # the sheet marks the hand that did it
    enter_hand(app, xeris_plus=(6, 0), then="winner")
    app.see("Anna wins!")
    assert total(app, 0) == 254


def test_a_four_player_partnership_match_over_an_agreed_number_of_hands(app):
    fill_partnership(app)
    app.tap("goal-hands")
    for _ in range(5):
        app.tap("hands-minus")   # 7 → 2 hands
    app.see("2 hands, most hands won")
    app.tap("start-match")
    app.see("Nikos & Sofia")
    app.see("Nikos deals, Eleni leads")
    app.tap("xeri-1")            # Eleni (team 2) sits second
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1)
    app.see("Eleni deals, Sofia leads")
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1, then="winner")
    app.see("Eleni & Petros win!")
    assert (total(app, 0), total(app, 1)) == (18, 42)


def test_an_impossible_hand_is_explained_and_save_cannot_be_tapped(app):
    start_two_player_match(app)
    enter_hand(app, save=False)
    app.tap("open-xeris")
    for _ in range(3):
        app.tap("jack-xeris-1-plus")
    app.see("3 jack xeris in one hand: four jacks allow at most 2.")
    assert "3 jack xeris" in app.text_of("status")
    assert app.is_disabled("save-hand")
    with pytest.raises(AssertionError, match="disabled"):
        app.tap("save-hand")
    app.tap("back")
    app.see("No hands yet")
    assert (total(app, 0), total(app, 1)) == (0, 0)


def test_undo_and_edit_a_hand_change_the_totals(app):
    start_two_player_match(app)
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    enter_hand(app, most=1, counting=(0, 5), ten=1, two=1)
    assert (total(app, 0), total(app, 1)) == (16 + 5, 9 + 3 + 15 + 1 + 1)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.see("Hand 2 was undone")
    app.tap("discard-reopened")
    assert (total(app, 0), total(app, 1)) == (16, 9)
    app.tap("hand-0")
    app.tap("edit-hand-0")
    app.tap("confirm-yes")
    app.tap("counting-0-15")
    app.tap("save-hand")
    assert (total(app, 0), total(app, 1)) == (3 + 15 + 1, 5 + 1)
    app.see("Hand 1 changed: 16 : 9 → 19 : 6.")       # old → new, in the strip


def test_undo_reopens_the_hand_as_saved_with_its_taps_and_saving_it_corrected_puts_it_back(app):
    """Undo last hand opens that hand in the entry, filled in as saved, its live taps back on the scoreboard:
    one number corrected and Save puts it back; the trail says it was undone and saved again, corrected."""
    start_two_player_match(app)
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    app.tap("xeri-1")
    enter_hand(app, most=1, counting=(0, 5), ten=1, two=1)
    assert (total(app, 0), total(app, 1)) == (21, 9 + 3 + 15 + 1 + 1 + 10)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.see("Hand 2 was undone: correct it and save it again, or discard it.")
    assert [t.seat for t in app.vm.scoreboard.record.live.taps] == [1]   # the xeri tapped for it, back
    assert app.vm.entry.draft.xeris == [0, 1] and not app.vm.entry.draft.xeris_touched
    app.tap("counting-0-6")                          # the one number that was wrong
    app.tap("save-hand")
    assert (total(app, 0), total(app, 1)) == (16 + 6, 9 + 3 + 14 + 1 + 1 + 10)
    record = app.vm.scoreboard.record
    assert [t.action.value for t in record.trail] == ["undo", "redo"]
    assert [t.seat for t in record.taps_of(1)] == [1]
    assert "redo-hand" not in app.nodes()


def test_back_from_a_reopened_hand_keeps_it_for_end_hand_and_redo_puts_it_back_while_nothing_else_happened(app):
    start_two_player_match(app)
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    enter_hand(app, most=1, counting=(0, 5), ten=1, two=1)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.tap("counting-0-9")
    app.tap("back")                                  # to the scoreboard: the form is kept for End hand
    assert (total(app, 0), total(app, 1)) == (16, 9)
    app.tap("end-hand")
    app.see("Hand 2 was undone")                     # the same reopened form, with the number changed
    assert app.vm.entry.draft.counting.values == [9, 11]
    app.tap("discard-reopened")
    app.see("Hand 2 was discarded")
    assert (total(app, 0), total(app, 1)) == (16, 9)
    app.tap("redo-hand")                              # the hand as it was saved, not the form's change
    assert (total(app, 0), total(app, 1)) == (21, 9 + 3 + 15 + 1 + 1)
    assert [t.action.value for t in app.vm.scoreboard.record.trail] == ["undo", "redo"]
    app.see("Hand 2 was put back as it was.")
    app.tap("end-hand")                               # nothing of the discarded form is left for hand 3
    assert app.vm.entry.reopened is None and app.vm.entry.draft.counting.values != [9, 11]
    app.tap("back")
    # Redo is there only while nothing else happened: a tap after the undo takes it away.
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.tap("discard-reopened")
    assert "redo-hand" in app.nodes()
    app.tap("xeri-0")
    assert "redo-hand" not in app.nodes()


def test_switching_to_greek_shows_greek_labels(app):
    app.tap("open-settings")
    app.tap("lang-el")
    app.see("Γλώσσα")
    app.tap("back")
    app.see("Νέα παρτίδα")


def test_a_typical_hand_takes_five_taps_from_end_hand_to_saved(app):
    start_two_player_match(app)
    app.tap("xeri-0")
    app.tap("end-hand")
    before = app.taps
    app.tap("most-0")          # who has most cards
    app.tap("counting-0-11")   # counting cards of one side; the other is filled in
    app.tap("ten-1")           # who took the 10♦
    app.tap("two-0")           # who took the 2♣
    app.see("Anna: hand 25, total 0 → 25 · Ben: hand 10, total 0 → 10")   # the points, before Save
    app.tap("save-hand")       # and Save
    app.see("Hand 1 saved")
    assert app.taps - before == 5
    assert (total(app, 0), total(app, 1)) == (3 + 11 + 1 + 10, 9 + 1)


def test_counted_piles_fill_in_the_other_side_and_show_in_the_breakdown(app):
    start_two_player_match(app)
    app.tap("end-hand")
    app.tap("toggle-counts")
    app.type("cards-0", "30")
    app.see("filled in")
    for ident in ("counting-0-12", "ten-0", "two-1"):
        app.tap(ident)
    app.tap("save-hand")
    app.see("Hand 1 saved")
    app.tap("status")                           # the hand just saved, line by line
    app.wait_id("breakdown")
    app.see("most cards (30 of 52): 3 points")
    app.tap("detail-ok")
    app.wait_gone("breakdown")
    assert (total(app, 0), total(app, 1)) == (16, 9)


def test_two_phones_at_one_table_see_each_others_taps(table):
    app, other = table(), table()
    start_two_player_match(app)
    reopen(other)
    app.tap("xeri-0")
    other.see("Xeri for Anna (now 1)")      # without a tap on the second phone
    other.tap("jack-xeri-1")
    app.see("Jack xeri for Ben (now 1)")


# --- from test_evening ---------------------------------------------------------------------------------------

def test_new_match_asks_before_it_stops_the_match_in_play_and_the_other_phone_is_told(table):
    a, b = table(), table()
    start_two_player_match(a)
    enter_hand(a)                                        # 16 : 9
    reopen(b)
    a.tap("back")
    a.tap("new-match")                                   # a match is in play: asked first
    a.see("This phone's match is still in play: Anna · Ben, 16 : 9 (1 hand played)")
    a.tap("confirm-no")                                  # "Continue it"
    a.wait_id("end-hand")
    assert (total(a, 0), total(a, 1)) == (16, 9)
    a.tap("back")
    a.tap("new-match")
    a.tap("confirm-yes")                                 # "Stop it, start anew": the form, names prefilled
    assert a.wait_id("name-0").value == "Anna"
    a.tap("start-match")
    assert (total(a, 0), total(a, 1)) == (0, 0)
    b.see("Another phone stopped the match Anna · Ben (16 : 9, 1 hand played) and started a new one")
    assert (total(b, 0), total(b, 1)) == (0, 0)


def test_each_table_size_keeps_its_own_rules_and_the_form_gives_back_a_choice(app):
    new_match(app)
    app.tap("layout-three")
    for i, name in enumerate(["Anna", "Ben", "Chris"]):
        app.type(f"name-{i}", name)
    app.see("Greek online · first to 151, then 251")
    app.tap("start-match")
    app.tap("back")
    new_match(app)
    app.tap("layout-two")                                # two never played here: their usual rules
    app.see("Classic · first to 151, then 251")
    app.tap("preset-plain")
    app.tap("layout-partners")
    app.see("Partnership")
    app.tap("layout-two")                                # back: the choice made for two is given back
    app.see("Plain · 7 hands")
    app.tap("start-match")
    app.tap("back")
    new_match(app)                                       # the last match was two players on Plain
    app.see("Plain · 7 hands")
    app.tap("layout-three")
    app.see("Greek online · first to 151, then 251")


def test_the_preview_and_the_saved_hand_say_the_match_goes_on_and_the_history_says_to_what(app):
    new_match(app)
    app.type("name-0", "Anna")
    app.type("name-1", "Ben")
    app.tap("goal-custom")
    for _ in range(14):
        app.tap("target-minus")                          # first to 11, then 111
    app.tap("start-match")
    enter_hand(app, counting=(0, 10), save=False)        # 14 : 11: both pass 11 in this hand
    assert "two sides pass 11 together: played on to 111" in app.text_of("status")
    app.tap("save-hand")
    assert "Both passed 11: played on to 111" in app.text_of("status")
    app.tap("abandon-match")
    app.tap("confirm-yes")
    app.wait_id("new-match")
    app.see("to 111 · abandoned")                        # the home screen's recent matches


def test_a_count_that_cannot_be_right_is_kept_as_typed_and_said_and_tie_asks_before_forgetting(app):
    start_two_player_match(app)
    app.tap("end-hand")
    app.tap("toggle-counts")
    app.type("cards-1", "-5")                            # kept as typed: no filter turns it into 5
    app.see("Ben's captured cards: “-5” is not a whole number. Type a number from 0 to 52.")
    app.type("cards-1", "3.5")
    app.see("Ben's captured cards: “3.5” is not a whole number")
    app.type("cards-1", "60")
    app.see("Ben's captured cards: 60, but a deck has 52.")
    app.type("cards-1", "22")
    app.tap("most-tie")                                  # the counts say Anna: asked before they go
    app.see("Forget the captured cards typed (Anna 30 · Ben 22) and say only who has most cards?")
    app.tap("confirm-no")
    assert app.wait_id("cards-1").value == "22"
    app.tap("most-tie")
    app.tap("confirm-yes")
    app.wait_gone("cards-1")


def test_a_partnership_xeri_corrected_on_the_form_names_its_player_and_the_player_page_adds_up(app):
    fill_partnership(app)
    app.tap("start-match")
    app.tap("xeri-2")                                    # Sofia's (seats: Nikos, Eleni, Sofia, Petros)
    enter_hand(app, save=False)
    app.tap("open-xeris")
    app.see("Xeris of Nikos")                            # a row per player, not per team
    app.tap("xeris-0-plus")                              # one tap: Nikos made one nobody tapped
    app.tap("save-hand")
    app.tap("abandon-match")
    app.tap("confirm-yes")
    app.tap("open-history")
    app.tap("player-Nikos")
    assert "1 of 2" in app.text_of("stat-own-xeris")    # Nikos's own and Sofia's add up to the team's 2
    app.see("the partners' own add up to the team's")


# --- from test_history ---------------------------------------------------------------------------------------

@pytest.fixture
def seeded(tmp_path) -> Seeded:
    return seed_history(tmp_path / "history")


@pytest.fixture
def past(seeded) -> ScreenPhone:
    """A phone on the app opened on the seeded history."""
    from companion.service import Services
    from companion.storage import Store

    store = Store(seeded.folder)
    yield ScreenPhone(AppModel(Services.over(store)))
    store.close()


def rows(app: ScreenPhone) -> set[str]:
    return {ident.removeprefix("history-") for ident in app.nodes() if ident.startswith("history-")}


def test_the_history_lists_finished_and_abandoned_matches_and_filters_them(past, seeded):
    app = past
    app.see("Recent matches")                          # the home screen shows three of them
    assert len(rows(app)) == 3 and rows(app) <= set(seeded.all)
    app.tap("open-history")
    assert rows(app) == set(seeded.all)
    for text in ("Anna · Ben 26 : 29", "Ben won", "Ben · Chris 16 : 9", "abandoned", "Reds · Blues 27 : 18"):
        app.see(text)
    app.tap("filter-player-Chris")                     # in a partnership too
    assert rows(app) == {seeded.anna_chris, seeded.abandoned, seeded.partners}
    app.tap("filter-rules-partnership")                # both filters at once
    assert rows(app) == {seeded.partners}
    app.tap("filter-player-Chris")                     # tapped again: off
    assert rows(app) == {seeded.partners}
    app.tap("filter-rules-classic")                    # another rule set replaces the first
    assert rows(app) == {seeded.anna_ben, seeded.anna_chris, seeded.abandoned}
    app.tap("filter-player-Dora")
    assert rows(app) == set()
    app.see("No finished matches yet.")
    app.tap("filter-rules-classic")
    assert rows(app) == {seeded.partners}
    app.tap("filter-player-Dora")
    assert rows(app) == set(seeded.all)


def test_a_player_page_shows_figures_and_charts(past):
    app = past
    app.tap("open-history")
    app.tap("player-Anna")
    assert "matches: 3" in app.text_of("stat-matches")   # the abandoned match is Ben and Chris's
    assert "won: 1" in app.text_of("stat-won")           # the partnership, with Dora
    assert "win rate: 33%" in app.text_of("stat-win-rate")
    assert "hands won: 1/3" in app.text_of("stat-hands-won")
    assert "best hand: 27" in app.text_of("stat-best")
    app.wait_id("points-chart")
    app.wait_id("wins-chart")
    app.see("Head to head")
    app.see("Partners")
    app.see("Anna & Dora")
    app.tap("back")
    app.tap("player-Ben")
    assert "matches: 2" in app.text_of("stat-matches")
    assert "won: 1" in app.text_of("stat-won")


def test_every_xeri_and_jack_xeri_button_names_its_player(app):
    # The jack-xeri buttons carried only their side's colour: partners had two buttons alike.
    fill_partnership(app)
    app.tap("start-match")
    for seat, player in enumerate(("Nikos", "Eleni", "Sofia", "Petros")):   # partners sit opposite
        shown = app.text_of(f"jack-xeri-{seat}").split(")", 1)[1]   # what is drawn, after the reader's label
        assert shown.split() == [player, "Jack", "xeri", "0"], shown
