"""Every scoring rule of the four seed texts (and Pişti), one example each, named as the rule reads."""

import pytest

from companion.engine import TEN_OF_DIAMONDS, HandEntry, InvalidHand, Rank, hand_winner, score_hand
from companion.i18n.explain import line_text, rules_text

from .builders import exact_hand, hand, held, most_cards_hand, rules


def score(entry: HandEntry, ruleset="classic", n: int = 2):
    return score_hand(entry, rules(ruleset) if isinstance(ruleset, str) else ruleset, n)


def card_points(entry: HandEntry, ruleset="classic", n: int = 2) -> int:
    """Points of the hand without its xeris and jack xeris."""
    s = score(entry, ruleset, n)
    return sum(s.points) - sum(s.line(side, "xeris").points + s.line(side, "jack_xeris").points for side in range(n))


# --- classic (xeri-151-rules) -------------------------------------------------------------------

def test_most_cards_captured_scores_3_in_classic():
    s = score(hand(cards=(30, 22)))
    assert s.line(0, "majority").points == 3
    assert s.line(1, "majority").points == 0
    assert s.line(0, "majority").note == "most"
    assert s.line(1, "majority").note == "not_most"


def test_a_26_26_tie_gives_nobody_the_3_for_most_cards_in_classic():
    s = score(hand(cards=(26, 26)))
    assert [s.line(side, "majority").points for side in (0, 1)] == [0, 0]
    assert s.line(0, "majority").note == "tie"


def test_each_ace_king_queen_jack_and_ten_scores_1_in_classic():
    s = score(hand(counting=(13, 7)))
    assert s.line(0, "counting").points == 13
    assert s.line(1, "counting").points == 7
    assert rules("classic").counting_ranks == (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)


def test_the_ten_of_diamonds_is_worth_2_in_all_in_classic():
    # It counts once among the counting cards and adds 1 extra.
    with_ten = score(hand(counting=(10, 10), ten=0))
    without_ten = score(hand(counting=(10, 10), ten=1))
    assert with_ten.line(0, "ten_of_diamonds").points == 1
    assert with_ten.line(0, "counting").points + with_ten.line(0, "ten_of_diamonds").points == 11
    assert without_ten.line(0, "ten_of_diamonds").points == 0
    assert rules("classic").card_value(TEN_OF_DIAMONDS) == 2


def test_the_two_of_clubs_scores_1_in_classic():
    s = score(hand(two=1))
    assert s.line(1, "two").points == 1
    assert s.line(0, "two").points == 0
    assert rules("classic").two.code == "2C"


def test_a_xeri_scores_10_in_classic():
    s = score(hand(xeris=(1, 3)))
    assert s.line(0, "xeris").points == 10
    assert s.line(1, "xeris").points == 30


def test_jack_on_a_lone_jack_scores_20_in_classic():
    s = score(hand(jack_xeris=(1, 0)))
    assert s.line(0, "jack_xeris").points == 20


def test_jack_on_a_lone_jack_scores_25_in_the_25_point_variant():
    s = score(hand(jack_xeris=(0, 1)), rules("classic", jack_xeri_points=25))
    assert s.line(1, "jack_xeris").points == 25


def test_a_jack_taking_a_lone_non_jack_is_no_xeri_in_classic():
    # Only a jack on a lone jack is a jack xeri: two jacks per jack xeri, so at most two in a hand.
    classic = rules("classic")
    assert classic.jack_xeri_on_any is False
    assert classic.jacks_per_jack_xeri == 2
    assert classic.max_jack_xeris == 2
    with pytest.raises(InvalidHand):
        score(hand(jack_xeris=(2, 1)))


def test_a_classic_hand_hands_out_25_card_points_plus_xeris():
    entry = hand(cards=(30, 22), counting=(12, 8), xeris=(1, 2), jack_xeris=(1, 0))
    s = score(entry)
    assert s.points == (3 + 12 + 1 + 10 + 20, 8 + 1 + 20)
    assert card_points(entry) == 25


def test_a_classic_hand_with_a_26_26_tie_hands_out_22_card_points():
    assert card_points(hand(cards=(26, 26))) == 22


def test_classic_is_a_race_to_151_played_on_to_251_when_both_reach_it():
    goal = rules("classic").goal
    assert (goal.target, goal.extension, goal.hands) == (151, 251, None)


def test_the_dealers_last_card_variant_is_a_setting_of_classic():
    assert rules("classic").dealer_last_card_no_xeri is False
    assert rules("classic", dealer_last_card_no_xeri=True).dealer_last_card_no_xeri is True


def test_classic_partnerships_play_anticlockwise():
    assert rules("classic").direction.value == "anticlockwise"


def test_the_side_with_strictly_most_points_wins_the_hand():
    assert score(hand(xeris=(0, 1))).winner == 1
    assert hand_winner([30, 12]) == 0
    assert hand_winner([12, 30, 29]) == 1


def test_equal_top_scores_give_the_hand_no_winner():
    tie = hand(cards=(26, 26), counting=(10, 10), ten=0, two=1)
    assert score(tie).points == (11, 11)
    assert score(tie).winner is None
    assert hand_winner([20, 20, 5]) is None


# --- plain (xeri-two-player-rules) --------------------------------------------------------------

def test_jack_on_a_lone_jack_is_a_plain_10_point_xeri_in_plain():
    s = score(hand(jack_xeris=(1, 0)), "plain")
    assert s.line(0, "jack_xeris").points == 10


def test_the_ten_of_diamonds_is_a_ten_and_1_more_in_plain():
    s = score(hand(counting=(1, 19), ten=0), "plain")
    assert s.line(0, "counting").points + s.line(0, "ten_of_diamonds").points == 2


def test_most_cards_counts_xeri_cards_and_scores_3_in_plain():
    s = score(hand(cards=(27, 25), xeris=(2, 0)), "plain")
    assert s.line(0, "majority").points == 3


def test_a_plain_hand_hands_out_25_card_points():
    assert rules("plain").card_points == 25
    assert card_points(hand(), "plain") == 25


def test_plain_is_played_over_an_agreed_number_of_hands():
    goal = rules("plain").goal
    assert goal.hands is not None and goal.target is None


# --- greek-online (xeri-online-room-rules) ------------------------------------------------------

def test_kings_queens_jacks_and_tens_score_1_and_aces_nothing_in_greek_online():
    greek = rules("greek-online")
    assert greek.counting_ranks == (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
    assert greek.counting_cards_in_deck == 16
    s = score(hand(counting=(9, 7)), greek)
    assert (s.line(0, "counting").points, s.line(1, "counting").points) == (9, 7)


def test_the_ten_of_diamonds_scores_1_in_all_not_also_as_a_ten_in_greek_online():
    s = score(hand(counting=(9, 7), ten=1), "greek-online")
    assert s.line(1, "ten_of_diamonds").points == 0
    assert s.line(1, "ten_of_diamonds").note == "already_counted"
    assert "already counted as a ten" in line_text(s.line(1, "ten_of_diamonds"), rules("greek-online"))


def test_the_two_of_spades_scores_1_in_greek_online():
    greek = rules("greek-online")
    assert greek.two.code == "2S"
    s = score(exact_hand(held(greek, Ben=["2S"])), greek)
    assert s.line(1, "two").points == 1


def test_the_two_of_clubs_is_no_scoring_card_in_greek_online():
    greek = rules("greek-online")
    with pytest.raises(InvalidHand) as refused:
        score(exact_hand(held(greek, Ben=["2S", "2C"])), greek)
    assert [p.code for p in refused.value.problems] == ["not_scoring_card"]


def test_greek_online_can_be_played_with_the_two_of_clubs_instead():
    greek_clubs = rules("greek-online", two="2C")
    s = score(exact_hand(held(greek_clubs, Ben=["2C"])), greek_clubs)
    assert s.line(1, "two").points == 1


def test_a_jack_taking_any_lone_card_is_a_20_point_xeri_in_greek_online():
    greek = rules("greek-online")
    assert greek.jack_xeri_on_any is True
    # Four jack xeris are possible: each needs one jack, not two.
    s = score(hand(counting=(10, 6), jack_xeris=(3, 1)), greek)
    assert (s.line(0, "jack_xeris").points, s.line(1, "jack_xeris").points) == (60, 20)


def test_a_greek_online_hand_hands_out_20_card_points():
    assert rules("greek-online").card_points == 20
    assert card_points(hand(counting=(9, 7)), "greek-online") == 20
    assert card_points(hand(cards=(26, 26), counting=(9, 7)), "greek-online") == 17


def test_greek_online_seats_two_to_four_players_and_a_tie_for_most_gives_nobody_the_3():
    assert rules("greek-online").players == (2, 3, 4)
    entry = HandEntry(cards=(20, 20, 12), counting=(6, 6, 4), xeris=(0, 0, 0), jack_xeris=(0, 0, 0),
                      ten_of_diamonds=2, two=0)
    s = score(entry, "greek-online", 3)
    assert [s.line(side, "majority").points for side in range(3)] == [0, 0, 0]
    assert s.points == (7, 6, 4)


# --- partnership (xeri-four-player-rules-ko) ----------------------------------------------------

def test_most_cards_scores_3_per_team_in_partnership():
    s = score(hand(cards=(28, 24)), "partnership")
    assert s.line(0, "majority").points == 3


def test_jack_on_a_lone_jack_scores_20_in_partnership():
    assert score(hand(jack_xeris=(0, 1)), "partnership").line(1, "jack_xeris").points == 20


def test_a_partnership_hand_hands_out_25_card_points():
    assert card_points(hand(), "partnership") == 25


def test_partnership_is_four_players_in_two_teams_over_an_agreed_number_of_hands():
    team = rules("partnership")
    assert (team.players, team.partnerships, team.sides_allowed) == ((4,), True, (2,))
    assert team.goal.hands is not None


def test_the_deal_passes_clockwise_in_partnership():
    assert rules("partnership").direction.value == "clockwise"


# --- Pişti, the Turkish cousin -------------------------------------------------------------------

def test_pisti_scores_jacks_and_aces_1_ten_of_diamonds_3_and_two_of_clubs_2():
    pisti = rules("pisti")
    assert pisti.counting_ranks == (Rank.ACE, Rank.JACK)
    s = score(hand(cards=(30, 22), counting=(5, 3), ten=0, two=1), pisti)
    assert s.line(0, "ten_of_diamonds").points == 3
    assert s.line(1, "two").points == 2
    assert s.points == (3 + 5 + 3, 3 + 2)
    assert pisti.card_points == 16


# --- modes of entry -----------------------------------------------------------------------------

def test_saying_only_who_had_most_cards_gives_that_side_the_3():
    s = score(most_cards_hand(1))
    assert s.line(1, "majority").points == 3
    assert s.line(1, "majority").count is None


def test_saying_the_cards_tied_for_most_gives_nobody_the_3():
    s = score(most_cards_hand(None))
    assert [s.line(side, "majority").points for side in (0, 1)] == [0, 0]


def test_exact_mode_scores_the_cards_each_side_holds():
    classic = rules("classic")
    holdings = held(classic, Ben=["AC", "AD", "KH", "2C", "JC", "JD"])
    s = score(exact_hand(holdings, cards=(36, 16), jack_xeris=(0, 1)), classic)
    assert s.line(1, "counting").count == 5
    assert s.points == (3 + 15 + 1, 5 + 1 + 20)


def test_exact_mode_and_count_mode_score_the_same_hand_alike():
    classic = rules("classic")
    holdings = held(classic, Ben=["AC", "AD", "KH", "2C"])
    assert score(exact_hand(holdings, cards=(36, 16))).points == score(hand(cards=(36, 16), counting=(17, 3))).points


def test_exact_mode_scores_ranks_of_different_values():
    # A rule set where a jack counts 2 cannot be scored from counts alone; exact mode lists the cards.
    custom = rules("classic", rank_points={"A": 1, "K": 1, "Q": 1, "J": 2, "10": 1})
    s = score(exact_hand(held(custom, Ben=["JC", "JD", "AS"])), custom)
    assert s.line(1, "counting").points == 5
    assert s.line(1, "counting").each is None
    assert card_points(exact_hand(held(custom, Ben=["JC", "JD", "AS"])), custom) == custom.card_points == 29


def test_the_rules_in_words_say_25_card_points_and_22_on_a_tie_for_classic():
    assert "A hand hands out 25 card points (22 when the cards tie), plus xeris." in rules_text(rules("classic"))
