"""Bounded work for any input: every number a rule set, a goal or a match carries stays within what the
game produces, an out-of-bounds value is refused naming its field, and nothing grows with a number's size."""

import re
import time

import pytest

from companion.engine import Goal, Match, MatchError, RulesError, Side, record_hand
from companion.engine.limits import MAX_HANDS, MAX_POINTS, shown
from companion.engine.match import _Tally
from companion.engine.scoring import HandScore
from companion.formats.matchfile import MatchFileError, loads

from .builders import even_hand, rules

POINT_FIELDS = ["ten_of_diamonds_points", "two_points", "majority_points", "xeri_points", "jack_xeri_points"]


def test_a_target_passed_by_any_totals_moves_up_in_one_step():
    # Two sides far past the target in one hand: the target rises past the second total by arithmetic, at once.
    tally = _Tally(2, 151)
    started = time.perf_counter()
    tally.add(Goal(target=151, extension=251), 0, HandScore((10**100 + 60, 10**100), (), 0))
    assert time.perf_counter() - started < 0.1
    assert tally.target > 10**100 and tally.target - 100 <= 10**100
    assert (tally.winner, tally.extensions) == (0, (10**100 - 151) // 100 + 1)


def test_a_xeri_worth_ten_to_the_hundred_is_refused_at_once_naming_the_field():
    # The 353-byte file that hung `score` and froze the server, as the issue gave it.
    text = ('{"format": "xeri-match", "version": 1, "rules": {"preset": "classic", "xeri_points": 1%s},'
            ' "sides": [{"name": "Anna"}, {"name": "Ben"}],'
            ' "hands": [{"most_cards": 0, "counting": [10, 10], "xeris": [13, 12], "jack_xeris": [0, 0],'
            ' "ten_of_diamonds": 0, "two": 1}]}') % ("0" * 100)
    started = time.perf_counter()
    with pytest.raises(MatchFileError, match="^xeri_points must be a whole number of points from 0 to 100, not a "
                                             "number of 101 digits$"):
        loads(text)
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("field", POINT_FIELDS)
def test_a_scoring_item_worth_more_than_a_game_gives_is_refused_naming_it(field):
    with pytest.raises(RulesError, match=f"^{field} must be a whole number of points from 0 to {MAX_POINTS}, not 101$"):
        rules(**{field: MAX_POINTS + 1})
    assert getattr(rules(**{field: MAX_POINTS}), field) == MAX_POINTS


def test_rank_points_are_bounded_too_and_true_is_no_number():
    with pytest.raises(RulesError, match="rank points must be whole numbers from 0 to 100, not 1000 for K"):
        rules(rank_points={"A": 1, "K": 1000})
    with pytest.raises(RulesError, match="not True for A"):
        rules(rank_points={"A": True})


@pytest.mark.parametrize("goal, said", [
    ({"target": 10_001}, "a target of 10001 points is more than a match is played to (at most 10,000)"),
    ({"target": 151, "extension": 10_152}, "the extension (10152) may be at most 10,000 above the target (151)"),
    ({"hands": MAX_HANDS + 1}, "a match of 1001 hands cannot be played: agree on at most 1,000"),
    ({"hands": 10**40}, "a match of a number of 41 digits hands cannot be played"),
])
def test_a_goal_beyond_what_a_match_is_played_to_is_refused(goal, said):
    with pytest.raises(RulesError, match=re.escape(said)):
        Goal.from_dict(goal)


def test_a_table_size_is_listed_once_and_is_a_whole_number():
    for players in ([2, 2], [2.0], [True], "2"):
        with pytest.raises(RulesError, match="players"):
            rules(players=players)


def test_a_match_holds_at_most_a_thousand_hands():
    match = Match.new(rules(), [Side("Anna"), Side("Ben")], Goal(hands=MAX_HANDS))
    for _ in range(MAX_HANDS):
        match = record_hand(match, even_hand())
    assert len(match.hands) == MAX_HANDS
    with pytest.raises(MatchError, match="at most 1,000 hands"):
        Match(rules=match.rules, sides=match.sides, goal=Goal(target=151), hands=match.hands + (even_hand(),))


def test_a_number_too_long_to_read_is_told_by_its_length_never_written_out():
    assert shown(123) == "123"
    assert shown(10**15 - 1) == "999999999999999" and shown(-(10**15 - 1)) == "-999999999999999"   # 15 digits
    assert str(shown(10**15)) == str(shown(-(10**16 - 1))) == "a number of 16 digits"
    assert [str(shown(n)) for n in (2**49, 2**50, 2**53, 10**20 - 1, 10**20)] == [
        "562949953421312", "a number of 16 digits", "a number of 16 digits", "a number of 20 digits",
        "a number of 21 digits"]
    assert all(str(shown(10**k)) == f"a number of {k + 1:,} digits" == str(shown(10**(k + 1) - 1))
               for k in range(15, 4_299))
    assert str(shown(10**5000)) == "a number of about 5,001 digits"      # a message: said in any language
    assert len(shown("x" * 10**6)) == 60
