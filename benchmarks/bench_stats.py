"""Statistics speed: a player's figures over 100 and 1,000 stored matches of 10 hands.

A match keeps its standing once worked out (`engine.standing`), so each timed run is given fresh copies
of the records (made before the clock starts): "from records" really scores every match each run.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from dataclasses import replace
from collections.abc import Callable

from companion.engine import Goal, HandEntry, Match, Side, validate_hand
from companion.formats.presets import preset
from companion.records import MatchRecord
from companion.history.stats import player_stats, score_history

HANDS = 10
RUNS = 7
PLAYERS = ("anna", "ben", "chris", "dora", "eleni", "fotis")
ME = "anna"
"""The player whose page is timed; she sits at every table, the worst case."""


def classic_hand(rng: random.Random) -> HandEntry:
    """A random valid classic count-mode hand of two sides (checked by the engine)."""
    while True:
        cards = rng.randint(16, 36)
        counting = rng.randint(max(1, 20 - (52 - cards) + 1), min(19, cards - 1))
        entry = HandEntry(cards=(cards, 52 - cards), counting=(counting, 20 - counting),
                          ten_of_diamonds=rng.randint(0, 1), two=rng.randint(0, 1),
                          xeris=(rng.choice((0, 0, 1, 1, 2)), rng.choice((0, 0, 1, 1, 2))),
                          jack_xeris=(int(rng.random() < 0.1), int(rng.random() < 0.1)))
        if not validate_hand(entry, CLASSIC, 2):
            return entry


CLASSIC = preset("classic")
PARTNERSHIP = preset("partnership")


def records(count: int, seed: int = 151) -> list[MatchRecord]:
    """`count` finished matches of 10 hands, one in five a partnership; dated one evening apart."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        others = rng.sample([p for p in PLAYERS if p != ME], 3)
        day = f"20{20 + n // 336:02d}-{1 + n // 28 % 12:02d}-{1 + n % 28:02d}"
        if n % 5 == 4:
            rules = PARTNERSHIP
            sides = (Side("Reds", (ME.capitalize(), others[0].capitalize())),
                     Side("Blues", (others[1].capitalize(), others[2].capitalize())))
            ids = ((ME, others[0]), (others[1], others[2]))
        else:
            rules = CLASSIC
            sides = (Side(ME.capitalize()), Side(others[0].capitalize()))
            ids = ((ME,), (others[0],))  # type: ignore[assignment]  # one player a side
        # A goal of 10 hands keeps every match exactly 10 hands long (a race to 151 would end sooner).
        match = Match(rules=rules, sides=sides, goal=Goal(hands=HANDS),
                      hands=tuple(classic_hand(rng) for _ in range(HANDS)))
        out.append(MatchRecord(id=f"{n:032x}", match=match, created=f"{day}T19:00:00+00:00",
                               finished=f"{day}T21:30:00+00:00", player_ids=ids))
    rng.shuffle(out)  # storage returns them in no particular order
    return out


def fresh(records_: list[MatchRecord]) -> list[MatchRecord]:
    """The same records with new match values, which hold no standing yet."""
    return [replace(r, match=replace(r.match)) for r in records_]


def median_ms(work: Callable[[object], object], setup: Callable[[], object] = lambda: None) -> float:
    """Median ms of `work(setup())`; `setup` runs before the clock starts."""
    times = []
    for _ in range(RUNS):
        given = setup()
        start = time.perf_counter()
        work(given)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _at(work, n, given):
    return work(n, given)


def main() -> None:
    sizes = (100, 1000)
    data = {n: records(n) for n in sizes}
    scored = {n: score_history(data[n]) for n in sizes}
    cases = {
        "player_stats from records (each call scores every match)":
            (lambda n, given: player_stats(given, ME), lambda n: fresh(data[n])),
        "score_history once (the engine's standing of every match)":
            (lambda n, given: score_history(given), lambda n: fresh(data[n])),
        "player_stats over the scored history":
            (lambda n, given: player_stats(scored[n], ME), lambda n: None),
    }
    print(f"{HANDS} hands per match, median of {RUNS} runs; goal: under 200 ms at 1,000 matches, growing linearly")
    found = {}
    for label, (work, setup) in cases.items():
        medians = found[label] = {n: median_ms(functools.partial(_at, work, n), functools.partial(setup, n))
                                  for n in sizes}
        ratio = medians[1000] / medians[100]
        print(f"{label}:")
        print("  " + "   ".join(f"{n:>5} matches {medians[n]:8.1f} ms" for n in sizes)
              + f"   ratio 1000/100 {ratio:.1f}"
              + (f"   goal {'met' if medians[1000] < 200 else 'MISSED'}" if "player_stats" in label else ""))
    per_hand = list(found.values())[1][1000] * 1000 / (1000 * HANDS)
    print(f"engine scoring: {per_hand:.0f} µs per hand (standing → score_hand, which checks every hand again)")


if __name__ == "__main__":
    main()
