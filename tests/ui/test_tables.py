"""A group is many tables (#24): every match in play has its own place on home and in the history, one tap
follows it, and a new match never stops another table's match, in the view models without a page."""

from companion.ui.viewmodel import AppModel, Place, Screen
from tests.flows import start_two_player_match
from tests.screens import ScreenPhone

from .vm import Browser, enter, start


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


def phone_of_its_own(services, browser: Browser) -> AppModel:
    """A phone whose browser keeps its place across a reload or the app started again (every front door's)."""
    return browser.open(services)


def test_a_phone_of_its_own_comes_back_to_the_match_and_screen_it_was_on(services):
    browser = Browser()
    a = phone_of_its_own(services, browser)
    start(a)
    enter(a)
    mine = a.scoreboard.record.id
    other = phone_of_its_own(services, browser)          # another table's match, started after it
    other.setup.open()
    other.choose_other()
    for i, name in enumerate(("Chloe", "Dimitris")):
        other.setup.set_name(i, name)
    other.setup.start()
    again = phone_of_its_own(services, browser)          # the page reloaded: the last place kept was other's
    assert again.screen is Screen.SCOREBOARD and again.scoreboard.record.id == other.scoreboard.record.id
    again.scoreboard.follow(mine)                        # it follows A's match again, and is reloaded
    again = phone_of_its_own(services, browser)
    assert again.screen is Screen.SCOREBOARD and again.scoreboard.record.id == mine
    again.home()                                         # at home when it closed: it opens at home, following it
    again = phone_of_its_own(services, browser)
    assert again.screen is Screen.HOME and again.scoreboard.record.id == mine


def test_a_place_whose_match_was_stopped_meanwhile_opens_at_home(services):
    browser = Browser()
    a = phone_of_its_own(services, browser)
    start(a)
    a.scoreboard.ask_abandon()
    a.confirm()
    again = phone_of_its_own(services, browser)
    assert again.screen is Screen.HOME


def test_each_phone_keeps_its_own_place_in_its_own_browser_never_in_the_shared_settings(services):
    mine, theirs = Browser(), Browser()        # two phones on one laptop's app
    a = phone_of_its_own(services, mine)
    start(a)
    b = phone_of_its_own(services, theirs)
    b.setup.open()
    b.choose_other()
    for i, name in enumerate(("Chloe", "Dimitris")):
        b.setup.set_name(i, name)
    b.setup.start()
    assert "following" not in services.library.settings() and "at_table" not in services.library.settings()
    # The laptop's app started again: each phone opens where it was, at its own table.
    again_a, again_b = phone_of_its_own(services, mine), phone_of_its_own(services, theirs)
    assert again_a.screen is again_b.screen is Screen.SCOREBOARD
    assert again_a.scoreboard.record.id == a.scoreboard.record.id != again_b.scoreboard.record.id
    assert again_b.scoreboard.record.id == b.scoreboard.record.id


def test_a_place_reads_back_as_kept_and_anything_else_the_browser_says_is_no_place():
    from companion.ui.app import place_from, said_of

    for place in (Place("ab" * 16, True), Place("ab" * 16, False), Place(), Place("ab" * 16, True, 4)):
        assert place_from(said_of(place)) == place
    for said in (None, 3, ["x"], "not-an-id 1", "AB" * 16 + " 1", "ab" * 16 + " 1" + " " * 80):
        assert place_from(said) is None


def test_the_browser_build_reads_where_the_phone_was_from_what_the_page_read_before_python_started(monkeypatch):
    # Issue #27: the browser build's page reads its localStorage (Flutter's SharedPreferences) for Python before it
    # starts (pwa/web/python.js), so the first draw does not wait on a round trip through a Flutter still busy.
    import json
    import sys
    import types

    from companion.ui import app as ui_app
    from companion.ui.browser_build import kept_prefs

    said = "ab" * 16 + " 1"
    page_read = types.SimpleNamespace(keptPrefs=json.dumps({ui_app.PLACE_KEY: json.dumps(said)}))
    monkeypatch.setitem(sys.modules, "flet_js", page_read)
    kept = kept_prefs()
    assert kept == {ui_app.PLACE_KEY: said} and ui_app.place_from(kept[ui_app.PLACE_KEY]) == Place("ab" * 16, True)
    page_read.keptPrefs = "{}"                                 # nothing kept: home, without asking
    assert kept_prefs() == {}
    for unreadable in (None, "not json", "[1, 2]", json.dumps({ui_app.PLACE_KEY: "not json"})):
        page_read.keptPrefs = unreadable                       # the page could not read it: ask Flutter
        assert kept_prefs() is None, unreadable
    monkeypatch.delitem(sys.modules, "flet_js")
    assert kept_prefs() is None


def test_a_browser_that_says_nothing_in_time_or_refuses_opens_at_home(monkeypatch):
    import asyncio

    from companion.ui import app as ui_app

    class Silent:
        async def get(self, key):
            await asyncio.sleep(3600)

    class Refusing:
        async def get(self, key):
            raise RuntimeError("no SharedPreferences on this client")

    class Kept:
        async def get(self, key):
            return {ui_app.PLACE_KEY: "ab" * 16 + " 1"}.get(key)

    monkeypatch.setattr(ui_app, "PLACE_WAIT", 0.01)
    assert asyncio.run(ui_app.read_place(Silent())) is None       # the first draw never waits long
    assert asyncio.run(ui_app.read_place(Refusing())) is None
    assert asyncio.run(ui_app.read_place(Kept())) == Place("ab" * 16, True)


def test_a_page_that_lost_its_connection_while_its_place_was_read_asks_again_and_opens_at_its_table(monkeypatch):
    """Under load, the laptop's app started again and a phone reloaded while its first connection was asking
    where it was: the answer went with that connection, and the phone opened at home, not at its table."""
    import asyncio

    from companion.ui import app as ui_app

    now: list[str | None] = ["first"]

    def connection():
        return now[0]

    class LostThenKept:
        asked = 0

        async def get(self, key):
            self.asked += 1
            if self.asked == 1:          # asked on the first connection, which goes away meanwhile
                now[0] = None
                await asyncio.sleep(3600)
            return "ab" * 16 + " 1"

    async def back_soon():
        await asyncio.sleep(0.05)
        now[0] = "second"

    async def run(prefs):
        asyncio.get_running_loop().call_later(0.03, lambda: asyncio.ensure_future(back_soon()))
        return await ui_app.read_place(prefs, connection)

    monkeypatch.setattr(ui_app, "PLACE_WAIT", 0.02)
    prefs = LostThenKept()
    assert asyncio.run(run(prefs)) == Place("ab" * 16, True) and prefs.asked == 2

    class Silent:                       # the same connection all along, and no answer: home, at once
        async def get(self, key):
            await asyncio.sleep(3600)

    now[0] = "there"
    assert asyncio.run(ui_app.read_place(Silent(), connection)) is None
