"""SIGKILL at random moments: every hand whose save returned is still there, and every file loads."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.storage import Store

from .builders import hand_for

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 200
LANES = 2
"""Children killed side by side, each in its own data folder: starting Python is most of the time."""


@dataclass
class Lane:
    folder: Path
    seed: int
    kills: int = 0
    saves: int = 0
    saved: dict[str, int] = field(default_factory=dict)
    """Hands each match had when its last reported save returned."""


def check(folder: Path, saved: dict[str, int], touched: set[str]) -> None:
    """Every file parses; the store opens clean; every hand reported saved in `touched` matches is there."""
    with Store(folder) as store:
        assert store.damaged == [], store.damaged
        assert not list(folder.rglob("*.tmp")), "the store left temporary files after opening"
        listed = {m.id: m.hands for m in store.list_matches()}
        for match_id in touched:
            hands = store.get(match_id).match.hands
            assert len(hands) >= saved[match_id], f"match {match_id}: {len(hands)} hands, {saved[match_id]} saved"
            assert hands == tuple(hand_for(n) for n in range(len(hands)))
            assert listed[match_id] == len(hands)
    for path in folder.rglob("*.json"):
        json.loads(path.read_bytes())


def run(lane: Lane, kills: int) -> Lane:
    rng = random.Random(lane.seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    for attempt in range(kills):
        child = subprocess.Popen([sys.executable, str(CHILD), str(lane.folder)], cwd=ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if attempt % 10 == 9:
            time.sleep(rng.uniform(0.0, 0.08))  # now and then while it starts and opens the store
        else:
            line = child.stdout.readline()
            assert line == "ready\n", f"the child did not start: {line!r} {child.stderr.read()}"
            time.sleep(rng.uniform(0.0, 0.03))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, f"the child died by itself:\n{err}"
        lane.kills += 1
        touched: set[str] = set()
        for line in out.split("\n")[:-1]:  # what follows the last newline is no whole line
            if line == "ready":
                continue
            word, match_id, *rest = line.split()
            touched.add(match_id)
            if word == "created":
                lane.saved.setdefault(match_id, 0)
            elif word == "saved":
                lane.saved[match_id] = max(lane.saved.get(match_id, 0), int(rest[0]))
                lane.saves += 1
        check(lane.folder, lane.saved, touched)
    check(lane.folder, lane.saved, set(lane.saved))
    return lane


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_hands_survive_sigkill_at_random_moments(tmp_path, record_property):
    started = time.monotonic()
    lanes = [Lane(tmp_path / f"data-{k}", seed=20250301 + k) for k in range(LANES)]
    with ThreadPoolExecutor(LANES) as pool:
        done = list(pool.map(run, lanes, [-(-KILLS // LANES)] * LANES))
    kills = sum(lane.kills for lane in done)
    hands = sum(sum(lane.saved.values()) for lane in done)
    matches = sum(len(lane.saved) for lane in done)
    report = (f"crash test: survived {kills} SIGKILLs in {time.monotonic() - started:.1f} s; "
              f"all {hands} saved hands in {matches} matches present, every file loads "
              f"({sum(lane.saves for lane in done)} saves reported before the kills)")
    print("\n" + report)
    record_property("crash_report", report)
    assert kills >= 200 and hands > 0, report
