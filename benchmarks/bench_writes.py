"""Writes and the phones that wait for them: tap -> screen on phone B while phone A keeps tapping xeris, on a
quick disk and on a slow one.

The served app runs as its own process (`benchmarks.slow_disk`, which makes every fsync of the app wait
`fsync ms` first: a phone's SD card, a busy laptop). Two phones speak Flet's protocol over bare WebSockets
(tests/net/flet_client.py), so what is timed is the server's turnaround, not a browser's drawing: from
the tap sent to the page patch that says the app saw it (the `app-seen` hook of `XERI_TEST_HOOKS`).

- A taps `xeri-0` as fast as the app answers: every tap is a write (the match file, two fsyncs).
- B, meanwhile, taps through screens that write nothing (the rules page and back), then taps its own
  xeris (writes). Median and 90th percentile of B's turnaround, and A's writes per second.

    python -m benchmarks writes
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.ports import free_port
from tests.seed import seed_match

FSYNC_MS = (0, 40)
"""A quick disk, and one whose fsync takes 40 ms (seen on phones' SD cards and busy laptop disks)."""
TAPS = 24
"""Taps of each kind on phone B per run."""
ROOT = Path(__file__).resolve().parent.parent


def _start(folder: Path, fsync_ms: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "XERI_DATA_DIR": str(folder), "XERI_TEST_HOOKS": "1", "XERI_BENCH_FSYNC_MS": str(fsync_ms),
           "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.slow_disk", "--port", str(port), "--no-browser"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the app did not start")


class _Counter:
    """A phone's taps, each waited for until the app says it saw it."""

    def __init__(self, phone):
        self.phone = phone
        self.taps = 0

    async def tap(self, ident: str) -> float:
        """Tap and wait for the app to have seen it; the turnaround in milliseconds."""
        self.taps += 1
        start = time.perf_counter()
        await self.phone.tap(ident)
        await self.phone.read_until(b"taps %d access" % self.taps, seconds=60)
        return (time.perf_counter() - start) * 1000


async def _measure(base: str) -> dict[str, float]:
    from tests.net.flet_client import Phone

    a, b = _Counter(await Phone.open(base)), _Counter(await Phone.open(base))
    await a.tap("continue-match")
    await b.tap("continue-match")
    stop = asyncio.Event()
    writes = 0

    async def keep_writing() -> None:
        nonlocal writes
        while not stop.is_set():
            await a.tap("xeri-0")
            writes += 1

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(1.0)  # A is writing steadily
    started = time.perf_counter()
    reads, own = [], []
    for _ in range(TAPS // 2):
        reads.append(await b.tap("match-rules"))
        reads.append(await b.tap("back"))
    for _ in range(TAPS):
        own.append(await b.tap("xeri-1"))
    elapsed = time.perf_counter() - started
    stop.set()
    await writer
    await a.phone.close()
    await b.phone.close()
    return {"read_p50": statistics.median(reads), "read_p90": _p90(reads), "write_p50": statistics.median(own),
            "write_p90": _p90(own), "a_writes_per_s": writes / elapsed}


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def run(fsync_ms: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="xeri-bench-writes-") as tmp:
        folder = Path(tmp) / "data"
        seed_match(folder)
        proc, base = _start(folder, fsync_ms)
        try:
            return asyncio.run(_measure(base))
        finally:
            os.killpg(proc.pid, 15)
            proc.wait(timeout=10)


def main() -> None:
    print("tap -> screen on phone B while phone A keeps tapping xeris (server turnaround, ms; A's writes/s)")
    print("| fsync | B: a screen that writes nothing, p50 / p90 | B: a xeri (a write), p50 / p90 | A: writes/s |")
    print("|---|---|---|---|")
    for fsync_ms in FSYNC_MS:
        r = run(fsync_ms)
        print(f"| {fsync_ms} ms | {r['read_p50']:.0f} / {r['read_p90']:.0f} | {r['write_p50']:.0f} / "
              f"{r['write_p90']:.0f} | {r['a_writes_per_s']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
