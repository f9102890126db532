"""The Flet app: the root component, the page set-up, and `serve` (web, or Flet's desktop window)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from pathlib import Path

import flet as ft

from . import screens
from .state import AppState, HistoryCache

ObservableState = ft.observable(AppState)

SCREENS = {
    "home": screens.home,
    "setup": screens.setup,
    "match": screens.scoreboard,
    "entry": screens.entry,
    "rules": screens.rules_screen,
    "settings": screens.settings_screen,
}
THEME_MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}
FLASH_SECONDS = float(os.environ.get("XERI_FLASH_SECONDS", "10"))
"""How long the breakdown of a hand just saved stays above the live xeri buttons (tests shorten it)."""
TEST_HOOKS = os.environ.get("XERI_TEST_HOOKS") == "1"
"""Set by the browser tests: the page then carries what the app saw, for the tests to wait on."""
MAX_WIDTH = 620
"""Content width on a desktop: a phone column, centred."""


def register_screens(extra: dict) -> None:
    """Screens added by other modules (history, players)."""
    SCREENS.update(extra)


@ft.component
def App(store, history_cache=None):
    page = ft.context.page
    s, _ = ft.use_state(lambda: ObservableState(store, history_cache=history_cache))
    width, set_width = ft.use_state(page.width or 390)

    def on_resize(e):
        set_width(page.width or 390)

    def apply_page_settings():
        page.theme_mode = THEME_MODES.get(s.theme, ft.ThemeMode.SYSTEM)
        page.title = s.tr("app.title")

    ft.on_updated(apply_page_settings, [s.theme, s.lang])

    async def wakelock():
        lock = page_services(page).get("wakelock")
        if lock is None:
            return
        try:
            await (lock.enable() if s.wants_wakelock else lock.disable())
        except Exception:  # not every platform has a wakelock (web without the API)
            pass

    ft.use_effect(lambda: page.run_task(wakelock), [s.wants_wakelock])

    async def fade_flash(shown):
        # The saved hand's breakdown stays for a moment, then gives the screen back to the next hand.
        await asyncio.sleep(FLASH_SECONDS)
        s.fade_flash(shown)

    ft.use_effect(lambda: page.run_task(fade_flash, s.flash) if s.flash is not None else None, [s.flash])

    async def share():
        text = s.share_text()
        services = page_services(page)
        try:
            await services["share"].share_text(text, subject=s.tr("app.title"))
            s.notice = s.tr("notice.shared")
        except Exception:
            try:
                await services["clipboard"].set(text)
                s.notice = s.tr("notice.copied")
            except Exception:
                s.notice = s.tr("notice.share_failed")

    async def pick_and_import():
        picker = page_services(page).get("files")
        if picker is None:
            return
        files = await picker.pick_files(allow_multiple=True, with_data=True, allowed_extensions=["json", "zip"])
        chosen = [(f.name, f.bytes) for f in files or [] if f.bytes is not None]
        if chosen:
            s.import_files(chosen)

    async def export_and_download():
        path = s.export_all()
        picker = page_services(page).get("files")
        if picker is None or path is None or not page.web:
            return
        try:
            await picker.save_file(file_name=path.name, src_bytes=path.read_bytes())
        except Exception:  # the copy in the data folder is there whatever the browser does with it
            pass

    async def refresh(match_id):
        s.refresh(match_id)

    async def on_message(match_id):
        # Another phone at the table changed a match: show it as stored now. The message arrives in
        # the sender's context; run_task binds this session's page, which the redraw is sent to.
        if isinstance(match_id, str):
            page.run_task(refresh, match_id)

    def attach():
        # Once per session: assigning these on every render would schedule another render, forever.
        page.pubsub.subscribe(on_message)
        s.announce = page.pubsub.send_others
        page.on_resize = on_resize
        s.share_action = share
        s.import_action = pick_and_import
        s.export_action = export_and_download

    ft.on_mounted(attach)
    render = SCREENS.get(s.screen, screens.home)
    content_width = min(width, MAX_WIDTH) - 24
    body = render(s)
    # A screen gives its controls, or (controls, footer): the footer stays in reach below the scrolling part.
    body, footer = body if isinstance(body, tuple) else (body, [])
    column = [ft.Column(body, spacing=14, scroll=ft.ScrollMode.AUTO, expand=True, key=f"screen-{s.screen}")]
    if TEST_HOOKS:
        # What the app has seen, for the browser tests to wait on instead of sleeping.
        column.append(ft.Semantics(identifier="app-seen", label=f"revision {s.revision} taps {s.taps}",
                                   content=ft.Container(width=1, height=1)))
    if footer:
        column.append(ft.Container(ft.Column(footer, spacing=4), padding=ft.Padding.only(top=8)))
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


def make_main(store, history_cache=None):
    def main(page: ft.Page):
        page.title = "Xeri Companion"
        page.padding = ft.Padding.symmetric(horizontal=12, vertical=8)
        page.fonts = {SUIT_FONT: "fonts/XeriSuits.ttf"}
        page.theme = theme()
        page.dark_theme = theme()
        page._xeri_services = {"wakelock": ft.Wakelock(), "share": ft.Share(), "clipboard": ft.Clipboard(),
                                 "files": ft.FilePicker()}
        page.render(App, store, history_cache)

    return main


def serve(host: str = "127.0.0.1", port: int = 8550, open_browser: bool = True, desktop: bool = False) -> int:
    """Run the app until it is closed; returns the exit status."""
    logging.basicConfig(level=logging.DEBUG if os.environ.get("XERI_DEBUG") else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from ..storage import Store, StoreLocked

    try:
        store = Store()
    except StoreLocked as exc:
        print(exc, file=sys.stderr)
        return 2
    from . import history  # noqa: F401  (registers the history and player screens)

    cache = HistoryCache()
    threading.Thread(target=cache.warm, args=(store,), name="history-warm-up", daemon=True).start()
    main = make_main(store, cache)
    try:
        if desktop:
            ft.run(main, assets_dir=ASSETS)
        else:
            url = f"http://{host}:{port}/"
            print(f"Xeri Companion is at {url} (data in {store.folder}); press Ctrl+C to stop.", flush=True)
            if not open_browser:
                # Flet opens the browser itself for WEB_BROWSER unless it is told it is a bare web server.
                os.environ["FLET_FORCE_WEB_SERVER"] = "true"
            ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True, assets_dir=ASSETS)
    finally:
        store.close()
    return 0
