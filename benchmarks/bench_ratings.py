"""Skill ratings (#28): the leaderboard of a club's 5,000 matches between 30 players (two players, three, four and
partnerships), from scratch and after one new match (the kept `RatingBook`, as the app keeps it between pages),
and after a match that arrives late from another device (replayed from the checkpoint before it).

Goals: after a new match ≤ 300 ms; from scratch ≤ 2 s. Medians of RUNS, the runs of each kind interleaved.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from companion.engine import Goal, Match, Side
from companion.engine.match import Status
from companion.formats.presets import preset
from companion.history.ratings import RatingBook, leaderboard
from companion.history.scored import ScoredMatch, score_record
from companion.records import MatchRecord

MATCHES, PLAYERS, RUNS = 5_000, 30, 5
NOW = datetime(2026, 12, 5, tzinfo=UTC)


def club(matches: int = MATCHES, seed: int = 28) -> list[ScoredMatch]:
    """A club's decade: `matches` finished matches, one an evening, between PLAYERS players of different skill."""
    rng = random.Random(seed)
    players = [f"{k:032x}" for k in range(PLAYERS)]
    skill = {p: rng.gauss(0, 1) for p in players}
    classic, greek, partnership = preset("classic"), preset("greek-online"), preset("partnership")
    start = NOW - timedelta(days=matches)
    out = []
    for n in range(matches):
        kind = rng.random()
        if kind < 0.15:
            four = rng.sample(players, 4)
            ids = [four[:2], four[2:]]
            rules = partnership
            sides: tuple[Side, ...] = (Side("A & B", ("A", "B")), Side("C & D", ("C", "D")))
        else:
            count = 2 if kind < 0.75 else rng.choice((3, 4))
            ids = [[p] for p in rng.sample(players, count)]
            rules = classic if count == 2 else greek
            sides = tuple(Side(chr(65 + k)) for k in range(count))
        when = (start + timedelta(days=n, hours=21)).isoformat()
        record = MatchRecord(id=f"{n + 10**6:032x}", match=Match(rules=rules, sides=sides, goal=Goal(target=151),
                                                                 hands=()),
                             created=when, finished=when, player_ids=tuple(tuple(i) for i in ids))
        totals = tuple(int(150 + 40 * sum(skill[p] for p in side) / len(side) + rng.gauss(0, 40)) for side in ids)
        winner = max(range(len(totals)), key=lambda s: totals[s])
        out.append(replace(score_record(record), status=Status.WON, winner=winner, totals=totals, hands_won=totals))
    return out


def main() -> None:
    history = club()
    new = club(MATCHES + 1)[-1:]                          # the next evening's match
    late = replace(history[MATCHES * 9 // 10], id="f" * 32)
    warm = RatingBook()
    warm.update(history)
    scratch, after_new, after_late = [], [], []
    for _ in range(RUNS):                                 # interleaved: each kind sees the same machine
        t = time.perf_counter()
        board = leaderboard(history, NOW)
        scratch.append(time.perf_counter() - t)
        book = copy.deepcopy(warm)
        t = time.perf_counter()
        book.update(history + new)
        book.leaderboard(NOW)
        after_new.append(time.perf_counter() - t)
        book = copy.deepcopy(warm)
        t = time.perf_counter()
        book.update(history + [late])
        book.leaderboard(NOW)
        after_late.append(time.perf_counter() - t)
    assert board.matches == MATCHES and len(board.players) == PLAYERS
    assert book.leaderboard(NOW) == leaderboard(history + [late], NOW)   # the replay is the same as from scratch
    import openskill.models.weng_lin.plackett_luce as model

    build = "compiled (mypyc)" if not model.__file__.endswith(".py") else "pure Python, as in the browser build"
    print(f"{MATCHES:,} matches, {PLAYERS} players (2, 3, 4 and partnerships); medians of {RUNS} interleaved runs; "
          f"openskill {build}")
    for what, times, goal in (("from scratch", scratch, 2.0), ("after a new match", after_new, 0.3),
                              ("after a match arriving late (10% back)", after_late, 0.3)):
        median = statistics.median(times)
        print(f"  leaderboard {what}: {median * 1000:,.0f} ms (goal ≤ {goal * 1000:,.0f} ms: "
              f"{'met' if median <= goal else 'MISSED'})")


if __name__ == "__main__":
    main()
