"""Run the benchmarks: every `benchmarks/bench_*.py` module's `main()`, or those named on the command line."""

from __future__ import annotations

import importlib
import platform
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    found = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    # The in-process benchmarks first: Chromium (app, pwa) leaves the machine busy for a while after it quits.
    names = argv or sorted(found, key=lambda n: (n in ("app", "pwa"), n))
    print(f"# Xeri Companion benchmarks: Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or 'unknown CPU'}")
    for name in names:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        print(f"\n## {name}")
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
