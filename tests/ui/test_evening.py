"""What a full evening of play tripped over (issue 18), in the view model: a new match never silently
replaces the one in play, each table size keeps its rules, and the rest, without a page."""

from companion.i18n import Translator
from companion.ui.viewmodel import AppModel, Screen

from .vm import enter, start


def linked(services):
    """Two phones on one store, each told of the other's writes, as the page's pub/sub does."""
    a, b = AppModel(services), AppModel(services)
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])
    b.session.announce = lambda m: a.scoreboard.refresh(m["match"], m["replaces"])
    return a, b


# --- 1. a new match while one is in play --------------------------------------------------------------
def test_new_match_while_one_is_in_play_asks_first_and_continue_it_goes_back_to_it(app):
    start(app)
    enter(app)                                           # 16 : 9
    app.home()
    app.setup.open()
    assert app.screen is Screen.HOME and app.session.question.ident == "confirm-replace"
    assert "Anna · Ben, 16 : 9 (1 hand played)" in app.session.question.text
    assert app.session.question.no_label == "Continue it"
    app.cancel()                                         # "Continue it"
    assert app.screen is Screen.SCOREBOARD and app.scoreboard.standing.totals == (16, 9)
    assert not app.scoreboard.record.abandoned


def test_stop_it_and_start_anew_stops_the_old_match_only_when_the_new_one_starts(app, services):
    start(app)
    enter(app)
    old = app.scoreboard.record.id
    app.home()
    app.setup.open()
    app.confirm()                                        # "Stop it, start anew": the form, names prefilled
    assert app.screen is Screen.SETUP and app.setup.form.names[:2] == ["Anna", "Ben"]
    assert not services.table.get(old).abandoned         # backing out now would leave it as it was
    app.setup.start()
    assert app.screen is Screen.SCOREBOARD and app.scoreboard.record.id != old
    assert app.scoreboard.standing.totals == (0, 0) and services.table.get(old).abandoned


def test_a_match_changed_on_another_phone_after_the_answer_is_asked_about_again(services):
    a, b = linked(services)
    start(a)
    b.scoreboard.open()
    a.home()
    a.setup.open()
    a.confirm()                                          # A chose to stop it at 0 : 0 ...
    enter(b)                                             # ... B saves a hand meanwhile
    a.setup.start()
    assert a.screen is Screen.SETUP and a.session.question.ident == "confirm-replace"
    assert "changed on another phone" in a.session.question.text and "16 : 9" in a.session.question.text
    assert not services.table.get(b.scoreboard.record.id).abandoned
    a.confirm()                                          # asked about the match as it is now: yes
    assert a.screen is Screen.SCOREBOARD and a.scoreboard.standing.totals == (0, 0)


def test_the_other_phone_is_told_which_match_was_stopped_for_the_new_one(services):
    a, b = linked(services)
    start(a)
    enter(a)
    b.scoreboard.open()
    a.home()
    a.setup.open()
    a.confirm()
    a.setup.start()
    assert b.scoreboard.record.id == a.scoreboard.record.id
    assert b.session.notice.text.startswith("Another phone stopped the match Anna · Ben (16 : 9, 1 hand played)")


def test_a_stop_asked_before_another_phone_saved_a_hand_stops_nothing(services):
    a, b = linked(services)
    start(a)
    b.scoreboard.open()
    a.scoreboard.ask_abandon()
    enter(b)
    a.confirm()
    assert not services.table.get(a.scoreboard.record.id).abandoned
    assert "changed on another phone" in a.session.notice.text


# --- 5. each table size its own rules -----------------------------------------------------------------
def test_each_table_size_remembers_the_rules_it_was_last_played_with(app):
    start(app, names=("Anna", "Ben", "Chris"), layout="three")          # greek-online, the usual for three
    app.scoreboard.ask_abandon()
    app.confirm()
    app.setup.open()
    assert app.setup.form.layout == "three" and app.setup.form.preset == "greek-online"
    app.setup.set_layout("two")                          # never played by two here: the usual, not greek-online
    assert app.setup.form.preset == "classic"
    app.setup.set_preset("plain")
    for i, name in enumerate(("Anna", "Ben")):
        app.setup.set_name(i, name)
    app.setup.start()
    app.scoreboard.ask_abandon()
    app.confirm()
    app.setup.open()
    assert app.setup.form.layout == "two" and app.setup.form.preset == "plain"
    app.setup.set_layout("three")
    assert app.setup.form.preset == "greek-online"


def test_going_back_to_a_table_size_in_the_form_gives_back_what_was_chosen_for_it(app):
    app.setup.open()
    app.setup.set_preset("plain")
    app.setup.step_hands(2)                              # 9 hands
    app.setup.set_layout("partners")
    assert app.setup.form.preset == "partnership"
    app.setup.set_layout("two")
    assert (app.setup.form.preset, app.setup.form.goal_kind, app.setup.form.hands) == ("plain", "hands", 9)


# --- 7. what a hand will do, said before it is saved ---------------------------------------------------
def fill(app, most=0, counting=(0, 12), ten=0, two=1):
    app.scoreboard.end_hand()
    app.entry.set_most(most)
    app.entry.set_counting(*counting)
    app.entry.set_ten(ten)
    app.entry.set_two(two)


def test_the_preview_says_when_the_hand_ends_the_match_and_who_wins_it(app):
    start(app, goal={"goal_kind": "hands", "hands": 1})
    fill(app)
    assert app.entry.preview().text == ("Anna wins the match — Anna: hand 16, total 0 → 16 · "
                                        "Ben: hand 9, total 0 → 9")


def test_the_preview_the_saved_hand_and_the_history_say_when_the_match_goes_on_to_the_extension(app):
    app.setup.open()
    for i, name in enumerate(("Anna", "Ben")):
        app.setup.set_name(i, name)
    app.setup.set_goal_kind("custom")
    for _ in range(14):
        app.setup.step_target(-10)                       # first to 11, then 111
    app.setup.start()
    fill(app, counting=(0, 10))                          # 14 : 11, both pass 11 in the same hand
    assert app.entry.preview().text.startswith("two sides pass 11 together: played on to 111 — ")
    app.entry.save()
    assert app.scoreboard.saved_line() == "Hand 1 saved: 14 : 11. Anna won it. Both passed 11: played on to 111."
    app.scoreboard.ask_abandon()
    app.confirm()
    assert " · to 111 · " in app.history.rows()[0].detail  # the home screen's recent matches are these rows


# --- 8. number fields explain instead of filtering ------------------------------------------------------
def test_letters_a_minus_and_a_decimal_are_refused_in_words_naming_the_field_typed_in(app):
    start(app)
    app.scoreboard.end_hand()
    app.entry.toggle_counts()
    for text in ("abc", "-5", "3.5"):
        app.entry.type_cards(1, text)
        assert app.entry.draft.cards.shown(1) == text                    # kept as typed, not changed
        assert app.entry.save_reason() == (f"Ben's captured cards: “{text}” is not a whole number. "
                                           "Type a number from 0 to 52.")
    app.entry.type_cards(1, "60")
    assert app.entry.save_reason() == "Ben's captured cards: 60, but a deck has 52."
    assert app.entry.draft.cards.bad() == [1] and app.entry.draft.cards.shown(0) == ""   # Anna's not blamed


def test_three_sides_typed_over_the_deck_are_named_not_the_side_filled_in(app):
    start(app, names=("Anna", "Ben", "Chris"), layout="three")
    app.scoreboard.end_hand()
    app.entry.toggle_counts()
    app.entry.type_cards(0, "30")
    app.entry.type_cards(1, "30")
    assert app.entry.save_reason() == "Anna and Ben: 60 captured cards together, but a deck has 52."
    assert app.entry.flagged("cards") == set() and app.entry.draft.cards.bad() == [0, 1]


def test_tie_after_typed_counts_asks_before_forgetting_them_and_keeps_counts_that_agree(app):
    start(app)
    app.scoreboard.end_hand()
    app.entry.toggle_counts()
    app.entry.type_cards(0, "30")
    app.entry.set_most(0)                                # the counts say so already: nothing asked, kept
    assert app.session.question is None and app.entry.draft.cards.values == [30, 22]
    app.entry.set_most(-1)                               # Tie: asked, naming what would be forgotten
    assert app.session.question.text == ("Forget the captured cards typed (Anna 30 · Ben 22) and say only who "
                                         "has most cards?")
    app.cancel()
    assert app.entry.draft.show_counts and app.entry.draft.cards.values == [30, 22]
    app.entry.set_most(-1)
    app.confirm()
    assert not app.entry.draft.show_counts and app.entry.draft.majority() == -1


# --- 9. small things -----------------------------------------------------------------------------------
def test_a_tied_hand_is_said_as_a_sentence_after_the_score(app):
    start(app)
    enter(app, most=-1, counting=(0, 10), ten=0, two=1)       # 10 + the 10♦'s 1 : 10 + the 2♣'s 1
    assert app.scoreboard.saved_line() == "Hand 1 saved: 11 : 11. Nobody won it."


def test_greek_counting_title_has_no_stray_dot_and_labels_count_in_the_singular(app):
    start(app)
    app.scoreboard.end_hand()
    app.session.lang = "el"
    assert app.entry.counting_title() == "Μετρημένα χαρτιά (A K Q J 10, 20 στην τράπουλα)"
    assert Translator("en").n("entry.counting_label", 1, side="Anna") == "Anna: 1 counting card"


def test_a_past_match_played_to_its_end_offers_a_rematch_asking_first_about_a_match_in_play(app, services):
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)                                           # over: Anna wins
    done = app.scoreboard.record.id
    app.home()
    start(app, names=("Chris", "Dora"))
    playing = app.scoreboard.record.id
    app.record.open(done)
    assert app.record.can_rematch
    app.record.rematch()
    assert "Chris · Dora, 0 : 0" in app.session.question.text and not services.table.get(playing).abandoned
    app.confirm()
    assert app.screen is Screen.SCOREBOARD and app.scoreboard.side_names == ["Anna", "Ben"]
    assert services.table.get(playing).abandoned and app.scoreboard.standing.totals == (0, 0)


# --- 6. partnerships: a xeri corrected on the form names its player ---------------------------------------
def partnership(app):
    start(app, names=("Nikos", "Sofia", "Eleni", "Petros"), layout="partners")   # seats: Nikos, Eleni, Sofia, Petros


def test_a_partnership_hand_gives_xeris_per_player_and_a_correction_names_who_made_it(app, services):
    from companion.engine.live import TapKind
    partnership(app)
    app.scoreboard.tap(2, TapKind.XERI)                  # Sofia's xeri, tapped live
    fill(app, most=0, counting=(0, 12), ten=0, two=1)
    assert [(r.name, r.xeris) for r in app.entry.xeri_rows()] == [("Nikos", 0), ("Eleni", 0), ("Sofia", 1),
                                                                   ("Petros", 0)]
    app.entry.step(TapKind.XERI, 0, 1)                   # one tap: Nikos made a xeri nobody tapped
    assert app.entry.draft.xeris == [2, 0]
    app.entry.save()
    record = services.table.get(app.scoreboard.record.id)
    assert sorted((t.seat, t.kind.value) for t in record.taps_of(0)) == [(0, "xeri"), (2, "xeri")]
    app.scoreboard.ask_abandon()
    app.confirm()
    nikos = next(p.id for p in services.library.players() if p.name == "Nikos")
    app.player.open(nikos)
    figures = {f.key: f.value for f in app.player.page.figures}
    assert figures["stat-own-xeris"] == "1 of 2"       # Nikos's own and Sofia's add up to the team's
    assert "saved without saying who made" not in app.player.page.team_note


def test_the_player_page_says_why_a_partners_own_xeris_do_not_add_up_to_the_teams(app, services, store):
    from dataclasses import replace

    from companion.engine.live import TapKind
    partnership(app)
    fill(app, most=0, counting=(0, 12), ten=0, two=1)
    app.entry.step(TapKind.XERI, 2, 1)
    app.entry.save()
    record = services.table.get(app.scoreboard.record.id)
    store.put(replace(record, hand_taps=()), services.table.standing(record))  # as a hand imported
    app.scoreboard._fresh()
    app.scoreboard.ask_abandon()
    app.confirm()
    nikos = next(p.id for p in services.library.players() if p.name == "Nikos")
    app.player.open(nikos)
    assert {f.key: f.value for f in app.player.page.figures}["stat-own-xeris"] == "0 of 1"
    assert app.player.page.team_note.endswith("1 of the team's xeris was saved without saying who made it (a hand "
                                              "saved before the app kept that, or imported), so the partners' own "
                                              "add up to 0 of 1.")
