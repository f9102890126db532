"""What only the page can do for one phone's session: Flet's device services (share, files, wakelock, links),
the messages between phones, timers, slow work off the event loop, fonts and the page's own look.

One `PageAdapter` per browser session, made by the `App` component (`ui.app`); one method per concern, so
it reads top to bottom. The view models never see Flet: they call what the adapter hands the session
(`announce`, `background`, `post`, `page_actions`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qs, urlparse
from weakref import WeakKeyDictionary

import flet as ft

from ..i18n import system_language
from ..net.server import connection_access
from .fonts import SCRIPT_FONTS, fonts_needed
from .viewmodel import AppModel, Screen, Tone
from .viewmodel.picture import SheetPicture
from .pngcut import SIGNATURE, NotAPicture, join_bands, opaque_rows, png_size

log = logging.getLogger(__name__)

THEME_MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
LOOPBACK = ("127.0.0.1", "::1", "::ffff:127.0.0.1", "localhost")
"""Client addresses of the device the app runs on (an IPv4 client of a server on `::` comes as `::ffff:`)."""
THREADS = sys.platform != "emscripten"
SYNC_FOLLOW_SECONDS = 1.0
"""How often an open Sync screen looks whether the runner's status changed."""
SYNC_AGO_SECONDS = 5
"""How often it is drawn again regardless, for its "… seconds ago"."""
"""Whether this Python can start threads: not in a browser tab (the browser build runs Python in Pyodide)."""
PICTURE_BYTES = 300_000
"""The most a picture for a chat should weigh: one heavier is drawn again at a smaller pixel ratio."""
CAPTURE_OFFSET = 20_000
"""How far left of the window a picture is laid out to be captured (logical pixels): out of sight on any screen."""
END_STRIP = 2
"""The transparent strip under a captured control (logical pixels): where its picture ends, on any platform."""
MOST_BANDS = 40
"""The most bands a picture is captured in (a window a few pixels high would otherwise ask for thousands)."""


@dataclass(frozen=True)
class PageOptions:
    """How every page of this process behaves, chosen by its front door (the tests shorten the timers)."""

    test_hooks: bool = False
    """The page carries what the app saw (`frame.seen_hook`), for the browser tests to wait on."""
    flash_seconds: float = 10.0
    """How long the breakdown of a hand just saved stays above the live xeri buttons."""
    join: str | None = None
    """A join link the page was opened with (`…#join=…`): the Sync screen opens with it, to confirm."""

    @classmethod
    def from_environment(cls) -> PageOptions:
        """As the served app's environment asks (`XERI_TEST_HOOKS=1`, `XERI_FLASH_SECONDS`)."""
        return cls(test_hooks=os.environ.get("XERI_TEST_HOOKS") == "1",
                   flash_seconds=_seconds(os.environ.get("XERI_FLASH_SECONDS"), cls.flash_seconds))

    @classmethod
    def from_address(cls, document_url: str) -> PageOptions:
        """As the page's address asks (`?hooks=1&flash=2`, the browser build's tests), over the environment."""
        query = {name: values[-1] for name, values in parse_qs(urlparse(document_url).query).items()}
        base = cls.from_environment()
        fragment = urlparse(document_url).fragment
        join = fragment[len("join="):] if fragment.startswith("join=") else None
        return cls(test_hooks=query.get("hooks") == "1" or base.test_hooks,
                   flash_seconds=_seconds(query.get("flash"), base.flash_seconds), join=join or None)


def _seconds(text: str | None, default: float) -> float:
    try:
        return float(text) if text is not None else default
    except ValueError:
        return default


def page_services(page: ft.Page) -> dict[str, Any]:
    """Flet's device services of a page (made once, in `ui.app.make_main`)."""
    return getattr(page, "_xeri_services", {})


def page_languages(page: ft.Page, asked: tuple[str, ...]) -> tuple[str, ...]:
    """The languages a page's phone asks for, best first; without a browser (Flet's window, a phone app),
    the system's."""
    if asked:
        return asked
    system = system_language()
    return (system,) if system else ()


class GroupNews(Protocol):
    """Where a page hears of matches that another device of the group changed (`bootstrap.Parts`): the
    listener is called with the match's id, from the sync runner's thread (or, in a browser tab, its task)."""

    def listen(self, listener: Callable[[str], None]) -> None: ...

    def unlisten(self, listener: Callable[[str], None]) -> None: ...


class NewsQueue:
    """Other phones' news, shown one page at a time (one queue per event loop, `news_queue`).

    A tap at a table of many phones redraws every one of them, and each redraw is Flet's work on the one loop
    that serves every phone. Handed to the loop all at once, the redraws ran back to back: no phone's patch left
    before the last phone was drawn, and the phone that tapped again waited behind all of them. Here each page
    is refreshed in turn, its redraw sent before the next page is refreshed, and what arrives meanwhile (the
    next tap) is served between two of them. News a page is already waiting for is not queued twice: its
    refresh shows the match as stored when it runs."""

    def __init__(self) -> None:
        self.waiting: dict[tuple[int, str, str | None], tuple[PageAdapter, dict[str, Any]]] = {}
        self.task: asyncio.Task | None = None

    def add(self, adapter: PageAdapter, message: dict[str, Any]) -> None:
        """Queue a page's refresh (on the loop)."""
        self.waiting.setdefault((id(adapter), message["match"], message.get("replaces")), (adapter, message))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.show())

    async def show(self) -> None:
        while self.waiting:
            adapter, message = self.waiting.pop(next(iter(self.waiting)))
            if not adapter.subscribed:
                continue
            try:    # the page's own task (its context is the page, which its redraw is sent to), awaited
                await asyncio.wrap_future(adapter.page.run_task(adapter._refresh, message))
            except Exception as exc:  # noqa: BLE001 - one page gone wrong must not keep the news from the others
                log.info("a page did not show another phone's news: %r", exc)


_queues: WeakKeyDictionary[asyncio.AbstractEventLoop, NewsQueue] = WeakKeyDictionary()


def news_queue(loop: asyncio.AbstractEventLoop) -> NewsQueue:
    """The news queue of the pages served by `loop`."""
    return _queues.setdefault(loop, NewsQueue())


class PageAdapter:
    """One phone's page: everything the view model needs done that only Flet can do."""

    def __init__(self, page: ft.Page, vm: AppModel, options: PageOptions, writer: Executor | None = None,
                 news: GroupNews | None = None):
        self.page = page
        self.writer = writer
        """Where writes run off the event loop, in order (`bootstrap.Parts.writer`); None: on the loop."""
        self.news = news
        """News of the group's other devices (a round of sync stored a match), heard like another phone's."""
        self.vm = vm
        self.session = vm.session
        self.options = options
        self.subscribed = False
        """Whether this session hears other phones' news (not while its phone is away)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The page's event loop (where threads hand their results back), once attached."""
        self.gone = False
        """The page was closed for good (not a phone gone to sleep): its timers end."""
        self.own_news: deque[dict[str, Any]] = deque()
        """What this phone changed, for the other phones: told once this page's own redraw is sent (`tell_others`)."""

    # --- once per session ---------------------------------------------------------------------------
    def attach(self) -> None:
        """Hand the session what only the page can do; hear other phones. Once per session: assigning these
        on every render would schedule another render, forever."""
        page, session = self.page, self.session
        self.subscribe()
        session.background = self.background
        session.background_async = self.background_async
        session.post = self.post
        if THREADS:
            self.loop = asyncio.get_running_loop()
        if self.writer is not None:
            session.write_later = self.write_later
        session.local = (page.client_ip or "127.0.0.1") in LOOPBACK or not page.web
        session.page_actions = {"share_sheet": self.share_sheet,
                                "share_picture": self.share_picture, "save_picture": self.save_picture,
                                "share_evening": self.share_evening,
                                "import": self.pick_and_import, "join": self.join}
        session.copy_text = self.copy
        page.on_resize = self.measure
        page.on_platform_brightness_change = self.follow_brightness
        page.on_connect = self.connected
        page.on_disconnect = self.disconnected
        page.on_close = self.closed
        self.measure()
        self.follow_brightness()

    def subscribe(self) -> None:
        if not self.subscribed:
            self.page.pubsub.subscribe(self.on_message)
            self.session.announce = self.announce
            if self.news is not None:
                self.news.listen(self.on_group_news)
            self.subscribed = True

    def unsubscribe(self) -> None:
        """Stop hearing other phones and devices: a closed tab's session is kept by Flet for an hour, and each
        phone's news would otherwise be drawn for nobody (and fail: its connection is gone)."""
        if self.subscribed:
            self.subscribed = False   # first: news from here on goes straight out (`announce`)
            self.tell_others()      # what this phone changed before it went is still the table's news
            self.page.pubsub.unsubscribe()
            if self.news is not None:
                self.news.unlisten(self.on_group_news)

    async def connected(self, _event: Any = None) -> None:
        """The phone came back (a reload, or back from sleep): hear the others again, show the match as it is
        stored now, and take up any new rights (the tab opened the join link)."""
        self.subscribe()
        self.vm.reconnected(connection_access(self.page))

    def disconnected(self, _event: Any = None) -> None:
        self.unsubscribe()

    def closed(self, _event: Any = None) -> None:
        self.gone = True
        self.unsubscribe()

    # --- the page's look -------------------------------------------------------------------------------
    def measure(self, _event: Any = None) -> None:
        self.session.viewport = (self.page.width or 390, self.page.height or 844)

    def follow_brightness(self, _event: Any = None) -> None:
        self.session.platform_dark = self.page.platform_brightness == ft.Brightness.DARK

    def apply_settings(self) -> None:
        """The theme and the window's title, as the session's settings say."""
        self.page.theme_mode = THEME_MODES.get(self.session.theme, ft.ThemeMode.SYSTEM)
        self.page.title = self.vm.tr("app.title")

    def load_script_fonts(self) -> None:
        """Send the fonts of scripts on screen (Korean words, a Hangul name) before they are drawn: until a
        font arrives its text would be boxes. Each font is sent once, and only to a page that shows it."""
        page = self.page
        have = page.fonts or {}
        if all(font.family in have for font in SCRIPT_FONTS):
            return
        missing = {font.family: font.web_file if page.web else font.native_file
                   for font in fonts_needed(self.session.lang, self.vm.names_shown()) if font.family not in have}
        if missing:
            page.fonts = {**have, **missing}
            page.update()

    async def keep_awake(self) -> None:
        """Keep the screen on while a match is on show, if the settings ask."""
        lock = page_services(self.page).get("wakelock")
        if lock is None:
            return
        try:
            await (lock.enable() if self.vm.settings.wants_wakelock else lock.disable())
        except Exception as exc:  # noqa: BLE001 - not every platform has a wakelock (web without the API)
            log.debug("wakelock: %s", exc)

    # --- timers --------------------------------------------------------------------------------------
    def fade_flash_later(self) -> None:
        """The saved hand stays named in the strip for a moment, then the strip goes back to the hand in play."""
        shown = self.vm.scoreboard.flash
        if shown is not None:
            self.page.run_task(self._fade_flash, shown)

    async def _fade_flash(self, shown: Any) -> None:
        await asyncio.sleep(self.options.flash_seconds)
        self.vm.scoreboard.fade_flash(shown)

    async def _follow_sync(self, runner: Any) -> None:
        """The Sync screen follows the runner by itself: redrawn when its status changes (a round failing
        while the screen is open, the network back), and every few seconds for its "… seconds ago"."""
        shown: Any = None
        while not self.gone:
            await asyncio.sleep(SYNC_FOLLOW_SECONDS)
            if not self.subscribed or self.session.screen is not Screen.SYNC:
                continue
            now = (runner.status, int(time.time()) // SYNC_AGO_SECONDS)
            if now != shown:
                shown = now
                self.session.sync_seen = now

    # --- other phones at the table ---------------------------------------------------------------------
    def announce(self, message: dict[str, Any]) -> None:
        """This phone changed a match (from the intent, on the loop or in the writer's thread): the other phones
        are told after this page's next redraw has been sent (`tell_others`), so the phone that tapped sees its
        tap first, not after every other phone at the table was drawn. A phone gone away (asleep, reloading,
        closed) draws nothing more, so a write of its that ends after it went is told at once: the other phones
        would otherwise show the match as it was until something else redrew them."""
        self.own_news.append(message)
        if not self.subscribed:
            self.tell_others()

    def tell_others(self) -> None:
        """After each redraw of this page (`ui.app.App`): tell the other phones what this phone changed."""
        while self.own_news:
            self.page.pubsub.send_others(self.own_news.popleft())

    def on_message(self, message: Any) -> None:
        """Another phone changed a match: show it as stored now, in turn with the other pages (`NewsQueue`).
        The message arrives in the sender's context; `run_task` binds this session's page, which the redraw is
        sent to. In a browser tab (no threads, one phone) it is shown at once."""
        if self.subscribed and isinstance(message, dict) and isinstance(message.get("match"), str):
            if self.loop is None:
                self.page.run_task(self._refresh, message)
            else:
                self.loop.call_soon_threadsafe(news_queue(self.loop).add, self, message)

    def on_group_news(self, match_id: str) -> None:
        """Another device of the group changed a match (a round of sync stored it here): shown as another
        phone's change is. Called from the sync runner's thread; `run_task` hands it to this page's loop."""
        self.on_message({"match": match_id})

    async def _refresh(self, message: dict[str, Any]) -> None:
        self.vm.scoreboard.refresh(message["match"], message.get("replaces"))

    # --- writes and slow work, off the event loop -------------------------------------------------------
    def write_later(self, work: Callable[[], Any], done: Callable[[], None]) -> None:
        """Run a write in the writer's thread, after every write handed over before it (from any phone), then
        `done` on the page's loop. A failure that is a bug is logged here: the page goes on."""
        assert self.writer is not None
        loop = self.loop
        assert loop is not None

        def run() -> None:
            try:
                work()
            except Exception:
                log.exception("an intent failed in the writer thread")
            finally:
                loop.call_soon_threadsafe(lambda: self.page.run_task(self._call, done))

        self.writer.submit(run)

    def background(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run slow work (import, export, a cold player page, a what-if) in a thread, so that other phones
        are not kept waiting; its result is handed to `done` back on the page's event loop. In a browser
        tab (no threads, one phone) it runs once the page has shown that it started."""
        if not THREADS:
            self.page.run_task(self._inline, work, done)
            return
        loop = self.loop  # asked for on the loop, or from the writer's thread (an import is a writing intent)
        assert loop is not None

        def run() -> None:
            result = work()
            loop.call_soon_threadsafe(lambda: self.page.run_task(self._call, lambda: done(result)))

        threading.Thread(target=run, name="xeri-slow-work", daemon=True).start()

    def background_async(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """`background` for a coroutine (a request to the group's server): in a thread with a loop of its own,
        or, in a browser tab, as a task on the page's loop. `done` gets the result or the exception."""
        async def run_here() -> None:
            try:
                result = await work()
            except Exception as exc:  # noqa: BLE001 - handed to `done`, which says it in words
                result = exc
            done(result)

        if not THREADS:
            self.page.run_task(run_here)
            return

        def run_async() -> Any:
            try:
                return asyncio.run(work())
            except Exception as exc:  # noqa: BLE001 - handed to `done`
                return exc

        self.background(run_async, done)

    def attach_sync(self, runner: Any) -> None:
        """What the Sync screen asks of the page: how syncing goes, a round now, this app's address."""
        if runner is not None:
            self.session.sync_status = lambda: runner.status
            self.session.page_actions["sync_now"] = runner.poke
            self.page.run_task(self._follow_sync, runner)
        url = (self.page.url or "").replace("wss://", "https://").replace("ws://", "http://").split("/ws")[0]
        self.session.app_address = url.rstrip("/") + "/"
        if self.options.join and self.vm.sync.available:
            self.vm.sync.open()
            self.vm.sync.paste("#join=" + self.options.join)

    def post(self, call: Callable[[], None]) -> None:
        """From slow work's thread (an import's progress): run `call` on the page's loop, which redraws."""
        if not THREADS:
            self.page.run_task(self._call, call)
            return
        self.page.loop.call_soon_threadsafe(lambda: self.page.run_task(self._call, call))

    async def _inline(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        await asyncio.sleep(0.05)  # the redraw saying the work started goes out first
        done(work())

    @staticmethod
    async def _call(call: Callable[[], None]) -> None:
        call()

    # --- what the device does --------------------------------------------------------------------------
    async def share_evening(self) -> None:
        """The evening's card as text for the group's chat."""
        card = self.vm.ratings.evening_card()
        if card is not None:
            await self.share_text(card.text)

    async def share_text(self, text: str) -> None:
        """`text` to the phone's share sheet; the clipboard where sharing is not; said in words either way."""
        found = page_services(self.page)
        try:
            await found["share"].share_text(text, subject=self.vm.tr("app.title"))
            self.session.say("notice.shared")
        except Exception as exc:  # noqa: BLE001 - a browser without the Web Share API: the clipboard, then
            log.debug("share: %s", exc)
            try:
                await found["clipboard"].set(text)
                self.session.say("notice.copied")
            except Exception as exc2:  # noqa: BLE001 - told in words
                log.info("copy to the clipboard: %s", exc2)
                self.session.say("notice.share_failed")

    def copy(self, text: str, done: str, failed: str) -> None:
        """`text` to the device's clipboard; the notice `done` says so, `failed` that the browser refused."""
        self.page.run_task(self._copy, text, done, failed)

    async def _copy(self, text: str, done: str, failed: str) -> None:
        try:
            await page_services(self.page)["clipboard"].set(text)
            self.session.say(done)
        except Exception as exc:  # noqa: BLE001 - a browser that refuses the clipboard: told in words
            log.info("copy to the clipboard: %s", exc)
            self.session.say(failed, Tone.PROBLEM)

    async def share_sheet(self) -> None:
        """The score sheet as a text file; a download where files cannot be shared."""
        data = self.vm.scoreboard.share_text().encode("utf-8")
        await self.share_file(data, "xeri-score-sheet.txt", "text/plain", downloaded="notice.sheet_downloaded")

    async def share_file(self, data: bytes, name: str, mime_type: str, downloaded: str,
                         text: str | None = None) -> None:
        """A file to the phone's share sheet (with `text`, where the platform takes words with it); where files
        cannot be shared, the browser downloads it and the notice `downloaded` says so."""
        try:
            # Our own download where the browser cannot share files: share_plus's would be said as shared.
            result = await page_services(self.page)["share"].share_files(
                [ft.ShareFile.from_bytes(data, name=name, mime_type=mime_type)], text=text,
                subject=self.vm.tr("app.title"), download_fallback_enabled=False, mail_to_fallback_enabled=False)
        except Exception as exc:  # noqa: BLE001 - no file sharing here: the browser downloads it instead
            log.debug("share a file: %s", exc)
            if await self.download(name, data):
                self.session.say(downloaded)
            else:
                self.session.say("notice.share_failed", Tone.PROBLEM)
            return
        if getattr(result, "status", None) is not ft.ShareResultStatus.DISMISSED:
            self.session.say("notice.shared")

    # --- the score sheet as a picture ------------------------------------------------------------------
    async def share_picture(self) -> None:
        """The match on show as a picture, with its result in words, to the phone's share sheet; downloaded,
        and said so, where files cannot be shared."""
        made = await self.make_picture()
        if made is not None:
            picture, data = made
            await self.share_file(data, picture.file_name, "image/png", downloaded="notice.picture_downloaded",
                                  text=picture.caption)

    async def save_picture(self) -> None:
        """The match on show as a picture, saved as a download (a phone app, which has no downloads, shares it:
        its share sheet saves to the phone's pictures)."""
        made = await self.make_picture()
        if made is None:
            return
        picture, data = made
        if self.page.web and await self.download(picture.file_name, data):
            self.session.say("notice.picture_saved")
        else:
            await self.share_file(data, picture.file_name, "image/png", downloaded="notice.picture_saved")

    async def make_picture(self) -> tuple[SheetPicture, bytes] | None:
        """The PNG of the match on show (`views.picture.sheet_card`), or None, said in words, when there is no
        match or Flutter could not draw it."""
        picture = self.vm.sheet_picture()
        if picture is None:
            return None
        from .views.picture import PIXEL_RATIO, sheet_card   # with the first picture, not at start (issue #27)
        from .views.picture import WIDTH as CARD_WIDTH

        self.session.say("notice.picture_making")
        ratio = PIXEL_RATIO
        try:
            for _attempt in range(3):
                data = await self.capture(lambda: sheet_card(picture), CARD_WIDTH, ratio)
                if len(data) <= PICTURE_BYTES:
                    break
                # Drawn smaller: the bytes go roughly with the square of the ratio (in eighths, for the bands).
                ratio = max(1.0, math.floor(ratio * math.sqrt(PICTURE_BYTES / len(data)) * 0.97 * 8) / 8)
        except Exception as exc:  # noqa: BLE001 - a client that cannot capture: told in words
            log.warning("the picture of the match could not be made: %r", exc)
            self.session.say("notice.picture_failed", Tone.PROBLEM)
            return None
        if not data.startswith(SIGNATURE):
            log.warning("the picture of the match is not a PNG (%d bytes)", len(data))
            self.session.say("notice.picture_failed", Tone.PROBLEM)
            return None
        return picture, data

    async def capture(self, make: Callable[[], ft.Control], width: float, ratio: float) -> bytes:
        """The control `make()` draws, `width` logical pixels wide with a background of its own, as a PNG drawn by
        Flutter at `ratio` device pixels per logical pixel.

        It has to be laid out and painted to be captured (an Offstage or an invisible control is not painted), so
        it is put in the page's overlay for the moment, out of the window's sight to its left and out of the
        accessibility tree, and taken away again. Where it ends is read off the picture: below it (a strip of
        its own, and the rest of a browser's surface) the picture is transparent. In a browser Flutter captures
        no more than its window holds (`ui.pngcut`): a picture taller than that is captured in bands, the
        control moved up by a band each time, and a window narrower than the picture gets it at a smaller ratio
        (multiples of 1/8, so that a band of a multiple of 8 logical pixels is a whole number of rows).
        """
        shot = ft.Screenshot(content=ft.Column([make(), ft.Container(height=END_STRIP)], spacing=0, tight=True))
        holder = ft.Container(ft.Semantics(content=shot, exclude_semantics=True), left=-CAPTURE_OFFSET, top=0)
        self.page.overlay.append(holder)
        self.page.update()
        try:
            data = await shot.capture(pixel_ratio=float(ratio))
            got_width, got_height = png_size(data)
            if got_width < round(width * ratio):
                ratio = max(1.0, math.floor(got_width / width * 8) / 8)
                data = await shot.capture(pixel_ratio=float(ratio))
                got_width, got_height = png_size(data)
            columns, rows = round(width * ratio), opaque_rows(data)
            if rows is None:             # no transparency to tell where it ends: captured as it is, whole
                return data
            if rows < got_height:
                return join_bands([(data, rows)], columns, opaque=True)
            band = math.floor(got_height / ratio / 8) * 8
            if band <= 0:
                raise NotAPicture(f"a window of {got_width}×{got_height} pixels is too small for a picture")
            step = round(band * ratio)
            bands = [(data, step)]
            inner = ft.Container(ft.Column([make(), ft.Container(height=END_STRIP)], spacing=0, tight=True),
                                 left=0, top=0)
            shot.content = ft.Stack([inner], width=width, height=band, clip_behavior=ft.ClipBehavior.HARD_EDGE)
            for k in range(1, MOST_BANDS):
                inner.top = -k * band
                self.page.update()
                data = await shot.capture(pixel_ratio=float(ratio))
                rows = opaque_rows(data) or 0
                if rows < step:
                    if rows:
                        bands.append((data, rows))
                    return join_bands(bands, columns, opaque=True)
                bands.append((data, step))
            raise NotAPicture(f"the picture is taller than {MOST_BANDS} bands of {band} logical pixels")
        finally:
            self.page.overlay.remove(holder)
            self.page.update()

    async def pick_and_import(self) -> None:
        """Match files or history zips chosen on this device, imported."""
        picker = page_services(self.page).get("files")
        if picker is None:
            return
        files = await picker.pick_files(allow_multiple=True, with_data=True, allowed_extensions=["json", "zip"])
        chosen = [(f.name, f.bytes) for f in files or [] if f.bytes is not None]
        if chosen:
            self.vm.history.import_files(chosen)

    def hand_over_download(self) -> None:
        """An export made for this phone: the browser saves it (the copy in the data folder stays either way)."""
        if self.vm.history.download is not None:
            name, data = self.vm.history.download
            self.vm.history.download = None
            self.page.run_task(self.download, name, data)

    async def download(self, name: str, data: bytes) -> bool:
        """`data` as a download named `name`, in a browser; whether the browser took it."""
        picker = page_services(self.page).get("files")
        if picker is None or not self.page.web:
            return False
        try:
            await picker.save_file(file_name=name, src_bytes=data)
        except Exception as exc:  # noqa: BLE001 - the copy in the data folder is there whatever the browser does
            log.info("download %s: %s", name, exc)
            return False
        return True

    async def join(self) -> None:
        """A watching phone gave the table code: open the join link in this tab; the server sets the cookie
        and sends the tab back to the app, now able to keep score."""
        path = self.vm.join_path()
        if path is None:
            return
        url = self.page.url or ""
        base = url.replace("wss://", "https://").replace("ws://", "http://").split("/ws")[0].rstrip("/")
        await page_services(self.page)["launcher"].launch_url(base + path, web_only_window_name="_self")
