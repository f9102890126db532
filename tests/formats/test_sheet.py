"""The score sheet stays the size of its hands, whatever the names: long ones are cut in the columns."""

from companion.engine import Goal, Match, Side, record_hand
from companion.formats.presets import preset
from companion.formats.sheet import COLUMN, sheet_text

from tests.engine.builders import hand


def test_a_long_name_is_cut_at_the_head_of_its_column_and_in_sentences():
    # Only a match stored before names were limited can hold such names; its sheet must stay small.
    long_a, long_b = "A" * 5_000_000, "B" * 5_000_000
    match = record_hand(Match.new(preset("classic"), [Side(long_a), Side(long_b)], Goal(target=151)), hand())
    text = sheet_text(match)
    assert len(text) < 5_000
    assert max(len(line) for line in text.splitlines()) < 400
    assert ["A" * (COLUMN - 1) + "…", "B" * (COLUMN - 1) + "…"] in [line.split() for line in text.splitlines()]


def test_short_names_are_shown_whole():
    match = record_hand(Match.new(preset("classic"), [Side("Anna"), Side("Ben")], Goal(target=151)), hand())
    assert "  Most cards         3     0   Anna: most cards (30 of 52): 3 points" in sheet_text(match).splitlines()


def test_a_tie_for_most_cards_is_said_once_of_both_sides():
    # It named one side: "Eleni: a tie for most cards: nobody gets the 3", as if Eleni alone had tied.
    match = record_hand(Match.new(preset("classic"), [Side("Eleni"), Side("Nikos")], Goal(target=151)),
                        hand(cards=(26, 26)))
    said = [line for line in sheet_text(match).splitlines() if line.strip().startswith("Most cards")]
    assert said and said[0].endswith("Eleni and Nikos: a tie for most cards: nobody gets the 3")
