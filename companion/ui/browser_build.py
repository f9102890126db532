"""The browser build's front door: the app in a browser tab with its own Python (the offline build, pwa/):
main.py runs `run()` in Pyodide's web worker. What differs from the served app: the data is the browser's IndexedDB
(`companion.storage.browser`), there are no threads, and the page shows what an intent saved only once
the browser has kept it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlparse

import flet as ft

from .. import bootstrap, logs
from ..i18n import Translator, first_spoken
from ..net.access import wanted_languages
from ..net.server import LANGUAGES_KEY
from ..service import StorageError
from ..service.sync import Report
from ..storage.browser import BrowserStore, open_in_browser
from .app import ObservableSession, make_main
from .page import PageOptions
from .views.widgets import holdable
from .viewmodel import Tone
from .views import LATER as LATER_VIEWS
from .views.theme import themes

log = logging.getLogger(__name__)
try:  # in the build's worker: what a call into JavaScript raises when the page is not as expected
    from pyodide.ffi import JsException

    NOT_IN_PAGE: tuple[type[BaseException], ...] = (ImportError, AttributeError, JsException)
except ImportError:  # anywhere else: there is no `js` to import
    NOT_IN_PAGE = (ImportError, AttributeError)

WARM_AFTER = 5.0
"""Seconds after the first screen before the history is scored ahead of time (one match at a time)."""


def mark(name: str) -> None:
    """A time stamp on the page's start-up timeline (pwa/web/python-worker.js gathers them)."""
    try:
        import js

        js.xeriMark(name)
    except NOT_IN_PAGE:  # not in the build's worker (a test, another host): nothing to mark on
        log.debug("no start-up mark %s", name, exc_info=True)


TRACE = False
"""Set from the page's address in `run` (`?trace=1`, for benchmarks/bench_pwa.py): each tap's steps are marked
on the page's timeline (`tap:…`), to see where a tap's time goes."""


def trace(name: str) -> None:
    if TRACE:
        mark(name)


PROFILE = False
"""Set from the page's address in `run` (`?profile=1`): Python's calls from Flutter's connection to the first
screen drawn are profiled, and the slowest are written to the browser's console (`profile_report`)."""


@contextmanager
def profiled() -> Iterator[None]:
    """Every Python call in the block profiled, and the slowest written to the console after it, when the
    page asked for it (`PROFILE`). cProfile and pstats are left out of the build's standard library; `_lsprof`
    is their part written in C."""
    if not PROFILE:
        yield
        return
    import _lsprof

    found = _lsprof.Profiler()
    found.enable()
    try:
        yield
    finally:
        say_in_console(profile_report(found))


def profile_report(found: Any, top: int = 40) -> str:
    """What `found` saw, stopped: ms in a function and what it called, ms in the function itself, its calls,
    and where it is; the `top` by the first figure, then by the second."""
    found.disable()
    entries = found.getstats()

    def line(entry: Any) -> str:
        code = entry.code
        where = code if isinstance(code, str) else (
            f"{code.co_filename.rsplit('__pypackages__/', 1)[-1]}:{code.co_firstlineno} {code.co_name}")
        return f"{entry.totaltime * 1000:9.1f} {entry.inlinetime * 1000:9.1f} {entry.callcount:7d}  {where}"

    by_total = sorted(entries, key=lambda entry: -entry.totaltime)[:top]
    by_own = sorted(entries, key=lambda entry: -entry.inlinetime)[:top]
    return "\n".join(["Python until the first screen (ms with calls, ms own, calls, function); by the first:",
                      *map(line, by_total), "by the second:", *map(line, by_own)])


def say_in_console(text: str) -> None:
    """`text` in the browser's console (a line of the log elsewhere)."""
    try:
        import js

        js.console.log(text)
    except NOT_IN_PAGE:
        log.info("%s", text)


class BrowserSession(ObservableSession):
    """The page's session in a browser tab: the redraw after an intent that saved something waits until
    the browser has kept it (the folder flushed to IndexedDB), so a save shown as done is done.

    Redraws are held from the start of each outermost intent (`intent_began`). At its end they are let go
    at once if nothing was written, else once `BrowserStore.settle()` returned. A redraw for another
    reason meanwhile (the window resized) waits too, so nothing on screen runs ahead of the storage. When
    the browser refuses to keep data, the page shows changes at once and says so.

    (Tried, and left: redrawing at once and holding only what the redraw sends until the flush is done.
    IDBFS's flush needs the worker's thread for its callbacks, which the redraw holds: the two took turns
    anyway, and taps were no faster; see docs/pwa.md.)
    """

    def __init__(self, kept_in: BrowserStore, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.kept_in = kept_in
        """The storage whose flushes a redraw waits for (the page's; the screens see only the services)."""
        if kept_in.refused:
            self.problems_at_open.append(self.tr("notice.browser.refused", reason=kept_in.refused))

    def intent_began(self) -> None:
        trace("tap:intent")
        self.hold_redraws()

    def intent_ended(self) -> None:
        trace("tap:intent-done")
        if self.__dict__.get("_settling"):
            return  # the flush under way keeps this intent's writes too, then lets the page go
        storage = self.kept_in
        if not storage.unsettled():
            self.let_go_redraws()
        elif storage.refused:
            # Known to keep nothing: show the change now (it lives in memory) and try again quietly.
            self.let_go_redraws()
            asyncio.ensure_future(self._settle(quietly=True))
        else:
            self._settling = True
            asyncio.ensure_future(self._settle(quietly=False))

    async def _settle(self, quietly: bool) -> None:
        storage = self.kept_in
        try:
            trace("tap:flush")
            await storage.settle()
            trace("tap:flushed")
        except StorageError:
            if not quietly:
                self._holding = False
                self.say("notice.browser.unkept", Tone.PROBLEM, reason=storage.refused or "")
        finally:
            if not quietly:
                self._settling = False
                trace("tap:let-go")
                self.let_go_redraws()


def browser_languages() -> tuple[str, ...]:
    """The languages this browser asks for, best first (`navigator.languages`: the phone's own). The served
    app reads the same list from the Accept-Language header, which no request carries here."""
    try:
        import js

        names = [str(name) for name in (js.navigator.languages or [js.navigator.language or ""])]
    except NOT_IN_PAGE:  # not in a browser's worker
        log.debug("no browser languages", exc_info=True)
        return ()
    return wanted_languages(",".join(names))


def kept_prefs() -> dict[str, object] | None:
    """What this browser keeps for the app (`SharedPreferences`: localStorage), by key, as the page read it before
    this start (pwa/web/python.js); None when the page could not read it (Python then asks Flutter)."""
    try:
        import flet_js

        text = flet_js.keptPrefs
    except (ImportError, AttributeError):  # not in the build's worker
        return None
    if not isinstance(text, str):
        return None
    try:
        raw = json.loads(text)
        return {str(key): json.loads(value) for key, value in raw.items() if isinstance(value, str)}
    except (ValueError, AttributeError):  # not what python.js writes: ask Flutter
        log.warning("the page's kept settings were not readable: %.80r", text)
        return None


def browser_language() -> str:
    """The first of the browser's languages the app speaks, else English (before any setting can be read)."""
    return first_spoken(browser_languages())


def message_page(page: ft.Page, text: str, retry: str | None = None) -> None:
    """A page with one sentence on it, and a button that loads the page again."""
    tr = Translator(browser_language())
    page.title = tr("app.title")
    page.theme, page.dark_theme = themes()     # the app's colours, not Flet's blue
    controls: list[ft.Control] = [ft.Text(text, size=18)]
    if retry is not None:
        async def again(_e=None):
            await ft.UrlLauncher().launch_url(retry, web_only_window_name="_self")

        controls.append(ft.Semantics(identifier="try-again",
                                     content=holdable(ft.FilledButton(tr("browser.try_again"), on_click=again))))
    page.add(ft.SafeArea(ft.Column(controls, spacing=20), expand=True))


SNAPSHOT_ALSO = ("segno", "openskill.models", "companion.formats.archive", "companion.history.csv", *LATER_VIEWS)
"""Modules the app imports only when a screen needs them (a first visit does not wait for them), which the
snapshot holds all the same: an installed start then never imports them either (`companion.net.qr`, the
ratings' `history.ratings._model`, the zip and CSV of `service.backups`, the screens other than home:
`views.Later`)."""


def report_modules() -> None:
    """Tell the page which modules the app has loaded, and `SNAPSHOT_ALSO`: what a memory snapshot for the next
    start holds."""
    try:
        import js

        names = {name for name in sys.modules if not name.startswith("_")} | set(SNAPSHOT_ALSO)
        js.xeriModules(json.dumps(sorted(names)))
    except NOT_IN_PAGE:  # not in the build's worker: nobody to tell
        log.debug("modules not reported", exc_info=True)


def run() -> None:
    """Start the app in this browser tab; returns at once (the page drives it from here)."""
    mark("py:main-start")
    try:
        import flet_js

        document_url = str(flet_js.documentUrl or "")
    except ImportError:  # not in flet's worker
        document_url = ""
    # Read now, not at import: a start from a memory snapshot has the modules imported already, by another
    # page load with another address.
    options = PageOptions.from_address(document_url)
    global TRACE, PROFILE
    asked = urlparse(document_url).query.split("&")
    TRACE, PROFILE = "trace=1" in asked, "profile=1" in asked
    random.seed()  # a start from a snapshot would otherwise repeat the snapshot's random state
    logs.configure()  # as every front door has it: the app's warnings to the console, in one format
    opening = asyncio.ensure_future(open_in_browser())

    async def main(page: ft.Page) -> None:
        mark("py:session")
        with profiled():  # ?profile=1
            try:
                _kept_in, store = await opening
            except StorageError as exc:
                # The sentence is the phone's language; the reason inside it is IndexedDB's or the system's.
                tr = Translator(browser_language())
                message_page(page, tr("browser.unopened", reason=tr.say(exc)))
                return
            mark("py:store-open")
            if store is None:
                message_page(page, Translator(browser_language())("browser.elsewhere"), retry=document_url or "/")
                mark("py:main-done")
                return
            page.session.store.set(LANGUAGES_KEY, list(browser_languages()))  # as the server does (`before_main`)
            parts = bootstrap.build(store)
            await make_main(parts, options, browser_session(parts, store), kept_prefs)(page)
            await asyncio.wrap_future(page._xeri_started)  # type: ignore[attr-defined]  # the first screen, drawn
            mark("py:main-done")

            async def after_start() -> None:
                await asyncio.sleep(2)  # the first screen has been drawn: its modules are loaded
                report_modules()
                start_sync(page, parts, store)
                await asyncio.sleep(max(WARM_AFTER - 2, 0))
                await parts.history.follow_stepwise(parts.services.library)

            page.run_task(after_start)

    ft.run(main)


def start_sync(page: ft.Page, parts: bootstrap.Parts, store: BrowserStore) -> None:
    """Keep this tab in step with its group: the sync runner as a task on the page's loop (a tab has no
    threads; its requests go through the browser's `fetch`, `companion.sync.transport`). After each round,
    what it stored (and what it knows of the group: the outbox, the checkpoint) is kept in IndexedDB before
    the phone is told: a match shown as arrived survives the tab being closed, and the checkpoint never
    runs ahead of the matches (one flush keeps the folder whole)."""
    runner = parts.runner
    if runner is None:
        return
    told = runner.after_round

    async def kept_then_told(report: Report) -> None:
        if store.unsettled():
            try:
                await store.settle()
            except StorageError as exc:  # kept in memory; the next settle tries again, and the page says so
                log.warning("sync: what arrived is not kept in this browser yet: %s", exc)
        if told is not None:
            done = told(report)
            if done is not None:
                await done

    runner.after_round = kept_then_told
    try:  # the network back: a round at once, not after the back-off (the worker's own `online` event)
        import js
        from pyodide.ffi import create_proxy

        js.addEventListener("online", create_proxy(lambda *_: runner.poke()))
    except NOT_IN_PAGE:
        log.debug("no online event to listen to", exc_info=True)
    page.run_task(runner.run)


def browser_session(parts: bootstrap.Parts, store: BrowserStore):
    """A page's session in the browser build: the phone's own languages, and redraws that wait for the browser
    to keep what was saved."""
    def new_session(page: ft.Page) -> BrowserSession:
        return BrowserSession(store, parts.services, parts.history, wanted=browser_languages())

    return new_session
