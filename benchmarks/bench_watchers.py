"""Many phones on one match: a xeri tapped on one phone, timed until every other phone showing the match got it.

The served app runs as its own process (`python -m companion`, tests/app_server.py). The phones speak Flet's
protocol over bare WebSockets (tests/net/flet_client.py), all in this process, so that 81 of them fit on a
2-core machine: what is timed is the server's work, from a tap sent to the page patch that shows it, not a
browser's drawing.

- One phone (the tapping phone) and N watchers (10, 40, 80, added to the same app in turn), each on the
  scoreboard of one match in play.
- The tapping phone taps `xeri-0` `TAPS` times, `PAUSE` seconds after every phone showed the previous tap.
- Per tap: the tapping phone's own latency, each watcher's (from the tap sent to the first message it received
  that carries Anna's new count, "Xeri for Anna (now n)"), and the last watcher's. p50 / p95 over taps × watchers.
- Then `TAPS` quick taps, each as soon as the tapping phone showed the one before (the watchers still being
  drawn): the tapping phone's latency, and how long after the last one every phone showed it.
- Goals (#27): the watchers' p95 at 80 ≤ 300 ms; the tapping phone's own screen first: its p50 ≤ the
  watchers' p50 and ≤ 100 ms, in quick taps too.
- What the measuring costs: the CPU time this process (every phone's receiving) and the app's process used per
  tap, read from the operating system.

    python -m benchmarks watchers
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

WATCHERS = (10, 40, 80)
TAPS = 20
"""Taps measured at each number of watchers (after `WARM_UP` taps not counted)."""
WARM_UP = 2
PAUSE = 0.2
"""Seconds between one tap shown on every phone and the next tap."""
OPEN_AT_ONCE = 10
"""Phones opened together (each waits up to 2 s for its browser's place, which a bare client never says)."""
GOAL_P95_MS = 300
GOAL_OWN_MS = 100


@dataclass
class Round:
    """One tap on its way to every phone."""

    marker: bytes
    needed: frozenset[int]
    """The phones the tap is waited for on."""
    started: float = field(default_factory=time.perf_counter)
    got: dict[int, float] = field(default_factory=dict)
    """Per phone (its index; 0 the tapping phone): when its first message with `marker` arrived."""
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def heard(self, phone: int, raw: bytes, at: float) -> None:
        if phone not in self.got and self.marker in raw:
            self.got[phone] = at
            if self.needed <= self.got.keys():
                self.done.set()


@dataclass
class Level:
    watchers: int
    own: list[float]
    each: list[float]
    last: list[float]
    server_cpu: float
    """Seconds of the app process's CPU time per tap."""
    client_cpu: float
    """Seconds of this process's CPU time per tap (every phone's receiving)."""
    quick: list[float] = field(default_factory=list)
    """The tapping phone's own latencies when it taps again as soon as its own screen showed its tap."""
    quick_all: float = 0.0
    """From the last of those taps until every phone showed it."""


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far (Linux: /proc; elsewhere 0, and not printed)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Table:
    """The phones at one match: index 0 taps, the others watch. After `listen`, every phone's messages are read
    by a task of its own, which stamps the arrival of the round's marker before anything else."""

    def __init__(self, base: str):
        self.base = base
        self.phones: list = []
        self.round: Round | None = None
        self.readers: list[asyncio.Task] = []
        self.xeris = 0

    async def add(self, count: int) -> None:
        from tests.net.flet_client import Phone

        async def one() -> Phone:
            phone = await Phone.open(self.base)
            await phone.tap("continue-match")
            if b"Xeri for Anna" not in await phone.read_until(b"taps 1 access", seconds=60):
                await phone.read_until(b"Xeri for Anna", seconds=60)   # the scoreboard is drawn
            return phone

        await self.stop_listening()
        for start in range(0, count, OPEN_AT_ONCE):
            self.phones += await asyncio.gather(*(one() for _ in range(min(OPEN_AT_ONCE, count - start))))
        self.listen()

    def listen(self) -> None:
        from tests.net.flet_client import decode

        async def read(index: int) -> None:
            phone = self.phones[index]
            async for raw in phone.ws:
                at = time.perf_counter()
                if self.round is not None:
                    self.round.heard(index, raw, at)
                if index == 0:   # the tapping phone finds its buttons in what it was sent
                    phone.messages.append(decode(raw))

        self.readers = [asyncio.create_task(read(i)) for i in range(len(self.phones))]

    async def stop_listening(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        self.readers = []

    async def tap(self, everyone: bool = True) -> Round:
        """A xeri tapped on phone 0; back once every phone (else phone 0) got it."""
        self.xeris += 1
        needed = frozenset(range(len(self.phones)) if everyone else (0,))
        self.round = Round(b"Xeri for Anna (now %d)" % self.xeris, needed)
        await self.phones[0].tap("xeri-0")
        try:
            await asyncio.wait_for(self.round.done.wait(), 60)
        except TimeoutError:
            shown = len(self.round.got)
            raise AssertionError(f"{shown} of {len(self.phones)} phones showed tap {self.xeris}") from None
        return self.round

    async def measure(self, app_pid: int) -> Level:
        for _ in range(WARM_UP):
            await self.tap()
            await asyncio.sleep(PAUSE)
        own: list[float] = []
        each: list[float] = []
        last: list[float] = []
        server, client = _cpu_seconds(app_pid), time.process_time()
        for _ in range(TAPS):
            done = await self.tap()
            took = {phone: (at - done.started) * 1000 for phone, at in done.got.items()}
            own.append(took.pop(0))
            each += took.values()
            last.append(max(took.values()))
            await asyncio.sleep(PAUSE)
        level = Level(len(self.phones) - 1, own, each, last, (_cpu_seconds(app_pid) - server) / TAPS,
                      (time.process_time() - client) / TAPS)
        for n in range(TAPS):   # quick taps: the next as soon as the tapping phone showed its last
            done = await self.tap(everyone=n == TAPS - 1)
            level.quick.append((done.got[0] - done.started) * 1000)
        level.quick_all = (max(done.got.values()) - done.started) * 1000
        await asyncio.sleep(PAUSE)
        return level

    async def close(self) -> None:
        await self.stop_listening()
        await asyncio.gather(*(phone.close() for phone in self.phones), return_exceptions=True)


async def _run(base: str, app_pid: int) -> list[Level]:
    table = Table(base)
    levels = []
    try:
        for watchers in WATCHERS:
            await table.add(watchers + 1 - len(table.phones))
            levels.append(await table.measure(app_pid))
    finally:
        await table.close()
    return levels


def run() -> list[Level]:
    from tests.app_server import AppServer
    from tests.seed import seed_match

    with tempfile.TemporaryDirectory(prefix="xeri-bench-watchers-") as tmp:
        folder = Path(tmp) / "data"
        seed_match(folder)
        app = AppServer(folder).start()
        try:
            assert app.proc is not None
            return asyncio.run(_run(app.url, app.proc.pid))
        finally:
            app.stop()


def main() -> None:
    print(f"the served app (`python -m companion`, its own process), one match in play; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print("1 phone taps xeri-0 on the scoreboard while N other phones watch the same match; every phone is a")
    print("bare Flet-protocol client (tests/net/flet_client.py), all in this benchmark's process. Latency (ms):")
    print(f"from the tap sent to the first message a phone received with the new count. {TAPS} taps ({WARM_UP} "
          f"before them not counted),")
    print(f"each {PAUSE} s after every phone showed the one before; then {TAPS} quick taps, each as soon as the "
          "tapping phone showed its last.")
    print("| watchers | tapping phone p50 / p95 | each watcher p50 / p95 | last watcher p50 / p95 | "
          "quick taps: tapping phone p50 / p95, every watcher after the last | app CPU per tap | phones' CPU per tap |")
    print("|---|---|---|---|---|---|---|")
    levels = run()
    for level in levels:
        print(f"| {level.watchers} | {statistics.median(level.own):.0f} / {_p95(level.own):.0f} | "
              f"{statistics.median(level.each):.0f} / {_p95(level.each):.0f} | "
              f"{statistics.median(level.last):.0f} / {_p95(level.last):.0f} | "
              f"{statistics.median(level.quick):.0f} / {_p95(level.quick):.0f}, {level.quick_all:.0f} | "
              f"{level.server_cpu * 1000:.0f} ms | {level.client_cpu * 1000:.0f} ms |")
    most = levels[-1]
    p95, each = _p95(most.each), statistics.median(most.each)
    own, quick = statistics.median(most.own), statistics.median(most.quick)
    print(f"(the phones' CPU per tap is what receiving costs this process: at most that much of a watcher's time is "
          f"the measuring's, were the {most.watchers + 1} phones' messages all waiting at once)")
    watched = p95 <= GOAL_P95_MS
    print(f"watchers at {most.watchers}: p95 {p95:.0f} ms   goal ≤ {GOAL_P95_MS} ms: "
          f"{'goal met' if watched else 'goal MISSED'}")
    first = own <= min(each, GOAL_OWN_MS) and quick <= GOAL_OWN_MS
    print(f"the tapping phone's own screen first, at {most.watchers}: p50 {own:.0f} ms (watchers' p50 {each:.0f} ms), "
          f"quick taps p50 {quick:.0f} ms   goal ≤ the watchers' p50 and ≤ {GOAL_OWN_MS} ms, quick taps too: "
          f"{'goal met' if first else 'goal MISSED'}")


if __name__ == "__main__":
    main()
