"""Match goals, the deal round the table, and recording, undoing and editing hands."""

import pytest

from companion.engine import (Goal, HandEntry, InvalidHand, Match, MatchError, MatchOver, RulesError, Side, Status,
                              edit_hand, finish_now, record_hand, standing, undo_hand, with_rules)

from .builders import even_hand, hand, match, over, partnership_match, race, rules, sides, teams, tied_hand, won_by


def play(m: Match, *entries) -> Match:
    for entry in entries:
        m = record_hand(m, entry)
    return m


# --- race to a target ---------------------------------------------------------------------------

def test_a_single_side_reaching_151_at_the_end_of_a_hand_wins_the_match():
    m = play(match(goal=race()), even_hand(xeris=(13, 0)), even_hand(xeris=(1, 0)))
    st = standing(m)
    assert st.totals == (141 + 21, 22)
    assert (st.status, st.winner, st.decided_at, st.target) == (Status.WON, 0, 1, 151)
    assert st.is_over


def test_a_side_below_the_target_keeps_the_match_going_and_is_told_what_it_needs():
    st = standing(play(match(goal=race()), even_hand(xeris=(5, 2))))
    assert (st.status, st.winner, st.decided_at) == (Status.PLAYING, None, None)
    assert st.needs == (151 - 61, 151 - 31)
    assert st.hands_left is None


def test_two_sides_reaching_151_in_the_same_hand_play_on_to_251():
    st = standing(play(match(goal=race()), even_hand(xeris=(13, 13)), even_hand()))
    assert st.totals == (152, 152)
    assert (st.status, st.target, st.extensions) == (Status.PLAYING, 251, 1)
    assert st.needs == (99, 99)


def test_after_the_extension_the_first_side_to_251_wins():
    m = play(match(goal=race()), even_hand(xeris=(13, 13)), even_hand(), even_hand(xeris=(9, 0)))
    st = standing(m)
    assert st.totals == (253, 163)
    assert (st.status, st.winner, st.target) == (Status.WON, 0, 251)


def test_both_reaching_251_in_the_same_hand_raise_the_target_again_by_the_same_step():
    m = play(match(goal=race()), even_hand(xeris=(13, 13)), even_hand(), even_hand(xeris=(9, 9)))
    st = standing(m)
    assert (st.status, st.target, st.extensions) == (Status.PLAYING, 351, 2)


def test_one_hand_taking_both_sides_past_the_extension_raises_the_target_twice():
    st = standing(play(match(goal=race()), even_hand(xeris=(13, 13)), even_hand(xeris=(13, 13))))
    assert st.totals == (282, 282)
    assert (st.status, st.target, st.extensions) == (Status.PLAYING, 351, 2)


def test_after_both_reach_151_the_one_who_also_reaches_251_in_that_hand_wins():
    st = standing(play(match(goal=race()), even_hand(xeris=(13, 13)), even_hand(xeris=(13, 1))))
    assert st.totals == (282, 162)
    assert (st.status, st.winner, st.target, st.extensions) == (Status.WON, 0, 251, 1)


def test_a_target_without_an_extension_is_extended_by_100():
    goal = Goal(target=101)
    assert (goal.extension, goal.step) == (201, 100)
    st = standing(play(match(goal=goal), even_hand(xeris=(9, 9))))
    assert (st.totals, st.target) == ((101, 101), 201)


def test_a_race_among_three_sides_where_two_reach_the_target_together_plays_on():
    # A tie for most cards; Anna 6 counting cards and the 2♠, Ben 6, Chris 4 and the 10♦: 7, 6 and 4 points.
    big = HandEntry(cards=(20, 20, 12), counting=(6, 6, 4), ten_of_diamonds=2, two=0,
                    xeris=(10, 10, 0), jack_xeris=(0, 0, 0))
    st = standing(play(match("greek-online", n=3, goal=race()), big, big))
    assert (st.totals, st.target, st.status) == ((214, 212, 8), 251, Status.PLAYING)


# --- an agreed number of hands ------------------------------------------------------------------

def test_most_hands_won_wins_a_match_over_an_agreed_number_of_hands():
    st = standing(play(match(goal=over(3)), won_by(0), won_by(1), won_by(0)))
    assert st.hands_won == (2, 1)
    assert (st.status, st.winner, st.decided_at, st.hands_left) == (Status.WON, 0, 2, 0)
    assert st.target is None and st.needs is None


def test_points_do_not_decide_a_match_over_hands():
    st = standing(play(match(goal=over(3)), even_hand(xeris=(13, 0)), won_by(1), won_by(1)))
    assert st.totals[0] > st.totals[1]
    assert (st.winner, st.hands_won) == (1, (1, 2))


def test_equal_hands_won_draw_the_match():
    st = standing(play(match(goal=over(2)), won_by(0), won_by(1)))
    assert (st.status, st.winner, st.decided_at) == (Status.DRAWN, None, 1)


# --- a draw settled by a deciding hand; a match decided before its last hand ---------------------

def test_a_drawn_match_over_hands_may_take_a_deciding_hand_that_decides_it():
    drawn = play(match(goal=over(2)), won_by(0), won_by(1))
    st = standing(drawn)
    assert (st.status, st.deciding_hand, st.takes_hand) == (Status.DRAWN, True, True)
    st = standing(record_hand(drawn, won_by(1)))
    assert (st.status, st.winner, st.decided_at, st.hands_won) == (Status.WON, 1, 2, (1, 2))
    assert not st.takes_hand


def test_a_deciding_hand_that_leaves_the_sides_level_keeps_the_draw_and_another_may_follow():
    drawn = play(match(goal=over(2)), won_by(0), won_by(1), tied_hand())
    st = standing(drawn)
    assert (st.status, st.decided_at, st.deciding_hand) == (Status.DRAWN, 2, True)
    assert standing(record_hand(drawn, won_by(0))).winner == 0


def test_a_deciding_hand_survives_a_fresh_standing_of_the_same_hands():
    m = play(match(goal=over(2)), won_by(0), won_by(1), won_by(0))
    fresh = Match(rules=m.rules, sides=m.sides, goal=m.goal, hands=m.hands)
    assert (standing(fresh).status, standing(fresh).winner) == (Status.WON, 0)


def test_without_a_deciding_hand_in_the_rules_a_draw_is_final():
    drawn = play(match(rules("plain", deciding_hand=False), goal=over(2)), won_by(0), won_by(1))
    assert (standing(drawn).deciding_hand, standing(drawn).takes_hand) == (False, False)
    with pytest.raises(MatchOver):
        record_hand(drawn, won_by(0))


def test_every_preset_lets_the_table_agree_on_a_deciding_hand():
    for name in ("classic", "plain", "greek-online", "partnership", "pisti"):
        assert rules(name).deciding_hand is True
    assert rules("plain", deciding_hand=False).to_dict()["deciding_hand"] is False


def test_a_won_match_takes_no_deciding_hand():
    with pytest.raises(MatchOver):
        record_hand(play(match(goal=over(1)), won_by(0)), won_by(1))


def test_a_side_no_other_can_catch_is_sure_to_win_and_the_match_plays_on_to_its_last_hand():
    m = play(match(goal=over(3)), won_by(0), won_by(0))
    st = standing(m)
    assert (st.status, st.sure_winner, st.may_finish_now, st.hands_left) == (Status.PLAYING, 0, True, 1)
    st = standing(record_hand(m, won_by(1)))
    assert (st.status, st.winner, st.decided_at, st.hands_won) == (Status.WON, 0, 2, (2, 1))


def test_a_side_that_can_still_be_caught_is_not_sure_to_win():
    st = standing(play(match(goal=over(5)), won_by(0), won_by(0), tied_hand()))
    assert (st.sure_winner, st.may_finish_now) == (None, False)
    st = standing(play(match(goal=over(5)), won_by(0), won_by(0), won_by(0)))
    assert st.sure_winner == 0


def test_finishing_now_wins_the_match_for_the_side_sure_to_win_at_its_last_hand_played():
    m = finish_now(play(match(goal=over(3)), won_by(0), won_by(0)))
    st = standing(m)
    assert (st.status, st.winner, st.decided_at, st.hands_left, st.is_over) == (Status.WON, 0, 1, 1, True)
    with pytest.raises(MatchOver):
        record_hand(m, won_by(1))
    with pytest.raises(MatchOver):
        finish_now(m)


def test_finish_now_is_refused_while_no_side_is_sure_to_win():
    with pytest.raises(MatchError) as refused:
        finish_now(play(match(goal=over(3)), won_by(0)))
    assert not isinstance(refused.value, MatchOver)
    with pytest.raises(MatchError):
        finish_now(play(match(goal=race()), even_hand(xeris=(5, 0))))


def test_undoing_the_last_hand_of_a_match_finished_early_plays_it_on():
    m = finish_now(play(match(goal=over(5)), won_by(0), won_by(0), won_by(0), won_by(1)))
    assert standing(m).winner == 0
    undone = undo_hand(m)
    assert (undone.finished_early, standing(undone).status, standing(undone).sure_winner) == (False, Status.PLAYING, 0)


def test_an_edit_that_leaves_a_match_finished_early_undecided_plays_it_on():
    m = finish_now(play(match(goal=over(3)), won_by(0), won_by(0)))
    edited = edit_hand(m, 0, won_by(1))
    assert (edited.finished_early, standing(edited).status) == (False, Status.PLAYING)


def test_a_hand_with_equal_top_scores_is_won_by_nobody():
    st = standing(play(match(goal=over(3)), tied_hand(), won_by(1), tied_hand()))
    assert st.scores[0].winner is None
    assert st.hands_won == (0, 1)
    assert (st.status, st.winner) == (Status.WON, 1)


def test_the_hands_left_count_down_to_the_end():
    m = match(goal=over(3))
    assert standing(m).hands_left == 3
    assert standing(play(m, won_by(0))).hands_left == 2


def test_a_match_with_no_hands_is_playing():
    st = standing(match())
    assert (st.status, st.totals, st.hands_won, st.scores) == (Status.PLAYING, (0, 0), (0, 0), ())


def test_running_totals_follow_each_hand():
    st = standing(play(match(goal=over(5)), even_hand(xeris=(1, 0)), even_hand(xeris=(0, 2))))
    assert st.running == ((21, 11), (32, 42))


# --- who deals and who leads --------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["classic", "plain"])
def test_the_deal_alternates_between_two_players(ruleset):
    m = match(ruleset, first_dealer=1)
    assert [m.dealer_of(h) for h in range(4)] == [1, 0, 1, 0]
    assert [m.leader_of(h) for h in range(4)] == [0, 1, 0, 1]


def test_the_seats_of_two_partnerships_alternate_sides_partners_opposite():
    m = partnership_match()
    assert [(s.side, s.player) for s in m.seats] == [(0, "Anna"), (1, "Ben"), (0, "Chris"), (1, "Dora")]


def test_the_deal_passes_clockwise_round_four_players_in_partnership():
    m = partnership_match(first_dealer=2)
    assert [m.dealer_of(h) for h in range(5)] == [2, 3, 0, 1, 2]
    assert [m.leader_of(h) for h in range(5)] == [3, 0, 1, 2, 3]


def test_the_deal_passes_anticlockwise_round_four_players_when_the_rules_say_so():
    m = partnership_match(first_dealer=2, direction="anticlockwise")
    assert [m.dealer_of(h) for h in range(5)] == [2, 1, 0, 3, 2]
    assert [m.leader_of(h) for h in range(5)] == [1, 0, 3, 2, 1]


def test_the_player_after_the_dealer_leads():
    m = match("greek-online", n=3, first_dealer=0)
    assert [(m.dealer_of(h), m.leader_of(h)) for h in range(3)] == [(0, 1), (1, 2), (2, 0)]


def test_the_standing_says_who_deals_and_leads_next():
    m = play(partnership_match(first_dealer=1), won_by(0))
    st = standing(m)
    assert (m.seats[st.next_dealer].player, m.seats[st.next_leader].player) == ("Chris", "Dora")


# --- recording, undoing, editing ----------------------------------------------------------------

def test_record_returns_a_new_match_and_leaves_the_old_one_alone():
    m = match()
    m2 = record_hand(m, hand())
    assert m.hands == () and m2.hands == (hand(),)


def test_recording_an_impossible_hand_raises_invalid_hand():
    with pytest.raises(InvalidHand):
        record_hand(match(), hand(cards=(30, 20)))


def test_recording_after_the_end_raises_match_over():
    m = play(match(goal=over(1)), won_by(0))
    with pytest.raises(MatchOver) as over_:
        record_hand(m, won_by(1))
    assert over_.value.decided_at == 0
    assert isinstance(over_.value, MatchError)


def test_a_match_holding_hands_after_its_end_raises_match_over_when_stood():
    m = match(goal=over(1), hands=[won_by(0), won_by(1)])
    with pytest.raises(MatchOver):
        standing(m)
    st = standing(m, strict=False)
    assert (st.hands_after_end, len(st.scores), st.winner) == (1, 1, 0)


def test_undo_returns_the_match_without_its_last_hand():
    m = play(match(), won_by(0), won_by(1))
    undone = undo_hand(m)
    assert undone.hands == (won_by(0),)
    assert len(m.hands) == 2


def test_undo_of_record_gives_back_the_same_match():
    m = play(match(), won_by(0))
    assert undo_hand(record_hand(m, hand())) == m


def test_undo_with_no_hands_raises_match_error():
    with pytest.raises(MatchError):
        undo_hand(match())


def test_undo_reopens_a_finished_match():
    m = play(match(goal=over(1)), won_by(0))
    assert standing(undo_hand(m)).status is Status.PLAYING


def test_edit_returns_a_new_match_with_the_hand_replaced():
    m = play(match(goal=over(3)), won_by(0), won_by(0))
    edited = edit_hand(m, 0, won_by(1))
    assert edited.hands == (won_by(1), won_by(0))
    assert m.hands == (won_by(0), won_by(0))
    assert standing(edited).hands_won == (1, 1)


def test_an_edit_that_would_end_the_match_before_its_last_hand_raises_match_over():
    m = play(match(goal=race()), even_hand(xeris=(5, 0)), even_hand(), even_hand(xeris=(8, 0)))
    assert standing(m).decided_at == 2
    with pytest.raises(MatchOver) as over_:
        edit_hand(m, 0, even_hand(xeris=(13, 0)))
    assert over_.value.decided_at == 1


def test_an_edit_that_ends_the_match_at_its_last_hand_is_fine():
    m = play(match(goal=race()), even_hand(xeris=(5, 0)), even_hand())
    edited = edit_hand(m, 1, even_hand(xeris=(8, 0)))
    assert standing(edited).winner == 0


def test_an_edit_may_reopen_a_finished_match():
    m = play(match(goal=race()), even_hand(xeris=(13, 0)), even_hand(xeris=(1, 0)))
    assert standing(m).winner == 0
    assert standing(edit_hand(m, 0, even_hand(xeris=(5, 0)))).status is Status.PLAYING


def test_editing_a_hand_that_does_not_exist_raises_match_error():
    with pytest.raises(MatchError):
        edit_hand(play(match(), hand()), 1, hand())


def test_editing_in_an_impossible_hand_raises_invalid_hand():
    m = play(match(), hand())
    with pytest.raises(InvalidHand):
        edit_hand(m, 0, hand(cards=(60, 0)))


def test_the_same_hands_rescored_under_other_rules_score_otherwise():
    m = play(match(goal=over(7)), hand(counting=(12, 8), jack_xeris=(1, 0)))
    assert standing(m).totals == (36, 9)
    assert standing(with_rules(m, rules("plain"))).totals == (26, 9)
    assert with_rules(m, rules("plain")).hands == m.hands


def test_rescoring_may_end_the_match_earlier_and_leaves_later_hands_out():
    m = play(match(goal=race(target=60, extension=100)), even_hand(jack_xeris=(2, 0)), even_hand(jack_xeris=(1, 0)))
    assert (standing(m).decided_at, standing(m).totals) == (1, (82, 22))
    rich = with_rules(m, rules("classic", jack_xeri_points=25))
    st = standing(rich, strict=False)
    assert (st.decided_at, st.hands_after_end, st.winner) == (0, 1, 0)
    with pytest.raises(MatchOver):
        standing(rich)


# --- setting a match up -------------------------------------------------------------------------

def test_a_new_match_takes_its_goal_from_the_rule_set():
    assert Match.new(rules("plain"), sides()).goal == rules("plain").goal
    assert Match.new(rules("classic"), sides(), goal=over(5)).goal == over(5)


def test_classic_is_played_by_two_sides_only():
    with pytest.raises(MatchError, match="2 sides, not 3"):
        match("classic", n=3)


def test_a_partnership_needs_two_players():
    with pytest.raises(MatchError, match="needs two players"):
        Match.new(rules("partnership"), (Side("Us", ("Anna",)), Side("Them", ("Ben", "Dora"))))


def test_a_single_player_is_no_partnership():
    with pytest.raises(MatchError, match="single player"):
        Match.new(rules("classic"), teams())


def test_every_side_needs_a_name():
    with pytest.raises(MatchError):
        Match.new(rules("classic"), (Side("Anna"), Side("  ")))


def test_the_first_dealer_must_be_a_seat():
    with pytest.raises(MatchError, match="no seat 4"):
        partnership_match(first_dealer=4)


@pytest.mark.parametrize("kwargs", [{}, {"target": 151, "hands": 7}, {"hands": 0}, {"target": 0},
                                    {"target": 151, "extension": 151}])
def test_a_goal_that_cannot_be_played_is_refused(kwargs):
    with pytest.raises(RulesError):
        Goal(**kwargs)
