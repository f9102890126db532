"""Two phones of one group in Chromium: one on the served app (a laptop's), one on the browser build (dist-pwa/,
its Python in the tab), syncing through a real CouchDB-protocol server (PouchDB Server, tests/sync/) behind a
proxy that plays the network.

Both join the group on the Sync screen, as a person does: the served app's fields typed in, tried and joined;
the browser build's address pasted. A xeri tapped and a hand saved on one are on the other within 2 s; a
phone killed right after a save loses nothing; two versions of one hand saved while the network was away are
shown to the table, which keeps one, and nothing is lost or counted twice.

The table (server, proxy, both phones, a match between Anna and Ben) is set up once for the module, as it
takes two app starts; each test first makes sure both phones are up and on the match (`Table.ready`).
`XERI_SHOTS=DIR` keeps screenshots of the Sync and conflict screens there.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from companion.engine.scoring import score_hand
from tests.sync.couchserver import CouchServer, missing
from tests.sync.devices import ServedDevice, open_device, shared_docs
from tests.sync.proxy import Proxy

from .chromium import PHONE
from .driver import Driver
from tests.flows import enter_hand, start_two_player_match, total
from .driver import same_boxes, wait_until
from .site import BOOT, Phone, StaticServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.pwa]

SEEN_WITHIN = 2.0
"""Seconds from a tap's completion on one phone to the other phone showing it (#17)."""
ARRIVES = 90_000
"""Milliseconds a change may take to reach the other phone where no latency is measured: a restarted phone's
first round, or a round after the network came back (the runner waits 1, 2, 5, 10, 20 … s between failed
rounds), on a loaded machine."""
USER, PASSWORD = "anna", "s3cret pass/1"
BEN_HAND = dict(most=1, counting=(1, 12), ten=1, two=0)
"""A hand Ben's side takes (most cards, 12 counting cards, the 10♦); `enter_hand`'s default is Anna's."""
SEEN: dict[str, list[float]] = {}
"""Every latency measured in this module, by what was seen."""


# --- the table: the group's server, the network, two phones ----------------------------------------------


@dataclass
class Table:
    couch: CouchServer
    db: str
    proxy: Proxy
    laptop: ServedDevice
    tab: Phone
    browser: Any
    contexts: list = field(default_factory=list)
    served: Driver | None = None
    """The served app's page (the laptop's app, in a phone's browser)."""
    phone: Driver | None = None
    """The browser build's page."""

    @property
    def address(self) -> str:
        """The group's address, as a phone reaches it (through the proxy)."""
        return f"http://{USER}:{quote(PASSWORD, safe='')}@127.0.0.1:{self.proxy.port}/{self.db}"

    def open_served(self) -> Driver:
        context = self.browser.new_context(viewport=PHONE, locale="en-US")
        self.contexts.append(context)
        self.served = Driver(context.new_page(), self.laptop.url)
        self.served.page.goto(self.laptop.url)
        booted(self.served)
        return self.served

    def open_phone(self, wait: bool = True) -> Driver:
        """The browser build's page (`wait=False`: loading, see `booted`)."""
        self.phone = self.tab.open(wait=False)
        return booted(self.phone) if wait else self.phone

    def kill_laptop(self) -> Driver:
        """The laptop's app killed as a crash would (SIGKILL), started again, its page opened again."""
        self.laptop.kill()
        self.laptop.restart()
        return self.open_served()

    def kill_phone(self) -> Driver:
        """The phone's browser killed (SIGKILL to every process of its profile) and started again on the app."""
        self.tab.kill()
        return self.open_phone()

    def ready(self) -> tuple[Driver, Driver]:
        """Both phones up (started again if a test before left one dead) and on the match in play."""
        if self.laptop.proc is None or self.laptop.proc.poll() is not None:
            self.laptop.restart()
            self.open_served()
        if self.tab.context is None:
            self.open_phone()
        assert self.served is not None and self.phone is not None
        for app in (self.served, self.phone):
            home(app)
            to_match(app)
        return self.served, self.phone

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        try:
            self.tab.close()
        except Exception:  # killed, or a test failed with it half-closed
            pass
        self.laptop.stop()


def booted(app: Driver) -> Driver:
    """Wait until the app is up in the page, its accessibility tree on."""
    return app.enable_semantics(BOOT)


@pytest.fixture(scope="module")
def table(site, playwright, browser, tmp_path_factory) -> Iterator[Table]:
    """Both phones joined to one group on the Sync screen, on a match Anna and Ben started on the laptop."""
    why = missing()
    if why:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("sync-browser")
    static = StaticServer(site).start()
    couch = CouchServer(folder / "couch").start()
    proxy = Proxy(couch.port)
    laptop = ServedDevice(folder / "laptop" / "data")
    t = Table(couch, "", proxy, laptop, Phone(playwright, folder / "profile", static.url), browser)
    try:
        couch.set_cors(static.origin)                 # the browser build's origin, and no other
        couch.add_user(USER, PASSWORD)
        t.db = couch.create_database(couch.new_database_name())
        couch.set_members(t.db, [USER])
        phone = t.open_phone(wait=False)              # its Python starts meanwhile
        laptop.start()
        served = t.open_served()
        join_by_fields(served, t)
        join_by_pasting(booted(phone), t)
        home(served)
        home(phone)
        start_two_player_match(served)
        yield t
    finally:
        t.close()
        proxy.close()
        couch.kill()
        static.stop()


@pytest.fixture(scope="module", autouse=True)
def latencies() -> Iterator[None]:
    yield
    if SEEN:
        every = [s for took in SEEN.values() for s in took]
        print(f"\nseen on the other phone within (s): { {k: [round(s, 2) for s in v] for k, v in SEEN.items()} }"
              f"; median {statistics.median(every):.2f}, most {max(every):.2f}")


# --- what a person does --------------------------------------------------------------------------------


def paste(app: Driver, ident: str, text: str, held: Callable[[], None] | None = None) -> None:
    """Paste `text` into a text field: one input, as a paste is, once the field has focus (Flutter connects
    its text input a moment after the field takes it, and what comes before is lost: `Driver.type`); again
    until `held()` passes (an `expect` on what the app now holds), by default until the field shows it.

    The join-link box is not itself checked, but the fields the app fills from it: seen once under two CPU
    hogs (load 10), the box read empty on all three tries, 2 s each, at the module's set-up. Not traced yet:
    the box is not bound to the view model, so a redraw may empty it before a loaded driver looks, or the
    keys went before Flutter's input connected (now waited for, as `Driver.type` does)."""
    box = app.wait_id(ident).locator("input, textarea").first
    for attempt in range(3):
        box.click()
        expect(box).to_be_focused()
        box.fill(text)
        try:
            (held or (lambda: expect(box).to_have_value(text, timeout=2_000)))()
            return
        except AssertionError:
            if attempt == 2:
                raise


def open_sync(app: Driver) -> None:
    app.tap("open-settings")
    app.tap("open-sync")
    app.wait_any("sync-now", "sync-join")


def join_by_fields(app: Driver, t: Table) -> None:
    """Settings, Sync settings: the server, database, user and password typed in; Test; Join."""
    open_sync(app)
    app.type("sync-server", f"http://127.0.0.1:{t.proxy.port}")
    app.type("sync-database", t.db)
    app.type("sync-user", USER)
    paste(app, "sync-password", PASSWORD)
    app.tap("sync-test")
    app.see("Everything is in place", timeout=60_000)
    app.tap("sync-join")
    app.wait_id("sync-now", timeout=60_000)
    app.see(f"Joined {USER} @ http://127.0.0.1:{t.proxy.port}/{t.db}")


def join_by_pasting(app: Driver, t: Table) -> None:
    """Settings, Sync settings: the group's address pasted (as a join link is); Join."""
    open_sync(app)
    paste(app, "sync-paste", t.address,
          held=lambda: expect(app.by_id("sync-database")).to_have_attribute("aria-label", t.db, timeout=5_000))
    app.tap("sync-join")
    app.wait_id("sync-now", timeout=60_000)
    shot(app, "sync")
    app.see("In step with the group", timeout=60_000)


def shot(app: Driver, name: str) -> None:
    folder = os.environ.get("XERI_SHOTS")
    if folder:
        app.page.screenshot(path=str(Path(folder) / f"{name}.png"))


def home(app: Driver) -> None:
    while app.wait_any("back", "new-match", "continue-match", timeout=60_000) == "back":
        app.tap("back")


def to_match(app: Driver, timeout: int = ARRIVES) -> None:
    """From the first screen to the match in play (once it is there)."""
    if app.wait_any("continue-match", "end-hand", timeout=timeout) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def totals(app: Driver) -> tuple[int, int]:
    return total(app, 0), total(app, 1)


def hands(app: Driver) -> int:
    """How many hands the score sheet shows."""
    return app.page.evaluate("""() => document.querySelectorAll('[flt-semantics-identifier^="hand-"]').length""")


LABEL_HAS = """([ident, text]) => {
    const node = document.querySelector(`[flt-semantics-identifier="${ident}"]`);
    return !!node && ((node.getAttribute('aria-label') || '') + ' ' + node.textContent).includes(text);
}"""
THERE = """(ident) => !!document.querySelector(`[flt-semantics-identifier="${ident}"]`)"""


def seen_on(other: Driver, what: str, predicate: str, arg: Any, clicked: float, done: float) -> float:
    """Wait until `predicate(arg)` holds on the other phone's page; the seconds since the tap was done there
    (`done`: its own page showed it). The seconds since the click are printed too."""
    other.page.wait_for_function(predicate, arg=arg, polling=20, timeout=ARRIVES)
    now = time.monotonic()
    SEEN.setdefault(what, []).append(now - done)
    print(f"\n{what}: on the other phone {now - done:.2f} s after the tap was done "
          f"({now - clicked:.2f} s after the click)")
    return now - done


def xeri_seen(one: Driver, other: Driver, seat: int, n: int, what: str) -> float:
    clicked = time.monotonic()
    one.tap(f"xeri-{seat}")                           # returns once the tapping phone shows it
    return seen_on(other, what, LABEL_HAS, [f"xeri-{seat}", f"(now {n})"], clicked, time.monotonic())


def hand_seen(one: Driver, other: Driver, index: int, what: str, **hand: Any) -> float:
    enter_hand(one, save=False, **hand)
    clicked = time.monotonic()
    one.tap("save-hand")
    one.wait_id(f"hand-{index}")
    return seen_on(other, what, THERE, f"hand-{index}", clicked, time.monotonic())


def save_hand(app: Driver, index: int, **hand: Any) -> tuple[int, int]:
    """Save a hand; returns (once the page shows it saved) the totals."""
    enter_hand(app, save=False, **hand)
    app.tap("save-hand")
    app.wait_id(f"hand-{index}")
    return totals(app)


def saved_then_killed(app: Driver, kill: Callable[[], Driver], other: Driver, index: int, **hand: Any) -> Driver:
    """Save hand `index` on `app`'s phone and `kill` it at once (which starts it again): the hand is there, and
    on the other phone. The phone's new page."""
    after = save_hand(app, index, **hand)
    app = kill()
    to_match(app)
    assert totals(app) == after
    expect(other.by_id(f"hand-{index}")).to_be_attached(timeout=ARRIVES)
    assert totals(other) == after
    return app


def hand_docs(t: Table) -> list[dict]:
    return [d for d in shared_docs(t.couch, t.db).values() if d.get("kind") == "hand"]


# --- the tests -----------------------------------------------------------------------------------------


def test_a_xeri_and_a_hand_on_one_phone_are_on_the_other_within_2_s_and_a_killed_phone_loses_nothing(table):
    served, phone = table.ready()                     # the match the laptop started is on the phone
    start = hands(served)
    assert hands(phone) == start

    took = [xeri_seen(served, phone, 0, 1, "xeri, served app to browser build"),
            xeri_seen(phone, served, 1, 1, "xeri, browser build to served app"),
            hand_seen(served, phone, start, "hand, served app to browser build"),
            hand_seen(phone, served, start + 1, "hand, browser build to served app", **BEN_HAND)]
    assert max(took) <= SEEN_WITHIN, took
    assert totals(phone) == totals(served)

    # Each phone is killed the moment its page shows a hand saved: the hand is there when it starts again, and
    # on the other phone.
    served = saved_then_killed(served, table.kill_laptop, phone, start + 2)
    phone = saved_then_killed(phone, table.kill_phone, served, start + 3, **BEN_HAND)
    assert hands(served) == hands(phone) == start + 4
    assert len(hand_docs(table)) == start + 4         # each hand once on the server


def test_a_hand_saved_differently_on_two_phones_offline_is_shown_chosen_and_nothing_is_lost(table):
    served, phone = table.ready()
    start = hands(served)
    assert hands(phone) == start and totals(served) == totals(phone)
    before = totals(served)
    served.wait_text("sync-mark", "In step with the group", timeout=ARRIVES)
    boxes = served.tappable_boxes()

    table.proxy.cut()                                 # the network is gone: each phone saves its own hand
    mine = save_hand(served, start)
    theirs = save_hand(phone, start, **BEN_HAND)
    served.wait_text("sync-mark", "Not syncing since", timeout=ARRIVES)   # the cut is said on the scoreboard

    def fixed(found: dict) -> dict:   # all but the sheet's rows, which the hand saved meanwhile moved down one
        return {k: v for k, v in found.items() if not k.startswith("hand-")}

    same_boxes(fixed(boxes), fixed(served.tappable_boxes()), "the sync mark saying the cut")
    assert mine != theirs
    kept_points = f"{mine[0] - before[0]} : {mine[1] - before[1]}"
    lost_points = f"{theirs[0] - before[0]} : {theirs[1] - before[1]}"
    table.proxy.restore()

    for app in (phone, served):                       # the table is told, on both phones
        app.wait_id(f"conflict-{start}", timeout=ARRIVES)
    served.wait_text("sync-mark", "1 hand to choose", timeout=ARRIVES)    # the return, and what it brought
    assert hands(served) == hands(phone) == start + 1  # one hand counts meanwhile, not two
    assert totals(served) == totals(phone)

    phone.tap(f"choose-{start}")
    phone.wait_id("keep-version-0")                   # a phone shows one version at a time, Keep pinned below
    shot(phone, "conflict")
    points = [phone.text_of(f"version-{n}-points") for n in (0, 1)]
    assert sorted(points) == sorted([kept_points, lost_points]), points
    kept = points.index(kept_points)
    phone.tap(f"show-version-{kept}")                 # the switch
    phone.tap(f"keep-version-{kept}")
    phone.wait_id("end-hand")
    phone.see("Chosen")

    # Both phones agree: the laptop's version counts, once; the card is gone from both.
    for app in (phone, served):
        app.wait_gone(f"conflict-{start}", timeout=ARRIVES)
    served.wait_text("sync-mark", "In step with the group", timeout=ARRIVES)
    wait_until(lambda: totals(phone) == totals(served) == mine,
               lambda: f"both phones at {mine} (the laptop's {totals(served)}, the phone's {totals(phone)})", 30)
    assert hands(served) == hands(phone) == start + 1

    docs = shared_docs(table.couch, table.db).values()
    assert sum(1 for d in docs if d.get("kind") == "choice") == 1
    assert len(hand_docs(table)) == start + 2         # both versions kept on the server
    table.laptop.stop()
    with open_device(table.laptop.data) as parts:
        record = next(parts.services.table.get(s.id) for s in parts.services.library.matches())
        rules, sides = record.match.rules, len(record.match.sides)
        assert len(record.match.hands) == start + 1
        shown = [" : ".join(str(p) for p in score_hand(t.before, rules, sides).points)
                 for t in record.trail if t.hand == start]
        assert lost_points in shown                   # the other version stays in the match's trail


def in_play_rows(app: Driver) -> dict[str, str]:
    """The matches in play home lists beside the one this phone follows: identifier -> what the row says."""
    app.wait_id("in-play")
    rows = app.page.locator('[flt-semantics-identifier^="in-play-"]')
    return {rows.nth(i).get_attribute("flt-semantics-identifier"): app.text_of(
        rows.nth(i).get_attribute("flt-semantics-identifier")) for i in range(rows.count())}


def test_two_tables_play_at_once_in_one_group_and_nothing_crosses(table):
    served, phone = table.ready()
    first = totals(phone)
    home(served)
    served.tap("new-match")
    served.tap("confirm-other")                      # the laptop's table is another table: keep both in play
    served.type("name-0", "Chloe")
    served.type("name-1", "Dimitris")
    served.tap("start-match")
    served.wait_id("end-hand")
    served.tap("xeri-0")
    assert totals(phone) == first and hands(phone) >= 0   # the phone's table is as it was: nothing crossed
    home(phone)
    phone.wait_id("continue-match")                  # still following its own match
    wait_until(lambda: any("Chloe · Dimitris" in said for said in in_play_rows(phone).values()),
               "the laptop's new match on the phone's home", ARRIVES / 1000)
    second = next(ident for ident, said in in_play_rows(phone).items() if "Chloe · Dimitris" in said)
    first_row = next(ident for ident, said in in_play_rows(served_home(served)).items() if "Chloe" not in said)
    phone.tap(second)                                # one tap follows the other table's match
    phone.wait_id("end-hand")
    phone.see("Chloe")
    served.tap(first_row)                            # the laptop follows the first match again, and stops the
    served.tap("back")                               # second from its own screen
    served.tap(second)
    served.tap("abandon-match")
    served.tap("confirm-yes")
    phone.see("stopped the match Chloe · Dimitris", timeout=ARRIVES)   # said on the phone that follows it
    phone.tap(first_row)                             # the phone goes back to its own table, and so does the laptop
    phone.wait_id("end-hand")
    assert totals(phone) == first
    served_home(served).tap(first_row)
    served.wait_id("end-hand")


def served_home(app: Driver) -> Driver:
    home(app)
    return app


def test_the_laptop_named_by_typing_is_named_to_the_phone_when_it_stops_the_match(table):
    """The device-name field holds every key as typed (a write per key once lost one under load: the redraw
    after a write set the field back), keeps the name when left, and the other device reads it."""
    served, phone = table.ready()
    served.tap("sync-mark")
    served.type("sync-device-name", "Anna's laptop")  # the app holds what was typed, key by key
    served.tap("back")                                # leaving the field keeps the name
    served.tap("sync-mark")
    served.wait_text("sync-device-name", "Anna's laptop")
    served.tap("back")
    served.tap("abandon-match")
    served.tap("confirm-yes")
    phone.see("Anna's laptop stopped the match", timeout=ARRIVES)
