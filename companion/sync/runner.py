"""Keeping a device in step with its group beside the screens: a round when something changed here, and a
longpoll on the group's database that brings what another device wrote within a second or two.

The same loop runs in a thread of its own with its own event loop (the served app, a packaged phone app)
and as a task on the page's loop (the browser build, which has no threads). It never blocks a tap: the
screens read the local store, which a round only writes through the service's revision guard.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..engine.messages import Message
from ..service.group import Group
from ..service.sync import Report, RoundStopped, Sync
from .address import CouchAddress
from .couch import Check, CouchClient
from .errors import SyncError
from .remote import CouchRemote

log = logging.getLogger(__name__)

LONGPOLL_SECONDS = 20.0
"""How long one longpoll asks the server to hold it before it answers with no change."""
LOCAL_CHECK_SECONDS = 0.2
"""How often the loop looks whether this device wrote something (a counter: nothing is read)."""
BACKOFF_SECONDS = (1, 2, 5, 10, 20, 30, 60)
"""Waits before trying again after a failed round, longer each time (a press of Sync now starts at once)."""


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


class SyncRunner:
    """The loop (see the module). `poke()` starts a round at once; `stop()` ends the loop."""

    def __init__(self, sync: Sync, group: Group, changed_here: Callable[[], int],
                 after_round: Callable[[Report], Awaitable[None] | None] | None = None):
        self.sync = sync
        self.group = group
        self.changed_here = changed_here
        """A number that moves whenever this device writes (`storage.files.changes`)."""
        self.after_round = after_round
        """Told what each round stored (the front door shows it on the phones, and in a browser keeps it)."""
        self.status = Status()
        self._stop = False
        self._poked = False
        self._thread: threading.Thread | None = None

    # --- control --------------------------------------------------------------------------------------
    def start_thread(self) -> None:
        """Run the loop in a thread of its own (served app, packaged app, command line)."""
        self._thread = threading.Thread(target=lambda: asyncio.run(self.run()), name="xeri-sync", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Sync now: the group changed, or a person asked."""
        self._poked = True

    def stop(self, wait: float = 5.0) -> None:
        self._stop = True
        if self._thread is not None:
            self._thread.join(wait)

    # --- the loop ---------------------------------------------------------------------------------------
    async def run(self) -> None:
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
                await self._pause(BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS)) - 1])
            except Exception:  # a bug: said in the log, and the loop goes on after a pause
                failures += 1
                log.exception("sync: a round failed")
                await self._pause(BACKOFF_SECONDS[-1])

    async def _in_step(self, remote: CouchRemote, address: Any) -> None:
        """Rounds for as long as the group stays the same: one now, then one whenever this device writes or
        the group's database changes (a longpoll)."""
        while not self._stop and self.group.address() == address:
            self._poked = False
            self.status = Status("syncing", self.status.at, None, self.status.waiting, self.status.conflicts,
                                 self.status.started_over)
            report = await self.sync.once(remote)
            started_over = ((time.time(), report.started_over) if report.started_over is not None
                            else self.status.started_over)
            self.status = Status("ok", time.time(), None, len(self.sync.replica.unsent(1000)), report.conflicts,
                                 started_over)
            if self.after_round is not None:
                done = self.after_round(report)
                if done is not None:
                    await done
            await self._until_something(remote)

    async def _until_something(self, remote: CouchRemote) -> None:
        seen = self.changed_here()
        since = self.sync.replica.checkpoint or "0"
        waiting = asyncio.ensure_future(remote.wait(since, LONGPOLL_SECONDS))
        try:
            while not waiting.done():
                if self._stop or self._poked or self.changed_here() != seen:
                    return
                await asyncio.sleep(LOCAL_CHECK_SECONDS)
            waiting.result()  # a failed longpoll fails the round: the loop tries again after a pause
        finally:
            if not waiting.done():
                waiting.cancel()
                try:
                    await waiting
                except (asyncio.CancelledError, SyncError):
                    pass

    async def _pause(self, seconds: float) -> None:
        """Wait before trying again; a person's Sync now, the network back (the browser's `online`), or a
        change saved here meanwhile tries at once (a save must not wait out a minute's back-off)."""
        end = time.monotonic() + seconds
        seen = self.changed_here()
        while (not self._stop and not self._poked and self.changed_here() == seen
               and time.monotonic() < end):
            await asyncio.sleep(LOCAL_CHECK_SECONDS)
