"""The Flet app: the root component of every phone's page, and the page's set-up (`make_main`).

What a page does beyond drawing the view model is the `PageAdapter`'s (`ui.page`); what the screens look
like is the views'; how the app is built is `companion.bootstrap`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from importlib.resources import files
from typing import Any, TypeVar

import flet as ft

from ..bootstrap import Parts
from ..net.access import TableInfo
from ..net.server import page_access
from ..net.server import page_languages as asked_languages
from .fonts import NAMES_FONT
from .page import PageAdapter, PageOptions, page_languages, page_services
from .viewmodel import AppModel, Place, Session
from .views.frame import broken_frame, page_dialog, page_frame
from .views.theme import SUIT_FONT, themes

class ObservableSession(ft.observable(Session)):  # type: ignore[misc]
    """A phone's session that the page observes: every change of it redraws the page, except while its
    redraws are held (a write under way off the event loop, or, in the browser build, not yet kept):
    then the page shows nothing of it until `let_go_redraws`, so nothing on screen runs ahead of the
    storage."""

    def _notify(self, field: str | None) -> None:
        if self.__dict__.get("_holding"):
            self._held = True
            return
        super()._notify(field)

    def hold_redraws(self) -> None:
        self._holding = True

    def let_go_redraws(self) -> None:
        self._holding = False
        if self.__dict__.pop("_held", False):
            self.notify()
SessionMaker = Callable[[ft.Page], Session]
"""Makes a new page's session (the front door chooses: served, or the browser build's)."""

T = TypeVar("T")
log = logging.getLogger(__name__)

ASSETS = str(files(__package__) / "assets")
"""The web assets (the fonts), inside the package: a real folder wherever the package is installed."""


@ft.component
def App(parts: Parts, new_session: SessionMaker, options: PageOptions, place: Place | None = None):
    """One phone's page: its session and view model, what the page does for them, and the screen on show;
    `place`, where the phone was (its browser said, in `make_main`)."""
    page = ft.context.page
    session = _once(lambda: placed(new_session(page), place, place_keeper(page)))
    vm = _once(lambda: AppModel(parts.services, session=session))
    adapter = _once(lambda: PageAdapter(page, vm, options, parts.writer, parts))
    ft.on_mounted(adapter.attach)
    ft.on_mounted(lambda: adapter.attach_sync(parts.runner))
    with session.steady():     # never drawn half-way through an intent the writer's thread runs
        ft.on_updated(adapter.apply_settings, [session.theme, session.lang])
        ft.use_effect(adapter.load_script_fonts, [session.revision, session.lang])
        ft.use_effect(lambda: page.run_task(adapter.keep_awake), [vm.settings.wants_wakelock])
        ft.use_effect(adapter.fade_flash_later, [vm.scoreboard.flash])
        ft.use_effect(adapter.tell_others)     # after every redraw, once it is sent: this phone's news to the others
        adapter.hand_over_download()
        dialog, frame = draw(vm, options.test_hooks)
        ft.use_dialog(dialog)
    return frame


def draw(vm: AppModel, hooks: bool) -> tuple[ft.AlertDialog | None, ft.Control]:
    """The dialog and the screen on show. A screen that fails to draw (a bug) is logged and replaced by a
    sentence and a way home: let through, the error would end Flet's drawing of the page for good, and the
    phone would go on showing the last screen as if nothing had happened."""
    try:
        return page_dialog(vm, hooks), page_frame(vm, hooks)
    except Exception:
        log.exception("the %s screen could not be drawn", vm.screen.value)
        return None, broken_frame(vm, hooks)


def placed(session: Session, place: Place | None, keep: Callable[[Place], None]) -> Session:
    """The session, starting where the phone was and keeping where it goes."""
    session.place, session.keep_place = place, keep
    return session


def _once(make: Callable[[], T]) -> T:
    """A value a component makes on its first render and keeps (`ft.use_state`, whose maker Flet types as
    returning nothing)."""
    return ft.use_state(make)[0]  # type: ignore[arg-type]


def served_session(parts: Parts, table: TableInfo | None = None) -> SessionMaker:
    """A page's session on the served app: its access and languages come from the server's request."""
    def new_session(page: ft.Page) -> Session:
        return ObservableSession(parts.services, parts.history, access=page_access(page), table=table,
                                 wanted=page_languages(page, asked_languages(page)))

    return new_session


LOST_EVENT = "Control with ID %s not found."
"""What Flet says, at DEBUG, of an event for a control it no longer has, and then drops: a tap that reached the
app after its control left the page (`flet.messaging.session.Session.dispatch_event`)."""


class _LostEvents:
    """Flet's session log, with the dropped event said as a warning of the app's: a person's tap that did nothing
    is said in the log, never silent. (Not by lowering the "flet" logger to DEBUG: Flet hands that logger's level
    to the uvicorn of its own web server, whose DEBUG prints every WebSocket frame, a typed password with it.)"""

    def __init__(self, inner: logging.Logger):
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def debug(self, msg: object, *args: Any, **kwargs: Any) -> None:
        if msg == LOST_EVENT:
            log.warning("an event for control %s came after the control left the page; Flet dropped it", *args)
        else:
            self.inner.debug(msg, *args, **kwargs)


def say_lost_events() -> None:
    """Have Flet's dropped events said (`_LostEvents`), once for the process. Flet's sessions look their module's
    logger up when they log, so the one in the module is the one they use (checked by a test: recheck on every
    Flet upgrade)."""
    from flet.messaging import session as flet_session

    if not isinstance(flet_session.logger, _LostEvents):
        flet_session.logger = _LostEvents(flet_session.logger)  # type: ignore[assignment]


def make_main(parts: Parts, options: PageOptions, new_session: SessionMaker,
              kept: Callable[[], Mapping[str, object] | None] = lambda: None) -> Callable[[ft.Page], Awaitable[None]]:
    """Flet's `main` for every page: the page's look and device services; where this phone was, from its own
    browser; then the `App` component, drawn first where the phone was (nothing jumps once it shows).

    `kept`: what the browser keeps for the app (its SharedPreferences, by key), when it is known without asking
    the browser (the browser build: the page read it before Python started); None: asked of the browser, a
    round trip through Flutter while it draws its first frame (a tenth to half a second of the start)."""
    say_lost_events()
    async def main(page: ft.Page) -> None:
        page.title = "Xeri Companion"
        page.padding = ft.Padding.symmetric(horizontal=12, vertical=8)
        page.fonts = {SUIT_FONT: "fonts/XeriSuits.ttf", NAMES_FONT[0]: NAMES_FONT[1]}
        page.theme, page.dark_theme = themes()
        prefs = ft.SharedPreferences()
        services: dict[str, Any] = {"wakelock": ft.Wakelock(), "share": ft.Share(), "clipboard": ft.Clipboard(),
                                    "files": ft.FilePicker(), "launcher": ft.UrlLauncher(), "prefs": prefs}
        page._xeri_services = services  # type: ignore[attr-defined]  # read by `page.page_services`
        page.update()   # the services reach the browser (an empty page in the theme's colour, for a moment)

        async def begin() -> None:
            known = kept()
            place = (place_from(known.get(PLACE_KEY)) if known is not None
                     else await read_place(prefs, lambda: connection_of(page)))
            page.render(App, parts, new_session, options, place)

        # Drawn from a task of the page, not from `main` itself: Flet's own step after `main` assumes the connection
        # that opened the page is still there, and a browser reloaded while its place was being read had closed it
        # (seen: a traceback in Flet, under load, when the laptop's app was started again and phones reloaded).
        page._xeri_started = page.run_task(begin)  # type: ignore[attr-defined]  # the browser build awaits it

    return main


def connection_of(page: ft.Page) -> object | None:
    """The connection the page's session speaks over now (None while it has none)."""
    try:
        return page.session.connection
    except Exception:  # noqa: BLE001 - a page whose session is gone has no connection
        return None


PLACE_KEY = "xeri.place"
"""Where the phone's browser keeps its place (`Place`): the match followed, then 1 when at its table (2 and a
number: at its table, playing the deciding hand chosen when the match had that many hands)."""

PLACE_WAIT = 2.0
"""Seconds the first draw waits for the browser to say where the phone was; past that it opens at home."""


RECONNECT_WAIT = 10.0
"""Seconds a page that lost its connection while its place was read waits for the browser to come back."""


async def read_place(prefs: ft.SharedPreferences, connection: Callable[[], object | None] = lambda: None,
                     tries: int = 3) -> Place | None:
    """Where this phone was, as its browser kept it (`keep_place`); None when it kept nothing, said something
    this app did not write, or said nothing in time (the first draw never waits longer than `PLACE_WAIT` for a
    browser that is there). `connection` says which connection the page speaks over: a question asked on one
    that went away meanwhile (a reload, a network blip; its answer is lost with it) is asked again once the page
    is back, so a phone that reconnected while starting still opens at its table, not at home."""
    for _ in range(tries):
        asked_on = connection()
        try:
            return place_from(await asyncio.wait_for(prefs.get(PLACE_KEY), PLACE_WAIT))
        except (RuntimeError, ValueError) as exc:   # a client without the service, or an answer it cannot give
            log.info("the phone's place was not read: %r", exc)
            return None
        except TimeoutError:
            if connection() is asked_on:             # the same browser, there all along, said nothing in time
                log.info("the phone's place was not read in %s s", PLACE_WAIT)
                return None
        waited = 0.0
        while connection() is None and waited < RECONNECT_WAIT:
            await asyncio.sleep(0.1)
            waited += 0.1
    return None


def place_from(said: object) -> Place | None:
    """A place from what the browser kept ("<match id> 1": at its table; "<match id> 2 <hands>": playing its
    deciding hand there), or None when it is not one."""
    if not isinstance(said, str) or len(said) > 80:
        return None
    following, _, rest = said.partition(" ")
    at, _, hands = rest.partition(" ")
    if following and not (len(following) == 32 and all(c in "0123456789abcdef" for c in following)):
        return None
    deciding = int(hands) if at == "2" and hands.isdigit() and len(hands) <= 4 else 0
    return Place(following, at in ("1", "2"), deciding)


def said_of(place: Place) -> str:
    """What the browser keeps for a place (`place_from` reads it back)."""
    if place.deciding:
        return f"{place.following} 2 {place.deciding}"
    return f"{place.following} {int(place.at_table)}"


def place_keeper(page: ft.Page) -> Callable[[Place], None]:
    """How a phone keeps its place: in its own browser, without holding up the intent that moved it."""
    def keep(place: Place) -> None:
        async def write() -> None:
            try:
                await asyncio.wait_for(page_services(page)["prefs"].set(PLACE_KEY, said_of(place)), PLACE_WAIT)
            except (TimeoutError, RuntimeError, ValueError) as exc:   # costs a tap on Continue, nothing more
                log.info("the phone's place was not kept: %r", exc)

        page.run_task(write)

    return keep
