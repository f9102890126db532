"""Keeping a device in step with its group beside the screens: a round when something changed here, and a
longpoll on the group's database that brings what another device wrote within a second or two.

The same loop runs in a thread of its own with its own event loop (the served app, a packaged phone app)
and as a task on the page's loop (the browser build, which has no threads). It never blocks a tap: the
screens read the local store, which a round only writes through the service's revision guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..engine.messages import Message
from ..service.group import Group
from ..service.sync import Report, RoundStopped, Sync
from .address import CouchAddress
from .couch import Check, CouchClient
from .errors import SyncError, SyncSays
from .remote import CouchRemote

log = logging.getLogger(__name__)

LONGPOLL_SECONDS = 20.0
"""How long one longpoll asks the server to hold it before it answers with no change."""
_IN_ROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("xeri_sync_in_round", default=False)
"""Set while a round runs: what the round itself writes (what it received, its checkpoint) is not news for
the next round. A ContextVar, so it holds in the round's task and the threads it hands work to, and not in
a page's task that saves a hand meanwhile (the browser build runs both on one loop)."""

Listen = Callable[[Callable[[], None]], Callable[[], None]]
"""Subscribe to this device's writes: `listen(wake)` calls `wake()` after each, and returns what ends it
(`storage.files.on_change`)."""
BACKOFF_SECONDS = (1, 2, 5, 10, 20, 30, 60)
"""Waits before trying again after a failed round, longer each time (a press of Sync now starts at once)."""
REACH_SECONDS = 2.0
"""After a round failed on the network (the server could not be reached, or a connection broke off), how
often a bare connection to the server is opened during the back-off: once one opens after the server was
seen unreachable (the network is back), the next round starts at once, not after up to a minute. A server
that accepts connections and answers wrongly is not knocked on every two seconds: it was never unreachable.
In a browser tab, which opens no sockets, the page's `online` event does this (`ui.browser_build`)."""
NETWORK = (SyncSays.UNREACHABLE, SyncSays.CUT_OFF)


class CouchConnector:
    """`service.sync.Connector` for CouchDB."""

    def parse(self, text: str) -> CouchAddress:
        return CouchAddress.from_url(text)

    async def check(self, address: CouchAddress, create: bool = False) -> Check:
        async with CouchClient(address) as client:
            found = await client.check()
            if create and found.database is False and found.may_create:
                await client.create_database()
                found = await client.check()
            return found

    def shown(self, address: CouchAddress) -> str:
        return str(address)

    def link(self, address: CouchAddress) -> str:
        return address.with_credentials()


@dataclass
class Status:
    """How syncing goes, for the screens (read from any thread; replaced whole, never changed in place)."""

    state: str = "off"
    """`off` (in no group), `syncing`, `ok` (in step), `failing` (the last round failed; it tries again)."""
    at: float | None = None
    """When the last round ended well (time.time())."""
    problem: SyncError | RoundStopped | None = None
    """Why the last round failed."""
    waiting: int = 0
    """Changes of this device not sent yet."""
    conflicts: int = 0
    """Hands saved differently on two devices, waiting for the table."""
    started_over: tuple[float, Message] | None = None
    """When (time.time()) and why the device last started over with the group's database (`GroupSays`)."""
    in_step: bool = False
    """What the last round found when it checked (`Report.in_step`): only then is "In step" said."""


class SyncRunner:
    """The loop (see the module). `poke()` starts a round at once; `stop()` ends the loop."""

    def __init__(self, sync: Sync, group: Group, listen: Listen,
                 after_round: Callable[[Report], Awaitable[None] | None] | None = None):
        self.sync = sync
        self.group = group
        self.listen = listen
        """How the loop hears of this device's writes (`storage.files.on_change`): it sleeps until one comes,
        a person presses Sync now, or the group's database changes; it never polls."""
        self.after_round = after_round
        """Told what each round stored (the front door shows it on the phones, and in a browser keeps it)."""
        self.status = Status()
        self._stop = False
        self._poked = False
        self._wrote = False
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    # --- control --------------------------------------------------------------------------------------
    def start_thread(self) -> None:
        """Run the loop in a thread of its own (served app, packaged app, command line)."""
        self._thread = threading.Thread(target=lambda: asyncio.run(self.run()), name="xeri-sync", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Sync now: the group changed, or a person asked (from any thread)."""
        self._poked = True
        self._wake_up()

    def stop(self, wait: float = 5.0) -> None:
        self._stop = True
        self._wake_up()
        if self._thread is not None:
            self._thread.join(wait)

    def _written(self) -> None:
        """This device wrote a file (in the writer's thread): news for a round, unless the round wrote it."""
        if not _IN_ROUND.get():
            self._wrote = True
            self._wake_up()

    def _wake_up(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is None or wake is None:
            return  # not running yet: the loop's first round comes anyway
        try:
            loop.call_soon_threadsafe(wake.set)
        except RuntimeError:  # the loop has ended
            pass

    def _news(self) -> bool:
        """Is there a reason for a round now? Takes the news it answers (the wake-up, a write, Sync now): the
        round that follows, or the pause with no group, has seen it, so the loop never spins on old news."""
        if self._wake is not None:
            self._wake.clear()
        news = self._stop or self._poked or self._wrote
        self._poked = self._wrote = False
        return news

    # --- the loop ---------------------------------------------------------------------------------------
    async def run(self) -> None:
        async with self.awake():
            await self._rounds()

    @contextlib.asynccontextmanager
    async def awake(self) -> AsyncIterator[None]:
        """While the loop runs on this event loop: this device's writes, Sync now and stop wake it."""
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        unlisten = self.listen(self._written)
        try:
            yield
        finally:
            unlisten()
            self._loop = self._wake = None

    async def _rounds(self) -> None:
        failures = 0
        while not self._stop:
            address = self.group.address()
            if address is None:
                self.status = Status()
                await self._pause(3600)
                continue
            try:
                async with CouchClient(address) as client:
                    await self._in_step(CouchRemote(client), address)
                failures = 0
            except (SyncError, RoundStopped) as exc:
                failures += 1
                self.status = Status("failing", self.status.at, exc, len(self.sync.replica.unsent(1000)),
                                     self.status.conflicts, self.status.started_over)
                log.info("sync: %s", exc)
                reason = exc.reason if isinstance(exc, SyncError) else None
                await self._pause(BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS)) - 1],
                                  address if reason in NETWORK else None, down=reason is SyncSays.UNREACHABLE)
            except Exception:  # a bug: said in the log, and the loop goes on after a pause
                failures += 1
                log.exception("sync: a round failed")
                await self._pause(BACKOFF_SECONDS[-1])

    async def _in_step(self, remote: CouchRemote, address: Any) -> None:
        """Rounds for as long as the group stays the same: one now, then one whenever this device writes or
        the group's database changes (a longpoll)."""
        while not self._stop and self.group.address() == address:
            self._poked = self._wrote = False
            self.status = Status("syncing", self.status.at, None, self.status.waiting, self.status.conflicts,
                                 self.status.started_over, self.status.in_step)
            report = await self._round(remote)
            started_over = ((time.time(), report.started_over) if report.started_over is not None
                            else self.status.started_over)
            self.status = Status("ok", time.time(), None, len(self.sync.replica.unsent(1000)), report.conflicts,
                                 started_over, report.in_step)
            if self.after_round is not None:
                done = self.after_round(report)
                if done is not None:
                    await done
            await self._until_something(remote)

    async def _round(self, remote: CouchRemote) -> Report:
        token = _IN_ROUND.set(True)
        try:
            return await self.sync.once(remote)
        finally:
            _IN_ROUND.reset(token)

    async def _until_something(self, remote: CouchRemote) -> None:
        """Sleep until this device writes, a person presses Sync now, or the group's database changes (the
        longpoll answers, or fails: then the round fails and the loop tries again after a pause)."""
        since = self.sync.replica.checkpoint or "0"
        waiting = asyncio.ensure_future(remote.wait(since, LONGPOLL_SECONDS))
        try:
            await self._sleep(waiting)
            if waiting.done():
                waiting.result()
        finally:
            if not waiting.done():
                waiting.cancel()
                try:
                    await waiting
                except (asyncio.CancelledError, SyncError):
                    pass

    async def _pause(self, seconds: float, reach: CouchAddress | None = None, down: bool = False) -> None:
        """Wait before trying again; a person's Sync now, the network back (the browser's `online`, or the
        server at `reach` opening a connection again after it was `down`, or seen so), or a change saved here
        meanwhile tries at once (a save must not wait out a minute's back-off)."""
        timer = asyncio.ensure_future(asyncio.sleep(seconds) if reach is None
                                      else _until_reachable(reach, seconds, down))
        try:
            await self._sleep(timer)
        finally:
            timer.cancel()

    async def _sleep(self, until: asyncio.Future[Any]) -> None:
        """Until `until` is done or there is news (`_news`), whichever is first; `until` is left running."""
        wake = self._wake
        assert wake is not None, "the runner's loop is not running"
        while not self._news() and not until.done():
            woken = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait((until, woken), return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()


async def _until_reachable(address: CouchAddress, seconds: float, down: bool) -> None:
    """Until `seconds` have passed, or the server at `address` accepts a connection once it was `down` or
    seen so (tried every `REACH_SECONDS`; nothing is sent on it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    server = urlsplit(address.server)
    host, port = server.hostname, server.port or (443 if server.scheme == "https" else 80)
    while (left := deadline - loop.time()) > 0:
        await asyncio.sleep(min(REACH_SECONDS, left))
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), REACH_SECONDS)
        except Exception:  # noqa: BLE001 - not yet (refused, no route, no sockets here): wait on
            down = True
            continue
        writer.close()
        if down:
            return
