"""A small driver for the Flet app in Chromium: open, tap by identifier or name, read text, count taps."""

from __future__ import annotations

import re
import time

DEFAULT_TIMEOUT = 15_000


class Driver:
    """Drives one page of the app; `taps` counts every tap a person would make."""

    def __init__(self, page, url: str):
        self.page = page
        self.url = url
        self.taps = 0
        page.set_default_timeout(DEFAULT_TIMEOUT)

    def open(self) -> None:
        self.page.goto(self.url)
        self.enable_semantics()

    def reload(self) -> None:
        self.page.reload()
        self.enable_semantics()

    def enable_semantics(self) -> None:
        placeholder = self.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=60_000)
        placeholder.dispatch_event("click")
        self.page.locator("flt-semantics").first.wait_for(state="attached", timeout=60_000)

    def by_id(self, ident: str):
        return self.page.locator(f'[flt-semantics-identifier="{ident}"]')

    def wait_id(self, ident: str, timeout: int = DEFAULT_TIMEOUT):
        loc = self.by_id(ident).first
        loc.wait_for(state="attached", timeout=timeout)
        return loc

    def tap(self, ident: str) -> None:
        """Tap the control with this identifier (scrolling it into view first)."""
        loc = self.wait_id(ident)
        target = loc.locator('[role="button"], [role="switch"], [role="checkbox"], flt-semantics[role]').first
        (target if target.count() else loc).click()
        self.taps += 1

    def tap_text(self, name: str, role: str = "button") -> None:
        self.page.get_by_role(role, name=re.compile(re.escape(name))).first.click()
        self.taps += 1

    def is_disabled(self, ident: str) -> bool:
        loc = self.wait_id(ident)
        return loc.locator('[aria-disabled="true"]').count() > 0 or loc.get_attribute("aria-disabled") == "true"

    def wait_any(self, *idents: str, timeout: int = DEFAULT_TIMEOUT) -> str:
        """Wait until one of the identifiers is on screen; return it."""
        deadline = time.monotonic() + timeout / 1000
        while time.monotonic() < deadline:
            for ident in idents:
                if self.by_id(ident).count():
                    return ident
            time.sleep(0.05)
        raise AssertionError(f"none of {idents} came on screen")

    def type(self, ident: str, text: str) -> None:
        """Type into a text field key by key, as a person does, then wait until the app shows the
        text somewhere else on screen (a name appears on the dealer buttons) or a second passes."""
        box = self.wait_id(ident).locator("input, textarea").first
        box.click()
        time.sleep(0.2)  # Flutter sets up its editing element after the tap; a person takes that long too
        self.page.keyboard.press("Control+A")
        self.page.keyboard.type(text, delay=15)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and text not in self.screen_text():
            time.sleep(0.05)
        self.taps += 1

    def text_of(self, ident: str) -> str:
        loc = self.wait_id(ident)
        return " ".join(filter(None, [loc.get_attribute("aria-label") or "", loc.inner_text()]))

    def screen_text(self) -> str:
        """Everything the accessibility tree says: text content and labels, one node a line."""
        return self.page.evaluate(
            """() => [document.body.innerText].concat(Array.from(document.querySelectorAll('[aria-label]'))
                   .map(n => n.getAttribute('aria-label'))).join(String.fromCharCode(10))""")

    def see(self, text: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        """Wait until `text` is on screen (as text or as a label)."""
        deadline = time.monotonic() + timeout / 1000
        while True:
            if text in self.screen_text():
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} is not on screen; it shows:\n{self.screen_text()}")
            time.sleep(0.05)

    def has_text(self, text: str) -> bool:
        return text in self.screen_text()

    def wait_gone(self, ident: str, timeout: int = DEFAULT_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout / 1000
        while time.monotonic() < deadline:
            if self.by_id(ident).count() == 0:
                return
            time.sleep(0.05)
        raise AssertionError(f"{ident} is still on screen")

    def screenshot(self, path) -> None:
        time.sleep(0.8)  # let route and button animations settle
        self.page.screenshot(path=str(path), full_page=False)
