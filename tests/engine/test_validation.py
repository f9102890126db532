"""What a hand entry can never be: each check refuses the entry and says, in words, which side and what number."""

import pytest

from companion.engine import HandEntry, InvalidHand, check_hand, parse_card, score_hand, validate_hand
from companion.i18n.explain import problem_text

from .builders import NAMES, exact_hand, hand, held, most_cards_hand, rules


def said(entry: HandEntry, ruleset="classic", n: int = 2) -> list[tuple[str, str]]:
    """Each problem of the entry as (code, the sentence the player reads)."""
    ruleset = rules(ruleset) if isinstance(ruleset, str) else ruleset
    return [(p.code, problem_text(p, NAMES[:n])) for p in validate_hand(entry, ruleset, n)]


def all_scoring_cards_to_anna(ruleset="classic"):
    return held(rules(ruleset) if isinstance(ruleset, str) else ruleset)


# --- the sound entries pass ---------------------------------------------------------------------

@pytest.mark.parametrize("entry", [
    hand(),
    hand(cards=(26, 26)),
    most_cards_hand(0),
    most_cards_hand(None),
    exact_hand(held(rules("classic"), Ben=["AC", "2C"])),
    exact_hand(held(rules("classic"), Ben=["JC", "JS"]), jack_xeris=(0, 1)),
], ids=["counted", "tie", "most-cards", "most-cards-tie", "exact", "exact-jack-xeri"])
def test_a_sound_classic_entry_has_no_problem(entry):
    assert said(entry) == []


# --- counts ---------------------------------------------------------------------------------------

def test_a_negative_count_is_refused_naming_the_side_and_the_number():
    assert said(hand(cards=(53, -1))) == [("negative", "Ben's captured cards cannot be negative (-1).")]


def test_a_negative_xeri_count_is_refused():
    assert said(hand(xeris=(-2, 0))) == [("negative", "Anna's xeris cannot be negative (-2).")]


def test_a_count_that_is_not_a_whole_number_is_refused():
    assert said(hand(xeris=(0, 1.5))) == [("not_whole", "Ben's xeris must be a whole number, not 1.5.")]


def test_true_or_false_is_not_a_count():
    assert said(hand(jack_xeris=(True, 0))) == [("not_whole", "Anna's jack xeris must be a whole number, not True.")]


def test_a_count_given_for_the_wrong_number_of_sides_is_refused():
    assert said(hand(counting=(12, 4, 4))) == [
        ("wrong_side_count", "The counting cards give 3 numbers, but the match has 2 sides.")]


def test_counting_cards_must_be_given_in_count_mode():
    entry = HandEntry(cards=(30, 22), xeris=(0, 0), jack_xeris=(0, 0), ten_of_diamonds=0, two=1)
    assert said(entry) == [("missing", "Say how many counting cards each side took.")]


# --- totals ---------------------------------------------------------------------------------------

def test_captured_cards_not_adding_up_to_52_are_refused():
    assert said(hand(cards=(30, 20))) == [("cards_total", "Anna and Ben captured 50 cards; a deck has 52.")]


def test_counting_cards_not_adding_up_to_20_are_refused_for_a_k_q_j_10():
    assert said(hand(counting=(12, 9))) == [
        ("counting_total", "Anna and Ben have 21 counting cards; the deck has 20 (A K Q J 10).")]


def test_counting_cards_not_adding_up_to_16_are_refused_for_k_q_j_10():
    assert said(hand(counting=(12, 8)), "greek-online") == [
        ("counting_total", "Anna and Ben have 20 counting cards; the deck has 16 (K Q J 10).")]


def test_the_totals_name_every_side_of_a_larger_table():
    entry = HandEntry(cards=(20, 20, 20), counting=(6, 6, 4), xeris=(0, 0, 0), jack_xeris=(0, 0, 0),
                      ten_of_diamonds=0, two=1)
    assert said(entry, "greek-online", 3) == [("cards_total", "Anna, Ben and Chris captured 60 cards; a deck has 52.")]


# --- the special cards ----------------------------------------------------------------------------

def test_the_ten_of_diamonds_held_by_no_side_is_refused_in_count_mode():
    assert said(hand(ten=None)) == [("ten_of_diamonds_missing", "Nobody took the 10♦: say which side has it.")]


def test_the_special_two_held_by_no_side_is_refused_in_count_mode():
    assert said(hand(two=None)) == [("two_missing", "Nobody took the 2♣: say which side has it.")]
    assert said(hand(counting=(9, 7), two=None), "greek-online") == [
        ("two_missing", "Nobody took the 2♠: say which side has it.")]


def test_the_ten_of_diamonds_held_by_no_side_is_refused_in_exact_mode():
    anna = tuple(c for c in all_scoring_cards_to_anna()[0] if c.code != "10D")
    assert said(exact_hand((anna, ()))) == [("ten_of_diamonds_missing", "Nobody took the 10♦: say which side has it.")]


def test_the_ten_of_diamonds_held_by_two_sides_is_refused_in_exact_mode():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna, (parse_card("10D"),)))) == [
        ("card_twice", "The 10♦ is listed for Ben and for Anna; there is only one.")]


def test_the_special_two_held_by_two_sides_is_refused_in_exact_mode():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna, (parse_card("2C"),)))) == [
        ("card_twice", "The 2♣ is listed for Ben and for Anna; there is only one.")]


def test_the_special_two_held_by_no_side_is_refused_in_exact_mode():
    anna = tuple(c for c in all_scoring_cards_to_anna()[0] if c.code != "2C")
    assert said(exact_hand((anna, ()))) == [("two_missing", "Nobody took the 2♣: say which side has it.")]


def test_a_counting_card_held_by_no_side_is_refused_in_exact_mode():
    anna = tuple(c for c in all_scoring_cards_to_anna()[0] if c.code != "QH")
    assert said(exact_hand((anna, ()))) == [
        ("card_missing", "Nobody holds the Q♥; every counting card ends in some pile.")]


def test_a_card_listed_twice_for_one_side_is_refused():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna + (parse_card("AS"),), ()))) == [
        ("card_twice", "The A♠ is listed twice for Anna; there is only one.")]


def test_a_card_that_neither_counts_nor_is_special_is_refused_in_exact_mode():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna, (parse_card("7H"),)))) == [
        ("not_scoring_card", "Ben lists the 7♥, which is neither a counting nor a special card.")]


def test_something_that_is_not_a_card_is_refused_in_exact_mode():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna, ("joker",)))) == [("not_a_card", "Ben lists joker, which is not a card.")]


def test_exact_mode_needs_one_list_per_side():
    anna, _ = all_scoring_cards_to_anna()
    assert said(exact_hand((anna,))) == [
        ("wrong_side_count", "The cards held give 1 numbers, but the match has 2 sides.")]


def test_a_side_named_by_a_number_the_match_does_not_have_is_refused():
    assert said(hand(ten=2)) == [("no_such_side", "There is no side 2 in this match.")]
    assert said(hand(two=-1)) == [("no_such_side", "There is no side -1 in this match.")]
    assert said(most_cards_hand(3)) == [("no_such_side", "There is no side 3 in this match.")]


def test_the_side_with_the_ten_of_diamonds_needs_a_counting_card_when_tens_count():
    assert said(hand(counting=(0, 20), cards=(30, 22), ten=0)) == [
        ("ten_not_in_counting", "Anna took the 10♦, which is a counting card, but has 0 counting cards.")]


# --- per side -------------------------------------------------------------------------------------

def test_a_side_with_fewer_captured_cards_than_its_counting_and_special_cards_is_refused():
    # Ben's 9 counting cards and the 2♣ are 10 cards, but he captured only 9.
    assert said(hand(cards=(43, 9), counting=(11, 9), two=1)) == [
        ("too_few_cards", "Ben captured 9 cards but holds 10 counting and special cards.")]


def test_special_cards_of_no_counting_rank_are_counted_beside_the_counting_cards_in_pisti():
    # Pişti: Ben's ace, the 10♦ and the 2♣ are three cards.
    assert said(hand(cards=(50, 2), counting=(7, 1), ten=1, two=1), "pisti") == [
        ("too_few_cards", "Ben captured 2 cards but holds 3 counting and special cards.")]


def test_a_side_with_fewer_captured_cards_than_its_held_cards_is_refused_in_exact_mode():
    holdings = held(rules("classic"), Ben=["AC", "AD", "2C"])
    assert said(exact_hand(holdings, cards=(50, 2))) == [
        ("too_few_cards", "Ben captured 2 cards but holds 3 counting and special cards.")]


def test_more_xeris_than_captured_cards_allow_are_refused():
    # Each xeri puts two cards in the pile: 5 xeris need 10 cards.
    assert said(hand(cards=(43, 9), counting=(12, 8), two=0, xeris=(0, 4), jack_xeris=(0, 1))) == [
        ("too_many_xeris", "Ben has 5 xeris, which take 10 cards, but captured only 9.")]


def test_more_xeris_than_a_deck_allows_are_refused_when_only_most_cards_was_said():
    assert said(most_cards_hand(0, xeris=(20, 7))) == [
        ("too_many_xeris_total", "27 xeris in one hand: each takes two cards, so a deck allows at most 26.")]


def test_more_than_two_jack_on_jack_xeris_are_refused():
    assert said(hand(counting=(14, 6), jack_xeris=(2, 1))) == [
        ("too_many_jack_xeris", "3 jack xeris in one hand: four jacks allow at most 2.")]


def test_more_than_four_jack_xeris_are_refused_under_jack_on_any():
    assert said(hand(counting=(10, 6), jack_xeris=(3, 2)), "greek-online") == [
        ("too_many_jack_xeris", "5 jack xeris in one hand: there are only 4 jacks.")]


def test_four_jack_xeris_are_fine_under_jack_on_any():
    assert said(hand(counting=(10, 6), jack_xeris=(3, 1)), "greek-online") == []


def test_a_side_with_jack_xeris_but_too_few_counting_cards_for_the_jacks_is_refused():
    # Two jack-on-jack xeris take all four jacks; Anna has only 3 counting cards (Ben has the 10♦).
    assert said(hand(counting=(3, 17), jack_xeris=(2, 0), ten=1)) == [
        ("jack_xeris_need_jacks", "Anna has 2 jack xeris, which take 4 jacks, but only 3 counting cards.")]


def test_a_side_with_jack_xeris_but_too_few_jacks_is_refused_in_exact_mode():
    holdings = held(rules("classic"), Ben=["JC", "AS"])
    assert said(exact_hand(holdings, jack_xeris=(0, 1))) == [
        ("jack_xeris_need_jacks", "Ben has 1 jack xeris, which take 2 jacks, but holds 1.")]


def test_one_jack_is_enough_for_a_jack_xeri_under_jack_on_any():
    greek = rules("greek-online")
    assert said(exact_hand(held(greek, Ben=["JC", "2S"]), jack_xeris=(0, 1)), greek) == []


def test_count_mode_is_refused_when_counting_ranks_are_worth_different_points():
    custom = rules("classic", rank_points={"A": 1, "K": 1, "Q": 1, "J": 2, "10": 1})
    assert said(hand(), custom) == [
        ("counting_needs_exact",
         "These rules value the counting ranks (A K Q J 10) differently: list each side's cards instead of counting them.")]
    assert said(exact_hand(held(custom)), custom) == []


# --- refusing -------------------------------------------------------------------------------------

def test_check_hand_raises_with_every_problem_at_once():
    entry = hand(cards=(43, 9), counting=(12, 9), two=1, xeris=(0, 5))
    with pytest.raises(InvalidHand) as refused:
        check_hand(entry, rules("classic"), 2)
    codes = [p.code for p in refused.value.problems]
    assert codes == ["counting_total", "too_few_cards", "too_many_xeris"]
    assert str(refused.value) == "counting_total; too_few_cards; too_many_xeris"


def test_scoring_an_impossible_hand_raises_invalid_hand():
    with pytest.raises(InvalidHand) as refused:
        score_hand(hand(cards=(30, 20)), rules("classic"), 2)
    assert isinstance(refused.value, ValueError)
    assert refused.value.problems[0].code == "cards_total"


def test_a_problem_says_which_field_to_point_at():
    (problem,) = validate_hand(hand(cards=(43, 9), counting=(11, 9)), rules("classic"), 2)
    assert (problem.code, problem.side, problem.field) == ("too_few_cards", 1, "cards")
    assert dict(problem.values) == {"cards": 9, "needed": 10}


# --- what "who has most cards" says about the other sides ------------------------------------------

def test_a_side_without_most_cards_cannot_hold_more_xeris_than_25_cards_allow():
    assert said(most_cards_hand(0, xeris=(0, 13))) == [
        ("too_many_xeris_for_majority",
         "Ben has 13 xeris, which take 26 cards, but without most cards a side holds at most 25.")]
    assert said(most_cards_hand(0, xeris=(0, 12))) == []


def test_sides_tied_for_most_cards_hold_at_most_26_each():
    assert said(most_cards_hand(None, xeris=(14, 0))) == [
        ("too_many_xeris_for_majority",
         "Anna has 14 xeris, which take 28 cards, but in a tie for most cards a side holds at most 26.")]
    assert said(most_cards_hand(None, xeris=(13, 13))) == []


def test_the_side_with_most_cards_may_hold_many_xeris():
    assert said(most_cards_hand(1, counting=(2, 18), xeris=(0, 20))) == []


def test_the_ten_of_diamonds_is_not_one_of_the_jacks_a_jack_xeri_needs():
    entry = hand(counting=(2, 18), jack_xeris=(1, 0), ten=0)
    assert said(entry) == [
        ("jack_xeris_need_jacks",
         "Anna has 1 jack xeris, which take 2 jacks, but only 2 counting cards, one of them the 10♦.")]
    assert said(hand(counting=(3, 17), jack_xeris=(1, 0), ten=0)) == []
