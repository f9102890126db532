"""Importing a history zip: 1,000 vs 4,000 matches into an empty data folder (goal: ratio ≤ 4.5, linear).

Every match has two players of its own, so the known players grow with the matches, as when a club's
history moves to a new device: before batching, each new player rewrote players.json and each match its
index bucket (1,000 matches took 15.6 s, 4,000 took 221 s: ×14). The zip is made once per size, in
memory, by the app's own export format; the time is `import_files` alone, on a fresh store.
"""

from __future__ import annotations

import io
import statistics
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

from companion.engine import Goal, Match, Side, record_hand
from companion.formats.matchfile import dumps
from companion.formats.presets import preset
from companion.service import Services
from companion.storage import Store

from .bench_storage import hand

SIZES = (1_000, 4_000)
HANDS = 5
RUNS = 3
"""Runs per size: the median is reported (fsync makes single runs noisy)."""
GOAL_RATIO = 4.5


def history_zip(count: int) -> bytes:
    """A zip of `count` finished match files, as `export` writes them, with 2 × `count` players."""
    rules = preset("classic")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for k in range(count):
            match = Match.new(rules, [Side(f"Player {2 * k}"), Side(f"Player {2 * k + 1}")], Goal(hands=HANDS))
            for n in range(HANDS):
                match = record_hand(match, hand(n + k))
            stamp = f"2024-{1 + k % 12:02d}-{1 + k % 28:02d}T20:{k % 60:02d}:00.000Z"
            meta = {"id": uuid.uuid4().hex, "created": stamp, "finished": stamp, "abandoned": False}
            zf.writestr(f"matches/{k:05d}.json", dumps(match, meta=meta))
    return buffer.getvalue()


def time_import(data: bytes) -> float:
    with tempfile.TemporaryDirectory(prefix="xeri-bench-import-") as tmp:
        with Store(Path(tmp) / "data") as store:
            backups = Services.over(store).backups
            started = time.perf_counter()
            report = backups.import_files([("history.zip", data)])
            elapsed = time.perf_counter() - started
            assert len(report.imported) == len(store.list_matches()) and not report.failed, report.failed[:3]
    return elapsed


def main() -> None:
    zips = {n: history_zip(n) for n in SIZES}
    medians = {}
    for n in SIZES:
        runs = [time_import(zips[n]) for _ in range(RUNS)]
        medians[n] = statistics.median(runs)
        print(f"  import {n:>6,} matches ({2 * n:,} new players, {len(zips[n]) / 1e6:.1f} MB zip): "
              f"median {medians[n]:.2f} s of {RUNS} ({', '.join(f'{r:.2f}' for r in runs)}); "
              f"{1000 * medians[n] / n:.2f} ms a match")
    small, large = SIZES
    ratio = medians[large] / medians[small]
    print(f"  ratio {large:,}/{small:,}: {ratio:.2f} (goal ≤ {GOAL_RATIO}, {large // small}× the matches: "
          f"{'met' if ratio <= GOAL_RATIO else 'NOT met'})")


if __name__ == "__main__":
    main()
