"""The Flet app: the root component, the page set-up, and `serve` (web, or Flet's desktop window)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import webbrowser
from pathlib import Path

import flet as ft

from ..history.cache import HistoryCache
from ..net.access import TableInfo
from ..net.server import page_access, watch_access
from ..service import Services, StorageError
from .viewmodel import AppModel, Session
from .views import render

ObservableSession = ft.observable(Session)
THEME_MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
FLASH_SECONDS = float(os.environ.get("XERI_FLASH_SECONDS", "10"))
"""How long the breakdown of a hand just saved stays above the live xeri buttons (tests shorten it)."""
TEST_HOOKS = os.environ.get("XERI_TEST_HOOKS") == "1"
"""Set by the browser tests: the page then carries what the app saw, for the tests to wait on."""
MAX_WIDTH = 620
"""Content width on a desktop: a phone column, centred."""


@ft.component
def App(services: Services, history_cache: HistoryCache | None = None, table: TableInfo | None = None):
    page = ft.context.page
    session, _ = ft.use_state(lambda: ObservableSession(services, history_cache, access=page_access(page),
                                                        table=table))
    vm, _ = ft.use_state(lambda: AppModel(services, session=session))
    width, set_width = ft.use_state(page.width or 390)

    def on_resize(e):
        set_width(page.width or 390)

    def apply_page_settings():
        page.theme_mode = THEME_MODES.get(session.theme, ft.ThemeMode.SYSTEM)
        page.title = vm.tr("app.title")

    ft.on_updated(apply_page_settings, [session.theme, session.lang])

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
        # The saved hand's breakdown stays for a moment, then gives the screen back to the next hand.
        await asyncio.sleep(FLASH_SECONDS)
        vm.table.fade_flash(shown)

    ft.use_effect(lambda: page.run_task(fade_flash, vm.table.flash) if vm.table.flash is not None else None,
                  [vm.table.flash])

    async def share():
        text = vm.table.share_text()
        found = page_services(page)
        try:
            await found["share"].share_text(text, subject=vm.tr("app.title"))
            session.say("notice.shared")
        except Exception:
            try:
                await found["clipboard"].set(text)
                session.say("notice.copied")
            except Exception:
                session.say("notice.share_failed")

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

    async def refresh(match_id):
        vm.table.refresh(match_id)

    async def on_message(match_id):
        # Another phone at the table changed a match: show it as stored now. The message arrives in
        # the sender's context; run_task binds this session's page, which the redraw is sent to.
        if isinstance(match_id, str):
            page.run_task(refresh, match_id)

    def background(work, done):
        # Slow work (import, export, a cold player page, a what-if) runs in a thread so that other
        # phones are not kept waiting; its result is handed back on the page's event loop.
        loop = asyncio.get_running_loop()

        def run():
            result = work()
            loop.call_soon_threadsafe(lambda: page.run_task(_done, done, result))

        threading.Thread(target=run, name="xeri-slow-work", daemon=True).start()

    async def _done(done, result):
        done(result)

    def post(call):
        # From slow work's thread (an import's progress): run `call` on the page's loop, which redraws.
        page.loop.call_soon_threadsafe(lambda: page.run_task(_call, call))

    async def _call(call):
        call()

    def access_changed(access):
        # The tab came back on a new connection with other rights (it opened the join link).
        session.access = access
        session.revision += 1

    def attach():
        # Once per session: assigning these on every render would schedule another render, forever.
        page.pubsub.subscribe(on_message)
        session.announce = page.pubsub.send_others
        session.background = background
        session.post = post
        page_services(page)["access_changed"] = access_changed
        page.on_resize = on_resize
        session.page_actions = {"share": share, "import": pick_and_import}

    ft.on_mounted(attach)
    content_width = min(width, MAX_WIDTH) - 24
    body = render(vm)
    # A screen gives its controls, or (controls, footer): the footer stays in reach below the scrolling part.
    body, footer = body if isinstance(body, tuple) else (body, [])
    column = [ft.Column(body, spacing=14, scroll=ft.ScrollMode.AUTO, expand=True, key=f"screen-{session.screen}")]
    if footer:
        column.append(ft.Container(ft.Column(footer, spacing=4), padding=ft.Padding.only(top=8)))
    if TEST_HOOKS:
        # What the app has seen, for the browser tests to wait on instead of sleeping.
        column.append(ft.Semantics(identifier="app-seen",
                                   label=f"revision {session.revision} taps {session.taps} access {session.access}",
                                   content=ft.Container(width=1, height=1)))
    return ft.SafeArea(
        content=ft.Row(
            [ft.Column(column, width=content_width, spacing=0, expand=True)],
            alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        expand=True,
    )


SUIT_FONT = "XeriSuits"
ASSETS = str(Path(__file__).resolve().parent / "assets")
TEXT_STYLES = ("display_large", "display_medium", "display_small", "headline_large", "headline_medium",
               "headline_small", "title_large", "title_medium", "title_small", "body_large", "body_medium",
               "body_small", "label_large", "label_medium", "label_small")


def theme() -> ft.Theme:
    """The app's theme: card-table green, with the suit font as every text style's fallback."""
    # The colour is named too: a text theme without one leaves dark-theme text black on black.
    fallback = ft.TextStyle(font_family_fallback=[SUIT_FONT], color=ft.Colors.ON_SURFACE)
    return ft.Theme(color_scheme_seed=ft.Colors.GREEN_800,
                    text_theme=ft.TextTheme(**{name: fallback for name in TEXT_STYLES}))


def page_services(page: ft.Page) -> dict:
    return getattr(page, "_xeri_services", {})


def make_main(services: Services, history_cache: HistoryCache | None = None, table: TableInfo | None = None):
    def main(page: ft.Page):
        page.title = "Xeri Companion"
        page.padding = ft.Padding.symmetric(horizontal=12, vertical=8)
        page.fonts = {SUIT_FONT: "fonts/XeriSuits.ttf"}
        page.theme = theme()
        page.dark_theme = theme()
        page._xeri_services = {"wakelock": ft.Wakelock(), "share": ft.Share(), "clipboard": ft.Clipboard(),
                                 "files": ft.FilePicker()}
        watch_access(page, lambda access: page_services(page).get("access_changed", lambda _a: None)(access))
        page.render(App, services, history_cache, table)

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
