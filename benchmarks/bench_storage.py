"""Storage growth: saving a hand with 1 stored match vs 1,000 stored matches of 10 hands each (goal ratio ≤ 1.5)."""

from __future__ import annotations

import statistics
import tempfile
import time
import uuid
from pathlib import Path

from companion.engine import Goal, HandEntry, Match, Side, record_hand
from companion.formats.presets import preset
from companion.service import Services
from companion.records import MatchRecord
from companion.storage import AtomicJSONStorage, Store
from companion.storage.documents import record_to_doc
from companion.engine.live import TapKind

BACKGROUND = 999
"""Finished matches stored beside the one being played: 1,000 stored matches in all."""
HANDS = 10
"""Hands in every stored match."""
SAVES = 50
"""Hands saved (and timed) in each store."""
GOAL_RATIO = 1.5


def hand(n: int) -> HandEntry:
    """A valid classic hand, varied by n."""
    a, c = 20 + n % 13, 5 + n % 11
    return HandEntry(cards=(a, 52 - a), counting=(c, 20 - c), xeris=(n % 3, (n + 1) % 2), jack_xeris=(0, 0),
                     ten_of_diamonds=n % 2, two=(n + 1) % 2)


def played(goal: Goal, hands: int) -> Match:
    match = Match.new(preset("classic"), [Side("Anna"), Side("Ben")], goal)
    for n in range(hands):
        match = record_hand(match, hand(n))
    return match


def write_background(folder: Path, count: int) -> None:
    """Write finished matches straight into match files through the storage layer (the store indexes them)."""
    matches = folder / "matches"
    matches.mkdir(parents=True)
    match = played(Goal(hands=HANDS), HANDS)
    for k in range(count):
        stamp = f"2024-{1 + k % 12:02d}-{1 + k % 28:02d}T20:{k % 60:02d}:00.000Z"
        record = MatchRecord(id=uuid.uuid4().hex, match=match, created=stamp, finished=stamp,
                             player_ids=((uuid.uuid4().hex,), (uuid.uuid4().hex,)))
        AtomicJSONStorage(matches / f"{record.id}.json").write({"match": {"1": record_to_doc(record, stamp)}})


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="xeri-bench-") as tmp:
        small, large = Path(tmp) / "one", Path(tmp) / "thousand"
        small.mkdir()
        started = time.perf_counter()
        write_background(large, BACKGROUND)
        built = time.perf_counter() - started

        started = time.perf_counter()
        Store(large).close()  # the first open checks every match file and builds the index
        first_open = time.perf_counter() - started
        started = time.perf_counter()
        stores = {"1": Store(small), f"{BACKGROUND + 1:,}": Store(large)}
        reopen = time.perf_counter() - started

        tables = {name: Services.over(store).table for name, store in stores.items()}
        ids = {name: tables[name].start(played(Goal(hands=1_000), HANDS)).id for name in stores}
        saves: dict[str, list[float]] = {name: [] for name in stores}
        taps: dict[str, list[float]] = {name: [] for name in stores}
        for n in range(HANDS, HANDS + SAVES):
            # Alternate the stores so disk noise and the growing match hit both alike.
            for name in stores:
                t0 = time.perf_counter()
                tables[name].tap(ids[name], n % 2, TapKind.XERI)
                t1 = time.perf_counter()
                tables[name].record_hand(ids[name], hand(n))
                t2 = time.perf_counter()
                taps[name].append(t1 - t0)
                saves[name].append(t2 - t1)
        listing = []
        for _ in range(2):  # the first call builds the summaries, later ones reuse those that did not change
            started = time.perf_counter()
            listed = len(stores[f"{BACKGROUND + 1:,}"].list_matches())
            listing.append(time.perf_counter() - started)
        for store in stores.values():
            store.close()

    med = {name: statistics.median(v) for name, v in saves.items()}
    tap = {name: statistics.median(v) for name, v in taps.items()}
    one, many = med.values()
    ratio = many / one
    print(f"Saving a hand (median of {SAVES}, each an fsynced match file + index bucket), {HANDS}-hand matches stored:")
    print(f"  {'stored matches':>15}  {'save a hand':>12}  {'live tap':>10}")
    for name in stores:
        print(f"  {name:>15}  {ms(med[name]):>12}  {ms(tap[name]):>10}")
    print(f"  ratio {ratio:.2f} (goal ≤ {GOAL_RATIO}: {'met' if ratio <= GOAL_RATIO else 'NOT met'})")
    print(f"  setting up: {BACKGROUND} match files written in {built:.2f} s; first open (index built from "
          f"them) {first_open:.2f} s; opening both stores again {ms(reopen)}; "
          f"list_matches() of {listed:,}: {ms(listing[0])} first, {ms(listing[1])} after")
    print("  fsync makes single saves noisy: compare medians, run again if the disk was busy.")


if __name__ == "__main__":
    main()
