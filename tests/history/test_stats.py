"""Statistics against hand-worked examples: two players, partnerships, ties, draws, abandons."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Goal, HandEntry, Match, Side, score_hand
from companion.history.csv import history_csv
from companion.history.stats import (
    HeadToHead, MonthWins, Partnership, head_to_head, partnerships, player_names, player_stats,
    points_per_hand, running_totals_series, score_history, wins_per_month,
)
from companion.records import MatchRecord

from .builders import (CLASSIC, FIRST_JACK_XERI, FIRST_WINS, FIRST_XERI, GREEK, PARTNERSHIP, SECOND_WINS, TIED,
                       classic_hands, duel, evenings, record, single)


def test_the_builder_hands_score_as_worked_out_by_hand():
    points = {h: score_hand(h, CLASSIC, 2).points for h in (FIRST_WINS, SECOND_WINS, TIED, FIRST_XERI, FIRST_JACK_XERI)}
    assert points == {FIRST_WINS: (15, 10), SECOND_WINS: (10, 15), TIED: (11, 11),
                      FIRST_XERI: (26, 9), FIRST_JACK_XERI: (36, 9)}


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


def test_points_per_hand_follows_the_players_side_oldest_first():
    assert points_per_hand(evenings(), "anna") == [
        15, 11, 26,     # 2025-01-10
        10, 9,          # 2025-02-05
        15,             # 2025-02-20
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
    assert [s.id for s in scored] == ["r1", "r2", "r3"]
    assert points_per_hand(scored, "ben") == points_per_hand(records, "ben")
    assert player_stats(scored, "anna") == player_stats(records, "anna")
    assert head_to_head(scored, "ben") == head_to_head(records, "ben")
    assert wins_per_month(scored, "anna") == wins_per_month(records, "anna")


def test_a_timestamp_that_is_not_iso_is_named_with_its_match():
    bad = MatchRecord(id="bad", match=duel("x", [FIRST_WINS]).match, created="yesterday", finished="yesterday")
    with pytest.raises(ValueError, match="bad"):
        score_history([bad])


def test_importing_stats_loads_neither_flet_nor_tinydb():
    code = ("import sys, companion.history.stats;"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb', 'filelock'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


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
    assert anna.points + ben.points == sum(sum(s.totals) for s in score_history(records))
    assert anna.points == sum(points_per_hand(records, "anna"))
    if anna.played:
        h2h = head_to_head(records, "anna")[0]
        assert (h2h.matches, h2h.wins, h2h.losses, h2h.draws) == (anna.played, anna.won, anna.lost, anna.drawn)
    assert len(history_csv(records).splitlines()) == hands + 1
