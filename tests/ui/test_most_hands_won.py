"""The scoreboard over an agreed number of hands: a side sure to win before the last hand (finish now, or play
on), and a drawn match's deciding hand, said straight to the view models."""

from companion.engine import Status
from companion.engine.live import TapKind
from companion.ui.viewmodel import Screen

from .vm import enter, start

BEN_WINS = dict(most=1, counting=(1, 12), ten=1, two=0)


def test_a_side_sure_to_win_is_said_and_finish_now_ends_the_match_won(app):
    start(app, goal={"goal_kind": "hands", "hands": 3})
    enter(app)
    assert app.scoreboard.finish_offer() is None
    enter(app)
    board = app.scoreboard
    assert board.at_hand and board.standing.status is Status.PLAYING
    assert board.goal_short() == "Anna is sure to win · 1 hand to play."
    assert board.finish_offer() == "Anna can no longer be caught: finish now, or play on?"
    board.ask_finish()
    question = app.session.question
    assert question.text.startswith("Anna can no longer be caught (2 – 0 in hands won).")
    assert (question.yes_label, question.no_label) == ("Finish now", "Play on")
    app.session.question = None                        # "Play on": the next hand is played as any other
    board.tap(1, TapKind.XERI)
    assert board.finish_offer() is None                 # the hand has begun: the strip counts its taps
    board.ask_finish()
    app.confirm()
    st = board.standing
    assert (st.status, st.winner, st.decided_at, st.hands_left) == (Status.WON, 0, 1, 1)
    assert not board.at_hand and board.record.finished is not None and board.record.live.taps == ()
    assert board.goal_line() == "3 hands, most hands won · finished after 2 of 3 hands"


def test_a_drawn_match_offers_a_deciding_hand_that_decides_it(app):
    start(app, goal={"goal_kind": "hands", "hands": 2})
    enter(app)
    enter(app, **BEN_WINS)
    board = app.scoreboard
    assert board.standing.status is Status.DRAWN and board.deciding_offered and not board.at_hand
    board.play_deciding_hand()
    assert board.at_hand and board.title == "Deciding hand" and not board.deciding_offered
    board.tap(1, TapKind.XERI)
    enter(app, **BEN_WINS)
    assert (board.standing.status, board.standing.winner) == (Status.WON, 1)
    assert not board.at_hand and not board.deciding_offered


def test_keeping_the_draw_leaves_the_match_drawn_and_the_offer_there(app):
    start(app, goal={"goal_kind": "hands", "hands": 2})
    enter(app)
    enter(app, **BEN_WINS)
    board = app.scoreboard
    board.play_deciding_hand()
    board.keep_draw()
    assert board.deciding_offered and board.standing.status is Status.DRAWN and app.screen is Screen.SCOREBOARD
    board.end_hand()
    assert app.screen is Screen.SCOREBOARD              # no hand is at the table


def test_a_draw_under_rules_without_a_deciding_hand_offers_none(app):
    app.setup.open()
    app.setup.set_name(0, "Anna")
    app.setup.set_name(1, "Ben")
    assert "draw_final" not in [sw.key for sw in app.setup.switches()]   # a race has no draw
    app.setup.set_goal_kind("hands")
    app.setup.form.hands = 2
    app.setup.switch("deciding_hand", True)
    assert "A draw over agreed hands is final (no deciding hand)" in app.setup.rules_line()
    app.setup.start()
    assert app.scoreboard.match.rules.deciding_hand is False
    enter(app)
    enter(app, **BEN_WINS)
    assert app.scoreboard.standing.status is Status.DRAWN and not app.scoreboard.deciding_offered


def playing_the_deciding_hand(services):
    """A phone whose browser keeps its place, at a two-hand match drawn 1 – 1 whose deciding hand its table chose
    to play: (its browser, the match's id)."""
    from .vm import Browser

    browser = Browser()
    app = browser.open(services)
    start(app, goal={"goal_kind": "hands", "hands": 2})
    enter(app)
    enter(app, **BEN_WINS)
    app.scoreboard.play_deciding_hand()
    assert browser.kept[-1].deciding == 2
    return browser, app.scoreboard.record.id


def test_a_phone_reloaded_while_its_table_plays_the_deciding_hand_comes_back_to_that_hand(services):
    """A reload (or the laptop's app started again) during a drawn match's deciding hand opened Home: the drawn
    match is over, and the phone's place said only "at its table". The place now says it plays the deciding hand;
    a phone that was only looking at the drawn match comes back to the offer, not to a hand."""
    browser, drawn = playing_the_deciding_hand(services)
    again = browser.open(services)
    board = again.scoreboard
    assert again.screen is Screen.SCOREBOARD and board.record.id == drawn and board.at_hand
    assert board.title == "Deciding hand"
    board.keep_draw()                                   # the draw stands after all: the offer, not the hand
    assert not browser.kept[-1].deciding
    third = browser.open(services).scoreboard
    assert not third.at_hand and (third.record is None or third.record.id != drawn or third.deciding_offered)


def test_a_phone_reloaded_after_the_deciding_hand_was_saved_level_elsewhere_is_not_at_a_hand_nobody_chose(services):
    """Found in review: the place said "deciding hand" without which one; another phone saved it level (drawn
    again, a new deciding hand offered), and the reloaded phone came back at that new hand, never chosen."""
    from companion.engine.entry import HandEntry

    level = HandEntry(xeris=(0, 0), jack_xeris=(0, 0), most_cards=None, counting=(10, 10), ten_of_diamonds=0, two=1)
    browser, drawn = playing_the_deciding_hand(services)
    services.table.record_hand(drawn, level)            # another phone saves the deciding hand: drawn again
    st = services.table.standing(services.table.get(drawn))
    assert st.status is Status.DRAWN and st.deciding_hand
    again = browser.open(services).scoreboard
    assert not again.at_hand
