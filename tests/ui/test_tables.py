"""A group is many tables (#24): every match in play has its own place on home and in the history, one tap
follows it, and a new match never stops another table's match, in the view models without a page."""

from companion.ui.viewmodel import AppModel, Screen, Session
from tests.flows import start_two_player_match
from tests.screens import ScreenPhone

from .vm import enter, start


def two_tables(services):
    """Two phones on one store, each told of the other's writes as the page's pub/sub does; each starts its own
    table's match (the second keeps the first in play)."""
    a, b = AppModel(services), AppModel(services)
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])
    b.session.announce = lambda m: a.scoreboard.refresh(m["match"], m["replaces"])
    start(a, names=("Anna", "Ben"))
    enter(a)                                             # 16 : 9
    b.home()
    b.setup.open()
    assert b.session.question.ident == "confirm-replace" and b.session.question.other_label == "Keep both in play"
    b.choose_other()                                     # B's table is another table: keep both in play
    assert b.screen is Screen.SETUP
    for i, name in enumerate(("Chloe", "Dimitris")):
        b.setup.set_name(i, name)
    b.setup.start()
    assert b.screen is Screen.SCOREBOARD
    return a, b


def test_keep_both_in_play_starts_a_match_beside_the_other_tables_and_stops_nothing(services):
    a, b = two_tables(services)
    first, second = a.scoreboard.record.id, b.scoreboard.record.id
    assert first != second and not services.table.get(first).abandoned
    assert a.scoreboard.record.id == first and a.screen is Screen.SCOREBOARD   # A's table is as it was
    assert a.session.notice is None or "stopped" not in a.session.notice.text


def test_home_lists_every_other_match_in_play_and_one_tap_follows_it(services):
    a, b = two_tables(services)
    a.home()
    others = a.history.in_play(leave_out=a.scoreboard.record.id)
    assert [(r.title, r.score) for r in others] == [("Chloe · Dimitris", "0 : 0")]
    assert others[0].detail.startswith("Hand 1 · changed")
    a.scoreboard.follow(others[0].id)
    assert a.screen is Screen.SCOREBOARD and a.scoreboard.record.id == b.scoreboard.record.id
    enter(a)                                             # A now keeps score at B's table: B sees it
    assert b.scoreboard.standing.totals == (16, 9)
    assert {r.title for r in a.history.in_play()} == {"Anna · Ben", "Chloe · Dimitris"}   # history's In play


def test_a_new_match_asks_only_about_this_phones_own_match(services):
    a, b = two_tables(services)
    a.scoreboard.ask_abandon()
    a.confirm()                                          # A stops its own match
    a.home()
    a.setup.open()                                       # B's match is in play, but it is not A's to stop
    assert a.session.question is None and a.screen is Screen.SETUP
    a.setup.start()
    assert not services.table.get(b.scoreboard.record.id).abandoned


def test_stop_it_and_start_anew_still_stops_this_phones_own_match(services):
    a, b = two_tables(services)
    own = b.scoreboard.record.id
    b.home()
    b.setup.open()
    b.confirm()                                          # "Stop it, start anew"
    b.setup.start()
    assert services.table.get(own).abandoned
    assert not services.table.get(a.scoreboard.record.id).abandoned


def test_keep_both_asked_again_after_the_match_changed_starts_without_stopping_it(services):
    a, b = two_tables(services)
    b.home()
    b.setup.open()
    b.confirm()                                          # B chose to stop its own match ...
    b2 = AppModel(services)
    b2.scoreboard.follow(b.scoreboard.record.id)
    enter(b2)                                            # ... another phone at B's table saves a hand meanwhile
    b.setup.start()
    assert b.session.question.ident == "confirm-replace" and "changed on another phone" in b.session.question.text
    b.choose_other()                                     # asked again: keep both
    assert b.screen is Screen.SCOREBOARD
    assert len(services.table.get(b2.scoreboard.record.id).match.hands) == 1
    assert not services.table.get(b2.scoreboard.record.id).abandoned


def test_on_the_screens_keep_both_and_a_row_of_home_are_the_controls_that_do_it(services):
    """The wiring, tapped on the app's own screens (tests/screens.py): the question's third answer and a row of
    home's other matches in play."""
    phone = ScreenPhone(AppModel(services))
    start_two_player_match(phone, "Anna", "Ben")
    first = phone.vm.scoreboard.record.id
    phone.tap("back")
    phone.tap("new-match")
    phone.tap("confirm-other")                          # Keep both in play
    phone.type("name-0", "Chloe")
    phone.type("name-1", "Dimitris")
    phone.tap("start-match")
    second = phone.vm.scoreboard.record.id
    assert second != first and not services.table.get(first).abandoned
    phone.tap("back")
    phone.see("Other matches in play")
    phone.tap(f"in-play-{first}")
    assert phone.vm.screen is Screen.SCOREBOARD and phone.vm.scoreboard.record.id == first
    phone.tap("back")
    phone.tap("open-history")
    phone.see("In play")
    phone.tap(f"in-play-{second}")                      # the history's In play section follows it too
    assert phone.vm.scoreboard.record.id == second


def test_a_match_stopped_on_another_phone_is_said_on_every_phone_that_follows_it(services):
    a, b = AppModel(services), AppModel(services)
    a.session.announce = lambda m: b.scoreboard.refresh(m["match"], m["replaces"])
    start(a)
    enter(a)
    b.scoreboard.open()
    b.scoreboard.end_hand()                              # B is entering the next hand
    a.scoreboard.ask_abandon()
    a.confirm()
    assert b.screen is Screen.HOME and b.session.question is None
    assert b.session.notice.text.startswith("Another phone stopped the match Anna · Ben (16 : 9, 1 hand played)")


def phone_of_its_own(services) -> AppModel:
    """A phone of its own (the browser build): it keeps its place across a reload or a restart."""
    session = Session(services)
    session.keeps_place = True
    return AppModel(services, session=session)


def test_a_phone_of_its_own_comes_back_to_the_match_and_screen_it_was_on(services):
    a = phone_of_its_own(services)
    start(a)
    enter(a)
    mine = a.scoreboard.record.id
    other = phone_of_its_own(services)                   # another table's match, started after it
    other.setup.open()
    other.choose_other()
    for i, name in enumerate(("Chloe", "Dimitris")):
        other.setup.set_name(i, name)
    other.setup.start()
    again = phone_of_its_own(services)                   # the page reloaded: the last place kept was other's
    assert again.screen is Screen.SCOREBOARD and again.scoreboard.record.id == other.scoreboard.record.id
    a.scoreboard.follow(mine)                            # A follows its own match again, and is reloaded
    again = phone_of_its_own(services)
    assert again.screen is Screen.SCOREBOARD and again.scoreboard.record.id == mine
    again.home()                                         # at home when it closed: it opens at home, following it
    again = phone_of_its_own(services)
    assert again.screen is Screen.HOME and again.scoreboard.record.id == mine


def test_a_place_whose_match_was_stopped_meanwhile_opens_at_home(services):
    a = phone_of_its_own(services)
    start(a)
    a.scoreboard.ask_abandon()
    a.confirm()
    again = phone_of_its_own(services)
    assert again.screen is Screen.HOME


def test_the_served_apps_phones_keep_no_place_in_the_shared_settings(services):
    a = AppModel(services)
    start(a)
    assert "following" not in services.library.settings()
