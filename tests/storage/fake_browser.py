"""A fake browser for the browser build's storage: "IndexedDB" as a dict of file contents. `mount` empties
the folder (a new page's memory) and copies that dict in; `flush` makes the dict exactly the folder, as
Emscripten's IDBFS does. Like IDBFS, it keeps each file's modification time (which the store's index
compares)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path


class FakeBrowser:
    def __init__(self, indexeddb: dict | None = None, lock: bool | None = True):
        self.indexeddb = indexeddb if indexeddb is not None else {}
        self.mtimes: dict[str, int] = {}
        self.folder: Path | None = None
        self.lock_answer = lock
        self.flushes = 0
        self.refuse: Exception | None = None
        self.hang = False
        self.mount_error: Exception | None = None

    async def lock(self, name, wait):
        return self.lock_answer

    async def mount(self, path):
        if self.mount_error is not None:
            raise self.mount_error
        self.folder = Path(path)
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in sorted(self.folder.rglob("*"), reverse=True):
            old.unlink() if old.is_file() else old.rmdir()
        for rel, data in self.indexeddb.items():
            (self.folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.folder / rel).write_bytes(data)
            if rel in self.mtimes:
                os.utime(self.folder / rel, ns=(self.mtimes[rel], self.mtimes[rel]))

    async def flush(self):
        if self.hang:
            await asyncio.sleep(3600)
        if self.refuse is not None:
            raise self.refuse
        await asyncio.sleep(0)
        self.flushes += 1
        self.indexeddb.clear()
        self.indexeddb.update({str(p.relative_to(self.folder)): p.read_bytes()
                               for p in self.folder.rglob("*") if p.is_file() and p.name != ".lock"})
        self.mtimes = {rel: (self.folder / rel).stat().st_mtime_ns for rel in self.indexeddb}

    async def storage(self):
        return {"persisted": True, "quota": 1e9, "usage": 1e6}
