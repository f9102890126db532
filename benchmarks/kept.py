"""Benchmark runs kept, and the figures in README.md and docs/ made from them: a figure there is what a run
printed, never one typed by hand.

`python -m benchmarks --keep [NAME…]` appends each benchmark's output, with the tree it measured, the date,
the machine, its load and how long it took, to `docs/bench-runs.jsonl`; `python -m benchmarks readme` writes
the newest kept run of each benchmark into README.md, and of `pwa` into docs/pwa.md (`TARGETS`);
`python -m benchmarks --readme [NAME…]` does both, the run and the writing. tests/test_readme.py fails when
a file differs from what the kept runs make.
"""

from __future__ import annotations

import io
import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "docs" / "bench-runs.jsonl"
README = ROOT / "README.md"
BEGIN = "<!-- bench-runs: made by `python -m benchmarks readme` from docs/bench-runs.jsonl; do not edit by hand -->"
END = "<!-- /bench-runs -->"
TARGETS: dict[str, tuple[str, ...] | None] = {"README.md": None, "docs/pwa.md": ("pwa",)}
"""Where kept runs are shown: each file (from the project's root) and the benchmarks it shows (None: every one)."""


class Tee(io.TextIOBase):
    """What a benchmark prints: shown as it comes, and kept."""

    def __init__(self, shown: TextIO):
        self.shown, self.kept = shown, io.StringIO()

    def write(self, text: str) -> int:
        self.shown.write(text)
        return self.kept.write(text)

    def flush(self) -> None:
        self.shown.flush()


def tree() -> str:
    """The commit measured, with `+` when the work tree had changes (a figure of uncommitted code)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    # What a run writes itself (the kept runs, the files that show them) is no change to what it measures: a
    # run of several benchmarks would otherwise call every one after the first a measure of uncommitted code.
    written = [*TARGETS, *([RUNS.relative_to(ROOT).as_posix()] if RUNS.is_relative_to(ROOT) else [])]
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", *(f":(exclude){w}" for w in written))
    return commit + ("+" if changed else "")


def machine() -> str:
    """The processor and memory of this machine, in a few words ("AMD EPYC 7B13, 24 GiB")."""
    cpu = platform.processor() or platform.machine() or "unknown CPU"
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = " ".join(line.split(":", 1)[1].split())
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {round(int(line.split()[1]) / 2**20)} GiB"
                break
    except (OSError, ValueError, IndexError):
        pass
    return cpu + memory


def keep(name: str, output: str, seconds: float, load: float) -> None:
    record = {"bench": name, "tree": tree(), "date": datetime.now(UTC).strftime("%Y-%m-%d"),
              "python": platform.python_version(), "cpus": os.cpu_count(), "machine": machine(),
              "load": round(load, 1), "seconds": round(seconds), "output": output.rstrip("\n").splitlines()}
    with RUNS.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")


def newest() -> dict[str, dict]:
    """The newest kept run of each benchmark, by name."""
    if not RUNS.exists():
        return {}
    found: dict[str, dict] = {}
    for line in RUNS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            found[record["bench"]] = record
    return found


def readme_block(names: tuple[str, ...] | None = None) -> str:
    """The kept runs shown in a file: the newest of each of `names` (None: of every benchmark), with what was
    measured, when, on what machine and at what load."""
    parts = [BEGIN]
    for name, r in sorted(newest().items()):
        if names is not None and name not in names:
            continue
        machine = f" ({r['machine']})" if r.get("machine") else ""
        parts += [f"`{name}`: {r['tree']}, {r['date']}, Python {r['python']} on {r['cpus']} cores{machine}, load "
                  f"{r['load']} at the start, {r['seconds']} s:", "", "```text", *r["output"], "```", ""]
    parts.append(END)
    return "\n".join(parts)


def stale() -> list[str]:
    """The files of `TARGETS` whose block differs from what the kept runs make."""
    return [rel for rel, names in TARGETS.items()
            if readme_block(names) not in (ROOT / rel).read_text(encoding="utf-8")]


def write_readme() -> None:
    """Write the kept runs into every file of `TARGETS` (between its BEGIN and END lines)."""
    for rel, names in TARGETS.items():
        path = ROOT / rel
        text = path.read_text(encoding="utf-8")
        start, end = text.index(BEGIN), text.index(END) + len(END)
        path.write_text(text[:start] + readme_block(names) + text[end:], encoding="utf-8")
