"""`make screenshots`: phone-size screenshots of every screen (and a desktop scoreboard) into docs/screenshots/.

Drives the real app in Chromium through taps only, on a fresh temporary data folder.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from .conftest import CHROMIUM, CHROMIUM_ARGS, HOW_TO, PHONE, AppServer
from .driver import Driver
from .test_flows import enter_hand as enter

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}


def main() -> int:
    if not Path(CHROMIUM).exists():
        print(f"skipped: {HOW_TO}")
        return 1
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = AppServer(Path(tmp) / "data").start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=PHONE)
                app = Driver(page, server.url)
                app.open()
                shot = lambda name: (app.screenshot(OUT / f"{name}.png"), print(f"docs/screenshots/{name}.png"))

                app.wait_id("new-match")
                shot("01-home-empty")
                app.tap("new-match")
                app.type("name-0", "Anna")
                app.type("name-1", "Ben")
                shot("02-new-match")
                app.tap("layout-partners")
                shot("03-new-match-partners")
                app.tap("layout-two")
                app.tap("goal-hands")
                for _ in range(4):
                    app.tap("hands-minus")
                app.tap("start-match")
                app.wait_id("end-hand")
                app.tap("xeri-0")
                app.tap("jack-xeri-1")
                shot("04-scoreboard-during-hand")
                enter(app, save=False)
                shot("05-hand-entry")
                for _ in range(3):
                    app.tap("jack-xeris-0-plus")
                app.see("jack xeris in one hand")
                shot("06-hand-entry-problem")
                for _ in range(3):
                    app.tap("jack-xeris-0-minus")
                app.tap("save-hand")
                app.wait_id("flash")
                shot("07-hand-saved-breakdown")
                app.tap("end-hand")
                app.wait_id("save-hand")
                app.tap("exact-mode")
                for code in ("AS", "AH", "KD", "10D", "JC", "2C"):
                    app.tap(f"card-{code}")
                app.tap("card-JC")
                shot("08-hand-entry-exact")
                app.tap("exact-mode")
                app.tap("back")
                enter(app, most=1, counting=(0, 9), ten=1, two=1)
                app.tap("hand-0")
                shot("09-scoreboard-hands")
                page.set_viewport_size(DESKTOP)
                app.screenshot(OUT / "10-scoreboard-desktop.png")
                print("docs/screenshots/10-scoreboard-desktop.png")
                page.set_viewport_size(PHONE)
                enter(app, most=0, counting=(0, 14), ten=0, two=0, then="winner")
                shot("11-match-over")
                app.tap("match-rules")
                shot("12-rules")
                app.tap("back")
                app.tap("go-home")
                app.wait_id("open-history")
                app.tap("open-history")
                shot("13-history")
                ident = page.locator('[flt-semantics-identifier^="history-"]').first.get_attribute(
                    "flt-semantics-identifier")
                app.tap(ident)
                app.wait_id("totals-chart")
                app.tap("whatif-plain")
                app.wait_id("whatif-result")
                shot("14-past-match-what-if")
                app.tap("back")
                app.tap("player-Anna")
                app.wait_id("stat-matches")
                shot("15-player")
                app.tap("back")
                app.tap("back")
                app.tap("open-settings")
                app.tap("lang-el")
                app.see("Γλώσσα")
                shot("16-settings-greek")
                app.tap("back")
                app.tap("new-match")
                app.tap("start-match")
                app.wait_id("end-hand")
                app.tap("end-hand")
                app.wait_id("save-hand")
                shot("17-hand-entry-greek")
                app.tap("back")
                app.tap("xeri-1")
                app.tap("back")
                app.tap("open-settings")
                app.tap("lang-en")
                app.tap("theme-dark")
                app.see("Language")
                app.tap("back")
                app.tap("continue-match")
                app.wait_id("end-hand")
                shot("18-scoreboard-dark")
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
