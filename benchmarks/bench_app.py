"""App speed in Chromium: start-up to the first usable screen, and tap latency on two busy screens.

The real app (`python -m companion --port N --no-browser`, through tests/app_server.py's AppServer) is driven by
Debian's Chromium through Playwright on a 390x844 page, as the browser tests do. Median of 5 runs:

- start-up: from navigation start to the first usable screen, i.e. the `new-match` button in the
  accessibility tree (turned on by clicking `flt-semantics-placeholder` as soon as it is there), as the page
  itself saw it (`watch_usable`: Playwright's own waits poll every 500 ms); a new browser context each run, so
  nothing comes from the browser's cache;
- tap latency: from the tap (the `pointerdown` the browser dispatches, stamped in the page) to the
  changed screen (the first DOM change after which the accessibility tree shows the new value, seen
  by a MutationObserver in the page): on the hand-entry screen, tap `counting-0-12` until
  the other side's counting cards (`counting-side-1`) say 8; on the scoreboard, tap `xeri-0` until its
  label says "now N".
- taps and scrolls per hand type: each kind of hand entered from End hand to saved, every tap made without
  scrolling (a tap fails if its control is outside the window), counting the taps the app saw.
  The wall time seen from Python (click call to the value seen, Playwright's round trips included)
  is printed beside it.
"""

from __future__ import annotations

import importlib.util
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from companion.i18n import ENGLISH

RUNS = 5
START_GOAL_S = 3.0
TAP_GOAL_MS = 100.0

# In-page instrumentation: stamp the next pointerdown, then watch the DOM until the element's text
# (its text and every aria-label inside it) contains the wanted words.
ARM = """([ident, wanted]) => {
    const w = window.__bench = {start: null, end: null, text: null};
    const textOf = () => {
        const el = document.querySelector(`[flt-semantics-identifier="${ident}"]`);
        if (!el) return null;
        const labels = [el, ...el.querySelectorAll('[aria-label]')].map(n => n.getAttribute('aria-label') || '');
        return labels.concat([el.textContent || '']).join(' ');
    };
    const check = () => {
        if (w.start === null || w.end !== null) return;
        const text = textOf();
        if (text !== null && text.includes(wanted)) { w.end = performance.now(); w.text = text; observer.disconnect(); }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    document.addEventListener('pointerdown', () => { if (w.start === null) { w.start = performance.now(); check(); } },
                              {capture: true, once: true});
}"""


FIRST_SCREEN = '[flt-semantics-identifier="new-match"], [flt-semantics-identifier="end-hand"]'
"""The first screen's control, usable: Home's New match, or the table of the match in play."""
WATCH_USABLE = """(() => {
  // The page itself notes when its first screen is usable, in ms from navigation start: it turns on Flutter's
  // accessibility tree as soon as the placeholder is there (as the test driver does) and notes the moment the
  // first screen's control joins the tree. Playwright's own waits poll every 500 ms after their first 270 ms,
  // which put up to half a second of the benchmark's waiting into a start.
  if (window !== window.top) return;
  let clicked = false, usable;
  window.xeriUsableAt = new Promise(resolve => { usable = resolve; });
  const look = () => {
    if (!clicked) {
      const placeholder = document.querySelector('flt-semantics-placeholder');
      if (placeholder) {
        clicked = true;
        window.xeriLoaded = performance.now();
        placeholder.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, composed: true}));
      }
    }
    if (window.xeriUsable === undefined && document.querySelector(FIRST_SCREEN)) {
      window.xeriUsable = performance.now();
      observer.disconnect();
      usable(window.xeriUsable);
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document, {childList: true, subtree: true, attributes: true,
                              attributeFilter: ['flt-semantics-identifier']});
})();""".replace("FIRST_SCREEN", repr(FIRST_SCREEN))


def watch_usable(page) -> None:
    """Have `page` note when its first screen is usable (`usable_in_page`), from its next navigation on."""
    page.add_init_script(WATCH_USABLE)


def usable_in_page(page, timeout: float = 180_000) -> float:
    """Seconds from navigation start to the first screen usable, as the page noted it (`watch_usable`). Asked
    once, the answer awaited in the page: polling the page while it starts (`wait_for_function`, every
    animation frame) added about 50 ms to an installed start (8 starts of each, taking turns, 2026-12-05)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(5):   # a page that navigates again (a new build taking over) is asked again
        try:
            ms = page.evaluate("""(limit) => Promise.race([window.xeriUsableAt, new Promise((_, no) => setTimeout(
                () => no(new Error(`no first screen within ${limit} ms`)), limit))])""", timeout)
            return float(ms) / 1000
        except PlaywrightError as exc:
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
            page.wait_for_load_state()
    raise AssertionError("the page kept navigating: no first screen seen")


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _chromium():
    from tests.e2e.chromium import CHROMIUM, HOW_TO

    if not Path(CHROMIUM).exists():
        print(f"skipped: {HOW_TO}")
        return None
    if importlib.util.find_spec("playwright") is None:
        print("skipped: the app benchmark needs Playwright in .venv (`make setup` installs it); "
              "use Debian's Chromium, never Playwright's own browser download")
        return None
    return CHROMIUM


def measure_start(browser, url: str, locale: str = "en-US") -> dict[str, list[float]]:
    """Per run, for a browser set to `locale`, seconds from navigation start as the page saw them
    (`watch_usable`): to Flutter's placeholder (the engine loaded) and to `new-match` (usable); the
    bytes the page received by then; and, when the page asks
    for the Hangul font, the seconds until it has arrived and its bytes."""
    from tests.e2e.chromium import PHONE

    out: dict[str, list[float]] = {"usable": [], "loaded": [], "bytes": [], "font_s": [], "font_bytes": []}
    for _ in range(RUNS):
        context = browser.new_context(viewport=PHONE, locale=locale)
        page = context.new_page()
        received: list[tuple[str, int, float]] = []

        def finished(request, received=received):
            try:
                size = request.sizes()["responseBodySize"]
            except Exception:  # a request the page gave up on
                size = 0
            received.append((request.url, size, time.perf_counter()))

        page.on("requestfinished", finished)
        watch_usable(page)
        start = time.perf_counter()   # the Hangul font's arrival below is timed from here
        page.goto(url)
        out["usable"].append(usable_in_page(page, 60_000))
        out["loaded"].append(float(page.evaluate("window.xeriLoaded")) / 1000)
        out["bytes"].append(sum(size for _u, size, _t in received))
        if locale.startswith("ko"):
            deadline = time.perf_counter() + 60
            while not any("XeriHangul" in u for u, _s, _t in received):
                if time.perf_counter() > deadline:
                    raise AssertionError("a Korean page never received the Hangul font")
                page.wait_for_timeout(20)
            _url, size, at = next(r for r in received if "XeriHangul" in r[0])
            out["font_s"].append(at - start)
            out["font_bytes"].append(size)
        context.close()
    return out


COUNTING_8 = ENGLISH("entry.counting_of", side="Ben", value=ENGLISH("entry.auto_value", n=8))
"""What Ben's counting tab says once Anna's 12 leave him 8, in the catalog's own words (the benchmark waited for
words typed here, "cards: 8 (", which a change of the catalog's sentence left it waiting for until its time-out)."""


def timed_tap(app, ident: str, watch: str, wanted: str) -> tuple[float, float]:
    """Tap `ident`; return (ms in the page from pointerdown to `watch` showing `wanted`, ms seen from Python)."""
    app.wait_id(ident)
    box = app.scroll_to(ident)
    time.sleep(0.3)  # let the previous frame, and any animation, settle
    app.page.evaluate(ARM, [watch, wanted])
    start = time.perf_counter()
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    app.page.wait_for_function("() => window.__bench && window.__bench.end !== null", timeout=15_000, polling=5)
    wall = (time.perf_counter() - start) * 1000
    result = app.page.evaluate("() => window.__bench")
    return result["end"] - result["start"], wall


def type_name(app, ident: str, text: str) -> None:
    """Type a name; `Driver.type` waits until the app shows it, typing again if Flutter lost it."""
    app.type(ident, text)
    if text not in app.screen_text():
        raise AssertionError(f"could not type {text!r} into {ident}")


COUNTING_TAP = "hand entry: tap counting-0-12 until Ben's counting cards say 8"
XERI_TAP = "scoreboard: tap xeri-0 until its label says now N"
SAVE_TAP = "hand entry: tap Save until the scoreboard's sheet shows the hand"


HANDS_A_MATCH = 5
"""Hands saved on one match before the next is started: a classic match of more is over (151 points)."""


def _start_match(app) -> None:
    """A new two-player match, Anna against Ben, from wherever the app is (the one in play stopped for it)."""
    from tests.flows import new_match

    new_match(app)
    type_name(app, "name-0", "Anna")
    type_name(app, "name-1", "Ben")
    app.tap("start-match")
    app.wait_id("end-hand")


def tap_steps(app, runs: int = RUNS) -> Iterator[tuple[str, tuple[float, float]]]:
    """The timed taps, one per step: (what, `timed_tap`'s result). First `runs` live xeris on a new match's
    scoreboard, then `runs` counting cards on its form, then `runs` saves (a new match every `HANDS_A_MATCH`).
    Each step does its own untimed setting up when asked for, so two apps can take turns tap by tap
    (`bench_pwa`)."""
    _start_match(app)
    for n in range(1, runs + 1):
        yield XERI_TAP, timed_tap(app, "xeri-0", "xeri-0", f"now {n})")
    app.tap("end-hand")
    app.wait_id("counting-0-12")
    for _ in range(runs):
        app.tap("counting-0-5")                 # set the other side to 15 first (not timed)
        app.see("Ben 15 (filled in)")
        yield COUNTING_TAP, timed_tap(app, "counting-0-12", "counting-side-1", COUNTING_8)
    app.tap("back")                             # the form left for the table (its hand is not saved)
    app.wait_id("end-hand")
    for n in range(runs):
        hand = n % HANDS_A_MATCH
        if hand == 0:
            _start_match(app)
        app.tap("end-hand")
        app.wait_id("counting-0-12")
        for ident in ("counting-0-12", "most-0", "ten-0", "two-1"):
            app.tap(ident)
        yield SAVE_TAP, timed_tap(app, "save-hand", f"hand-{hand}", f"Hand {hand + 1}:")


def measure_taps(app, runs: int = RUNS) -> dict[str, tuple[list[float], list[float]]]:
    """Every step of `tap_steps`: for each tap, (ms in the page, ms seen from Python) of each run."""
    out: dict[str, tuple[list[float], list[float]]] = {COUNTING_TAP: ([], []), XERI_TAP: ([], []), SAVE_TAP: ([], [])}
    for label, (page_ms, wall_ms) in tap_steps(app, runs):
        out[label][0].append(page_ms)
        out[label][1].append(wall_ms)
    return out


HAND_TYPES: list[tuple[str, tuple[int, int], int | str, list[str | tuple[str, ...]]]] = [
    # (what, window, players, taps after End hand)
    ("2 players, a typical hand", (360, 640), 2, ["most-0", "counting-0-12", "ten-0", "two-1", "save-hand"]),
    ("2 players, a xeri corrected on the form", (360, 640), 2,
     ["most-0", "counting-0-12", "ten-0", "two-1", "open-xeris", "xeris-1-plus", "save-hand"]),
    ("2 players, counted piles", (360, 640), 2,
     ["toggle-counts", ("cards-0", "30"), "counting-0-12", "ten-0", "two-1", "save-hand"]),
    ("3 players (greek-online)", (390, 844), 3,
     ["most-0", "counting-0-6", "counting-1-5", "ten-0", "two-1", "save-hand"]),
    ("4 players (greek-online)", (390, 844), 4,
     ["most-0", "counting-0-5", "counting-1-4", "counting-2-3", "ten-0", "two-1", "save-hand"]),
    ("4 players in 2 teams", (390, 844), "partners", ["most-0", "counting-0-12", "ten-0", "two-1", "save-hand"]),
]


def measure_hand_types(browser, url: str) -> list[tuple[str, str, int, int]]:
    """(hand type, window, taps the app saw from End hand to saved, scrolls) for each kind of hand."""
    from tests.e2e.driver import Driver

    rows = []
    names = ["Anna", "Ben", "Chris", "Dora"]
    for what, (width, height), players, steps in HAND_TYPES:
        context = browser.new_context(viewport={"width": width, "height": height})
        app = Driver(context.new_page(), url)
        app.open()
        app.tap("new-match")
        if app.wait_any("start-match", "confirm-yes") == "confirm-yes":   # the match before is stopped for it
            app.tap("confirm-yes")
        layout = {2: "two", 3: "three", 4: "four", "partners": "partners"}[players]
        app.tap(f"layout-{layout}")
        for i in range(2 if players == 2 else 4 if players in (4, "partners") else 3):
            type_name(app, f"name-{i}", names[i])
        app.tap("start-match")
        app.wait_id("end-hand")
        app.tap("end-hand", scroll=False)
        app.wait_id("save-hand")
        before, scrolls = app.taps, 0
        for step in steps:
            ident = step[0] if isinstance(step, tuple) else step
            if app.box_if_visible(ident) is None:
                scrolls += 1                         # a person would have to scroll to reach it
                app.scroll_to(ident)
            if isinstance(step, tuple):
                app.type(*step)
            else:
                app.tap(step, scroll=False)
        app.wait_id("end-hand")
        rows.append((what, f"{width}x{height}", app.taps - before, scrolls))
        context.close()
    return rows


def main() -> None:
    chromium = _chromium()
    if chromium is None:
        return
    from playwright.sync_api import sync_playwright

    from tests.app_server import AppServer
    from tests.e2e.chromium import CHROMIUM_ARGS, PHONE
    from tests.e2e.driver import Driver

    with tempfile.TemporaryDirectory(prefix="xeri-bench-app-") as tmp:
        started = time.perf_counter()
        server = AppServer(Path(tmp) / "data").start()
        serving = time.perf_counter() - started
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                try:
                    starts = {locale: measure_start(browser, server.url, locale) for locale in ("en-US", "ko-KR")}
                    context = browser.new_context(viewport=PHONE)
                    app = Driver(context.new_page(), server.url)
                    app.open()
                    taps = measure_taps(app)
                    context.close()
                    hand_types = measure_hand_types(browser, server.url)
                finally:
                    browser.close()
        except Exception:
            print(f"the app benchmark failed; server log: {server.log.read_text()[-2000:]}")
            raise
        finally:
            server.stop()

    print(f"Chromium {chromium}, headless, {PHONE['width']}x{PHONE['height']}; median of {RUNS} runs")
    print(f"(the server process took {serving:.1f} s from launch to accepting connections; not counted below)")
    start_ok = True
    for locale, run in starts.items():
        start_s = _median(run["usable"])
        start_ok &= start_s <= START_GOAL_S
        print(f"start-up in {locale}, goto → new-match usable: median {start_s:.2f} s "
              f"(runs {', '.join(f'{t:.2f}' for t in run['usable'])}; Flutter's placeholder at "
              f"{_median(run['loaded']):.2f} s; {_median(run['bytes']) / 1e6:.2f} MB received)"
              f"   goal ≤ {START_GOAL_S:.0f} s {'met' if start_s <= START_GOAL_S else 'MISSED'}")
        if run["font_s"]:
            print(f"  the Hangul font ({_median(run['font_bytes']) / 1e3:.0f} KB) received at median "
                  f"{_median(run['font_s']):.2f} s after goto (runs {', '.join(f'{t:.2f}' for t in run['font_s'])})")
    taps_ok = True
    for label, (page_ms, wall_ms) in taps.items():
        median = _median(page_ms)
        ok = median <= TAP_GOAL_MS
        taps_ok &= ok
        print(f"{label}: median {median:.0f} ms pointerdown → updated tree "
              f"(runs {', '.join(f'{t:.0f}' for t in page_ms)}; {_median(wall_ms):.0f} ms seen from Python)"
              f"   goal ≤ {TAP_GOAL_MS:.0f} ms {'met' if ok else 'MISSED'}")
    print(f"goals: start-up {'met' if start_ok else 'NOT met'}, tap latency {'met' if taps_ok else 'NOT met'}")
    print("\ntaps and scrolls per hand, from End hand to saved (every tap made without scrolling; typing a")
    print("number counts as one tap per character the app saw):")
    print(f"  {'hand':<42} {'window':>9} {'taps':>5} {'scrolls':>8}")
    for what, window, count, scrolls in hand_types:
        print(f"  {what:<42} {window:>9} {count:>5} {scrolls:>8}")


if __name__ == "__main__":
    main()
