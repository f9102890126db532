"""Run the benchmarks: every `benchmarks/bench_*.py` module's `main()`, or those named on the command line.

`--keep` keeps what each printed in docs/bench-runs.jsonl; `readme` writes the newest kept runs into
README.md and docs/pwa.md; `--readme` runs, keeps and writes them (see benchmarks/kept.py)."""

from __future__ import annotations

import contextlib
import importlib
import os
import platform
import sys
import time
from pathlib import Path

from benchmarks import kept


def main(argv: list[str]) -> int:
    if argv[:1] == ["readme"]:
        kept.write_readme()
        return 0
    write = "--readme" in argv
    keep = write or "--keep" in argv
    argv = [a for a in argv if a not in ("--keep", "--readme")]
    here = Path(__file__).resolve().parent
    found = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    unknown = sorted(set(argv) - set(found))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)} (there are: {', '.join(found)})", file=sys.stderr)
        return 2
    # The in-process benchmarks first: Chromium (app, pwa) leaves the machine busy for a while after it quits.
    names = argv or sorted(found, key=lambda n: (n in ("app", "pwa"), n))
    print(f"# Xeri Companion benchmarks: Python {platform.python_version()} on {os.cpu_count()} cores, "
          f"{kept.machine()}")
    for name in names:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        print(f"\n## {name}", flush=True)
        load, started = os.getloadavg()[0], time.monotonic()
        tee = kept.Tee(sys.stdout)
        with contextlib.redirect_stdout(tee):
            module.main()
        if keep:
            kept.keep(name, tee.kept.getvalue(), time.monotonic() - started, load)
    if write:
        kept.write_readme()
        print(f"\nwritten from docs/bench-runs.jsonl: {', '.join(kept.TARGETS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
