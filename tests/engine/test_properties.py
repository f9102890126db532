"""Properties over random hands and matches: what holds for every hand a real deal can produce."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.engine import InvalidHand, Status, record_hand, score_hand, standing, undo_hand, validate_hand
from companion.i18n.explain import problem_text
from companion.formats.matchfile import dumps, loads, match_to_dict

from .builders import NAMES, rules
from .strategies import (BREAKS, broken_entries, deals, entry_from, matches, metas, rules_and_sides, valid_entries,
                         xeris_for)

FAST = settings(max_examples=250, deadline=None)
CLASSIC = rules("classic")


def card_points(score) -> int:
    """The hand's points without its xeris and jack xeris."""
    return sum(score.points) - sum(score.line(s, "xeris").points + score.line(s, "jack_xeris").points
                                   for s in range(len(score.points)))


@FAST
@given(valid_entries(CLASSIC, 2))
def test_every_valid_classic_hand_hands_out_exactly_25_card_points_or_22_on_a_26_26_tie(entry):
    score = score_hand(entry, CLASSIC, 2)
    tie = entry.cards == (26, 26) if entry.cards is not None else entry.most_cards is None
    assert card_points(score) == (22 if tie else 25)


@FAST
@given(st.data())
def test_every_valid_hand_hands_out_the_rule_sets_card_points_and_3_fewer_on_a_tie_for_most(data):
    ruleset, n = data.draw(rules_and_sides())
    entry = data.draw(valid_entries(ruleset, n))
    expected = ruleset.card_points - (ruleset.majority_points if entry.majority() is None else 0)
    assert card_points(score_hand(entry, ruleset, n)) == expected


@FAST
@given(st.data())
def test_random_valid_entries_always_score(data):
    ruleset, n = data.draw(rules_and_sides())
    entry = data.draw(valid_entries(ruleset, n))
    assert validate_hand(entry, ruleset, n) == ()
    score = score_hand(entry, ruleset, n)
    for side in range(n):
        assert score.points[side] == sum(line.points for line in score.lines[side])
        assert score.line(side, "xeris").points == entry.xeris[side] * ruleset.xeri_points
        assert score.line(side, "jack_xeris").points == entry.jack_xeris[side] * ruleset.jack_xeri_points
    top = max(score.points)
    if score.points.count(top) == 1:
        assert score.winner == score.points.index(top)
    else:
        assert score.winner is None


@FAST
@given(st.data())
def test_count_mode_and_exact_mode_score_the_same_deal_alike(data):
    ruleset, n = data.draw(rules_and_sides())
    piles = data.draw(deals(n))
    xeris, jacks = data.draw(xeris_for(piles, ruleset))
    counted = score_hand(entry_from(piles, ruleset, xeris, jacks, exact=False), ruleset, n)
    listed = score_hand(entry_from(piles, ruleset, xeris, jacks, exact=True), ruleset, n)
    assert counted.points == listed.points


@FAST
@given(st.data())
def test_saying_only_who_had_most_cards_scores_the_same_as_counting_the_piles(data):
    ruleset, n = data.draw(rules_and_sides())
    piles = data.draw(deals(n))
    xeris, jacks = data.draw(xeris_for(piles, ruleset))
    counted = score_hand(entry_from(piles, ruleset, xeris, jacks, counted=True), ruleset, n)
    said = score_hand(entry_from(piles, ruleset, xeris, jacks, counted=False), ruleset, n)
    assert counted.points == said.points


@pytest.mark.parametrize("way", sorted(BREAKS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_broken_entries_are_always_refused_with_a_message_naming_the_side_and_the_numbers(way, data):
    ruleset, n = data.draw(rules_and_sides())
    entry = data.draw(broken_entries(ruleset, n, way))
    problems = validate_hand(entry, ruleset, n)
    assert problems, f"{way} was not refused"
    with pytest.raises(InvalidHand):
        score_hand(entry, ruleset, n)
    names = NAMES[:n]
    for problem in problems:
        text = problem_text(problem, names)
        assert text and "{" not in text and not text.startswith("problem."), (way, problem)
        if problem.side is not None:
            assert names[problem.side] in text, (way, problem, text)
        for key, value in problem.values.items():
            if key == "other":
                assert names[value] in text, (way, problem, text)
            elif not isinstance(value, bool):
                assert str(value) in text, (way, problem, key, text)


@FAST
@given(matches(playing=True), st.data())
def test_undo_of_record_is_the_identity(match, data):
    entry = data.draw(valid_entries(match.rules, len(match.sides)))
    assert undo_hand(record_hand(match, entry)) == match


@FAST
@given(matches())
def test_the_totals_are_the_sum_of_the_hands_and_the_hands_won_their_winners(match):
    now = standing(match)
    assert len(now.scores) == len(match.hands)
    for side in range(len(match.sides)):
        assert now.totals[side] == sum(score.points[side] for score in now.scores)
        assert now.hands_won[side] == sum(1 for score in now.scores if score.winner == side)
    assert now.running[-1:] in ((), (now.totals,))


@FAST
@given(matches())
def test_a_race_is_won_by_the_only_side_at_or_over_the_target_in_force(match):
    assume(match.goal.is_race)
    now = standing(match)
    assert now.target - match.goal.target == now.extensions * match.goal.step
    over = [s for s, total in enumerate(now.totals) if total >= now.target]
    if now.status is Status.WON:
        assert over == [now.winner]
    else:
        assert over == [] and now.status is Status.PLAYING


@FAST
@given(matches())
def test_the_deal_moves_one_seat_each_hand_and_the_next_seat_leads(match):
    seats, step = len(match.seats), -1 if match.rules.direction.value == "anticlockwise" else 1
    for h in range(6):
        assert match.dealer_of(h + 1) == (match.dealer_of(h) + step) % seats
        assert match.leader_of(h) == (match.dealer_of(h) + step) % seats


@FAST
@given(matches(), metas)
def test_a_match_file_round_trips_file_to_match_to_file(match, meta):
    text = dumps(match, meta)
    doc = json.loads(text)
    again = loads(text)
    assert again == match
    assert match_to_dict(again, meta) == doc
    assert doc.get("meta") == (meta or None)
