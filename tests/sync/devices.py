"""Devices of a group for the sync fault tests: data folders, each a device, driven the ways a person would.

- `cli(folder, "sync", "--server", url)`: `python -m companion` on the folder, as a command-line device;
- `ServedDevice`: `python -m companion --port N --no-browser` on its folder (tests/app_server.py),
  joined to the group before it starts (the app holds the folder's lock while it runs);
- `open_device(folder)`: the app built in this process on the folder (only while no app holds it), for
  what no front door offers yet (recording a hand from a script, choosing between two versions);
- `contents(folder)` and `shared_docs(couch)`: what a device holds and what the group's database holds,
  read without the code under test where that can be done.

Every process is started here and ended here; nothing is mocked.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion import bootstrap
from companion.formats.matchfile import match_to_dict
from companion.service.sync import Report
from companion.sync.address import CouchAddress
from companion.sync.couch import CouchClient
from companion.sync.errors import SyncError
from companion.sync.remote import CouchRemote
from tests.app_server import AppServer
from tests.storage.builders import Clock, hand_for, new_match

ROOT = Path(__file__).resolve().parents[2]
CLI_TIMEOUT = 240
"""Seconds one command-line sync may take on a busy machine (a 1,000-match history included)."""


def cli(folder: Path, *args: str, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess:
    """`python -m companion ARGS --lang en` on the data folder `folder`."""
    env = {**os.environ, "XERI_DATA_DIR": str(folder), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "companion", *args, "--lang", "en"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def cli_sync(folder: Path, url: str | None = None, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess:
    return cli(folder, "sync", *(["--server", url] if url else []), timeout=timeout)


def synced(folder: Path, url: str | None = None) -> str:
    """One sync that must work; what it printed."""
    out = cli_sync(folder, url)
    assert out.returncode == 0, out.stderr
    return out.stdout


@contextlib.contextmanager
def open_device(folder: Path) -> Iterator[bootstrap.Parts]:
    """The app built in this process on `folder` (its runner not started): for a script's saves and choices."""
    with bootstrap.build(bootstrap.open_folder(folder)) as parts:
        yield parts


def contents(folder: Path) -> dict[str, dict[str, Any]]:
    """What a device holds: per match id, its match (as a match file says it), its live taps, its trail's
    length, stopped or not. Read through the app on the folder (no app may be running on it)."""
    with open_device(folder) as parts:
        table, library = parts.services.table, parts.services.library
        out = {}
        for summary in library.matches():
            record = table.get(summary.id)
            out[summary.id] = {"match": match_to_dict(record.match),
                               "live": sorted((t.seat, t.kind.value) for t in record.live.taps),
                               "trail": len(record.trail), "abandoned": record.abandoned}
        return out


def sheets(folder: Path) -> dict[str, str]:
    """Per match id, its match as a match file says it (sides, rules, goal, hands), as one JSON text."""
    return {m: json.dumps(c["match"], sort_keys=True) for m, c in contents(folder).items()}


def history(folder: Path, count: int, hands: Callable[[int], int] = lambda i: 1 + i % 12) -> dict[str, str]:
    """Write `count` finished and unfinished matches of varied lengths straight into match files, as the
    store would (much faster than through the app; the next open indexes them). Their sheets, by id."""
    from companion.engine import record_hand
    from companion.records import MatchRecord
    from companion.storage import AtomicJSONStorage
    from companion.storage.documents import record_to_doc

    matches = Path(folder) / "matches"
    matches.mkdir(parents=True, exist_ok=True)
    clock = Clock("2024-01-01T18:00:00")
    names = ["Anna", "Ben", "Chris", "Dora", "Eleni", "Fotis"]
    made = {}
    for i in range(count):
        match = new_match(names[i % 6], names[(i + 1) % 6])
        for n in range(hands(i)):
            match = record_hand(match, hand_for(i + n))
        created = clock()
        record = MatchRecord(id=uuid.uuid4().hex, match=match, created=created, finished=None,
                             player_ids=((uuid.uuid4().hex,), (uuid.uuid4().hex,)))
        AtomicJSONStorage(matches / f"{record.id}.json").write({"match": {"1": record_to_doc(record, created)}})
        made[record.id] = json.dumps(match_to_dict(match), sort_keys=True)
    return made


def unsent(folder: Path) -> list[str]:
    """The matches whose documents wait in the device's outbox (sync/state.json), read from the file."""
    path = folder / "sync" / "state.json"
    return list(json.loads(path.read_text(encoding="utf-8")).get("unsent", [])) if path.exists() else []


def shared_docs(couch: Any, database: str | None = None) -> dict[str, dict[str, Any]]:
    """Every document of the group's database (the server's own HTTP, no client under test): id -> document."""
    said = couch.ok("GET", f"/{quote(database or couch.db, safe='')}/_all_docs?include_docs=true&conflicts=true")
    return {row["id"]: row["doc"] for row in said["rows"]}


def through(proxy: Any, couch: Any, user: str | None = None, password: str | None = None) -> str:
    """The test's database address as a device reaches it through `proxy` (the admin when no user is given)."""
    user, password = (couch.admin, couch.password) if user is None else (user, password or "")
    return f"http://{quote(user, safe='')}:{quote(password, safe='')}@127.0.0.1:{proxy.port}/{quote(couch.db, safe='')}"


def wait_for(condition: Callable[[], Any], seconds: float, every: float = 0.05, what: str = "it") -> Any:
    """Poll `condition` until it is true (its value), or fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds} s")
        time.sleep(every)


class ServedDevice(AppServer):
    """The served app on its own data folder, in a group (`join` before `start`)."""

    def join(self, url: str) -> None:
        """Keep the group's address in the folder (`sync --server`, which also makes a first round)."""
        synced(self.data, url)



def seed_match(folder: Path, hands: int = 0) -> str:
    """A classic match in play between Anna and Ben, `hands` hands in: its id."""
    with open_device(folder) as parts:
        return parts.services.table.start(new_match(hands=hands)).id


def a_round_with(parts: bootstrap.Parts, url: str, timeout: float = 20.0) -> Report:
    """One round of an app already open (`open_device`) with the group at `url`."""
    sync = parts.services.sync
    assert sync is not None

    async def once() -> Report:
        async with CouchClient(CouchAddress.from_url(url), timeout=timeout) as client:
            return await sync.once(CouchRemote(client))

    return run(once())


def a_round(folder: Path, url: str, timeout: float = 20.0) -> Report:
    """One round of the device on `folder` with the group at `url` (`Sync.once` over `CouchRemote`), as the
    runner makes it; a `SyncError` as it ends."""
    with open_device(folder) as parts:
        return a_round_with(parts, url, timeout)


def failed_round(folder: Path, url: str, timeout: float = 20.0) -> tuple[SyncError, float]:
    """The error a round ends in, and how long it took."""
    started = time.monotonic()
    try:
        a_round(folder, url, timeout)
    except SyncError as exc:
        return exc, time.monotonic() - started
    raise AssertionError("the round worked")


def run(coroutine: Any) -> Any:
    """A coroutine run to its end, on a loop of its own (see tests/loop.py)."""
    from tests.loop import run as run_in_thread

    return run_in_thread(coroutine)


__all__ = ["ServedDevice", "a_round", "a_round_with", "cli", "cli_sync", "contents", "failed_round", "history", "open_device", "run", "seed_match",
           "shared_docs", "sheets", "synced", "through", "unsent", "wait_for"]
