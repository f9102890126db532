"""The hand-entry form: filling in the last side, exact mode, and what Save still waits for."""

from companion.engine import Card
from companion.formats.presets import preset
from companion.ui.viewmodel.draft import TIE, EntryDraft, Filled

CLASSIC = preset("classic")


def test_the_last_side_is_filled_in_from_the_total():
    f = Filled(20, [None, None])
    f.set(0, 12)
    assert f.values == [12, 8] and f.is_auto(1) and not f.is_auto(0)


def test_setting_the_filled_in_side_fills_in_the_other_one_instead():
    f = Filled(20, [None, None])
    f.set(0, 12)
    f.set(1, 5)
    assert f.values == [15, 5] and f.is_auto(0)


def test_with_three_sides_nothing_is_filled_in_until_two_are_set():
    f = Filled(52, [None, None, None])
    f.set(0, 20)
    assert f.values == [20, None, None] and not f.complete
    f.set(2, 10)
    assert f.values == [20, 22, 10] and f.is_auto(1)


def test_a_typical_hand_needs_four_facts_and_then_makes_an_entry():
    d = EntryDraft(2, CLASSIC, xeris=[1, 0])
    assert d.missing() == ["entry.missing.most", "entry.missing.counting", "entry.missing.ten", "entry.missing.two"]
    d.set_most(0)
    d.set_counting(0, 12)
    d.set_ten(1)
    d.set_two(0)
    assert d.missing() == []
    entry = d.entry()
    assert entry.most_cards == 0 and entry.counting == (12, 8) and entry.ten_of_diamonds == 1 and entry.two == 0
    assert entry.xeris == (1, 0) and d.problems() == ()


def test_a_tie_for_most_cards_is_an_entry_with_no_majority():
    d = EntryDraft(2, CLASSIC)
    d.set_most(TIE)
    d.set_counting(1, 10)
    d.set_ten(0)
    d.set_two(0)
    assert d.entry().most_cards is None and d.entry().cards is None


def test_exact_counts_decide_most_cards_and_are_checked_at_once():
    d = EntryDraft(2, CLASSIC)
    d.set_cards(0, 30)
    assert d.majority() == 0 and d.cards.values == [30, 22]
    d.type_cards(1, "60")                # the field typed in is the one said to be wrong, never its filled-in partner
    assert d.cards.values == [None, None] and d.cards.problem() == ("entry.count.over", {"side": 1, "n": 60,
                                                                                          "total": 52})
    assert d.cards.bad() == [1] and d.entry() is None
    assert not [p for p in d.problems() if p.code == "negative"]


def test_too_many_xeris_show_before_the_rest_is_said():
    d = EntryDraft(2, CLASSIC, jack_xeris=[2, 1])
    assert [p.code for p in d.problems()] == ["too_many_jack_xeris"]


def test_exact_mode_taps_cycle_a_card_through_the_sides_and_back_to_nobody():
    d = EntryDraft(2, CLASSIC, exact=True)
    ace = Card.from_code("AS")
    d.tap_card(ace)
    assert d.held[ace] == 0
    d.tap_card(ace)
    assert d.held[ace] == 1
    d.tap_card(ace)
    assert ace not in d.held


def test_exact_mode_makes_an_entry_with_every_scoring_card_listed():
    d = EntryDraft(2, CLASSIC, exact=True)
    d.set_most(1)
    for i, c in enumerate(d.scoring_cards()):
        d.held[c] = i % 2
    entry = d.entry()
    assert entry.is_exact and sum(len(h) for h in entry.held) == 21
    assert d.problems() == ()


def test_editing_a_recorded_hand_starts_from_its_numbers():
    d = EntryDraft(2, CLASSIC)
    d.set_cards(0, 30)
    d.set_counting(0, 12)
    d.set_ten(0)
    d.set_two(1)
    entry = d.entry()
    again = EntryDraft.from_entry(entry, CLASSIC)
    assert again.entry() == entry
    assert (again.cards.shown(0), again.cards.shown(1)) == ("30", "22")


def test_a_typed_count_is_shown_back_exactly_as_typed_and_fills_in_the_other_side():
    d = EntryDraft(2, CLASSIC)
    d.type_cards(0, "3")
    d.type_cards(0, "30")
    assert (d.cards.shown(0), d.cards.shown(1)) == ("30", "22") and d.majority() == 0
    d.type_cards(0, "")            # cleared to type again: nothing is guessed meanwhile
    assert (d.cards.shown(0), d.cards.shown(1)) == ("", "") and d.majority() is None
    assert d.missing()[0] == "entry.missing.cards_number" and d.cards.problem() is None
    d.type_cards(1, "27")          # now the other side is typed and the first is filled in
    assert (d.cards.shown(0), d.cards.shown(1)) == ("25", "27") and d.majority() == 1
