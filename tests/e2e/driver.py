"""A small driver for the Flet app in Chromium: open, tap by identifier, type, read text.

Every step waits on a condition, never on a fixed sleep. The app runs with `XERI_TEST_HOOKS=1`, so the
page carries what the app has seen (`app-seen`: its revision and the taps it received): a tap waits
until the app has taken it, and typing waits until the app holds the typed text (a text field's
semantics value is what the view model holds, see `widgets.labelled`).
"""

from __future__ import annotations

import re
import time

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

DEFAULT_TIMEOUT = 15_000
SCREEN_TEXT = """[document.body.innerText].concat(Array.from(document.querySelectorAll('[aria-label]'))
                   .map(n => n.getAttribute('aria-label'))).join(String.fromCharCode(10))"""
"""Everything the accessibility tree says, as one string (a JavaScript expression)."""
_SEEN = re.compile(r"revision (\d+) taps (\d+)")
RECORDER = """(() => {
    // What happened to each tap in this page, for the words of a failed wait: the pointer events and clicks
    // (on which identified control, tappable or disabled as the page showed it then), and what the page sent
    // and received over its WebSocket or from its Python worker (bytes), the last 200 of them, timed from the page's start.
    const events = window.__xeriEvents = [];
    const keep = (entry) => { entry.t = Math.round(performance.now()); events.push(entry); if (events.length > 200) events.shift(); };
    const where = (target) => {
        const el = target instanceof Element ? target : null;
        const owner = el && el.closest('[flt-semantics-identifier]');
        return {on: owner ? owner.getAttribute('flt-semantics-identifier') : (el ? el.tagName.toLowerCase() : '?'),
                tappable: !!(el && el.closest('[flt-tappable]')),
                disabled: !!(el && el.closest('[aria-disabled="true"]'))};
    };
    for (const type of ['pointerdown', 'pointerup', 'click', 'focusin', 'focusout']) {
        window.addEventListener(type, (e) => keep(Object.assign({type}, where(e.target))), true);
    }
    // The served app talks over a WebSocket, the browser build to its Python in a worker, both in bytes or text
    // (text counted in characters). Messages that are objects (Flutter's drawing) are not kept; the bytes of
    // the browser build's other worker (its snapshot) are, unnamed.
    const size = (data) => typeof data === 'string' ? data.length : (data && data.byteLength !== undefined ? data.byteLength
                                                                     : (data instanceof Blob ? data.size : null));
    for (const [kind, name] of [[WebSocket, 'send'], [Worker, 'postMessage']]) {
        const original = kind.prototype[name];
        kind.prototype[name] = function (data, ...rest) {
            if (size(data) !== null) keep({type: 'sent', bytes: size(data)});
            if (!this.__xeriHeard) {
                this.__xeriHeard = true;
                this.addEventListener('message', (e) => { if (size(e.data) !== null) keep({type: 'heard', bytes: size(e.data)}); });
                this.addEventListener('close', (e) => keep({type: 'closed', code: e.code}));
            }
            return original.call(this, data, ...rest);
        };
    }
})()"""
"""Installed in every page the driver opens (`Driver.__init__`): the page's own record of what became of a tap,
said when a wait times out (`Driver.events`)."""


class Driver:
    """Drives one page of the app, as a person does: taps and typing."""

    def __init__(self, page, url: str):
        self.page = page
        self.url = url
        page.set_default_timeout(DEFAULT_TIMEOUT)
        page.add_init_script(RECORDER)

    def open(self) -> None:
        self.page.goto(self.url)
        self.enable_semantics()

    def reload(self) -> None:
        self.page.reload()
        self.enable_semantics()

    def enable_semantics(self, timeout: int = 60_000, screen: bool = True) -> Driver:
        """Wait until Flutter is up in the page, turn its accessibility tree on, and (`screen`) wait until the
        app draws a screen: the one boot sequence, for the served app and the browser build (whose start
        may take `tests/e2e/site.BOOT`)."""
        placeholder = self.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=timeout)
        placeholder.dispatch_event("click")
        if screen:
            self.by_id("app-seen").wait_for(state="attached", timeout=timeout)
        return self

    # --- what the app has seen ---------------------------------------------------------------------
    def seen(self) -> tuple[int, int]:
        """The app's (revision, taps): every change it made, and the intents a person sent it."""
        node = self.by_id("app-seen")
        label = (node.get_attribute("aria-label") or "") + " " + (node.text_content() or "")
        found = _SEEN.search(label)
        if found is None:
            raise AssertionError(f"the page does not say what the app saw (XERI_TEST_HOOKS=1?): {label!r}")
        return int(found.group(1)), int(found.group(2))

    @property
    def taps(self) -> int:
        """Taps the app has received on this page so far."""
        return self.seen()[1]

    def wait_taps(self, more_than: int, what: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        """Wait until the page shows the app took more than `more_than` taps (the page itself is asked, in
        the page: no round trip from Python per look)."""
        self.wait_page("""(more) => {
            const node = document.querySelector('[flt-semantics-identifier="app-seen"]');
            const label = node ? (node.getAttribute('aria-label') || '') + ' ' + (node.textContent || '') : '';
            const found = /revision (\\d+) taps (\\d+)/.exec(label);
            return found !== null && Number(found[2]) > more;
        }""", more_than, timeout, lambda: f"the app never took the tap on {what!r} (it shows {self.seen()})")

    def events(self, last: int = 40) -> str:
        """The page's record of its last pointer events, clicks, focus changes and messages to and from the app
        (`RECORDER`), one a line: what became of a tap."""
        try:
            entries = self.page.evaluate("(last) => (window.__xeriEvents || []).slice(-last)", last)
        except Exception as exc:   # the words of a failure already under way: say why there are none
            return f"(the page could not be asked: {exc})"
        return "\n".join(f"  {e.pop('t'):>7} ms {e.pop('type')} " + " ".join(f"{k}={v}" for k, v in e.items())
                         for e in entries)

    def wait_page(self, script: str, arg, timeout: int, failure) -> Any:
        """`page.wait_for_function(script, arg)` (polled in the page every 50 ms): its value; its time-out said
        as the test's own failure (`failure()`: words), with the page's last events (`events`: what became of
        the last taps, or that the page no longer answers)."""
        try:
            return self.page.wait_for_function(script, arg=arg, timeout=timeout, polling=50).json_value()
        except PlaywrightTimeout:
            raise AssertionError(f"{failure()}\nthe page's last events:\n{self.events()}") from None

    # --- finding things ----------------------------------------------------------------------------
    def by_id(self, ident: str):
        return self.page.locator(f'[flt-semantics-identifier="{ident}"]')

    def wait_id(self, ident: str, timeout: int = DEFAULT_TIMEOUT):
        loc = self.by_id(ident).first
        loc.wait_for(state="attached", timeout=timeout)
        return loc

    def _target(self, ident: str):
        loc = self.wait_id(ident)
        target = loc.locator('[role="button"], [role="switch"], [role="checkbox"], flt-semantics[role]').first
        return target if target.count() else loc

    # --- acting ------------------------------------------------------------------------------------
    def tap(self, ident: str, wait: bool = True, scroll: bool = True, hold: float = 0) -> None:
        """Tap the control with this identifier, and wait until the app has taken the tap.

        `scroll=False` taps where the control is without scrolling anything, and fails if any of it is
        outside the window: what a person standing at the table sees is all there is. `wait=False` for a
        control that opens something of the browser's (a file chooser) before the app hears of it. `hold`:
        seconds the press is held before it is let go, as a person pressing firmly does.
        """
        before = self.seen()[1] if wait else 0
        if scroll:
            # Where a person can see it: scrolled to with the wheel if it is not wholly on screen, then tapped there.
            # (Playwright's own click scrolls the accessibility tree's node into view, and Flutter's drawing does
            # not always follow: seen at 360×640 in Korean, the tree said goal-hands was at y 274 and the click went
            # there, while the drawing still showed the second team's fields; the app heard no tap.)
            # Then Playwright's click, which now has nothing to scroll and still waits until the control is steady
            # and nothing else takes the pointer there (the loading screen, a moment after the first screen).
            if self.box_if_visible(ident) is None:
                try:
                    self.scroll_to(ident)
                    self._towards_middle(ident)
                except AssertionError:   # never wholly on screen (taller than the window): as Playwright scrolls
                    pass
            self._target(ident).click(delay=hold * 1000)
        else:
            box = self.visible_box(ident)
            self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, delay=hold * 1000)
        if wait:
            self.wait_taps(before, ident)

    def visible_box(self, ident: str) -> dict:
        """The control's box, asserting all of it is inside the window and nothing covers it (a control
        scrolled under the pinned bar is in the window but cannot be tapped)."""
        box = self.box_if_visible(ident)
        assert box is not None, f"{ident} is not wholly on screen, uncovered, without scrolling"
        return box

    def box_if_visible(self, ident: str) -> dict | None:
        target = self._target(ident)
        box = target.bounding_box()
        view = self.page.viewport_size
        if box is None:
            return None
        inside = (box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= view["width"] + 0.5
                  and box["y"] + box["height"] <= view["height"] + 0.5)
        # Flutter draws on a canvas: what is under a point is told by the semantics nodes' own boxes, so
        # ask which identified node's box holds the centre, latest (topmost) last. A node of a scrolling column
        # keeps its whole box where the column hides part of it (a switch scrolled under the pinned Start
        # button "covered" Start): a box counts as far as its clipping ancestors show it.
        on_top = self.page.evaluate("""([x, y, ident]) => {
            const shown = (n) => {
                let r = n.getBoundingClientRect();
                let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
                for (let a = n.parentElement; a; a = a.parentElement) {
                    if (getComputedStyle(a).overflow === 'visible') continue;
                    const c = a.getBoundingClientRect();
                    [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top),
                                                  Math.min(right, c.right), Math.min(bottom, c.bottom)];
                }
                return {left, top, right, bottom};
            };
            const holds = (r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
            const target = document.querySelector(`[flt-semantics-identifier="${ident}"]`);
            const hits = Array.from(document.querySelectorAll('[flt-semantics-identifier]')).filter(n => {
                const r = n.getBoundingClientRect();   // clipping only takes away: clipped where it holds the point
                return r.width > 0 && holds(r) && !n.contains(target) && holds(shown(n));
            });
            return hits.length === 0 || hits.every(n => n.closest(`[flt-semantics-identifier="${ident}"]`));
        }""", [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, ident])
        return box if inside and on_top else None

    def scroll_to(self, ident: str, timeout: int = DEFAULT_TIMEOUT) -> dict:
        """Scroll with the mouse wheel, as a person would, until the control is wholly on screen and
        uncovered; its box. (Playwright's own scrolling moves the accessibility tree's boxes but not
        always what Flutter draws: for a screenshot of a control, the drawing has to be there.)"""
        deadline = time.monotonic() + timeout / 1000
        view = self.page.viewport_size
        while (box := self.box_if_visible(ident)) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"{ident} never came wholly on screen")
            where = self._target(ident).bounding_box()
            below = where is not None and where["y"] + where["height"] > view["height"] * 0.6
            self.page.mouse.move(view["width"] / 2, view["height"] / 2)
            self.page.mouse.wheel(0, 120 if below else -120)
            time.sleep(0.05)
        # A control cut by the edge of its scrolling column has a box cut to what shows (a 48 px button under the
        # status strip was a 39 px box "on screen"): go on a little while the box still grows.
        step = 40 if box["y"] + box["height"] / 2 > view["height"] / 2 else -40   # towards the edge it is nearer
        for _ in range(6):
            self.page.mouse.wheel(0, step)
            time.sleep(0.1)
            grown = self.box_if_visible(ident)
            if grown is None or (grown["height"] <= box["height"] + 0.5 and grown["width"] <= box["width"] + 0.5):
                if grown is None or grown["y"] != box["y"]:
                    self.page.mouse.wheel(0, -step)  # that step showed no more of it: back to where it was
                    time.sleep(0.1)
                break
            box = grown
        return self.box_if_visible(ident) or box   # as it is now, where a caller taps

    def _towards_middle(self, ident: str) -> dict:
        """A control just scrolled on screen, scrolled on towards the middle of the window while it moves, as a
        person brings what they will tap to where they see it well; its box. Just on screen it may be under a
        bar pinned at the bottom, which no identified node tells (seen: goal-hands under the new-match form's
        footer, the tap landing on the footer)."""
        view = self.page.viewport_size
        self.page.mouse.move(view["width"] / 2, view["height"] / 2)
        box = self.box_if_visible(ident)
        for _ in range(30):
            if box is None:
                raise AssertionError(f"{ident} left the screen")
            centre = box["y"] + box["height"] / 2
            if view["height"] * 0.3 <= centre <= view["height"] * 0.7:
                break
            step = 60 if centre > view["height"] * 0.7 else -60
            self.page.mouse.wheel(0, step)
            time.sleep(0.1)
            moved = self.box_if_visible(ident)
            if moved is None or moved["y"] == box["y"]:    # as far as it goes (or off again): stay where it showed
                if moved is None:
                    self.page.mouse.wheel(0, -step)
                    time.sleep(0.1)
                    moved = self.box_if_visible(ident) or box
                box = moved
                break
            box = moved
        return box

    def tappable_boxes(self) -> dict[str, tuple[float, float, float, float]]:
        """Every identified control a person can tap, with its box: to check that nothing moved."""
        return {k: tuple(v) for k, v in self.page.evaluate("""() => {
            const out = {};
            for (const node of document.querySelectorAll('[flt-semantics-identifier]')) {
                const id = node.getAttribute('flt-semantics-identifier');
                const tap = node.matches('[role="button"],[role="switch"],[role="checkbox"],[flt-tappable]')
                    ? node : node.querySelector('[role="button"],[role="switch"],[role="checkbox"],[flt-tappable]');
                if (!tap) continue;
                const r = tap.getBoundingClientRect();
                out[id] = [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
            }
            return out;
        }""").items()}

    def small_targets(self, least: float = 47.5) -> list[str]:
        """Tappable things on screen smaller than `least` × `least` px."""
        return self.page.evaluate("""(least) => {
            const out = [];
            for (const node of document.querySelectorAll('[role="button"],[role="switch"],[role="checkbox"],[role="link"],[flt-tappable],input')) {
                const r = node.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) continue;
                if (r.bottom < 0 || r.top > innerHeight) continue;
                if (r.width < least || r.height < least) {
                    const owner = node.closest('[flt-semantics-identifier]');
                    out.push(`${owner ? owner.getAttribute('flt-semantics-identifier') : node.textContent || node.getAttribute('aria-label')}: ${Math.round(r.width)}x${Math.round(r.height)}`);
                }
            }
            return out;
        }""", least)

    def type(self, ident: str, text: str) -> None:
        """Type into a text field key by key, as a person does; wait until the field shows the text and
        the app holds it.

        Flutter connects its text input a moment after the field takes focus, and nothing in the page
        says when: keys typed before that are lost. So, as a person would, look at the field and type
        again (over the selection) when it does not show what was typed.

        The field is first brought on screen and left until Flutter has stopped moving it, then clicked. (Clicked
        off screen, Playwright scrolls the accessibility tree's node into view and clicks where that node was:
        Flutter scrolled its drawing after it, the tap landed on the next field down, and the keys went to a
        field the app never heard from: seen at 844×390, the fourth player's field focused, the third's name
        lost.) Where the field or the app still does not hold the text, the whole look-click-type starts again.
        """
        field = self.wait_id(ident)
        box = field.locator("input, textarea").first
        for whole in range(3):
            last = whole == 2
            # On screen and still first (so the click below scrolls nothing), then the field itself is clicked;
            # on a busy machine the redraw that follows a tap can replace it as it is clicked: look and try again.
            self._settled_box(box)
            box.click()
            try:
                expect(box).to_be_focused()
            except AssertionError:
                if last:
                    raise
                continue
            for attempt in range(3):
                self.page.keyboard.press("Control+A")
                self.page.keyboard.type(text, delay=15)
                try:
                    expect(box).to_have_value(text, timeout=1_500)
                    break
                except AssertionError:
                    if attempt == 2 and last:
                        raise
            else:
                continue   # the keys went somewhere else: look, click and type again
            try:
                expect(field).to_have_attribute("aria-label", text, timeout=5_000 if not last else 15_000)
                return
            except AssertionError:
                if last:
                    raise

    def _settled_box(self, loc, timeout: float = 5.0) -> dict:
        """The element brought into the window, its box once Flutter has stopped moving it (two looks 150 ms
        apart agree: Flutter scrolls its drawing after the accessibility tree's node)."""
        loc.scroll_into_view_if_needed()
        deadline = time.monotonic() + timeout
        last = loc.bounding_box()
        while True:
            time.sleep(0.15)
            now = loc.bounding_box()
            if now is not None and now == last or time.monotonic() > deadline:
                assert now is not None, "the field is not on the page"
                return now
            last = now

    def is_disabled(self, ident: str) -> bool:
        loc = self.wait_id(ident)
        return loc.locator('[aria-disabled="true"]').count() > 0 or loc.get_attribute("aria-disabled") == "true"

    def wait_any(self, *idents: str, timeout: int = DEFAULT_TIMEOUT) -> str:
        """Wait until one of the identifiers is on screen; return it."""
        return self.wait_page("""(idents) => idents.find(
                              ident => document.querySelector(`[flt-semantics-identifier="${ident}"]`)) || false""",
                          list(idents), timeout, lambda: f"none of {idents} came on screen")

    # --- reading -----------------------------------------------------------------------------------
    def text_of(self, ident: str) -> str:
        loc = self.wait_id(ident)
        return " ".join(filter(None, [loc.get_attribute("aria-label") or "", loc.inner_text()]))

    def screen_text(self) -> str:
        """Everything the accessibility tree says: text content and labels, one node a line."""
        return self.page.evaluate(f"() => {SCREEN_TEXT}")

    def see(self, text: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        """Wait until `text` is on screen (as text or as a label)."""
        self.wait_page(f"(text) => {SCREEN_TEXT}.includes(text)", text, timeout,
                   lambda: f"{text!r} is not on screen; it shows:\n{self.screen_text()}")

    def has_text(self, text: str) -> bool:
        return text in self.screen_text()

    def wait_gone(self, ident: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        self.wait_page("(ident) => !document.querySelector(`[flt-semantics-identifier=\"${ident}\"]`)", ident, timeout,
                   lambda: f"{ident} is still on screen")

    def screenshot(self, path) -> None:
        # Route and button animations take about a second; a screenshot is for looking at, not a test.
        time.sleep(0.8)
        self.page.screenshot(path=str(path), full_page=False)

    def rows(self, prefix: str = "history-") -> set[str]:
        """The ids of the rows on screen whose identifiers start with `prefix` (the history's matches)."""
        found = self.page.evaluate("""(prefix) => Array.from(document.querySelectorAll(
            `[flt-semantics-identifier^="${prefix}"]`)).map(n => n.getAttribute('flt-semantics-identifier'))""", prefix)
        return {ident.removeprefix(prefix) for ident in found}

    def wait_rows(self, expected: set[str], prefix: str = "history-", timeout: int = DEFAULT_TIMEOUT) -> None:
        """Wait until the rows on screen are exactly `expected` (see `rows`)."""
        self.wait_page("""([prefix, expected]) => {
            const found = Array.from(document.querySelectorAll(`[flt-semantics-identifier^="${prefix}"]`))
                .map(n => n.getAttribute('flt-semantics-identifier').slice(prefix.length)).sort();
            return JSON.stringify([...new Set(found)]) === JSON.stringify(expected);
        }""", [prefix, sorted(expected)], timeout, lambda: f"history rows {expected} (on screen: {self.rows(prefix)})")

    def wait_text(self, ident: str, text: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        """Wait until the control with this identifier says `text` (in its label or its text)."""
        self.wait_page("""([ident, text]) => Array.from(document.querySelectorAll(`[flt-semantics-identifier="${ident}"]`))
            .some(n => ((n.getAttribute('aria-label') || '') + ' ' + n.innerText).includes(text))""", [ident, text],
                       timeout, lambda: f"{ident} does not say {text!r}; it says {self.text_of(ident)!r}")


def same_boxes(before: dict, after: dict, what: str) -> None:
    """No control on screen in both `tappable_boxes()` moved between them (`what` changed in between)."""
    common = set(before) & set(after)
    moved = {k: (before[k], after[k]) for k in common if before[k] != after[k]}
    assert len(common) >= 5, f"too few controls to compare after {what}: {sorted(common)}"
    assert moved == {}, f"controls moved after {what}: {moved}"


def wait_until(check, what, timeout: float = 10) -> None:
    """Poll `check` from Python until true; `what` (words, or a function giving them at the time) says what
    was awaited. Only for what no one page can tell (two pages agreeing); what a page can tell, it is asked
    in the page (`Driver.wait_page`, `see`, `wait_text`)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        time.sleep(0.05)
