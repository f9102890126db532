"""Engine speed: scoring 10,000 random valid hands, and the standing of a 1,000-hand match."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace
from collections.abc import Callable

from companion.engine import (DECK, TEN_OF_DIAMONDS, Goal, HandEntry, Match, Rank, RuleSet, Side, record_hand,
                              score_hand, standing)
from companion.formats.presets import preset

HANDS = 10_000
MATCH_HANDS = 1_000
RUNS = 7
GOAL_MS = 100.0
"""The engine issue's goal: scoring 10,000 hands takes under 100 ms."""


def random_hand(rng: random.Random, rules: RuleSet, sides: int) -> HandEntry:
    """A valid hand from a real-looking deal: the shuffled deck split among the sides, xeris the piles allow.

    Four hands in five count their piles, one in five says only who had most cards; one in four is
    entered card by card (exact mode).
    """
    deck = list(DECK)
    rng.shuffle(deck)
    cuts = sorted(rng.randint(0, 52) for _ in range(sides - 1))
    bounds = [0, *cuts, 52]
    piles = [deck[a:b] for a, b in zip(bounds, bounds[1:])]
    counts = tuple(len(p) for p in piles)
    jack_left, xeris, jack_xeris = rules.max_jack_xeris, [], []
    for pile in piles:
        jacks = sum(1 for c in pile if c.rank is Rank.JACK)
        jx = rng.randint(0, min(jack_left, jacks // rules.jacks_per_jack_xeri, len(pile) // 2, 1))
        jack_left -= jx
        jack_xeris.append(jx)
        xeris.append(rng.randint(0, min(3, len(pile) // 2 - jx)))
    entry: dict = {"xeris": tuple(xeris), "jack_xeris": tuple(jack_xeris)}
    if rng.random() < 0.8:
        entry["cards"] = counts
    else:
        top = max(counts)
        entry["most_cards"] = counts.index(top) if counts.count(top) == 1 else None
    if rng.random() < 0.25:
        entry["held"] = tuple(tuple(c for c in p if rules.is_scoring(c)) for p in piles)
    else:
        holder = {c: s for s, p in enumerate(piles) for c in p}
        entry["counting"] = tuple(sum(1 for c in p if rules.is_counting(c)) for p in piles)
        entry["ten_of_diamonds"] = holder[TEN_OF_DIAMONDS]
        entry["two"] = holder[rules.two]
    return HandEntry(**entry)


def runs_ms(work: Callable[[], object], runs: int = RUNS) -> list[float]:
    """Wall time of each of `runs` runs, in ms, after one run to warm up."""
    work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(what: str, times: list[float], goal_ms: float | None = None) -> None:
    median = statistics.median(times)
    line = f"{what}: median {median:.1f} ms over {len(times)} runs (min {min(times):.1f}, max {max(times):.1f})"
    if goal_ms is not None:
        line += f"; goal under {goal_ms:.0f} ms: {'met' if median < goal_ms else 'NOT met'}"
    print(line)


def main() -> None:
    rng = random.Random(151)
    classic = preset("classic")
    hands = [random_hand(rng, classic, 2) for _ in range(HANDS)]
    mixed_rules = [(preset(name), n) for name in ("classic", "plain", "greek-online", "partnership", "pisti")
                   for n in preset(name).sides_allowed]
    mixed = [(r, n, random_hand(rng, r, n)) for r, n in (rng.choice(mixed_rules) for _ in range(HANDS))]
    match = Match(rules=classic, sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=MATCH_HANDS),
                  hands=tuple(random_hand(rng, classic, 2) for _ in range(MATCH_HANDS)))

    print(f"goal: under {GOAL_MS:.0f} ms for {HANDS:,} hands")
    report(f"score_hand on {HANDS:,} random valid classic hands (2 sides; 1 in 4 exact, 1 in 5 most cards only)",
           runs_ms(lambda: [score_hand(h, classic, 2) for h in hands]), GOAL_MS)
    report(f"score_hand on {HANDS:,} random valid hands of every preset and table size",
           runs_ms(lambda: [score_hand(h, r, n) for r, n, h in mixed]), GOAL_MS)
    st = standing(match)
    assert st.hands_left == 0 and len(st.scores) == MATCH_HANDS  # a goal of 1,000 hands: nothing ends early
    # A match keeps its standing once worked out: `replace` gives a new match value that holds none yet.
    report(f"standing of a {MATCH_HANDS:,}-hand classic match (goal: {MATCH_HANDS:,} hands), worked out",
           runs_ms(lambda: standing(replace(match))))
    shorter = replace(match, hands=match.hands[:-1])
    standing(shorter)
    report(f"one more hand recorded onto a {MATCH_HANDS - 1:,}-hand match (only the new hand is scored)",
           runs_ms(lambda: record_hand(shorter, match.hands[-1])))
