"""History and statistics against hand-worked examples: two players, partnerships, ties, draws, abandons."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Goal, HandEntry, Match, Side, Status, score_hand, validate_hand
from companion.presets import preset
from companion.records import MatchRecord
from companion.stats import (
    CSV_HEADER, HandPoints, HeadToHead, MonthWins, Partnership, WhatIfError, head_to_head, history,
    history_csv, pairs, partnerships, player_names, player_stats, points_per_hand_series,
    running_totals_series, score_history, what_if, wins_per_month,
)

CLASSIC = preset("classic")
PARTNERSHIP = preset("partnership")
GREEK = preset("greek-online")


# --- builders -----------------------------------------------------------------------------------

def hand(cards=(27, 25), counting=(10, 10), ten=0, two=0, xeris=(0, 0), jack_xeris=(0, 0)) -> HandEntry:
    """A classic count-mode hand; points per side = 3 for most cards + counting + 10♦ extra + 2♣ + xeris."""
    return HandEntry(cards=cards, counting=counting, ten_of_diamonds=ten, two=two,
                     xeris=xeris, jack_xeris=jack_xeris)


# Hands worked out under classic rules (side 0, side 1):
FIRST_WINS = hand()                                                  # 3+10+1+1 = 15, 10
SECOND_WINS = hand(cards=(25, 27), ten=1, two=1)                     # 10, 15
TIED = hand(cards=(26, 26), two=1)                                   # 10+1 = 11, 10+1 = 11: nobody wins
FIRST_XERI = hand(cards=(30, 22), counting=(12, 8), two=1, xeris=(1, 0))        # 3+12+1+10 = 26, 8+1 = 9
FIRST_JACK_XERI = hand(cards=(30, 22), counting=(12, 8), two=1, jack_xeris=(1, 0))  # 3+12+1+20 = 36, 9


def single(*names: str) -> tuple[Side, ...]:
    return tuple(Side(n) for n in names)


def record(id: str, sides, ids, hands, *, rules=CLASSIC, goal=Goal(hands=3), day="2025-01-10",
           finished=True, abandoned=False) -> MatchRecord:
    """A stored match started at 20:00 UTC on `day` and, when `finished`, finished at 22:00."""
    match = Match(rules=rules, sides=tuple(sides), goal=goal, hands=tuple(hands))
    return MatchRecord(id=id, match=match, created=f"{day}T20:00:00+00:00",
                       finished=f"{day}T22:00:00+00:00" if finished else None,
                       abandoned=abandoned, player_ids=tuple(tuple(i) for i in ids))


def duel(id: str, hands, *, day="2025-01-10", goal=Goal(hands=3), first="anna", second="ben", **kw) -> MatchRecord:
    """Two single players; the side names are the ids, capitalised."""
    return record(id, single(first.capitalize(), second.capitalize()), [[first], [second]], hands,
                  goal=goal, day=day, **kw)


def evenings() -> list[MatchRecord]:
    """Anna and Ben over three evenings, plus a match still in play that must count nowhere."""
    return [
        # Anna wins by hands won 2-0: points 15+11+26 = 52 to 10+11+9 = 30.
        duel("r1", [FIRST_WINS, TIED, FIRST_XERI], day="2025-01-10"),
        # Ben (side 0) races to 30 in two hands, 15+36 = 51 to Anna's 10+9 = 19.
        duel("r2", [FIRST_WINS, FIRST_JACK_XERI], day="2025-02-05", goal=Goal(target=30, extension=50),
             first="ben", second="anna"),
        # Abandoned after one hand that Anna won 15-10.
        duel("r3", [FIRST_WINS], day="2025-02-20", finished=False, abandoned=True),
        # Still in play: its 26 points must not reach any figure.
        duel("r4", [FIRST_XERI], day="2025-03-01", finished=False),
    ]


def test_the_builder_hands_score_as_worked_out_by_hand():
    points = {h: score_hand(h, CLASSIC, 2).points for h in (FIRST_WINS, SECOND_WINS, TIED, FIRST_XERI, FIRST_JACK_XERI)}
    assert points == {FIRST_WINS: (15, 10), SECOND_WINS: (10, 15), TIED: (11, 11),
                      FIRST_XERI: (26, 9), FIRST_JACK_XERI: (36, 9)}


# --- history ------------------------------------------------------------------------------------

def test_history_lists_finished_and_abandoned_matches_newest_first_and_leaves_out_matches_in_play():
    rows = history(evenings())
    assert [r.id for r in rows] == ["r3", "r2", "r1"]
    r3, r2, r1 = rows
    assert (r1.date, r1.sides, r1.rules_name, r1.goal) == ("2025-01-10T22:00:00+00:00", ("Anna", "Ben"), "classic", Goal(hands=3))
    assert (r1.hands, r1.totals, r1.hands_won, r1.winner, r1.winner_name) == (3, (52, 30), (2, 0), 0, "Anna")
    assert (r1.status, r1.abandoned) == (Status.WON, False)
    assert (r2.sides, r2.totals, r2.winner_name, r2.goal.target) == (("Ben", "Anna"), (51, 19), "Ben", 30)
    # An abandoned match is dated by its start, has no winner, and says so.
    assert (r3.date, r3.totals, r3.winner, r3.status, r3.abandoned) == (
        "2025-02-20T20:00:00+00:00", (15, 10), None, Status.PLAYING, True)


def test_history_filters_by_player_and_by_rule_set():
    records = evenings() + [
        record("p1", [Side("Reds", ("Anna", "Chris")), Side("Blues", ("Ben", "Dora"))],
               [["anna", "chris"], ["ben", "dora"]], [FIRST_WINS], rules=PARTNERSHIP, goal=Goal(hands=1),
               day="2025-01-20"),
    ]
    assert [r.id for r in history(records, player_id="chris")] == ["p1"]
    assert [r.id for r in history(records, player_id="anna")] == ["r3", "r2", "p1", "r1"]
    assert [r.id for r in history(records, player_id="nobody")] == []
    assert [r.id for r in history(records, rules="partnership")] == ["p1"]
    assert [r.id for r in history(records, rules=CLASSIC)] == ["r3", "r2", "r1"]
    assert [r.id for r in history(records, rules=CLASSIC.with_overrides(jack_xeri_points=25))] == []
    assert [r.id for r in history(records, player_id="ben", rules="partnership")] == ["p1"]
    assert history(records, player_id="chris")[0].members == (("Anna", "Chris"), ("Ben", "Dora"))


def test_a_drawn_match_is_in_the_history_without_a_winner():
    rows = history([duel("d", [FIRST_WINS, SECOND_WINS], goal=Goal(hands=2))])
    assert (rows[0].status, rows[0].winner, rows[0].hands_won, rows[0].abandoned) == (Status.DRAWN, None, (1, 1), False)


# --- a player's figures -------------------------------------------------------------------------

def test_two_players_figures_are_as_worked_out_by_hand():
    anna = player_stats(evenings(), "anna")
    # r1 won, r2 lost, r3 abandoned; r4 is still in play.
    assert (anna.matches, anna.played, anna.won, anna.lost, anna.drawn, anna.abandoned) == (3, 2, 1, 1, 0, 1)
    assert anna.win_rate == 0.5
    # Hands: r1 won, tied, won; r2 (Anna is side 1) lost, lost; r3 won.
    assert (anna.hands, anna.hands_won, anna.hands_lost, anna.hands_tied) == (6, 3, 2, 1)
    assert anna.points == 52 + 19 + 15
    assert anna.points_per_hand == pytest.approx(86 / 6)
    assert (anna.xeris, anna.jack_xeris) == (1, 0)
    assert anna.xeris_per_hand == pytest.approx(1 / 6)
    # 10♦: all three r1 hands and r3; 2♣: r1's first, r2's second, r3; most cards: r1 twice (not the 26-26 tie), r3.
    assert (anna.ten_of_diamonds, anna.two, anna.most_cards) == (4, 3, 3)
    assert anna.most_cards_rate == pytest.approx(3 / 6)
    assert (anna.best_hand.points, anna.best_hand.match_id, anna.best_hand.hand) == (26, "r1", 3)
    assert (anna.longest_streak, anna.current_streak) == (1, 0)

    ben = player_stats(evenings(), "ben")
    assert (ben.matches, ben.played, ben.won, ben.lost, ben.abandoned) == (3, 2, 1, 1, 1)
    assert (ben.hands, ben.hands_won, ben.hands_lost, ben.hands_tied) == (6, 2, 3, 1)
    assert ben.points == 30 + 51 + 10
    assert (ben.xeris, ben.jack_xeris, ben.jack_xeris_per_hand) == (0, 1, pytest.approx(1 / 6))
    assert (ben.ten_of_diamonds, ben.two, ben.most_cards) == (2, 3, 2)
    assert (ben.best_hand.points, ben.best_hand.match_id, ben.best_hand.hand) == (36, "r2", 2)
    assert (ben.longest_streak, ben.current_streak) == (1, 1)


def test_a_player_without_matches_has_zero_figures_and_no_rates():
    nobody = player_stats(evenings(), "nobody")
    assert (nobody.matches, nobody.hands, nobody.points, nobody.best_hand) == (0, 0, 0, None)
    assert (nobody.win_rate, nobody.points_per_hand, nobody.xeris_per_hand) == (None, None, None)


def test_the_best_hand_is_the_first_hand_with_the_most_points():
    records = [duel("late", [FIRST_XERI], day="2025-02-01", goal=Goal(hands=1)),
               duel("early", [FIRST_WINS, FIRST_XERI, FIRST_XERI], day="2025-01-01")]
    best = player_stats(records, "anna").best_hand
    assert (best.points, best.match_id, best.hand, best.date) == (26, "early", 2, "2025-01-01T22:00:00+00:00")


def test_tied_hands_are_won_by_nobody_and_a_tie_for_most_cards_gives_nobody_most_cards():
    records = [duel("t", [TIED, TIED, FIRST_WINS])]
    for player in ("anna", "ben"):
        s = player_stats(records, player)
        assert s.hands_tied == 2
    assert (player_stats(records, "anna").hands_won, player_stats(records, "anna").most_cards) == (1, 1)
    assert (player_stats(records, "ben").hands_lost, player_stats(records, "ben").most_cards) == (1, 0)


def test_a_drawn_match_counts_as_played_but_neither_won_nor_lost():
    records = [duel("d", [FIRST_WINS, SECOND_WINS], goal=Goal(hands=2))]
    for player in ("anna", "ben"):
        s = player_stats(records, player)
        assert (s.played, s.won, s.lost, s.drawn, s.win_rate) == (1, 0, 0, 1, 0.0)
        assert (s.hands_won, s.hands_lost, s.points) == (1, 1, 25)


def test_an_abandoned_match_counts_its_hands_but_not_as_a_played_match():
    records = [duel("a", [FIRST_XERI, FIRST_WINS], finished=False, abandoned=True)]
    anna = player_stats(records, "anna")
    assert (anna.matches, anna.played, anna.abandoned, anna.win_rate) == (1, 0, 1, None)
    assert (anna.hands, anna.hands_won, anna.points, anna.xeris) == (2, 2, 41, 1)


def test_a_partnership_counts_the_sides_hands_for_both_partners():
    reds_blues = record("p1", [Side("Reds", ("Anna", "Chris")), Side("Blues", ("Ben", "Dora"))],
                        [["anna", "chris"], ["ben", "dora"]], [FIRST_XERI, TIED], rules=PARTNERSHIP,
                        goal=Goal(hands=2))
    anna, chris = player_stats([reds_blues], "anna"), player_stats([reds_blues], "chris")
    # The Reds win 1 hand to 0 (one tied): 26+11 points, one xeri, the 10♦ twice, most cards once.
    assert (anna.won, anna.hands, anna.hands_won, anna.hands_tied, anna.points) == (1, 2, 1, 1, 37)
    assert (anna.xeris, anna.ten_of_diamonds, anna.two, anna.most_cards) == (1, 2, 0, 1)
    assert chris == replace(anna, player_id="chris")
    ben = player_stats([reds_blues], "ben")
    assert (ben.lost, ben.points, ben.two) == (1, 20, 2)
    assert player_stats([reds_blues], "dora") == replace(ben, player_id="dora")


def test_partnerships_are_counted_per_partner_and_as_pairs():
    records = [
        # Reds (Anna & Chris) beat Blues (Ben & Dora).
        record("p1", [Side("Reds", ("Anna", "Chris")), Side("Blues", ("Ben", "Dora"))],
               [["anna", "chris"], ["ben", "dora"]], [FIRST_WINS], rules=PARTNERSHIP, goal=Goal(hands=1),
               day="2025-03-01"),
        # Anna & Ben draw with Chris & Dora on a tied hand.
        record("p2", [Side("Mixed", ("Anna", "Ben")), Side("Others", ("Chris", "Dora"))],
               [["anna", "ben"], ["chris", "dora"]], [TIED], rules=PARTNERSHIP, goal=Goal(hands=1),
               day="2025-03-02"),
        # Abandoned: counts for no partnership.
        record("p3", [Side("Reds", ("Anna", "Chris")), Side("Blues", ("Ben", "Dora"))],
               [["anna", "chris"], ["ben", "dora"]], [FIRST_WINS], rules=PARTNERSHIP, goal=Goal(hands=3),
               day="2025-03-03", finished=False, abandoned=True),
    ]
    mine = partnerships(records, "anna")
    assert mine == [Partnership(("anna", "chris"), 1, 1, 0, 0), Partnership(("anna", "ben"), 1, 0, 0, 1)]
    assert [p.partner_of("anna") for p in mine] == ["chris", "ben"]
    assert mine[0].win_rate == 1.0
    assert pairs(records) == [
        Partnership(("anna", "chris"), 1, 1, 0, 0),
        Partnership(("anna", "ben"), 1, 0, 0, 1),
        Partnership(("ben", "dora"), 1, 0, 1, 0),
        Partnership(("chris", "dora"), 1, 0, 0, 1),
    ]
    # Partners are never opponents: Ben is Anna's opponent only in p1.
    assert head_to_head(records, "anna") == [
        HeadToHead("dora", 2, 1, 0, 1),
        HeadToHead("ben", 1, 1, 0, 0),
        HeadToHead("chris", 1, 0, 0, 1),
    ]
    assert partnerships(evenings(), "anna") == []


def test_the_longest_winning_streak_is_broken_by_a_loss_or_a_draw_but_not_by_an_abandoned_match():
    one = Goal(hands=1)
    results = {  # day -> the hand; given out of order to show that dates decide
        "2025-01-05": FIRST_WINS, "2025-01-01": FIRST_WINS, "2025-01-03": FIRST_WINS,
        "2025-01-06": SECOND_WINS, "2025-01-07": FIRST_WINS, "2025-01-08": TIED, "2025-01-09": FIRST_WINS,
    }
    records = [duel(day, [h], day=day, goal=one) for day, h in results.items()]
    records.append(duel("gave-up", [SECOND_WINS], day="2025-01-04", goal=Goal(hands=3),
                        finished=False, abandoned=True))
    # W(01) W(03) [abandoned 04] W(05) L(06) W(07) D(08) W(09)
    anna = player_stats(records, "anna")
    assert (anna.longest_streak, anna.current_streak) == (3, 1)
    assert (anna.won, anna.lost, anna.drawn, anna.abandoned) == (5, 1, 1, 1)
    ben = player_stats(records, "ben")
    assert (ben.longest_streak, ben.current_streak) == (1, 0)


def test_head_to_head_counts_wins_losses_and_draws_per_opponent():
    records = evenings() + [
        duel("d", [FIRST_WINS, SECOND_WINS], goal=Goal(hands=2), day="2025-03-05"),
        duel("c1", [FIRST_WINS], goal=Goal(hands=1), day="2025-03-06", second="chris"),
    ]
    assert head_to_head(records, "anna") == [HeadToHead("ben", 3, 1, 1, 1), HeadToHead("chris", 1, 1, 0, 0)]
    assert head_to_head(records, "ben") == [HeadToHead("anna", 3, 1, 1, 1)]
    assert head_to_head(records, "chris") == [HeadToHead("anna", 1, 0, 1, 0)]


def test_head_to_head_at_a_table_of_three_tells_a_third_sides_win_apart():
    # greek-online: 16 counting cards (K Q J 10), the 10♦ is a plain ten, the 2♠ is the special two.
    entry = HandEntry(cards=(20, 16, 16), counting=(8, 4, 4), ten_of_diamonds=0, two=1,
                      xeris=(0, 0, 0), jack_xeris=(0, 0, 0))
    assert score_hand(entry, GREEK, 3).points == (11, 5, 4)
    records = [record("g", single("Anna", "Ben", "Chris"), [["anna"], ["ben"], ["chris"]], [entry],
                      rules=GREEK, goal=Goal(hands=1))]
    ben = head_to_head(records, "ben")
    assert ben == [HeadToHead("anna", 1, 0, 1, 0), HeadToHead("chris", 1, 0, 0, 0)]
    assert ben[1].third_side_wins == 1


# --- pictures -----------------------------------------------------------------------------------

def test_points_per_hand_series_follows_the_players_side_oldest_first():
    assert points_per_hand_series(evenings(), "anna") == [
        HandPoints("2025-01-10T22:00:00+00:00", 1, 15), HandPoints("2025-01-10T22:00:00+00:00", 2, 11),
        HandPoints("2025-01-10T22:00:00+00:00", 3, 26),
        HandPoints("2025-02-05T22:00:00+00:00", 1, 10), HandPoints("2025-02-05T22:00:00+00:00", 2, 9),
        HandPoints("2025-02-20T20:00:00+00:00", 1, 15),
    ]


def test_wins_per_month_counts_decided_matches_and_fills_the_empty_months():
    records = evenings() + [duel("may", [FIRST_WINS], goal=Goal(hands=1), day="2025-04-30")]
    assert wins_per_month(records, "anna") == [
        MonthWins("2025-01", 1, 1), MonthWins("2025-02", 0, 1), MonthWins("2025-03", 0, 0),
        MonthWins("2025-04", 1, 1),
    ]
    assert wins_per_month(records, "nobody") == []
    across = [duel("a", [FIRST_WINS], goal=Goal(hands=1), day="2024-12-31"),
              duel("b", [SECOND_WINS], goal=Goal(hands=1), day="2025-01-01")]
    assert wins_per_month(across, "ben") == [MonthWins("2024-12", 0, 1), MonthWins("2025-01", 1, 1)]


def test_running_totals_start_at_zero_and_the_target_line_steps_up_on_an_extension():
    # Race to 20: after hand 2 both sides have 20 or more (26 and 21), so the target becomes 40;
    # hand 3 takes the first side to 52 and wins.
    match = Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(target=20, extension=40),
                  hands=(FIRST_WINS, TIED, FIRST_XERI))
    series = running_totals_series(match)
    assert series.sides == ((0, 15, 26, 52), (0, 10, 21, 30))
    assert series.target == (20, 20, 40, 40)
    plain = Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(target=151), hands=(FIRST_WINS,))
    assert running_totals_series(plain) == (((0, 15), (0, 10)), (151, 151))
    by_hands = Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(hands=7), hands=(FIRST_WINS,))
    assert running_totals_series(by_hands).target is None
    assert running_totals_series(Match.new(CLASSIC, single("Anna", "Ben"))).sides == ((0,), (0,))


# --- what if ------------------------------------------------------------------------------------

def race_to_50() -> Match:
    # Classic: 36-9, 10-15, 15-10 → 61-34, the first side reaches 50 at hand 3.
    return Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(target=50, extension=100),
                 hands=(FIRST_JACK_XERI, SECOND_WINS, FIRST_WINS))


def test_what_if_25_point_jack_xeris_ends_the_race_a_hand_earlier_and_leaves_the_match_alone():
    match = race_to_50()
    result = what_if(match, CLASSIC.with_overrides(jack_xeri_points=25))
    assert result.stored_points == ((36, 9), (10, 15), (15, 10))
    assert result.rescored_points == ((41, 9), (10, 15), (15, 10))
    assert result.totals == ((61, 34), (51, 24))
    assert result.winners == (0, 0) and not result.winner_changed
    assert (result.stored.decided_at, result.rescored.decided_at, result.hands_after_end) == (2, 1, 1)
    assert result.stored_rules == CLASSIC and result.rules.jack_xeri_points == 25
    assert match == race_to_50()


def test_what_if_plain_rules_give_the_hand_and_the_match_to_the_other_side():
    # Classic: 3 + 13 + 1 + 1 = 18 against 7 + a jack xeri of 20 = 27. Plain: the jack xeri is worth 10, so 18-17.
    match = Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(hands=1),
                  hands=(hand(cards=(30, 22), counting=(13, 7), jack_xeris=(0, 1)),))
    result = what_if(match, preset("plain"))
    assert (result.stored_points, result.rescored_points) == (((18, 27),), ((18, 17),))
    assert result.winners == (1, 0) and result.winner_changed
    assert result.goal == Goal(hands=1)  # the stored goal, not the plain preset's 7 hands
    # Under another goal the same hand decides nothing yet.
    longer = what_if(match, preset("plain"), goal=Goal(hands=5))
    assert (longer.rescored.status, longer.rescored.hands_left, longer.hands_after_end) == (Status.PLAYING, 4, 0)
    assert longer.winners == (1, None) and longer.winner_changed


def test_what_if_refuses_rules_the_stored_hands_cannot_be_read_under():
    match = race_to_50()
    with pytest.raises(WhatIfError) as error:
        what_if(match, GREEK.with_overrides(two="2C"))  # counted 20 counting cards; greek-online counts 16
    assert error.value.hand == 0 and "counting_total" in [p.code for p in error.value.problems]
    with pytest.raises(WhatIfError, match="partnership"):
        what_if(match, PARTNERSHIP)  # two single players are no partnerships
    with pytest.raises(WhatIfError, match="2♠"):
        what_if(match, CLASSIC.with_overrides(two="2S"))  # the hands say who took the 2♣
    with pytest.raises(WhatIfError, match="2♠"):
        what_if(match, GREEK)


# --- export -------------------------------------------------------------------------------------

def test_history_csv_has_one_row_per_hand_with_points_running_totals_and_the_hand_winner():
    rows = list(csv.reader(io.StringIO(history_csv(evenings()))))
    assert tuple(rows[0]) == CSV_HEADER
    body = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert [(r["match"], r["hand"]) for r in body] == [("r1", "1"), ("r1", "2"), ("r1", "3"), ("r2", "1"),
                                                        ("r2", "2"), ("r3", "1")]
    first = body[0]
    assert (first["date"], first["rules"], first["side_1"], first["side_2"], first["side_3"]) == (
        "2025-01-10T22:00:00+00:00", "classic", "Anna", "Ben", "")
    assert [(r["points_1"], r["points_2"], r["total_1"], r["total_2"], r["hand_winner"]) for r in body[:3]] == [
        ("15", "10", "15", "10", "Anna"), ("11", "11", "26", "21", ""), ("26", "9", "52", "30", "Anna")]
    assert (body[4]["side_1"], body[4]["total_1"], body[4]["hand_winner"]) == ("Ben", "51", "Ben")


def test_history_csv_keeps_partnerships_four_sides_and_formula_like_names_as_text():
    entry = HandEntry(cards=(20, 16, 10, 6), counting=(7, 4, 3, 2), ten_of_diamonds=0, two=1,
                      xeris=(0, 0, 0, 0), jack_xeris=(0, 0, 0, 0))
    records = [record("four", single("=Anna", "Ben", "Chris", "Dora"), [["a"], ["b"], ["c"], ["d"]], [entry],
                      rules=GREEK, goal=Goal(hands=1))]
    rows = list(csv.reader(io.StringIO(history_csv(records))))
    row = dict(zip(rows[0], rows[1]))
    assert [row[f"side_{n}"] for n in range(1, 5)] == ["'=Anna", "Ben", "Chris", "Dora"]
    assert [row[f"points_{n}"] for n in range(1, 5)] == ["10", "5", "3", "2"]
    assert row["hand_winner"] == "'=Anna"
    assert history_csv([]) == ",".join(CSV_HEADER) + "\n"


# --- names, sharing the scoring, layering -------------------------------------------------------

def test_player_names_come_from_each_players_newest_match():
    records = evenings() + [
        record("p", [Side("Reds", ("Anna K.", "Chris")), Side("Blues", ("Ben", "Dora"))],
               [["anna", "chris"], ["ben", "dora"]], [FIRST_WINS], rules=PARTNERSHIP, goal=Goal(hands=1),
               day="2025-02-01"),
    ]
    # r3 (2025-02-20) and r4 (in play, 2025-03-01) are newer than p and still say Anna.
    assert player_names(records) == {"anna": "Anna", "ben": "Ben", "chris": "Chris", "dora": "Dora"}
    records.append(duel("new", [FIRST_WINS], day="2025-05-01", first="anna", second="ben"))
    renamed = records[-1]
    records[-1] = MatchRecord(id="new", match=Match(rules=CLASSIC, sides=single("Annoula", "Ben"),
                                                    goal=Goal(hands=3), hands=renamed.match.hands),
                              created=renamed.created, player_ids=renamed.player_ids)
    assert player_names(records)["anna"] == "Annoula"


def test_every_figure_is_the_same_from_records_and_from_the_scored_history():
    records = evenings()
    scored = score_history(records)
    assert [s.record.id for s in scored] == ["r1", "r2", "r3"]
    assert history(scored) == history(records)
    assert history(scored, player_id="anna", rules="classic") == history(records, player_id="anna", rules="classic")
    assert points_per_hand_series(scored, "ben") == points_per_hand_series(records, "ben")
    assert player_stats(scored, "anna") == player_stats(records, "anna")
    assert head_to_head(scored, "ben") == head_to_head(records, "ben")
    assert history_csv(scored) == history_csv(records)
    assert wins_per_month(scored, "anna") == wins_per_month(records, "anna")


def test_a_timestamp_that_is_not_iso_is_named_with_its_match():
    bad = MatchRecord(id="bad", match=duel("x", [FIRST_WINS]).match, created="yesterday", finished="yesterday")
    with pytest.raises(ValueError, match="bad"):
        history([bad])


def test_importing_stats_loads_neither_flet_nor_tinydb():
    code = ("import sys, companion.stats;"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb', 'filelock'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --- properties ---------------------------------------------------------------------------------

@st.composite
def classic_hands(draw) -> HandEntry:
    """Any valid classic count-mode hand of two sides."""
    first_cards = draw(st.integers(14, 38))
    first_counting = draw(st.integers(max(0, 20 - (52 - first_cards) + 1), min(20, first_cards - 1)))
    counting = (first_counting, 20 - first_counting)
    ten = draw(st.sampled_from([s for s in (0, 1) if counting[s] > 0]))
    entry = HandEntry(cards=(first_cards, 52 - first_cards), counting=counting, ten_of_diamonds=ten,
                      two=draw(st.integers(0, 1)), xeris=(draw(st.integers(0, 3)), draw(st.integers(0, 3))),
                      jack_xeris=(draw(st.integers(0, 1)), draw(st.integers(0, 1))))
    if validate_hand(entry, CLASSIC, 2):
        entry = HandEntry(cards=entry.cards, counting=counting, ten_of_diamonds=ten, two=entry.two,
                          xeris=(0, 0), jack_xeris=(0, 0))
    return entry


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(classic_hands(), min_size=1, max_size=5), st.booleans(), st.booleans()),
                min_size=1, max_size=6))
def test_between_two_players_each_figure_of_one_mirrors_the_other(matches):
    records = []
    for n, (hands, swap, abandon) in enumerate(matches):
        first, second = ("ben", "anna") if swap else ("anna", "ben")
        records.append(duel(f"m{n}", hands, goal=Goal(hands=len(hands) + (1 if abandon else 0)),
                            day=f"2025-01-{n + 1:02d}", first=first, second=second,
                            finished=not abandon, abandoned=abandon))
    anna, ben = player_stats(records, "anna"), player_stats(records, "ben")
    hands = sum(len(h) for h, _, _ in matches)
    assert anna.hands == ben.hands == hands
    assert (anna.won, anna.lost, anna.drawn, anna.abandoned) == (ben.lost, ben.won, ben.drawn, ben.abandoned)
    assert (anna.hands_won, anna.hands_tied) == (ben.hands_lost, ben.hands_tied)
    assert anna.ten_of_diamonds + ben.ten_of_diamonds == anna.two + ben.two == hands
    assert anna.most_cards + ben.most_cards <= hands
    assert anna.points + ben.points == sum(sum(r.totals) for r in history(records))
    assert anna.points == sum(p.points for p in points_per_hand_series(records, "anna"))
    if anna.played:
        h2h = head_to_head(records, "anna")[0]
        assert (h2h.matches, h2h.wins, h2h.losses, h2h.draws) == (anna.played, anna.won, anna.lost, anna.drawn)
    assert len(history_csv(records).splitlines()) == hands + 1
