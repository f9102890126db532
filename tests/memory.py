"""How much memory this process took while a block ran: for the tests that a huge answer costs no more
than its bound."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Self

MB = 2**20


def rss() -> int:
    """This process's resident memory now, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise OSError("no VmRSS")


class PeakMemory:
    """The most memory this process held while the block ran, above what it held before: the kernel's own
    high-water mark (reset through /proc/self/clear_refs), else samples every 2 ms."""

    def __enter__(self) -> Self:
        self.before = rss()
        try:
            Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current size
            self.kernel = True
        except OSError:
            self.kernel = False
            self.samples = [self.before]
            self.stop = threading.Event()
            self.sampler = threading.Thread(target=self._sample, daemon=True)
            self.sampler.start()
        return self

    def _sample(self) -> None:
        while not self.stop.wait(0.002):
            self.samples.append(rss())

    def __exit__(self, *exc: object) -> None:
        if self.kernel:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.peak = int(line.split()[1]) * 1024
        else:
            self.stop.set()
            self.sampler.join()
            self.peak = max(self.samples)
        self.growth = self.peak - self.before
