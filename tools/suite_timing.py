"""How long `make test` takes on a fresh clone: run it and keep the figures, or write them into the README.

    python tools/suite_timing.py run [--times N] [--hogs H]   # N fresh clones of HEAD, H CPU hogs beside each
    python tools/suite_timing.py readme                       # the README's table, from the kept figures

A run clones the repository's HEAD into a temporary folder, starts `H` busy loops (`sh -c 'while :; do :;
done'`, one core each), runs `make test` there and appends one line to `docs/suite-timings.jsonl`: the
commit, the date, the hogs, the exit status, the whole time and the time of each pytest part (read from
pytest's closing lines), and the log's last lines when it failed. The README's table is made from that
file (`tests/test_readme.py` checks they agree), so its figures are measured, never typed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "docs" / "suite-timings.jsonl"
README = ROOT / "README.md"
BEGIN = "<!-- suite-timings: made by `python tools/suite_timing.py readme`; do not edit by hand -->"
END = "<!-- /suite-timings -->"
SHOWN = 12
"""The newest runs the README shows."""

_PART = re.compile(r"^=+ (?P<summary>.*?) in (?P<seconds>[\d.]+)s(?: \([\d:]+\))? =+$")


def parts(log: str) -> list[dict]:
    """Each pytest part's closing line in a `make test` log: its summary ("1,150 passed, 12 skipped") and
    seconds."""
    found = []
    for line in log.splitlines():
        m = _PART.match(line.strip())
        if m and any(w in m["summary"] for w in ("passed", "failed", "error", "skipped")):
            found.append({"summary": m["summary"], "seconds": float(m["seconds"])})
    return found


def run_once(hogs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="xeri-suite-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True,
                                check=True).stdout.strip()                  # what was tested, not what HEAD is now
        busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(hogs)]
        started = time.monotonic()
        try:
            done = subprocess.run(["make", "test"], cwd=clone, capture_output=True, text=True,
                                  env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"})
        finally:
            for p in busy:
                p.kill()
                p.wait()
        seconds = time.monotonic() - started
    log = done.stdout + done.stderr
    record = {"commit": commit, "date": datetime.now(UTC).strftime("%Y-%m-%d"), "hogs": hogs,
              "status": done.returncode, "seconds": round(seconds), "parts": parts(log)}
    if done.returncode:
        # pytest's own account of what failed first (its FAILED/ERROR lines and the assertion they end on),
        # then the log's last lines: pip's warnings on stderr used to push the failures out of the tail.
        failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR", "E  "))]
        record["failed"] = failed[:60]
        record["tail"] = log.splitlines()[-40:]
    return record


def minutes(seconds: float) -> str:
    return f"{int(seconds) // 60} min {int(seconds) % 60} s"


def table(records: list[dict]) -> str:
    rows = ["| tree | date | beside it | `make test` | set-up and lint / without a browser / browser |",
            "|---|---|---|---|---|"]
    for r in records[-SHOWN:]:
        beside = "nothing" if r["hogs"] == 0 else f"{r['hogs']} CPU hog{'s' if r['hogs'] > 1 else ''}"
        verdict = "green" if r["status"] == 0 else f"failed (exit {r['status']})"
        tested = [p["seconds"] for p in r["parts"]]
        split = " / ".join(minutes(s) for s in [r["seconds"] - sum(tested), *tested]) if tested else "–"
        rows.append(f"| {r['commit']} | {r['date']} | {beside} | {minutes(r['seconds'])}, {verdict} | {split} |")
    return "\n".join(rows)


def records() -> list[dict]:
    if not RECORDS.exists():
        return []
    return [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines() if line.strip()]


def readme_block() -> str:
    return f"{BEGIN}\n{table(records())}\n{END}"


def write_readme() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    README.write_text(text[:start] + readme_block() + text[end:], encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python tools/suite_timing.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="time `make test` on fresh clones of HEAD and keep the figures")
    run.add_argument("--times", type=int, default=1)
    run.add_argument("--hogs", type=int, default=0)
    sub.add_parser("readme", help="write the kept figures into README.md")
    args = parser.parse_args(argv)
    if args.command == "readme":
        write_readme()
        return 0
    failed = 0
    for _ in range(args.times):
        record = run_once(args.hogs)
        with RECORDS.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"{record['commit']} hogs={record['hogs']} status={record['status']} {minutes(record['seconds'])}",
              flush=True)
        failed += record["status"] != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
