"""The Flet app: the root component, the page set-up, and `serve` (web, or Flet's desktop window)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import webbrowser
from importlib.resources import files

import flet as ft

from ..history.cache import HistoryCache
from ..net.access import TableInfo
from ..net.server import page_access, page_languages, watch_access
from ..service import Services, StorageError
from .viewmodel import AppModel, Session
from .fonts import NAMES_FONT, SCRIPT_FONTS, fonts_needed
from .views import render
from .views.common import dialog, header, strip
from .views.palette import palette
from .views.theme import SUIT_FONT, themes

ObservableSession = ft.observable(Session)
THEME_MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
FLASH_SECONDS = float(os.environ.get("XERI_FLASH_SECONDS", "10"))
"""How long the breakdown of a hand just saved stays above the live xeri buttons (tests shorten it)."""
TEST_HOOKS = os.environ.get("XERI_TEST_HOOKS") == "1"
"""Set by the browser tests: the page then carries what the app saw, for the tests to wait on."""
MAX_WIDTH = 620
"""Content width on a desktop: a phone column, centred."""


NOTICE_SECONDS = 6
"""How long news stays in the status strip (a problem stays until the next tap)."""
LOOPBACK = ("127.0.0.1", "::1", "localhost")


THREADS = sys.platform != "emscripten"
"""Whether this Python can start threads: not in a browser tab (the browser build runs Python in Pyodide)."""


@ft.component
def App(services: Services, history_cache: HistoryCache | None = None, table: TableInfo | None = None,
        session_class: type = ObservableSession):
    page = ft.context.page
    session, _ = ft.use_state(lambda: session_class(services, history_cache, access=page_access(page), table=table,
                                                    wanted=page_languages(page)))
    vm, _ = ft.use_state(lambda: AppModel(services, session=session))

    def measure(_e=None):
        session.viewport = (page.width or 390, page.height or 844)

    def on_brightness(_e=None):
        session.platform_dark = page.platform_brightness == ft.Brightness.DARK

    def apply_page_settings():
        page.theme_mode = THEME_MODES.get(session.theme, ft.ThemeMode.SYSTEM)
        page.title = vm.tr("app.title")

    ft.on_updated(apply_page_settings, [session.theme, session.lang])

    def load_script_fonts():
        if all(font.family in (page.fonts or {}) for font in SCRIPT_FONTS):
            return
        # Before the first Korean word or Hangul name is drawn: until its font arrives it would be boxes.
        missing = {font.family: font.web_file if page.web else font.native_file
                   for font in fonts_needed(session.lang, vm.names_shown()) if font.family not in (page.fonts or {})}
        if missing:
            page.fonts = {**(page.fonts or {}), **missing}
            page.update()

    ft.use_effect(load_script_fonts, [session.revision, session.lang])

    async def wakelock():
        lock = page_services(page).get("wakelock")
        if lock is None:
            return
        try:
            await (lock.enable() if vm.settings.wants_wakelock else lock.disable())
        except Exception:  # not every platform has a wakelock (web without the API)
            pass

    ft.use_effect(lambda: page.run_task(wakelock), [vm.settings.wants_wakelock])

    async def fade_flash(shown):
        # The saved hand stays named in the strip for a moment, then the strip goes back to the hand in play.
        await asyncio.sleep(FLASH_SECONDS)
        vm.scoreboard.fade_flash(shown)

    ft.use_effect(lambda: page.run_task(fade_flash, vm.scoreboard.flash) if vm.scoreboard.flash is not None else None,
                  [vm.scoreboard.flash])

    async def fade_notice(shown):
        await asyncio.sleep(NOTICE_SECONDS)
        vm.fade_notice(shown)

    ft.use_effect(lambda: page.run_task(fade_notice, session.notice) if session.notice is not None else None,
                  [session.notice])

    async def share():
        # A short result for a chat; the full sheet is "Score sheet" (a file).
        found = page_services(page)
        text = vm.scoreboard.result_text()
        try:
            await found["share"].share_text(text, subject=vm.tr("app.title"))
            session.say("notice.shared")
        except Exception:
            try:
                await found["clipboard"].set(text)
                session.say("notice.copied")
            except Exception:
                session.say("notice.share_failed")

    async def share_sheet():
        found = page_services(page)
        data = vm.scoreboard.share_text().encode("utf-8")
        name = "xeri-score-sheet.txt"
        try:
            await found["share"].share_files([ft.ShareFile.from_bytes(data, name=name, mime_type="text/plain")],
                                             subject=vm.tr("app.title"))
            session.say("notice.shared")
        except Exception:
            await download(name, data)

    async def pick_and_import():
        picker = page_services(page).get("files")
        if picker is None:
            return
        files = await picker.pick_files(allow_multiple=True, with_data=True, allowed_extensions=["json", "zip"])
        chosen = [(f.name, f.bytes) for f in files or [] if f.bytes is not None]
        if chosen:
            vm.history.import_files(chosen)

    async def download(name: str, data: bytes):
        picker = page_services(page).get("files")
        if picker is None or not page.web:
            return
        try:
            await picker.save_file(file_name=name, src_bytes=data)
        except Exception:  # the copy in the data folder is there whatever the browser does with it
            pass

    if vm.history.download is not None:
        name, data = vm.history.download
        vm.history.download = None
        page.run_task(download, name, data)

    async def refresh(message):
        vm.scoreboard.refresh(message["match"], message.get("replaces"))

    async def on_message(message):
        # Another phone at the table changed a match: show it as stored now. The message arrives in
        # the sender's context; run_task binds this session's page, which the redraw is sent to.
        if isinstance(message, dict) and isinstance(message.get("match"), str):
            page.run_task(refresh, message)

    def background(work, done):
        # Slow work (import, export, a cold player page, a what-if) runs in a thread so that other
        # phones are not kept waiting; its result is handed back on the page's event loop.
        if not THREADS:  # a browser tab: one phone only; the work runs once the page has shown it started
            page.run_task(_inline, work, done)
            return
        loop = asyncio.get_running_loop()

        def run():
            result = work()
            loop.call_soon_threadsafe(lambda: page.run_task(_done, done, result))

        threading.Thread(target=run, name="xeri-slow-work", daemon=True).start()

    async def _done(done, result):
        done(result)

    async def _inline(work, done):
        await asyncio.sleep(0.05)  # the redraw saying the work started goes out first
        done(work())

    def post(call):
        # From slow work's thread (an import's progress): run `call` on the page's loop, which redraws.
        if not THREADS:
            page.run_task(_call, call)
            return
        page.loop.call_soon_threadsafe(lambda: page.run_task(_call, call))

    async def _call(call):
        call()

    def access_changed(access):
        # The tab came back on a new connection with other rights (it opened the join link).
        session.access = access
        session.revision += 1

    async def join():
        # A watching phone gave the table code: open the join link in this tab; the server sets the
        # cookie and sends the tab back to the app, now able to keep score.
        path = vm.join_path()
        if path is None:
            return
        base = (page.url or "").replace("wss://", "https://").replace("ws://", "http://").split("/ws")[0].rstrip("/")
        await page_services(page)["launcher"].launch_url(base + path, web_only_window_name="_self")

    def attach():
        # Once per session: assigning these on every render would schedule another render, forever.
        page.pubsub.subscribe(on_message)
        session.announce = page.pubsub.send_others
        session.background = background
        session.post = post
        page_services(page)["access_changed"] = access_changed
        session.local = (page.client_ip or "127.0.0.1") in LOOPBACK or not page.web
        page.on_resize = measure
        page.on_platform_brightness_change = on_brightness
        measure()
        on_brightness()
        session.page_actions = {"share": share, "share_sheet": share_sheet, "import": pick_and_import, "join": join}

    ft.on_mounted(attach)
    frame = render(vm)
    shown = dialog(vm)
    if shown is not None and TEST_HOOKS:
        # A modal dialog hides the page's other semantics: it carries what the app saw itself.
        shown.content = ft.Column([shown.content, seen_hook(session)], tight=True, spacing=0)
    ft.use_dialog(shown)
    return layout(vm, frame)


def seen_hook(session) -> ft.Control:
    """What the app has seen, for the browser tests to wait on instead of sleeping (only with XERI_TEST_HOOKS)."""
    return ft.Semantics(identifier="app-seen",
                        label=f"revision {session.revision} taps {session.taps} access {session.access}",
                        content=ft.Container(width=1, height=1))


def layout(vm: AppModel, frame) -> ft.Control:
    """The frame on the page: header, the scrolling body (and on wide screens a second column), the
    status strip and the pinned actions; a phone column centred on a laptop."""
    session = vm.session
    width, _ = session.viewport
    p = palette(session.dark)
    key = f"screen-{session.screen}"
    body = ft.Column(frame.body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, key=key)
    if frame.side is not None and session.wide:
        middle = ft.Row([ft.Container(body, expand=5),
                         ft.Container(ft.Column(frame.side, spacing=12, scroll=ft.ScrollMode.AUTO, key=key + "-side"),
                                      expand=6)], spacing=16, expand=True, vertical_alignment=ft.CrossAxisAlignment.START)
        content_width = min(width, 1280) - 24
    else:
        middle = body
        content_width = min(width, MAX_WIDTH) - 24
    # Each screen's parts are keyed by the screen: a control Flet would otherwise reuse from the screen
    # before keeps its old semantics identifier in the browser (seen: Save still called end-hand).
    column: list[ft.Control] = [ft.Container(header(vm, frame), key=key + "-header"), middle]
    bottom: list[ft.Control] = []
    if frame.strip:
        bottom.append(strip(vm, frame, p))
    bottom += frame.footer
    if bottom and session.short and frame.footer:
        # A phone held sideways has little height: the strip and the pinned actions share one row.
        row = ft.Row([ft.Container(bottom[0], expand=3), ft.Container(ft.Column(bottom[1:], spacing=6), expand=2)],
                     spacing=8, vertical_alignment=ft.CrossAxisAlignment.END)
        column.append(ft.Container(row, padding=ft.Padding.only(top=6), key=key + "-bottom"))
    elif bottom:
        column.append(ft.Container(ft.Column(bottom, spacing=6), padding=ft.Padding.only(top=6), key=key + "-bottom"))
    if TEST_HOOKS:
        column.append(seen_hook(session))
    return ft.SafeArea(
        content=ft.Row(
            [ft.Column(column, width=content_width, spacing=0, expand=True)],
            alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        expand=True,
    )


ASSETS = str(files(__package__) / "assets")
"""The web assets (the fonts), inside the package: a real folder wherever the package is installed."""


def page_services(page: ft.Page) -> dict:
    return getattr(page, "_xeri_services", {})


def make_main(services: Services, history_cache: HistoryCache | None = None, table: TableInfo | None = None,
              session_class: type = ObservableSession):
    def main(page: ft.Page):
        page.title = "Xeri Companion"
        page.padding = ft.Padding.symmetric(horizontal=12, vertical=8)
        page.fonts = {SUIT_FONT: "fonts/XeriSuits.ttf", NAMES_FONT[0]: NAMES_FONT[1]}
        page.theme, page.dark_theme = themes()
        page._xeri_services = {"wakelock": ft.Wakelock(), "share": ft.Share(), "clipboard": ft.Clipboard(),
                                 "files": ft.FilePicker(), "launcher": ft.UrlLauncher()}
        watch_access(page, lambda access: page_services(page).get("access_changed", lambda _a: None)(access))
        page.render(App, services, history_cache, table, session_class)

    return main


FOLDER_CHECK_SECONDS = 2.0
"""How often the running app makes sure its data folder is still there (see `Store.check_folder`)."""


def watch_folder(store, stop: threading.Event) -> None:
    """Notice a data folder deleted while the app runs, even when nobody saves: it is made again and
    locked at once, so a second app cannot start on the same path meanwhile."""
    while not stop.wait(FOLDER_CHECK_SECONDS):
        try:
            store.check_folder()
        except StorageError as exc:
            logging.getLogger(__name__).warning("%s", exc)


def serve(host: str = "127.0.0.1", port: int = 8550, open_browser: bool = True, desktop: bool = False) -> int:
    """Run the app until it is closed; returns the exit status (2, with a message, when it cannot start)."""
    logging.basicConfig(level=logging.DEBUG if os.environ.get("XERI_DEBUG") else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    from ..net import server
    from ..net.access import TableCode, new_code
    from ..net.hosts import is_loopback, join_address, serves_beyond_loopback
    from ..net.qr import table_info, terminal_qr
    from ..storage import Store

    try:
        store = Store()
    except StorageError as exc:  # held by another app, or a data folder the disk refuses
        print(exc, file=sys.stderr)
        return 2
    services = Services.over(store)
    cache = HistoryCache()
    threading.Thread(target=cache.warm, args=(services.library,), name="history-warm-up", daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=watch_folder, args=(store, stop), name="data-folder-watch", daemon=True).start()
    try:
        if desktop:
            ft.run(make_main(services, cache), assets_dir=ASSETS)
            return 0
        code = new_code() if serves_beyond_loopback(host) else None
        url = join_address(host, port) if code else f"http://{host}:{port}/"
        info = table_info(url, code) if code else None
        app = server.build_app(make_main(services, cache, info), host=host, port=port, code=TableCode(code, port),
                               assets_dir=ASSETS, app_name="Xeri Companion")
        # The laptop's own browser: on loopback it is the owner; a browser on a LAN address needs the code.
        own = f"http://127.0.0.1:{port}/" if host in ("0.0.0.0", "", "*") or is_loopback(host) else info.join_url

        def ready() -> None:
            print(f"Xeri Companion is at {own} (data in {store.folder}); press Ctrl+C to stop.", flush=True)
            if info is not None:
                print(f"Phones on this network join at {info.join_url} (table code {info.code}); without the "
                      f"code they can only watch. Or scan:\n{terminal_qr(info.join_url)}", flush=True)
            if open_browser:
                webbrowser.open(own)

        return server.serve(app, host, port, on_ready=ready)
    finally:
        stop.set()
        store.close()
