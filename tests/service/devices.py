"""Devices of one group for the service's sync tests: each its own data folder, opened as the app opens it, on
a clock of its own, and one shared database in memory (`shared_db.SharedDatabase`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from companion import bootstrap
from tests.loop import run
from tests.service.shared_db import SharedDatabase
from tests.storage.builders import Clock, new_match


class Device:
    def __init__(self, folder: Path, shared: SharedDatabase | None, ahead: timedelta = timedelta(),
                 make_id: Callable[[], str] | None = None):
        self.folder = folder
        self.shared = shared
        self.clock = Clock()
        self.clock.now += ahead   # this device's own clock, right or not; it goes on when the app opens again
        self.make_id = make_id
        self.parts = self._open()

    def _open(self):
        made = {} if self.make_id is None else {"make_id": self.make_id}
        return bootstrap.build(bootstrap.open_folder(self.folder), clock=self.clock, **made)

    @property
    def table(self):
        return self.parts.services.table

    @property
    def library(self):
        return self.parts.services.library

    @property
    def sync(self):
        return self.parts.services.sync

    @property
    def replica(self):
        return self.sync.replica

    def once(self):
        assert self.shared is not None
        return run(self.sync.once(self.shared))

    def matches(self):
        return self.library.matches()

    def reopen(self) -> None:
        """Closed (the app quit, or killed: the folder holds what it held) and opened again."""
        self.parts.close()
        self.parts = self._open()

    def close(self):
        self.parts.close()

    def kill(self) -> None:
        """Killed (nothing flushed on the way out: the index's pending writes and the bin stay as they are on
        disk), then opened again from what its folder holds. The real SIGKILL tests are in tests/storage/."""
        store = self.parts.storage
        with store.lock:
            store._closed = True          # nothing more is written, as in a dead process
            store._file_lock.release()    # the OS lets go of a dead process's lock
        self.parts = self._open()

    def in_file(self, match_id: str) -> list[dict]:
        """The documents waiting in the match's own file (`MatchRecord.outbox`), as on disk."""
        doc = json.loads((self.folder / "matches" / f"{match_id}.json").read_text("utf-8"))
        return next(iter(doc["match"].values())).get("outbox", [])


def sharing(device: Callable[[str], Device]) -> tuple[Device, Device, str]:
    """Devices A and B (from the `device` fixture), both holding one match of one hand that A started."""
    a, b = device("a"), device("b")
    m = a.table.start(new_match(hands=1)).id
    a.once()
    b.once()
    return a, b, m
