"""The web server: the Flet app through `flet_web.fastapi`, behind `Guard`, on our own uvicorn."""

from __future__ import annotations

import asyncio
import errno
import signal
import socket
import sys
from typing import Any
from collections.abc import Callable

from .access import CURRENT, WANTED_LANGUAGES, Access, TableCode
from .guard import Guard
from .hosts import WILDCARD_HOSTS, allowed_hostnames

ACCESS_KEY = "xeri.access"
"""Where a Flet session keeps its access level (`page.session.store`)."""
LANGUAGES_KEY = "xeri.languages"
"""Where a Flet session keeps the languages its browser asks for."""
GRACEFUL_SECONDS = 3
"""How long a stop waits for connections to finish before it closes them."""


class BindError(Exception):
    """The address or port cannot be used; the message says what to do."""


def page_access(page: Any) -> Access:
    """The access of a Flet page's session: set by `before_main` (again by `watch_access`) when served by
    `build_app`; the desktop window, which has no server, is its owner's."""
    return Access(page.session.store.get(ACCESS_KEY) or CURRENT.get())


def page_languages(page: Any) -> tuple[str, ...]:
    """The languages the page's browser asks for (its Accept-Language), best first; empty without a browser
    (the desktop window, a phone build)."""
    return tuple(page.session.store.get(LANGUAGES_KEY) or WANTED_LANGUAGES.get() or ())


def connection_access(page: Any) -> Access | None:
    """On a page's new connection (`page.on_connect`): its access, when it differs from the session's.

    The web client keeps its session id for the tab; after a reload (a watching tab opening the join
    link) it re-attaches to the same session: `before_main` and `main` do not run again, only
    `page.on_connect`, in a task of the new connection, where `CURRENT` holds the new connection's access.
    """
    access = CURRENT.get()
    if access == page.session.store.get(ACCESS_KEY):
        return None
    page.session.store.set(ACCESS_KEY, access)
    return Access(access)


def _recording(before_main: Callable | None) -> Callable:
    async def before(page: Any) -> None:
        page.session.store.set(ACCESS_KEY, CURRENT.get())
        page.session.store.set(LANGUAGES_KEY, list(WANTED_LANGUAGES.get()))
        if before_main is not None:
            result = before_main(page)
            if asyncio.iscoroutine(result):
                await result
    return before


def build_app(main: Callable, *, host: str, port: int, code: TableCode, assets_dir: str | None = None,
              extra_hosts: tuple[str, ...] = (), **flet_options: Any) -> Guard:
    """The whole web app: Flet's FastAPI app (no CDN: it works offline), behind `Guard`."""
    import flet_web.fastapi as flet_fastapi

    flet_app = flet_fastapi.app(main, before_main=_recording(flet_options.pop("before_main", None)),
                                assets_dir=assets_dir, no_cdn=True, **flet_options)
    refresh = (lambda: allowed_hostnames(host, extra_hosts)) if host in WILDCARD_HOSTS else None
    return Guard(flet_app, port=port, hostnames=allowed_hostnames(host, extra_hosts), code=code,
                 refresh_hostnames=refresh)


def bind_socket(host: str, port: int) -> socket.socket:
    """Listen on `host:port` before serving, so a port in use is said in words (uvicorn itself logs an
    error and exits with status 3 from inside its task, which Flet turned into a page of tracebacks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio does: a restart reuses it
        sock.bind(("0.0.0.0" if host in ("", "*") else host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
        return sock
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise BindError(f"port {port} is in use; try --port {port + 1 if port < 65535 else 8550}") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise BindError(f"{host} is not an address of this machine; try --host 0.0.0.0") from None
        if exc.errno == errno.EACCES:
            raise BindError(f"this user may not use port {port}; try --port 8550") from None
        raise BindError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def serve(app: Any, host: str, port: int, on_ready: Callable[[], None] | None = None,
          log_level: str = "warning") -> int:
    """Serve `app` until SIGINT or SIGTERM; the exit status (2 when the address cannot be used)."""
    import uvicorn

    try:
        sock = bind_socket(host, port)
    except BindError as exc:
        print(exc, file=sys.stderr)
        return 2
    server = uvicorn.Server(uvicorn.Config(app, ws="websockets-sansio", lifespan="on", log_level=log_level,
                                           timeout_graceful_shutdown=GRACEFUL_SECONDS, server_header=False))

    # uvicorn puts in its own signal handlers while serving and, once done, restores the previous ones
    # and raises the caught signal again: with the default handlers that kills the process before our
    # `finally:` (the store's close) runs. These only ask the server to stop, before it starts too.
    def stop(signum: int, frame: Any) -> None:
        server.should_exit = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}

    async def run() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started and on_ready is not None:
            on_ready()
        await task

    try:
        asyncio.run(run())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
    return 0
