"""`make screenshots`: screenshots of every screen into docs/screenshots/, through the real app in Chromium.

The whole app at phone size (390x844, light), and the table screens (scoreboard, hand entry, saved hand,
match over) at 360x640, 390x844 and 768x1024, light and dark, and on a phone held sideways (844x390);
then a Korean table (new match, scoreboard, hand entry; light and dark) and the Turkish rules page and
settings, each from a browser set to that language. Taps only, on a fresh temporary data folder for each run.
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tests.app_server import AppServer

from .chromium import CHROMIUM, CHROMIUM_ARGS, HOW_TO
from .driver import Driver
from tests.flows import enter_hand as enter

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TABLE_SIZES = [(360, 640), (390, 844), (768, 1024), (844, 390)]


TABLE_NAMES = ("Κωνσταντίνος", "Mia 🐱")
"""An ordinary 12-letter Greek name and a name with an emoji: the table screens must draw both whole."""


def table_screens(app: Driver, shot) -> None:
    """A match to the end: the scoreboard during a hand, the hand entry, a problem, a saved hand, the sheet."""
    app.tap("new-match")
    app.type("name-0", TABLE_NAMES[0])
    app.type("name-1", TABLE_NAMES[1])
    app.tap("goal-hands")
    for _ in range(4):
        app.tap("hands-minus")                     # 3 hands
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("xeri-0")
    app.tap("jack-xeri-1")
    shot("scoreboard-during-hand")
    enter(app, save=False)
    shot("hand-entry")
    app.tap("open-xeris")
    for _ in range(3):
        app.tap("jack-xeris-0-plus")
    app.see("jack xeris in one hand")
    shot("hand-entry-problem")
    for _ in range(3):
        app.tap("jack-xeris-0-minus")
    app.tap("save-hand")
    app.see("Hand 1 saved")
    shot("hand-saved")
    enter(app, most=1, counting=(0, 9), ten=1, two=1)
    app.tap("hand-0")
    shot("score-sheet")
    enter(app, most=0, counting=(0, 14), ten=0, two=0, then="winner")
    shot("match-over")


def whole_app(app: Driver, page, shot) -> None:
    """Every screen at phone size, numbered as README links them."""
    app.wait_id("new-match")
    shot("01-home-empty")
    app.tap("new-match")
    app.type("name-0", "Anna")
    app.type("name-1", "Ben")
    shot("02-new-match")
    app.tap("layout-partners")
    shot("03-new-match-partners")
    app.tap("layout-two")
    app.tap("back")
    table_screens(app, lambda name: shot({"scoreboard-during-hand": "04-scoreboard-during-hand",
                                          "hand-entry": "05-hand-entry", "hand-entry-problem": "06-hand-entry-problem",
                                          "hand-saved": "07-hand-saved", "score-sheet": "09-score-sheet",
                                          "match-over": "11-match-over"}[name]))
    app.tap("status")                              # the last hand saved, line by line
    app.wait_id("detail-ok")
    shot("10-hand-breakdown")
    app.tap("detail-ok")
    app.wait_gone("detail-ok")
    app.tap("match-rules")
    shot("12-rules")
    app.tap("back")
    app.tap("rematch")
    app.wait_id("end-hand")
    app.tap("end-hand")
    app.wait_id("save-hand")
    app.tap("exact-mode")
    for code in ("AS", "AH", "KD", "10D", "JC", "2C"):
        app.tap(f"card-{code}")
    app.tap("card-JC")
    shot("08-hand-entry-exact")
    app.tap("exact-mode")
    app.tap("back")
    app.tap("back")
    app.wait_id("open-history")
    app.tap("open-history")
    shot("13-history")
    # A finished match's row (`history-<id>`), not the in-play section (`history-in-play`) above the rows.
    ident = next(i for i in (node.get_attribute("flt-semantics-identifier") for node in
                             page.locator('[flt-semantics-identifier^="history-"]').all())
                 if i and len(i) == len("history-") + 32)
    app.tap(ident)
    app.wait_id("totals-chart")
    app.tap("whatif-plain")
    app.wait_id("whatif-result")
    shot("14-past-match-what-if")
    app.tap("back")
    app.tap(f"player-{TABLE_NAMES[0]}")
    app.wait_id("stat-matches")
    shot("15-player")
    app.tap("back")
    app.tap("back")
    app.tap("open-settings")
    app.tap("lang-el")
    app.see("Γλώσσα")
    shot("16-settings-greek")
    app.tap("back")
    app.tap("continue-match")
    app.wait_id("end-hand")
    app.tap("end-hand")
    app.wait_id("save-hand")
    shot("17-hand-entry-greek")


def korean_table(app: Driver, shot) -> None:
    """A phone set to Korean: the partnership game is offered first; Korean names drawn in the bundled font."""
    app.tap("new-match")
    for i, name in enumerate(["민준", "서연", "지훈", "하은"]):
        app.type(f"name-{i}", name)
    shot("new-match")
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("xeri-0")
    app.tap("xeri-1")
    app.tap("jack-xeri-3")
    enter(app, most=1, counting=(1, 11), ten=1, two=0)
    app.tap("xeri-2")
    shot("scoreboard")
    enter(app, most=0, counting=(0, 12), ten=0, two=1, save=False)
    shot("hand-entry")


def turkish_pages(app: Driver, shot) -> None:
    """A phone set to Turkish: the rules page opens on Pişti; the settings name each language in itself."""
    app.tap("open-rules")
    app.wait_id("rules-text")
    shot("rules")
    app.tap("back")
    app.tap("open-settings")
    app.wait_id("lang-tr")
    shot("settings")


def sync_screen(app: Driver, shot) -> None:
    """Settings, Sync settings: the empty form, then a server that is not HTTPS tried, said in words."""
    app.wait_id("open-settings")
    app.tap("open-settings")
    app.tap("open-sync")
    app.wait_id("sync-server")
    shot("sync-form")
    app.type("sync-server", "http://couch.example.org")
    app.type("sync-database", "thursdays")
    app.type("sync-user", "anna")
    app.tap("sync-test")
    app.see("could read the password")               # refused before any request: not HTTPS, said in words
    shot("sync-tested")


def many_tables(app: Driver, shot) -> None:
    """Two tables in play at once: a new match asks about this phone's own match, with "Keep both in play";
    home then lists the other table's match under the one this phone follows."""
    for names in (("Anna", "Ben"), ("Κωνσταντίνος", "Mia 🐱")):
        app.tap("new-match")
        if names[0] != "Anna":
            shot("keep-both-question")
            app.tap("confirm-other")
        app.type("name-0", names[0])
        app.type("name-1", names[1])
        app.tap("start-match")
        app.wait_id("end-hand")
        if names[0] == "Anna":
            enter(app)
        app.tap("back")
    app.wait_id("in-play")
    shot("home-two-tables")


def saved_apart(data: Path) -> None:
    """A data folder whose match has a hand 2 saved differently here and on another device of the group (an
    in-memory group database), as two phones apart leave it."""
    from companion import bootstrap
    from tests.loop import run
    from tests.service.shared_db import SharedDatabase
    from tests.storage.builders import Clock, hand_for, new_match

    shared = SharedDatabase()
    here = bootstrap.build(bootstrap.open_folder(data), clock=Clock())
    other = bootstrap.build(bootstrap.open_folder(data.parent / "other"), clock=Clock())
    try:
        for parts in (here, other):
            run(parts.services.sync.once(shared))
        m = here.services.table.start(new_match("Κωνσταντίνος", "Mia 🐱", hands=1)).id
        for parts in (here, other):
            run(parts.services.sync.once(shared))
        mine = hand_for(5)   # the other phone put the 10 of diamonds on the other side: one line differs
        here.services.table.record_hand(m, mine)
        other.services.table.record_hand(m, replace(mine, ten_of_diamonds=1 - mine.ten_of_diamonds))
        for parts in (here, other, here):
            run(parts.services.sync.once(shared))
    finally:
        here.close()
        other.close()


def conflict(app: Driver, shot) -> None:
    """The table chooses between two versions of hand 2."""
    app.tap("continue-match")
    app.tap("choose-1")
    app.wait_id("keep-version-0")
    shot("conflict")


def see_whole(app: Driver, ident: str) -> None:
    """Scrolled to `ident` and a little further: a control cut by the bottom edge has a box a few pixels high
    that counts as on screen (`Driver.scroll_to`); then the drawing after the wheel's scroll eased out."""
    app.scroll_to(ident)
    app.page.mouse.wheel(0, 240)
    app.page.wait_for_timeout(800)


def ratings(app: Driver, shot) -> None:
    """A club's season: tonight's matches on Home, the leaderboard with its records, and the leader's page at
    the rating chart."""
    app.scroll_to("share-evening")
    app.page.wait_for_timeout(800)
    shot("home-evening")
    app.tap("open-ratings")
    app.wait_id("rating-1")
    shot("leaderboard")
    see_whole(app, "honour-longest_winning_streak")
    shot("leaderboard-records")
    app.scroll_to("season-dates")
    app.tap("season-dates")
    app.wait_id("dates-show")
    shot("leaderboard-dates")
    app.tap("season-all")
    app.tap("rating-1")
    see_whole(app, "rating-move-0")
    shot("player-rating")


def most_hands_won(app: Driver, shot, names=TABLE_NAMES, count: int = 12) -> None:
    """Most hands won: a side sure to win before the last hand (the offer, the question, finished now), then a
    drawn match offering a deciding hand, and the deciding hand at the table."""
    def start(hands: int) -> None:
        app.wait_id("new-match")
        app.tap("new-match")
        if app.wait_any("start-match", "confirm-yes") == "confirm-yes":
            app.tap("confirm-yes")
        for i, name in enumerate(names):
            app.type(f"name-{i}", name)
        app.tap("goal-hands")
        for _ in range(7 - hands):
            app.tap("hands-minus")
        app.tap("start-match")
        app.wait_id("end-hand")

    start(3)
    enter(app, counting=(0, count))
    enter(app, counting=(0, count))
    app.wait_id("finish-match")
    time.sleep(11)                                 # the saved hand's line gives the strip back to the offer
    shot("sure-to-win")
    app.tap("finish-match")
    app.wait_id("confirm-yes")
    shot("finish-question")
    app.tap("confirm-yes")
    app.wait_id("winner")
    shot("finished-early")
    app.tap("back")
    start(2)
    enter(app, counting=(0, count))
    enter(app, most=1, counting=(1, count), ten=1, two=0, then="winner")
    app.wait_id("deciding-hand")
    shot("match-drawn")
    app.tap("deciding-hand")
    app.wait_id("end-hand")
    shot("deciding-hand")


LONG_PARTNERS = ("Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλος"[:40], "Eleni", "Νίκος", "Petros")
"""A partnership left unnamed with a 40-letter name in it, and a named one: every row must fit and name its player."""


def partners(app: Driver, shot) -> None:
    """Partnerships with a 40-letter name: the scoreboard, the entry with its xeris per player, the preview of a
    hand that ends the match, and a hand undone and reopened."""
    from tests.flows import fill_partnership

    fill_partnership(app, LONG_PARTNERS)
    app.type("team-1", "Οι Αετοί")
    app.tap("goal-hands")
    for _ in range(6):
        app.tap("hands-minus")                     # 1 hand: the preview says it ends the match
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("xeri-0")
    app.tap("jack-xeri-3")
    shot("partners-scoreboard")
    enter(app, save=False)
    shot("partners-entry")
    app.tap("open-xeris")
    shot("partners-entry-xeris")
    app.tap("save-hand")
    app.wait_id("winner")
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.wait_id("discard-reopened")
    shot("partners-reopened")


def main(only: list[str]) -> int:
    """Every screenshot, or only the runs named on the command line (`whole`, `sync`, `tables`, `conflict`, `ratings`, `partners`, `korean`, `turkish`, `deciding` (most hands won, in four languages), or a
    table size such as `844x390`)."""
    if not Path(CHROMIUM).exists():
        print(f"skipped: {HOW_TO}")
        return 1
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        runs = [("whole", 390, 844, "light")] + [("table", w, h, scheme) for w, h in TABLE_SIZES
                                                 for scheme in ("light", "dark")]
        runs += [("sync", w, h, scheme) for w, h in TABLE_SIZES[:3] for scheme in ("light", "dark")]
        runs += [(kind, w, h, scheme) for kind in ("tables", "conflict", "ratings") for w, h in TABLE_SIZES
                 for scheme in ("light", "dark")]
        runs += [("partners", w, h, scheme) for w, h in TABLE_SIZES for scheme in ("light", "dark")]
        runs += [("korean", 390, 844, "light"), ("korean", 390, 844, "dark"), ("turkish", 390, 844, "light")]
        runs += [("deciding", 360, 640, "light"), ("deciding", 360, 640, "dark"), ("deciding-el", 360, 640, "light"),
                 ("deciding-ko", 360, 640, "dark"), ("deciding-tr", 360, 640, "light")]
        runs = [run for run in runs if not only or run[0] in only or run[0].split("-")[0] in only
                or f"{run[1]}x{run[2]}" in only]
        locales = {"korean": "ko-KR", "turkish": "tr-TR", "deciding-el": "el-GR", "deciding-ko": "ko-KR",
                   "deciding-tr": "tr-TR"}
        for kind, width, height, scheme in runs:
            with tempfile.TemporaryDirectory() as tmp:
                if kind == "conflict":
                    saved_apart(Path(tmp) / "data")
                if kind == "ratings":
                    from tests.seed import seed_season

                    seed_season(Path(tmp) / "data")
                server = AppServer(Path(tmp) / "data").start()
                try:
                    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                                  locale=locales.get(kind, "en-US"))
                    page = context.new_page()
                    app = Driver(page, server.url)
                    app.open()

                    def shot(name: str, width=width, height=height, scheme=scheme, kind=kind, app=app) -> None:
                        file = {"whole": f"{name}.png", "table": f"{width}x{height}-{scheme}-{name}.png",
                                "sync": f"{width}x{height}-{scheme}-{name}.png",
                                "tables": f"{width}x{height}-{scheme}-{name}.png",
                                "conflict": f"{width}x{height}-{scheme}-{name}.png",
                                "ratings": f"{width}x{height}-{scheme}-{name}.png",
                                "partners": f"{width}x{height}-{scheme}-{name}.png",
                                "deciding": f"{width}x{height}-{scheme}-{name}.png"}.get(
                            kind, f"{kind}-{scheme}-{name}.png")
                        app.screenshot(OUT / file)
                        print(f"docs/screenshots/{file}")

                    if kind == "whole":
                        whole_app(app, page, shot)
                    elif kind == "korean":
                        korean_table(app, shot)
                    elif kind == "turkish":
                        turkish_pages(app, shot)
                    elif kind == "sync":
                        sync_screen(app, shot)
                    elif kind == "tables":
                        many_tables(app, shot)
                    elif kind == "conflict":
                        conflict(app, shot)
                    elif kind == "ratings":
                        ratings(app, shot)
                    elif kind == "partners":
                        partners(app, shot)
                    elif kind.startswith("deciding"):   # each language's own game: partnerships in Korean, Pişti
                        most_hands_won(app, shot, ("민준", "서연", "지훈", "하은") if kind == "deciding-ko" else TABLE_NAMES,
                                       6 if kind == "deciding-tr" else 12)
                    else:
                        table_screens(app, shot)
                    context.close()
                finally:
                    server.stop()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
