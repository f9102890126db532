"""Skill ratings (#28): the same numbers as openskill called directly on the same matches in the same order, for
two, three and four players and partnerships; the same table whatever order the matches arrived in; an edited,
deleted or late match as if it had been saved that way; seasons and filters."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion.engine import Goal, Match, Side
from companion.engine.match import Status
from companion.history.ratings import (CHECKPOINT, PROVISIONAL_MATCHES, Filter, RatingBook, Season, leaderboard,
                                       shown)
from companion.history.scored import ScoredMatch, score_record
from companion.records import MatchRecord
from tests.history.builders import CLASSIC, GREEK, PARTNERSHIP, SECOND_WINS, hand

FIRST_TWO_XERIS = hand(cards=(30, 22), counting=(12, 8), two=1, xeris=(2, 0))          # 3+12+1+20 = 36, 9

NOW = datetime(2025, 6, 30, tzinfo=UTC)


def played(id: str, ids: list[list[str]], totals: list[int], *, day: str = "2025-06-01", minute: int = 0,
           rules=None, winner: int | None = -1, hands_goal: bool = False) -> ScoredMatch:
    """A finished match between `ids`' sides that ended with `totals` (the highest wins unless `winner` says who;
    None: a draw)."""
    sides = tuple(Side(" & ".join(p), players=tuple(p)) if len(p) > 1 else Side(p[0]) for p in ids)
    rules = rules or (PARTNERSHIP if any(len(p) > 1 for p in ids) else CLASSIC if len(ids) == 2 else GREEK)
    goal = Goal(hands=3) if hands_goal else Goal(target=151, extension=251)
    match = Match(rules=rules, sides=sides, goal=goal, hands=())
    stamp = f"{day}T21:{minute:02d}:00+00:00"
    record = MatchRecord(id=id, match=match, created=f"{day}T20:00:00+00:00", finished=stamp,
                         player_ids=tuple(tuple(p) for p in ids))
    base = score_record(record)
    if winner == -1:
        winner = max(range(len(totals)), key=lambda s: totals[s])
    return replace(base, status=Status.DRAWN if winner is None else Status.WON, winner=winner,
                   totals=tuple(totals), hands_won=tuple(totals))


def by_hand(matches: list[ScoredMatch]) -> dict[str, tuple[float, float]]:
    """openskill called directly, match after match, with the places worked out here by hand."""
    model = PlackettLuce()
    now: dict[str, tuple[float, float]] = {}
    for m in sorted(matches, key=lambda m: (m.when, m.id)):
        teams = [[model.rating(*now[p]) if p in now else model.rating() for p in ids] for ids in m.player_ids]
        if m.status is Status.DRAWN:
            ranks = [0 if t == max(m.totals) else 1 for t in m.totals]
        else:
            ranks = [0 if s == m.winner else 1 + sorted(set(m.totals), reverse=True).index(t)
                     for s, t in enumerate(m.totals)]
        for ids, team in zip(m.player_ids, model.rate(teams, ranks=ranks)):
            for p, r in zip(ids, team):
                now[p] = (r.mu, r.sigma)
    return now


def assert_same(board, expected: dict[str, tuple[float, float]]) -> None:
    got = {p.player_id: (p.mu, p.sigma) for p in board.players}
    assert got.keys() == expected.keys()
    for player, (mu, sigma) in expected.items():
        assert got[player] == pytest.approx((mu, sigma), abs=1e-9), player


def test_two_three_and_four_players_and_partnerships_rate_as_openskill_does():
    matches = [
        played("m01", [["anna"], ["ben"]], [151, 90], minute=1),
        played("m02", [["anna"], ["ben"], ["chloe"]], [60, 155, 60], minute=2),      # two share second place
        played("m03", [["anna"], ["ben"], ["chloe"], ["dimitris"]], [20, 40, 160, 100], minute=3),
        played("m04", [["anna", "chloe"], ["ben", "dimitris"]], [151, 170], minute=4, winner=0),  # won on the tie-break
        played("m05", [["ben"], ["chloe"]], [151, 151], minute=5, winner=None),      # a draw
    ]
    board = leaderboard(matches, NOW)
    assert_same(board, by_hand(matches))
    assert board.matches == 5
    anna = board.of("anna")
    assert [m.result for m in anna.moves] == ["won", "lost", "lost", "won"]
    assert [m.result for m in board.of("chloe").moves][-1] == "drawn"
    assert anna.moves[0].before == shown(25.0, 25.0 / 3) == 1000.0        # a newcomer starts at 1000
    assert anna.rating == anna.moves[-1].after


def test_a_draw_moves_neither_side_far_and_a_win_over_someone_rated_above_says_so():
    matches = [played(f"m{i}", [["anna"], ["ben"]], [160, 40], minute=i) for i in range(4)]
    matches.append(played("m9", [["chloe"], ["anna"]], [155, 20], minute=9))
    chloe = leaderboard(matches, NOW).of("chloe")
    assert chloe.moves[0].opponents_rated == "above" and chloe.moves[0].change > 0 and chloe.moves[0].opponents == ("anna",)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(3, 25))
def test_the_same_matches_in_any_arrival_order_give_the_same_table(rnd, n):
    names = ["anna", "ben", "chloe", "dimitris", "eleni"]
    matches = []
    for i in range(n):
        players = rnd.sample(names, rnd.choice([2, 2, 3, 4]))
        ids = [[p] for p in players] if len(players) < 4 or rnd.random() < 0.5 else [players[:2], players[2:]]
        totals = [rnd.randrange(0, 200) for _ in ids]
        matches.append(played(f"m{i:03d}", ids, totals, minute=rnd.randrange(0, 3)))   # equal times: by id
    whole = leaderboard(matches, NOW)
    book = RatingBook()
    arrived: list[ScoredMatch] = []
    for m in rnd.sample(matches, len(matches)):          # one by one, as a group's devices hear of them
        arrived.append(m)
        book.update(arrived)
        book.leaderboard(NOW)                             # asked between arrivals: what it keeps must follow
    assert book.leaderboard(NOW) == whole
    assert_same(whole, by_hand(matches))


def test_an_edit_a_deletion_and_a_late_match_rate_as_if_saved_that_way():
    matches = [played(f"m{i:04d}", [["anna"], ["ben"] if i % 3 else ["chloe"]], [151, 60 + i % 100],
                      day=f"2025-06-{1 + i // 100:02d}", minute=i % 60) for i in range(2 * CHECKPOINT + 30)]
    book = RatingBook()
    book.update(matches)
    assert book.leaderboard(NOW) == leaderboard(matches, NOW)
    edited = list(matches)
    edited[CHECKPOINT + 7] = replace(edited[CHECKPOINT + 7], totals=(40, 151), winner=1)   # a hand put right
    del edited[12]                                                                        # a match deleted
    edited.append(played("late", [["ben"], ["chloe"]], [151, 0], day="2025-06-01", minute=0))  # heard late
    book.update(edited)
    assert book.leaderboard(NOW) == leaderboard(edited, NOW)
    assert_same(book.leaderboard(NOW), by_hand(edited))


def test_abandoned_matches_and_matches_without_player_ids_are_not_rated():
    kept = played("m1", [["anna"], ["ben"]], [151, 60])
    abandoned = replace(played("m2", [["anna"], ["ben"]], [60, 151]), status=Status.PLAYING, winner=None)
    no_ids = replace(kept, id="m3", player_ids=())
    board = leaderboard([kept, abandoned, no_ids], NOW)
    assert board.matches == 1 and board.of("anna").wins == 1


def test_seasons_rule_sets_and_table_sizes_choose_the_matches():
    matches = [played("may", [["anna"], ["ben"]], [151, 0], day="2025-05-31"),
               played("june", [["anna"], ["ben"]], [0, 151], day="2025-06-01"),
               played("three", [["anna"], ["ben"], ["chloe"]], [151, 0, 0], day="2025-06-02"),
               played("greek", [["anna"], ["ben"]], [151, 0], day="2025-06-03", rules=GREEK)]
    june = Season.month(date(2025, 6, 15))
    assert june == Season(date(2025, 6, 1), date(2025, 7, 1))
    assert Season.quarter(date(2025, 5, 2)) == Season(date(2025, 4, 1), date(2025, 7, 1))
    assert Season.year(date(2025, 5, 2)) == Season(date(2025, 1, 1), date(2026, 1, 1))
    assert leaderboard(matches, NOW, Filter(june)).matches == 3
    assert leaderboard(matches, NOW, Filter(june, table="3")).matches == 1
    assert leaderboard(matches, NOW, Filter(rules="classic")).matches == 2
    assert leaderboard(matches, NOW, Filter(june, rules="classic", table="2")).of("ben").wins == 1


def test_provisional_until_enough_matches_and_listed_after_the_settled_players():
    matches = [played(f"m{i}", [["anna"], ["ben"]], [151, 100], minute=i) for i in range(PROVISIONAL_MATCHES)]
    matches.append(played("x", [["chloe"], ["ben"]], [151, 0], minute=59))
    board = leaderboard(matches, NOW)
    assert [p.player_id for p in board.players] == ["anna", "ben", "chloe"]
    assert not board.of("anna").provisional and board.of("chloe").provisional
    assert board.of("chloe").rating > board.of("ben").rating          # rated above, listed below: provisional


def test_the_change_since_a_week_before_and_the_form():
    matches = [played("old", [["anna"], ["ben"]], [151, 0], day="2025-06-01"),
               played("new", [["anna"], ["ben"]], [0, 151], day="2025-06-28")]
    board = leaderboard(matches, NOW)
    anna = board.of("anna")
    assert anna.week_change == pytest.approx(anna.rating - anna.moves[0].after)
    assert anna.form == ("won", "lost")
    assert leaderboard(matches[1:], NOW).of("anna").week_change is None     # no rated match a week before


def test_rated_matches_order_by_finishing_time_then_id_never_by_arrival():
    a = played("b-second", [["anna"], ["ben"]], [151, 0], minute=5)
    b = played("a-first", [["anna"], ["ben"]], [0, 151], minute=5)
    ids = [m.match_id for m in leaderboard([a, b], NOW).of("anna").moves]
    assert ids == ["a-first", "b-second"] == [m.match_id for m in leaderboard([b, a], NOW).of("anna").moves]


def test_partners_who_only_played_together_are_listed_by_name_whatever_their_ids():
    # Player ids are each device's own (found by name): equal ratings must not be ordered by them.
    for ids in ((["p1", "p2"], ["p3", "p4"]), (["p9", "p2"], ["p3", "p4"])):
        board = leaderboard([played("m1", [ids[0], ids[1]], [151, 40])], NOW)
        names = {ids[0][0]: "Zoe", ids[0][1]: "Anna", "p3": "Chloe", "p4": "Ben"}
        assert [names[p.player_id] for p in board.ranked(names)] == ["Anna", "Zoe", "Ben", "Chloe"]


def test_a_match_of_so_many_hands_is_ranked_by_hands_won_under_rules_whose_own_goal_is_a_race():
    """The goal the table agreed counts, not the one the rule set starts a match with: classic rules race to 151,
    yet a match of two hands agreed under them, one hand each, is a draw, however the points fell."""
    hands = (FIRST_TWO_XERIS, SECOND_WINS)   # 36 : 9, then 10 : 15
    match = Match(rules=CLASSIC, sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=2), hands=hands)
    record = MatchRecord(id="m1", match=match, created="2025-06-01T20:00:00+00:00",
                         finished="2025-06-01T21:00:00+00:00", player_ids=(("anna",), ("ben",)))
    drawn = score_record(record)
    assert CLASSIC.goal.is_race and drawn.status is Status.DRAWN and drawn.totals[0] > drawn.totals[1]
    board = leaderboard([drawn], NOW)
    assert [m.result for p in board.players for m in p.moves] == ["drawn", "drawn"]
    assert board.of("anna").mu == board.of("ben").mu
