"""History speed through the view model: opening the history and a player's page over stored matches.

Stores of 100 and 1,000 finished classic matches of 10 valid hands each are written through the Store
API into a temporary folder (one evening apart, so the wins-per-month chart has a year and more of
months). Then, median of several runs:

(a) opening the history: the rows of a fresh session's history view model (`AppModel(...).history.rows()`),
    the store already listed once (as in the running app), and its first call on a store just opened;
(b) a player's page, as the page works it out: `PlayerModel.open(player)` for the player at every table
    (the worst case), cold (a store just opened and a fresh session: every match file is read and
    scored), on a fresh session whose store already holds the records, and warm (opened again).

Opening the store itself is timed apart (it is not part of the figures above).
"""

from __future__ import annotations

import cProfile
import pstats
import random
import shutil
import statistics
import tempfile
import time
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import NamedTuple
from collections.abc import Callable

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.history.stats import score_history
from companion.history.cache import HistoryCache
from companion.service import Services
from companion.storage import Store
from companion.ui.viewmodel import AppModel

from .bench_stats import classic_hand

HANDS = 10
SIZES = (100, 1000)
RUNS = 15
"""Runs per figure on an open store."""
COLD_RUNS = 9
"""Runs per figure that open the store again each time."""
GOAL_MS = 200
WORK_LINEAR = 10 * 1.1
"""Ten times the matches may take at most 11 times the function calls to count as linear growth."""

# The figures the goal is about, named once: each is both timed (`measure`) and counted (`work_counts`).
HISTORY_JUST_OPENED = "(a) history, first call on a store just opened"
PAGE_WARMED_AT_START = "(b) player page, the app's history warmed at start: fresh session"
HISTORY_FRESH_STATE = "(a) history: a fresh session's history rows"
PAGE_RECORDS_HELD = "(b) player page, fresh session, records held by the store"
PAGE_SECOND_CALL = "(b) player page warm: opened again in the same session"
GOAL_FIGURES = (HISTORY_JUST_OPENED, PAGE_WARMED_AT_START, HISTORY_FRESH_STATE, PAGE_RECORDS_HELD, PAGE_SECOND_CALL)
ME = "Anna"
"""The player whose page is timed; she sits at every table, the worst case."""
OTHERS = ("Ben", "Chris", "Dora", "Eleni", "Fotis")


class Clock:
    """The store's clock: one evening per match, from 2023 on."""

    def __init__(self) -> None:
        self.now = datetime(2023, 1, 1, 19, 0, tzinfo=UTC)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def build(folder: Path, count: int, seed: int = 151) -> float:
    """Write `count` finished matches through the Store API; returns the seconds it took."""
    rng = random.Random(seed)
    classic = preset("classic")
    clock = Clock()
    start = time.perf_counter()
    with Store(folder, clock=clock) as store:
        for n in range(count):
            clock.now += timedelta(days=1) if n % 3 == 0 else timedelta(minutes=40)
            match = Match(rules=classic, sides=(Side(ME), Side(rng.choice(OTHERS))), goal=Goal(hands=HANDS),
                          hands=tuple(classic_hand(rng) for _ in range(HANDS)))
            record = Services.over(store).table.start(match)
            assert record.finished is not None and len(record.match.hands) == HANDS
    return time.perf_counter() - start


class Timing(NamedTuple):
    median: float
    """Median ms of the runs: the figure reported."""
    best: float
    """The fastest run, ms: shows the cost without garbage collection and other noise."""


def median_ms(work: Callable[[], object], runs: int = RUNS) -> Timing:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return Timing(statistics.median(times), min(times))


def cold_ms(folder: Path, work: Callable[[Store], object], runs: int = COLD_RUNS) -> Timing:
    """`work(store)` on a store opened afresh for each run (opening not timed)."""
    times = []
    for _ in range(runs):
        with Store(folder) as store:
            start = time.perf_counter()
            work(store)
            times.append((time.perf_counter() - start) * 1000)
    return Timing(statistics.median(times), min(times))


def player_id(store: Store) -> str:
    return next(p.id for p in store.players() if p.name == ME)


def session(store: Store, cache: HistoryCache | None = None) -> AppModel:
    """A fresh browser session's view model over the store."""
    return AppModel(Services.over(store), history_cache=cache)


def rows(store: Store) -> list:
    return session(store).history.rows()


class Page:
    """A player's page in a session: `open()` works it out as the app does (slow work done inline here)."""

    def __init__(self, store: Store, pid: str, cache: HistoryCache | None = None):
        self.vm, self.pid = session(store, cache), pid

    def open(self):
        self.vm.player.open(self.pid)
        return self.vm.player.page


def figure(page, key: str) -> str:
    return next(f.value for f in page.figures if f.key == key)


def measure(folder: Path, count: int) -> dict[str, Timing]:
    out: dict[str, Timing] = {}

    def open_close() -> None:
        Store(folder).close()

    out["open the store (apart)"] = median_ms(open_close, COLD_RUNS)
    out[HISTORY_JUST_OPENED] = cold_ms(folder, rows)

    def cold_page(store: Store) -> None:
        page = Page(store, player_id(store)).open()
        assert figure(page, "stat-matches") == str(count)

    def warmed_page(store: Store) -> None:
        cache = HistoryCache()
        cache.warm(Services.over(store).library)   # what the app does in the background when it starts (not timed)
        start = time.perf_counter()
        page = Page(store, player_id(store), cache).open()
        warmed.append((time.perf_counter() - start) * 1000)
        assert figure(page, "stat-matches") == str(count)

    warmed: list[float] = []
    for _ in range(COLD_RUNS):
        with Store(folder) as store:
            warmed_page(store)
    out[PAGE_WARMED_AT_START] = Timing(statistics.median(warmed),
                                                                                     min(warmed))
    out["    the app's warm-up at start (background): read and score every match"] = cold_ms(
        folder, lambda s: HistoryCache().warm(Services.over(s).library))
    out["    player page with nothing warmed: store just opened, fresh cache"] = cold_ms(folder, cold_page)
    out["    of which reading every match file (Store.get on a store just opened)"] = cold_ms(
        folder, lambda s: [s.get(m.id) for m in s.list_matches()])
    with Store(folder) as store:
        records = [store.get(m.id) for m in store.list_matches()]
    out["    of which scoring them (stats.score_history of the records)"] = median_ms(lambda: score_history(records))
    with Store(folder) as store:
        assert len(rows(store)) == count
        out[HISTORY_FRESH_STATE] = median_ms(lambda: rows(store))
        pid = player_id(store)
        Page(store, pid).open()   # the store now holds every record
        out[PAGE_RECORDS_HELD] = median_ms(lambda: Page(store, pid).open())
        page = Page(store, pid)
        page.open()
        out[PAGE_SECOND_CALL] = median_ms(page.open)
    return out


def calls(work: Callable[[], object]) -> int:
    """How many Python function calls `work()` makes: a count of work that timing noise cannot blur."""
    profile = cProfile.Profile()
    profile.runcall(work)
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]  # set by Stats, not declared


def work_counts(folder: Path) -> dict[str, int]:
    """The calls made for each goal figure, in the same conditions as its timing."""
    out = {}
    with Store(folder) as store:
        out[HISTORY_JUST_OPENED] = calls(lambda: rows(store))
    with Store(folder) as store:
        cache = HistoryCache()
        cache.warm(Services.over(store).library)
        pid = player_id(store)
        out[PAGE_WARMED_AT_START] = calls(lambda: Page(store, pid, cache).open())
        out[HISTORY_FRESH_STATE] = calls(lambda: rows(store))
        out[PAGE_RECORDS_HELD] = calls(lambda: Page(store, pid).open())
        page = Page(store, pid)
        page.open()
        out[PAGE_SECOND_CALL] = calls(page.open)
    return out


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="xeri-bench-history-"))
    try:
        results: dict[int, dict[str, Timing]] = {}
        work: dict[int, dict[str, int]] = {}
        for count in SIZES:
            folder = root / f"store-{count}"
            seconds = build(folder, count)
            print(f"built {count} matches of {HANDS} classic hands through the service in {seconds:.1f} s "
                  f"({seconds * 1000 / count:.1f} ms a match)")
            results[count] = measure(folder, count)
            work[count] = work_counts(folder)
            assert set(work[count]) == set(GOAL_FIGURES) <= set(results[count]), \
                "a goal figure is not both timed and counted"
        print(f"\nmedian ms ({RUNS} runs on an open store, {COLD_RUNS} when the store is opened again each run); "
              f"goal: under {GOAL_MS} ms at 1,000 matches, growing no worse than linearly "
              f"(judged on the work done: Python function calls, 1000/100 ≤ {WORK_LINEAR:.0f}; the time ratio is "
              f"shown too, but on figures of a few ms it also carries CPU-cache and allocator effects)")
        small, large = SIZES
        verdicts = []
        for label in results[small]:
            (a, _), (b, _) = results[small][label], results[large][label]
            ratio = b / a if a else float("inf")
            goal = ""
            if label in GOAL_FIGURES:   # the figures the goal is about; the others explain them
                work_ratio = work[large][label] / work[small][label]
                linear = work_ratio <= WORK_LINEAR
                met = b < GOAL_MS and linear
                verdicts.append((label, met, b, work_ratio))
                goal = (f"   work {work[small][label]:,} → {work[large][label]:,} calls, ratio {work_ratio:.1f}"
                        + ("   goal met" if met else "   goal MISSED"))
                if not linear:
                    goal += " (the work grows faster than linearly)"
            print(f"{label}:\n    {small:>5} matches {a:9.1f} ms   {large:>5} matches {b:9.1f} ms"
                  f"   ratio {large}/{small} {ratio:5.1f}{goal}")
        missed = [v for v in verdicts if not v[1]]
        if missed:
            print("\nGOAL NOT MET for: " + "; ".join(f"{label} ({ms:.0f} ms at {large}, work ratio {ratio:.1f})"
                                                      for label, _, ms, ratio in missed))
        else:
            print(f"\ngoal met: every figure under {GOAL_MS} ms at {large} matches, growing no worse than linearly")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
