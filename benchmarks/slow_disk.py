"""The app with a slow disk: every fsync waits `XERI_BENCH_FSYNC_MS` milliseconds first (a phone's SD card, a
busy laptop disk), for `bench_writes`. A test double around the real app: nothing in the app changes.

    XERI_BENCH_FSYNC_MS=40 python -m benchmarks.slow_disk --port 8551 --no-browser
"""

from __future__ import annotations

import os
import sys
import time

DELAY = float(os.environ.get("XERI_BENCH_FSYNC_MS", "0")) / 1000
_real_fsync = os.fsync


def slow_fsync(fd: int) -> None:
    time.sleep(DELAY)
    _real_fsync(fd)


if __name__ == "__main__":
    os.fsync = slow_fsync  # type: ignore[assignment]  # an int is all the app passes
    from companion.cli import main

    sys.exit(main(sys.argv[1:]))
