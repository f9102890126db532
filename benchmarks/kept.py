"""Benchmark runs kept, and the README's figures made from them: a figure in the README is what a run
printed, never one typed by hand.

`python -m benchmarks --keep [NAME…]` appends each benchmark's output, with the tree it measured, the
date, the machine's load and how long it took, to `docs/bench-runs.jsonl`; `python -m benchmarks readme`
writes the newest kept run of each benchmark into README.md (tests/test_readme.py fails when they differ).
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
    return commit + ("+" if git("status", "--porcelain", "--untracked-files=no") else "")


def keep(name: str, output: str, seconds: float, load: float) -> None:
    record = {"bench": name, "tree": tree(), "date": datetime.now(UTC).strftime("%Y-%m-%d"),
              "python": platform.python_version(), "cpus": os.cpu_count(), "load": round(load, 1),
              "seconds": round(seconds), "output": output.rstrip("\n").splitlines()}
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


def readme_block() -> str:
    parts = [BEGIN]
    for name, r in sorted(newest().items()):
        parts += [f"`{name}`: {r['tree']}, {r['date']}, Python {r['python']} on {r['cpus']} cores, load "
                  f"{r['load']} at the start, {r['seconds']} s:", "", "```text", *r["output"], "```", ""]
    parts.append(END)
    return "\n".join(parts)


def write_readme() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    README.write_text(text[:start] + readme_block() + text[end:], encoding="utf-8")


