"""The data folder in a browser tab: the same TinyDB files as `Store`, kept in the browser's IndexedDB.

Python in the browser (Pyodide) keeps files in memory: without this every match is gone at the next
reload. Emscripten's IDBFS keeps a copy of one folder in an IndexedDB database. `IndexedDBFolder`
loads that copy into memory before the store opens, and `flush()` writes every changed file back in
one IndexedDB transaction (all of a save or none of it), returning once it committed.

`BrowserStore` is the `MatchStorage` the browser build runs on: a `Store` over that folder whose
writes are durable once `settle()` returned, not when the write method returns (IndexedDB only
answers asynchronously). The page waits for `settle()` before it shows what an intent saved
(`companion.ui.browser`), so a save the screen shows as done survives the tab being killed.

Two tabs of one browser would each hold their own copy in memory, and a flush writes the whole
folder as that tab sees it (deleting what it lacks, such as the other tab's new match). So the
folder is taken with a Web Lock for the life of the tab; a second tab is told the app is open
elsewhere and gets no store.

Nothing here imports Pyodide's modules (`js`, `pyodide_js`) until it runs in a browser; the
JavaScript side is passed in (`Browser`), so the logic is tested with a fake one.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..service.ports import DiskFault, StorageError
from . import files
from .store import Store

log = logging.getLogger(__name__)

FOLDER = "/xeri-data"
"""Where the data folder is in the browser's file system (IDBFS names its database after it)."""
LOCK_NAME = "xeri-companion-data"
"""The Web Lock a tab holds while it uses the folder."""
LOCK_WAIT = 3.0
"""Seconds to wait for the lock: a reloaded tab's old page may take a moment to let it go."""
FLUSH_TIMEOUT = 8.0
"""Seconds a flush may take before it counts as refused (a healthy one takes 5-50 ms). Emscripten's IDBFS
never calls back when IndexedDB aborts the transaction (the quota exceeded): without a limit the page
would wait for ever."""

_JS = r"""
self.xeriDisk = {
  lock(name, waitMs) {
    // true: this tab holds the lock until its worker ends; false: another tab holds it;
    // null: the browser has no Web Locks (then nothing guards against two tabs).
    if (!(self.navigator && navigator.locks)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), waitMs);
      navigator.locks.request(name, { signal: stop.signal }, () => {
        clearTimeout(timer);
        resolve(true);
        return new Promise(() => {});
      }).catch((e) => resolve(e && e.name === "AbortError" ? false : null));
    });
  },
  mount(FS, path) {
    FS.mkdirTree(path);
    FS.mount(FS.filesystems.IDBFS, {}, path);
    return new Promise((ok, fail) => FS.syncfs(true, (e) => e ? fail(e) : ok()));
  },
  flush(FS) {
    return new Promise((ok, fail) => FS.syncfs(false, (e) => e ? fail(e) : ok()));
  },
  async storage() {
    const out = { persisted: null, quota: null, usage: null };
    const s = self.navigator && navigator.storage;
    try { if (s && s.persisted) out.persisted = await s.persisted(); } catch (e) {}
    try {
      if (s && s.estimate) { const e = await s.estimate(); out.quota = e.quota; out.usage = e.usage; }
    } catch (e) {}
    return out;
  },
};
"""


class BrowserSaid(RuntimeError):
    """The browser refused (a rejected promise: the quota exceeded, IndexedDB missing, storage cleared); its
    words are the message. What `Browser` methods raise when the browser says no."""


BROWSER_REFUSALS = (RuntimeError, OSError, asyncio.TimeoutError, TimeoutError)
"""What a `Browser` call raises when the browser says no (`BrowserSaid` is a RuntimeError), or does not answer."""


class Browser(Protocol):
    """What the folder needs of the browser: the Web Lock, IDBFS, and the storage estimate."""

    async def lock(self, name: str, wait: float) -> bool | None: ...

    async def mount(self, path: str) -> None: ...

    async def flush(self) -> None: ...

    async def storage(self) -> dict[str, Any]: ...


class Pyodide:
    """The real browser, reached from Pyodide's web worker: `js` is the worker's global scope,
    `pyodide_js.FS` Emscripten's file system. Callback APIs are wrapped in promises once (`_JS`)."""

    def __init__(self) -> None:
        import js
        import pyodide_js
        from pyodide.code import run_js
        from pyodide.ffi import JsException

        if not hasattr(js, "xeriDisk"):
            run_js(_JS)
        self._disk, self._fs, self._js_error = js.xeriDisk, pyodide_js.FS, JsException

    async def _answer(self, call: Any) -> Any:
        """What a call into the browser gives (a promise's value); `BrowserSaid` with the browser's words when
        it refused, whether it threw at once or rejected the promise."""
        try:
            return await call()
        except self._js_error as exc:
            raise BrowserSaid(str(exc)) from exc

    async def lock(self, name: str, wait: float) -> bool | None:
        return await self._answer(lambda: self._disk.lock(name, int(wait * 1000)))

    async def mount(self, path: str) -> None:
        await self._answer(lambda: self._disk.mount(self._fs, path))

    async def flush(self) -> None:
        await self._answer(lambda: self._disk.flush(self._fs))

    async def storage(self) -> dict[str, Any]:
        info = await self._answer(lambda: self._disk.storage())
        return {"persisted": info.persisted, "quota": info.quota, "usage": info.usage}


def _reason(exc: BaseException) -> str:
    """What the browser said, short."""
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return f"no answer within {FLUSH_TIMEOUT:.0f} s"
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


@dataclass
class IndexedDBFolder:
    """The data folder's copy in IndexedDB, as seen from Python."""

    browser: Browser
    path: str = FOLDER
    kept: bool = False
    """IDBFS is mounted and was loaded: changes can be kept."""
    elsewhere: bool = False
    """Another tab of this browser holds the data: this one must not open it."""
    refused: str | None = None
    """Why this browser keeps nothing (what it said), or None while it keeps the data."""
    persisted: bool | None = None
    """Whether the browser promised not to evict the data (the page asks, `navigator.storage.persist()`)."""
    quota: float | None = None
    usage: float | None = None
    flush_ms: list[float] = field(default_factory=list)
    """How long each flush took."""
    _flushing: asyncio.Lock | None = None

    async def open(self) -> IndexedDBFolder:
        """Take the lock, mount IDBFS on the folder and load it. Never raises: `elsewhere` and `refused` say
        what went wrong (without IndexedDB the folder stays in memory, and the app runs on it)."""
        try:
            held = await self.browser.lock(LOCK_NAME, LOCK_WAIT)
        except BROWSER_REFUSALS as exc:  # no Web Locks: go on unguarded
            log.info("no Web Lock for the data folder (%s): a second tab is not kept out", _reason(exc))
            held = None
        if held is False:
            self.elsewhere = True
            return self
        try:
            await self.browser.mount(self.path)
            self.kept = True
        except BROWSER_REFUSALS as exc:  # private windows without IndexedDB, site data blocked: told
            self.refused = _reason(exc)
            Path(self.path).mkdir(parents=True, exist_ok=True)
        try:
            info = await self.browser.storage()
            self.persisted, self.quota, self.usage = info.get("persisted"), info.get("quota"), info.get("usage")
        except BROWSER_REFUSALS as exc:  # only figures for the settings; the app runs without them
            log.info("the browser did not say how much it keeps (%s)", _reason(exc))
        return self

    async def flush(self) -> None:
        """Write every change to IndexedDB; returns once the transaction committed. Raises what the browser
        said when it refused (the quota exceeded, storage cleared under the page), or `TimeoutError`."""
        if not self.kept:
            return
        if self._flushing is None:
            self._flushing = asyncio.Lock()
        async with self._flushing:  # one at a time: a flush started mid-way through another could miss changes
            start = time.perf_counter()
            await asyncio.wait_for(self.browser.flush(), FLUSH_TIMEOUT)
            self.flush_ms.append((time.perf_counter() - start) * 1000)


class BrowserStore(Store):
    """`MatchStorage` in a browser tab: a `Store` over the folder in IndexedDB. Every write lands in
    memory when its method returns and is durable once `settle()` returned."""

    HOLDS_LOCK = False
    """The folder is this tab's memory: no other process sees it, and IndexedDB's own lock keeps a second tab
    out (`IndexedDBFolder.elsewhere`). Taking a lock file there imported filelock at every first visit (36 ms
    of a browser's start) to guard nothing."""

    def __init__(self, path: Path, kept_in: IndexedDBFolder, settled_at: int = -1):
        super().__init__(path)
        self.kept_in = kept_in
        """The IndexedDB copy the store's folder is flushed to."""
        self._settled_at = settled_at
        """What `files.changes` said when the folder and IndexedDB last agreed (-1: not known)."""
        self.refused: str | None = kept_in.refused
        """Why the last flush failed (what the browser said), or None after one that worked."""
        self._keeping: asyncio.Task | None = None
        """The flush after figures were kept (held: a task nobody holds may be collected before it ran)."""

    @property
    def folder(self) -> Path | None:
        """No folder a person can find: the data is the browser's (see `companion.service.ports`)."""
        return None

    def keep(self, name: str, data: bytes) -> None:
        """`Store.keep`, then flushed to IndexedDB beside the page's work (no tap waits for it): figures kept
        between runs must outlive the tab, and nothing else may write for a while."""
        super().keep(name, data)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return                      # not on the page's loop (a test): the next settle keeps it
        self._keeping = loop.create_task(self._settle_quietly())

    async def _settle_quietly(self) -> None:
        said = self.refused
        try:
            await self.settle()
        except StorageError:
            # Kept figures are no one's save: the next save's own settle tries again, and says it if refused then
            # (`refused` set here would have sent that save down the quiet path, untold).
            self.refused = said

    # --- durability -------------------------------------------------------------------------------------
    def unsettled(self) -> bool:
        """True when something was written since the last flush that worked."""
        return files.changes != self._settled_at

    async def settle(self) -> None:
        """Flush what was written to IndexedDB. `DiskFault` (fault `full` when the browser gave no room,
        else `other`) when the browser refused; the change stays in memory, and the next settle tries again."""
        if not self.kept_in.kept:  # nowhere to keep it: the app runs in memory, and `refused` says why
            self._settled_at = files.changes
            return
        while self.unsettled():
            seen = files.changes
            try:
                await self.kept_in.flush()
            except BROWSER_REFUSALS as exc:  # QuotaExceededError, TimeoutError, an InvalidStateError, …: told
                self.refused = _reason(exc)
                full = "quota" in self.refused.lower() or isinstance(exc, (asyncio.TimeoutError, TimeoutError))
                raise DiskFault("keep the change in this browser", None,
                                OSError(errno.ENOSPC if full else errno.EIO, self.refused)) from None
            self._settled_at = seen
            self.refused = None


async def open_in_browser(browser: Browser | None = None,
                          path: str = FOLDER) -> tuple[IndexedDBFolder, BrowserStore | None]:
    """Open the data folder kept in this browser: the folder (what went wrong, if anything) and the store,
    None when another tab holds the data. `StorageError` when the folder cannot be used at all."""
    folder = await IndexedDBFolder(browser or Pyodide(), path).open()
    if folder.elsewhere:
        return folder, None
    loaded = files.changes  # the folder is what IndexedDB holds
    store = BrowserStore(Path(path), folder, settled_at=loaded)
    if store.unsettled():
        try:
            await store.settle()  # opening rebuilt the index or set a damaged file aside: keep that too
        except StorageError:
            pass  # `store.refused` says why; the app runs on the copy in memory and says so
    return folder, store
