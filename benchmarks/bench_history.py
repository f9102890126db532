"""History speed through the view model: opening the history and a player's page over stored matches (#27).

Stores of 1,000 and 5,000 finished classic matches of 10 valid hands each are written through the Store API
into a temporary folder (one evening apart, so the wins-per-month chart has years of months). Then, median of
several runs:

- the app's warm-up at start: the history scored from the index and its all-time ratings worked out, on a store
  just opened (in a thread beside the screens; the first player page waits for it if opened sooner);
- (a) the history's rows (its first page, as the list shows it), the first call on a store just opened (cold) and
  a fresh session's (warm);
- (b) a player's page for the player at every table (the worst case), as the page works it out
  (`PlayerModel.open`): cold (a store just opened and a fresh cache: nothing warmed, the pages' figures kept by
  the last run, as every run keeps them whenever the history changed), on a fresh session once the app's warm-up
  ran, and opened again in the same session. Shown beside the goals, not one of them: the cold page when nothing
  was kept for this history (a change made while the app was closed, until the warm-up keeps them again), and
  what keeping every player's page costs, in the background.

Goals: cold figures ≤ 300 ms at 5,000 matches, and at 5,000 at most twice what they cost at 1,000 (the cold cost
must be fixed work, not work per match); warm figures ≤ 100 ms at 5,000. Opening the store itself (reading the
index) is timed apart, as are the parts of a cold page. No figure may read a match file (they are counted), and
the memory the warmed history holds at 5,000 matches is measured with tracemalloc.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import shutil
import statistics
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import NamedTuple
from collections.abc import Callable

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.history.cache import PAGES, HistoryCache
from companion.history.ratings import Filter, RatingBook
from companion.history.stats import score_history
from companion.service import Services
from companion.storage import Store
from companion.ui.viewmodel import AppModel
from companion.ui.viewmodel.history import PAGE

from .bench_stats import classic_hand

HANDS = 10
SIZES = (1000, 5000)
RUNS = 9
"""Runs per figure on an open store."""
COLD_RUNS = 7
"""Runs per figure that open the store again each time."""
COLD_GOAL_MS = 300
WARM_GOAL_MS = 100
COLD_RATIO = 2.0
"""The most a cold figure may cost at 5,000 matches, as a multiple of its cost at 1,000."""

# The figures the goals are about, named once: each is both timed (`measure`) and counted (`work_counts`).
WARM_UP = "the app's warm-up at start (background): the history from the index and its all-time ratings"
HISTORY_JUST_OPENED = "(a) history, first call on a store just opened"
PAGE_COLD = "(b) player page with nothing warmed: store just opened, fresh cache, the pages kept by the last run"
PAGE_NOTHING_KEPT = "    not a goal: the same with nothing kept for this history (it changed while the app was closed)"
EVERY_ROW = "    not a goal: every row of the list, all its pages shown"
KEEPING = "    not a goal: keeping every player's page for the next run (background, once the history changed)"
PAGE_WARMED_AT_START = "(b) player page, the app's history warmed at start: fresh session"
HISTORY_FRESH_STATE = "(a) history: a fresh session's history rows"
PAGE_SECOND_CALL = "(b) player page warm: opened again in the same session"
COLD_FIGURES = (HISTORY_JUST_OPENED, PAGE_COLD)
WARM_FIGURES = (PAGE_WARMED_AT_START, HISTORY_FRESH_STATE, PAGE_SECOND_CALL)
GOAL_FIGURES = COLD_FIGURES + WARM_FIGURES
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


def cold_ms(folder: Path, work: Callable[[Store], object], runs: int = COLD_RUNS,
            before: Callable[[], object] = lambda: None) -> Timing:
    """`work(store)` on a store opened afresh for each run (opening and `before()` not timed)."""
    times = []
    for _ in range(runs):
        before()
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


class Reads:
    """Counts the match files the store reads (`Store._read_match`) while it is installed."""

    def __init__(self) -> None:
        self.count = 0
        self._real = Store._read_match

    def __enter__(self) -> Reads:
        real = self._real

        def reading(store: Store, path: Path):
            self.count += 1
            return real(store, path)

        Store._read_match = reading  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        Store._read_match = self._real  # type: ignore[method-assign]


def warm(store: Store, keep: bool = True) -> HistoryCache:
    """What the app does in the background when it starts (`keep`: and keeps the pages, unless kept already)."""
    cache = HistoryCache()
    library = Services.over(store).library
    if keep:
        cache.warm(library)
    else:
        cache.scored(library)
        cache.leaderboard(library, Filter(), datetime.now(UTC))
    return cache


def measure(folder: Path, count: int) -> dict[str, Timing]:
    out: dict[str, Timing] = {}

    def open_close() -> None:
        Store(folder).close()

    out["open the store (apart): the index's 256 files read and checked"] = median_ms(open_close, COLD_RUNS)
    out[WARM_UP] = cold_ms(folder, warm)
    out[HISTORY_JUST_OPENED] = cold_ms(folder, rows)

    def cold_page(store: Store) -> None:
        page = Page(store, player_id(store)).open()
        assert figure(page, "stat-matches") == str(count)

    out[PAGE_COLD] = cold_ms(folder, cold_page)
    kept = folder / f"{PAGES}.kept"
    assert kept.exists(), "the warm-up kept no player pages"
    out[PAGE_NOTHING_KEPT] = cold_ms(folder, cold_page, before=lambda: kept.unlink(missing_ok=True))

    def keeping(store: Store) -> None:
        cache = warm(store, keep=False)
        kept.unlink(missing_ok=True)
        start = time.perf_counter()
        assert cache.keep_pages(Services.over(store).library)
        times.append((time.perf_counter() - start) * 1000)

    times: list[float] = []
    for _ in range(COLD_RUNS):
        with Store(folder) as store:
            keeping(store)
    out[KEEPING] = Timing(statistics.median(times), min(times))
    out["    of which the history's summaries and figures (Library.scored, store just opened)"] = cold_ms(
        folder, lambda s: score_history(Services.over(s).library.scored()))
    with Store(folder) as store:
        history = score_history(Services.over(store).library.scored())
    out["    of which the all-time ratings from scratch (RatingBook.update)"] = median_ms(
        lambda: RatingBook().update(history), COLD_RUNS)

    warmed: list[float] = []
    for _ in range(COLD_RUNS):
        with Store(folder) as store:
            cache = warm(store)
            start = time.perf_counter()
            page = Page(store, player_id(store), cache).open()
            warmed.append((time.perf_counter() - start) * 1000)
            assert figure(page, "stat-matches") == str(count)
    out[PAGE_WARMED_AT_START] = Timing(statistics.median(warmed), min(warmed))
    with Store(folder) as store:
        assert len(rows(store)) == PAGE and Services.over(store).library.history_count() == count
        out[HISTORY_FRESH_STATE] = median_ms(lambda: rows(store))

        def every_row() -> None:
            vm = session(store)
            vm.history.shown = count
            assert len(vm.history.rows()) == count

        out[EVERY_ROW] = median_ms(every_row, COLD_RUNS)
        page = Page(store, player_id(store))
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
        out[WARM_UP] = calls(lambda: warm(store))
    with Store(folder) as store:
        out[HISTORY_JUST_OPENED] = calls(lambda: rows(store))
    with Store(folder) as store:
        out[PAGE_COLD] = calls(lambda: Page(store, player_id(store)).open())
    with Store(folder) as store:
        cache = warm(store)
        pid = player_id(store)
        out[PAGE_WARMED_AT_START] = calls(lambda: Page(store, pid, cache).open())
        out[HISTORY_FRESH_STATE] = calls(lambda: rows(store))
        page = Page(store, pid)
        page.open()
        out[PAGE_SECOND_CALL] = calls(page.open)
    return out


def memory(folder: Path) -> tuple[float, float, float]:
    """MB (tracemalloc): what the open store holds (the index in memory), what the warmed history and ratings
    hold beside it, and the warm-up's peak above the open store."""
    tracemalloc.start()
    try:
        store = Store(folder)
        try:
            opened = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            cache = warm(store)
            held, peak = tracemalloc.get_traced_memory()
            assert cache.scored(Services.over(store).library)
        finally:
            store.close()
    finally:
        tracemalloc.stop()
    mb = 1024 * 1024
    return opened / mb, (held - opened) / mb, (peak - opened) / mb


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="xeri-bench-history-"))
    try:
        results: dict[int, dict[str, Timing]] = {}
        work: dict[int, dict[str, int]] = {}
        reads: dict[int, int] = {}
        for count in SIZES:
            folder = root / f"store-{count}"
            seconds = build(folder, count)
            print(f"built {count} matches of {HANDS} classic hands through the service in {seconds:.1f} s "
                  f"({seconds * 1000 / count:.1f} ms a match)")
            with Reads() as read:
                results[count] = measure(folder, count)
            reads[count] = read.count
            work[count] = work_counts(folder)
            assert set(work[count]) - {WARM_UP} == set(GOAL_FIGURES) <= set(results[count]), \
                "a goal figure is not both timed and counted"
        small, large = SIZES
        print(f"\nmedian ms ({RUNS} runs on an open store, {COLD_RUNS} when the store is opened again each run); "
              f"goals at {large:,} matches: cold figures ≤ {COLD_GOAL_MS} ms and ≤ {COLD_RATIO:.0f}× their cost at "
              f"{small:,}; warm figures ≤ {WARM_GOAL_MS} ms (work: Python function calls, shown to explain)")
        verdicts = []
        for label in results[small]:
            (a, _), (b, _) = results[small][label], results[large][label]
            ratio = b / a if a else float("inf")
            goal = ""
            if label in work[small]:
                goal = f"   work {work[small][label]:,} → {work[large][label]:,} calls"
            if label in COLD_FIGURES:
                met = b <= COLD_GOAL_MS and ratio <= COLD_RATIO
                verdicts.append((label, met, f"{b:.0f} ms at {large:,}, ratio {ratio:.1f}"))
                goal += "   goal met" if met else "   goal MISSED"
            elif label in WARM_FIGURES:
                met = b <= WARM_GOAL_MS
                verdicts.append((label, met, f"{b:.0f} ms at {large:,}"))
                goal += "   goal met" if met else "   goal MISSED"
            print(f"{label}:\n    {small:>5} matches {a:9.1f} ms   {large:>5} matches {b:9.1f} ms"
                  f"   ratio {large}/{small} {ratio:5.1f}{goal}")
        for count in SIZES:
            met = reads[count] == 0
            verdicts.append((f"no match file read ({count:,} matches)", met, f"{reads[count]:,} read"))
        print("match files read by every figure above: " + ", ".join(f"{reads[c]:,} at {c:,}" for c in SIZES)
              + ("   goal met" if all(reads[c] == 0 for c in SIZES) else "   goal MISSED"))
        opened, held, peak = memory(root / f"store-{large}")
        print(f"memory at {large:,} matches (tracemalloc): the open store {opened:.1f} MB; the warmed history and "
              f"ratings {held:.1f} MB more (peak of the warm-up {peak:.1f} MB)")
        missed = [v for v in verdicts if not v[1]]
        if missed:
            print("\nGOAL NOT MET for: " + "; ".join(f"{label} ({why})" for label, _, why in missed))
        else:
            print(f"\ngoal met: cold figures ≤ {COLD_GOAL_MS} ms and ≤ {COLD_RATIO:.0f}× at {large:,} matches, warm "
                  f"≤ {WARM_GOAL_MS} ms, no match file read")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
