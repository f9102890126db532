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


def test_the_trail_says_what_an_edit_changed_and_what_an_undo_took_back():
    # It said only "hand 2 was edited": a dispute had to open the hand to find what.
    from companion.formats.sheet import trail_text
    from companion.i18n import Translator
    from companion.records import TrailAction, TrailEntry

    match = Match.new(preset("classic"), [Side("Mia"), Side("Ben")], Goal(target=151))
    was, now = hand(counting=(12, 8)), hand(counting=(10, 10), two=0)
    edit = TrailEntry(TrailAction.EDIT, 1, was, now, "2026-12-05T20:10:00Z")
    assert trail_text(edit, match) == ("2026-12-05 20:10: hand 2: Mia 16 → 15, Ben 9 → 10 "
                                       "(counting cards 12 : 8 → 10 : 10; special two Ben → Mia)")
    same = TrailEntry(TrailAction.EDIT, 0, was, hand(counting=(11, 9), two=0), "2026-12-05T20:11:00Z")
    assert trail_text(same, match).endswith("hand 1: the same points (counting cards 12 : 8 → 11 : 9; "
                                            "special two Ben → Mia)")
    undo = TrailEntry(TrailAction.UNDO, 3, was, None, "2026-12-05T20:12:00Z")
    assert trail_text(undo, match) == "2026-12-05 20:12: hand 4 was undone (16 : 9)"
    assert trail_text(undo, match, Translator("el")) == "2026-12-05 20:12: το χέρι 4 αναιρέθηκε (16 : 9)"


def test_the_trail_says_a_hand_undone_was_saved_again_as_it_was_or_what_the_correction_changed():
    from companion.formats.sheet import trail_text
    from companion.i18n import Translator
    from companion.records import TrailAction, TrailEntry

    match = Match.new(preset("classic"), [Side("Mia"), Side("Ben")], Goal(target=151))
    was = hand(counting=(12, 8))
    again = TrailEntry(TrailAction.REDO, 3, was, was, "2026-12-05T20:13:00Z")
    assert trail_text(again, match) == "2026-12-05 20:13: hand 4 was saved again as it was (16 : 9)"
    fixed = TrailEntry(TrailAction.REDO, 3, was, hand(counting=(10, 10)), "2026-12-05T20:14:00Z")
    assert trail_text(fixed, match) == ("2026-12-05 20:14: hand 4 was saved again, corrected: Mia 16 → 14, "
                                        "Ben 9 → 11 (counting cards 12 : 8 → 10 : 10)")
    for lang in ("el", "ko", "tr"):
        assert "4" in trail_text(fixed, match, Translator(lang)) and "→" in trail_text(fixed, match, Translator(lang))
