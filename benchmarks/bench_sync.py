"""Sync against a real CouchDB-protocol server (PouchDB Server in memory on 127.0.0.1, started here as the sync
tests start it: `make couch` installs it once).

- **save → seen**: two served apps (`python -m companion --port N --no-browser`, each with its own data folder,
  joined to one group), a phone on each speaking Flet's protocol (tests/net/flet_client.py). Phone A taps a
  xeri (each tap is a save: the match file, then a round of A's sync runner); timed from the tap sent to
  phone B's page showing it (B's runner heard it on its longpoll, stored it, told the page). This is the
  whole path a person sees, apps and server as they run, only the browser's drawing left out. p50 / p95 over
  `SAVES` taps; goal p95 ≤ 2 s.
- **a history to an empty device**: `HISTORY` matches sent by one device, then one round (`Sync.once` over
  `CouchRemote`, as the runner and `python -m companion sync` make it) of an empty device: every match
  received, kept and stored. Goal ≤ 15 s.
- **one new hand, 100 vs 1,000 matches stored**: both devices in step with `n` matches; one hand saved on A;
  the time of A's round (it sends it) plus B's (it receives and stores it), median of `REPEATS`. Incremental:
  the ratio 1,000 / 100 ≤ 1.5.
- **many tables**: `TABLES` matches in play on `DEVICES` devices, each with its runner running (threads of one
  process); a hand saved on each device in turn, timed until every device's home lists it. Goal p95 ≤ 2 s.

    python -m benchmarks sync
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from contextlib import AsyncExitStack, ExitStack
from pathlib import Path
from typing import Any

SAVES = 30
HISTORY = 1000
REPEATS = 7
TABLES = 10
DEVICES = 5
TABLE_SAVES = 20
ROOT = Path(__file__).resolve().parent.parent


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def _round(folder: Path, url: str) -> Any:
    from companion.sync.address import CouchAddress
    from companion.sync.couch import CouchClient
    from companion.sync.remote import CouchRemote
    from tests.sync.devices import open_device

    with open_device(folder) as parts:
        sync = parts.services.sync
        assert sync is not None
        async with CouchClient(CouchAddress.from_url(url)) as client:
            return await sync.once(CouchRemote(client))


def _timed_round(folder: Path, url: str) -> float:
    started = time.perf_counter()
    asyncio.run(_round(folder, url))
    return time.perf_counter() - started


def save_to_seen(server: Any, tmp: Path) -> list[float]:
    """Seconds from a xeri tapped on app A to app B's phone showing it, `SAVES` times."""
    from tests.net.flet_client import Phone
    from tests.sync.devices import ServedDevice, seed_match

    db = server.create_database(server.new_database_name())
    url = server.admin_url(db)
    a, b = ServedDevice(tmp / "a" / "data"), ServedDevice(tmp / "b" / "data")
    seed_match(a.data, hands=1)
    a.join(url)
    b.join(url)
    a.start()
    b.start()

    async def measure() -> list[float]:
        pa, pb = await Phone.open(a.url), await Phone.open(b.url)
        taps = {pa: 0, pb: 0}

        async def tap(phone: Phone, ident: str) -> None:
            taps[phone] += 1
            await phone.tap(ident)
            await phone.read_until(b"taps %d access" % taps[phone], seconds=60)

        await tap(pa, "continue-match")
        await tap(pb, "continue-match")
        took = []
        for n in range(1, SAVES + 1):
            await asyncio.sleep(0.3)  # a person's pace, not a burst: each save is a round of its own
            started = time.perf_counter()
            await tap(pa, "xeri-0")
            await pb.read_until(b"Xeri for Anna (now %d)" % n, seconds=60)
            took.append(time.perf_counter() - started)
        await pa.close()
        await pb.close()
        return took

    try:
        return asyncio.run(measure())
    finally:
        a.stop()
        b.stop()


def history_to_empty(server: Any, tmp: Path) -> tuple[float, float]:
    """Seconds to send `HISTORY` matches from one device, and for an empty device to receive them all."""
    from tests.sync.devices import history

    db = server.create_database(server.new_database_name())
    url = server.admin_url(db)
    history(tmp / "full", HISTORY)
    sent = _timed_round(tmp / "full", url)
    started = time.perf_counter()
    report = asyncio.run(_round(tmp / "empty", url))
    received = time.perf_counter() - started
    assert len(report.stored) == HISTORY, len(report.stored)
    return sent, received


def one_new_hand(server: Any, tmp: Path, sizes: tuple[int, ...] = (100, 1000)) -> dict[int, list[float]]:
    """Seconds of A's round plus B's for one hand saved on A, with each of `sizes` matches on both, `REPEATS`
    times, the sizes taken in turn (a busy machine slows them alike). The devices stay open, as a running
    app's are: only the rounds are timed."""
    from companion.sync.address import CouchAddress
    from companion.sync.couch import CouchClient
    from companion.sync.remote import CouchRemote
    from tests.storage.builders import hand_for, new_match
    from tests.sync.devices import history, open_device

    with ExitStack() as stack:
        pairs = {}
        for stored in sizes:
            url = server.admin_url(server.create_database(server.new_database_name()))
            a, b = tmp / f"a{stored}", tmp / f"b{stored}"
            history(a, stored - 1)
            pa, pb = stack.enter_context(open_device(a)), stack.enter_context(open_device(b))
            match_id = pa.services.table.start(new_match(hands=1)).id
            pairs[stored] = (url, pa, pb, match_id)

        async def rounds() -> dict[int, list[float]]:
            took: dict[int, list[float]] = {stored: [] for stored in sizes}
            async with AsyncExitStack() as clients:
                remotes = {}
                for stored, (url, pa, pb, _) in pairs.items():
                    client = await clients.enter_async_context(CouchClient(CouchAddress.from_url(url)))
                    remotes[stored] = CouchRemote(client)
                    await pa.services.sync.once(remotes[stored])
                    await pb.services.sync.once(remotes[stored])
                for n in range(REPEATS):
                    for stored, (_, pa, pb, match_id) in pairs.items():
                        pa.services.table.record_hand(match_id, hand_for(n + 1))
                        started = time.perf_counter()
                        await pa.services.sync.once(remotes[stored])
                        report = await pb.services.sync.once(remotes[stored])
                        took[stored].append(time.perf_counter() - started)
                        assert report.stored == {match_id}, report
            return took

        return asyncio.run(rounds())


def tables_on_devices(server: Any, tmp: Path) -> list[float]:
    """`TABLES` matches in play on `DEVICES` devices of one group, each with its sync runner running as the app
    runs it (threads of this process, so the devices share one interpreter: a pessimistic figure). A hand saved
    on each device in turn: seconds until every device's home lists it (the index rows `history.in_play` reads)."""
    from tests.storage.builders import hand_for, new_match
    from tests.sync.devices import open_device

    url = server.admin_url(server.create_database(server.new_database_name()))

    def until(check: Any, what: str, seconds: float = 60) -> None:
        deadline = time.perf_counter() + seconds
        while not check():
            if time.perf_counter() > deadline:
                raise AssertionError(f"not within {seconds} s: {what}")
            time.sleep(0.01)

    with ExitStack() as stack:
        devices = [stack.enter_context(open_device(tmp / f"device-{k}")) for k in range(DEVICES)]
        for parts in devices:
            assert parts.services.group is not None
            parts.services.group.join(url)
            parts.start_background()
        names = ["Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Fotis", "Giorgos", "Hara", "Ilias", "Katerina"]
        ids = [devices[0].services.table.start(new_match(names[i], names[(i + 1) % 10])).id for i in range(TABLES)]

        def in_play(parts: Any) -> dict[str, int]:
            return {s.id: s.hands for s in parts.services.library.matches() if s.is_playing and not s.abandoned}

        until(lambda: all(set(ids) <= set(in_play(d)) for d in devices), f"{TABLES} matches on {DEVICES} devices")
        took = []
        for n in range(TABLE_SAVES):
            saver, match_id = devices[n % DEVICES], ids[n % TABLES]
            hands = in_play(saver)[match_id] + 1
            started = time.perf_counter()
            saver.services.table.record_hand(match_id, hand_for(n + 1))
            until(lambda m=match_id, h=hands: all(in_play(d).get(m) == h for d in devices), f"hand {hands} everywhere")
            took.append(time.perf_counter() - started)
        return took


def main() -> None:
    from tests.sync.couchserver import CouchServer, missing

    why = missing()
    if why:
        print(f"skipped: {why}")
        return
    with tempfile.TemporaryDirectory(prefix="xeri-bench-sync-") as tmp_name:
        tmp = Path(tmp_name)
        server = CouchServer(tmp / "couch").start()
        try:
            print(f"sync against PouchDB Server on 127.0.0.1 (seconds; load average {os.getloadavg()[0]:.1f} "
                  f"on {os.cpu_count()} cores)")
            print("| what | median | p95 | goal |")
            print("|---|---|---|---|")
            seen = save_to_seen(server, tmp / "served")
            print(f"| save on app A -> seen on app B's phone ({len(seen)} xeri taps) | {statistics.median(seen):.2f} | "
                  f"{_p95(seen):.2f} | p95 <= 2 |", flush=True)
            sent, received = history_to_empty(server, tmp / "history")
            print(f"| {HISTORY:,} matches sent by one device (one round) | {sent:.1f} | | |", flush=True)
            print(f"| {HISTORY:,} matches to an empty device (one round) | {received:.1f} | | <= 15 |", flush=True)
            hands = one_new_hand(server, tmp / "hand")
            small, large = hands[100], hands[1000]
            for n, took in ((100, small), (1000, large)):
                print(f"| one new hand, {n:,} matches stored (A's round + B's, {REPEATS} runs) | "
                      f"{statistics.median(took):.3f} | {_p95(took):.3f} | |", flush=True)
            print(f"| ratio 1,000 / 100 (medians) | {statistics.median(large) / statistics.median(small):.2f} | | "
                  f"<= 1.5 |", flush=True)
            tables = tables_on_devices(server, tmp / "tables")
            print(f"| a hand on one device -> on every device's home, {TABLES} matches in play on {DEVICES} devices "
                  f"({len(tables)} hands) | {statistics.median(tables):.2f} | {_p95(tables):.2f} | p95 <= 2 |",
                  flush=True)
        finally:
            server.kill()


if __name__ == "__main__":
    main()
