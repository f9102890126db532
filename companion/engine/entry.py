"""Hand entries (what the table taps in after a hand) and the checks that refuse impossible ones."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping, Sequence

from .cards import DECK_SIZE, Card, Rank, TEN_OF_DIAMONDS
from .messages import Message, SaidError, Says
from .rules import RuleSet
from .tally import unique_leader


class EntryField(enum.StrEnum):
    """A fact of a hand entry, as the form asks for it and a problem points at it."""

    CARDS = "cards"
    MOST_CARDS = "most_cards"
    COUNTING = "counting"
    TEN_OF_DIAMONDS = "ten_of_diamonds"
    TWO = "two"
    XERIS = "xeris"
    JACK_XERIS = "jack_xeris"
    HELD = "held"


class ProblemCode(enum.StrEnum):
    """Why a hand entry cannot be right; each has its sentence (`problem.<code>` in the catalogs)."""

    MISSING = "missing"
    COUNTING_NEEDS_EXACT = "counting_needs_exact"
    WRONG_SIDE_COUNT = "wrong_side_count"
    NOT_WHOLE = "not_whole"
    NEGATIVE = "negative"
    NO_SUCH_SIDE = "no_such_side"
    TEN_OF_DIAMONDS_MISSING = "ten_of_diamonds_missing"
    TWO_MISSING = "two_missing"
    CARD_MISSING = "card_missing"
    NOT_A_CARD = "not_a_card"
    NOT_SCORING_CARD = "not_scoring_card"
    CARD_TWICE = "card_twice"
    CARDS_TOTAL = "cards_total"
    COUNTING_TOTAL = "counting_total"
    TOO_MANY_JACK_XERIS = "too_many_jack_xeris"
    TOO_MANY_XERIS_TOTAL = "too_many_xeris_total"
    TEN_NOT_IN_COUNTING = "ten_not_in_counting"
    TOO_FEW_CARDS = "too_few_cards"
    TOO_MANY_XERIS = "too_many_xeris"
    TOO_MANY_XERIS_FOR_MAJORITY = "too_many_xeris_for_majority"
    JACK_XERIS_NEED_JACKS = "jack_xeris_need_jacks"


PER_SIDE_FIELDS = (EntryField.CARDS, EntryField.COUNTING, EntryField.XERIS, EntryField.JACK_XERIS)
"""The numbers an entry gives once for each side."""


@dataclass(frozen=True)
class HandEntry:
    """What each side captured in one hand, as the table taps it in.

    Give `cards` (captured cards per side) or, when the piles were not counted, only `most_cards`
    (the side with most cards, or None for a tie). Give `counting`, `ten_of_diamonds` and `two`
    (count mode), or `held` (exact mode: the counting and special cards of each side, card by card).
    """

    xeris: tuple[int, ...]
    """Xeris (not jack xeris) per side."""
    jack_xeris: tuple[int, ...]
    """Jack xeris per side."""
    cards: tuple[int, ...] | None = None
    """Captured cards per side, or None when only `most_cards` was said."""
    most_cards: int | None = None
    """When `cards` is None: the side with most cards, or None for a tie."""
    counting: tuple[int, ...] | None = None
    """Counting cards per side (10♦ included when tens count), or None in exact mode."""
    ten_of_diamonds: int | None = None
    """The side that took the 10♦ (count mode)."""
    two: int | None = None
    """The side that took the special two (count mode)."""
    held: tuple[tuple[Card, ...], ...] | None = None
    """Exact mode: the counting and special cards each side holds."""

    def __post_init__(self) -> None:
        for name in PER_SIDE_FIELDS:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, tuple(value))
        if self.held is not None:
            object.__setattr__(self, "held", tuple(tuple(side) for side in self.held))

    @property
    def is_exact(self) -> bool:
        """True when the scoring cards are listed card by card."""
        return self.held is not None

    @property
    def sides(self) -> int:
        """How many sides the entry speaks of."""
        return len(self.xeris)

    def holder_of(self, card: Card) -> int | None:
        """The side holding `card` in exact mode (the first, if listed twice)."""
        for side, cards in enumerate(self.held or ()):
            if card in cards:
                return side
        return None

    def majority(self) -> int | None:
        """The side with strictly the most captured cards, or None for a tie for most."""
        if self.cards is None:
            return self.most_cards
        return unique_leader(self.cards)


@dataclass(frozen=True)
class Problem:
    """One reason a hand entry cannot be right: a code, the side it concerns, and the numbers."""

    code: ProblemCode
    """What is wrong (`cards_total`, `too_many_xeris`, …); given as a code or its value."""
    side: int | None = None
    """The side it concerns, or None when it concerns the whole hand."""
    field: EntryField | None = None
    """The entry field to point at, or None."""
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The numbers the message needs."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", ProblemCode(self.code))
        if self.field is not None:
            object.__setattr__(self, "field", EntryField(self.field))
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))


class InvalidHand(ValueError):
    """A hand entry that cannot be right; `problems` says every reason."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("; ".join(p.code for p in self.problems))


class HandError(SaidError):
    """An error that may point at one hand of a match (a match file's, a what-if's)."""

    def __init__(self, says: Says | Message, /, *, hand: int | None = None, problems: Sequence[Problem] = (),
                 **values: Any):
        super().__init__(says, **values)
        self.hand = hand
        """The 0-based index of the hand at fault, if a hand is."""
        self.problems = tuple(problems)
        """The engine's problems with that hand, if it is impossible."""


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _side_ok(value: Any, sides: int) -> bool:
    return (type(value) is int or _is_whole(value)) and 0 <= value < sides  # speed: the usual case first


def validate_hand(entry: HandEntry, rules: RuleSet, sides: int) -> tuple[Problem, ...]:
    """Every reason the entry cannot be a hand of this rule set with `sides` sides (empty if none)."""
    problems: list[Problem] = []
    add = problems.append

    # Shape: one number per side.
    per_side: dict[EntryField, tuple[int, ...]] = {EntryField.XERIS: entry.xeris,
                                                   EntryField.JACK_XERIS: entry.jack_xeris}
    if entry.cards is not None:
        per_side[EntryField.CARDS] = entry.cards
    if entry.held is None:
        if entry.counting is None:
            add(Problem(ProblemCode.MISSING, field=EntryField.COUNTING))
        else:
            per_side[EntryField.COUNTING] = entry.counting
            if rules.counting_ranks and rules.counting_point is None:
                # Counts alone cannot say what cards of differently valued ranks are worth.
                add(Problem(ProblemCode.COUNTING_NEEDS_EXACT, field=EntryField.COUNTING,
                            values={"ranks": " ".join(r.value for r in rules.counting_ranks)}))
    elif len(entry.held) != sides:
        add(Problem(ProblemCode.WRONG_SIDE_COUNT, field=EntryField.HELD,
                    values={"given": len(entry.held), "expected": sides}))
    for name, values in per_side.items():
        if len(values) != sides:
            add(Problem(ProblemCode.WRONG_SIDE_COUNT, field=name, values={"given": len(values), "expected": sides}))
    if problems:
        return tuple(problems)

    # Every number a whole number, 0 or more.
    for name, values in per_side.items():
        for side, value in enumerate(values):
            if type(value) is int and value >= 0:
                continue  # speed: the usual case, settled without a call
            if not _is_whole(value):
                add(Problem(ProblemCode.NOT_WHOLE, side, name, {"value": value}))
            elif value < 0:
                add(Problem(ProblemCode.NEGATIVE, side, name, {"value": value}))
    numbers_ok = not problems

    # Sides named by index must exist.
    if entry.cards is None and entry.most_cards is not None and not _side_ok(entry.most_cards, sides):
        add(Problem(ProblemCode.NO_SUCH_SIDE, field=EntryField.MOST_CARDS, values={"value": entry.most_cards}))
    if entry.held is None:
        for name, missing in ((EntryField.TEN_OF_DIAMONDS, ProblemCode.TEN_OF_DIAMONDS_MISSING),
                              (EntryField.TWO, ProblemCode.TWO_MISSING)):
            holder = getattr(entry, name)
            if holder is None:
                add(Problem(missing, field=name, values={"card": _special(name, rules).label}))
            elif not _side_ok(holder, sides):
                add(Problem(ProblemCode.NO_SUCH_SIDE, field=name, values={"value": holder}))
    else:
        problems.extend(_held_problems(entry, rules))
    if not numbers_ok or problems:
        # The totals and per-side checks below need sound numbers; say what is wrong so far.
        return tuple(problems) + tuple(_total_problems(entry, rules) if numbers_ok else ())

    problems.extend(_total_problems(entry, rules))
    problems.extend(_side_problems(entry, rules, sides))
    return tuple(problems)


def _special(name: str, rules: RuleSet) -> Card:
    return TEN_OF_DIAMONDS if name == "ten_of_diamonds" else rules.two


def _lists_each_scoring_card_once(held: tuple[tuple[Card, ...], ...], rules: RuleSet) -> bool:
    """True when the held cards are the rule set's scoring cards, each listed once, and nothing else.

    Speed: the usual case, settled by a set comparison at C speed rather than card by card.
    """
    listed = [card for cards in held for card in cards if isinstance(card, Card)]
    expected = rules._scoring_card_set
    return len(listed) == sum(map(len, held)) == len(expected) and set(listed) == expected


def _held_problems(entry: HandEntry, rules: RuleSet) -> list[Problem]:
    held = entry.held or ()
    if _lists_each_scoring_card_once(held, rules):
        return []  # the walk below only needs to run to say what is wrong, in order
    problems = []
    seen: dict[Card, int] = {}
    for side, cards in enumerate(held):
        for card in cards:
            if not isinstance(card, Card):
                problems.append(Problem(ProblemCode.NOT_A_CARD, side, EntryField.HELD, {"value": card}))
            elif not rules.is_scoring(card):
                problems.append(Problem(ProblemCode.NOT_SCORING_CARD, side, EntryField.HELD, {"card": card.label}))
            elif card in seen:
                problems.append(Problem(ProblemCode.CARD_TWICE, side, EntryField.HELD,
                                        {"card": card.label, "other": seen[card], "same_side": seen[card] == side}))
            else:
                seen[card] = side
    for card in rules.scoring_cards:
        if card not in seen:
            code = {TEN_OF_DIAMONDS: ProblemCode.TEN_OF_DIAMONDS_MISSING,
                    rules.two: ProblemCode.TWO_MISSING}.get(card, ProblemCode.CARD_MISSING)
            problems.append(Problem(code, None, EntryField.HELD, {"card": card.label}))
    return problems


def _total_problems(entry: HandEntry, rules: RuleSet) -> list[Problem]:
    problems = []
    if entry.cards is not None and sum(entry.cards) != DECK_SIZE:
        problems.append(Problem(ProblemCode.CARDS_TOTAL, None, EntryField.CARDS,
                                {"total": sum(entry.cards), "expected": DECK_SIZE}))
    if entry.held is None and entry.counting is not None:
        expected = rules.counting_cards_in_deck
        if sum(entry.counting) != expected:
            problems.append(Problem(ProblemCode.COUNTING_TOTAL, None, EntryField.COUNTING,
                                    {"total": sum(entry.counting), "expected": expected,
                                     "ranks": " ".join(r.value for r in rules.counting_ranks)}))
    total_jack = sum(entry.jack_xeris)
    if total_jack > rules.max_jack_xeris:
        problems.append(Problem(ProblemCode.TOO_MANY_JACK_XERIS, None, EntryField.JACK_XERIS,
                                {"total": total_jack, "max": rules.max_jack_xeris,
                                 "on_any": rules.jack_xeri_on_any}))
    if entry.cards is None and 2 * (sum(entry.xeris) + total_jack) > DECK_SIZE:
        problems.append(Problem(ProblemCode.TOO_MANY_XERIS_TOTAL, None, EntryField.XERIS,
                                {"total": sum(entry.xeris) + total_jack, "max": DECK_SIZE // 2}))
    return problems


def _side_problems(entry: HandEntry, rules: RuleSet, sides: int) -> list[Problem]:
    """Checks of each side's numbers against each other; only asked once the entry is otherwise sound."""
    problems = []
    held = entry.held
    counting: tuple[int, ...] = ()
    if held is None:
        # Checked before this is asked: counting is given when nothing is held.
        counting, ten, two = entry.counting or (), entry.ten_of_diamonds, entry.two
        ten_counts, two_counts = rules.ten_of_diamonds_counts, rules.two_counts
    jack_counts = Rank.JACK in rules.counting_ranks
    for side in range(sides):
        if held is None:
            # Special cards that are not of a counting rank sit in the pile beside the counting cards.
            needed = counting[side]
            if ten == side and not ten_counts:
                needed += 1
            if two == side and not two_counts:
                needed += 1
            if ten == side and ten_counts and counting[side] < 1:
                problems.append(Problem(ProblemCode.TEN_NOT_IN_COUNTING, side, EntryField.COUNTING,
                                        {"card": TEN_OF_DIAMONDS.label}))
        else:
            # The held checks passed, so the side lists each of its counting and special cards once:
            # the same number as its counting cards plus its special cards of no counting rank.
            needed = len(held[side])
        xeris = entry.xeris[side] + entry.jack_xeris[side]
        if entry.cards is not None:
            cards = entry.cards[side]
            if cards < needed:
                problems.append(Problem(ProblemCode.TOO_FEW_CARDS, side, EntryField.CARDS,
                                        {"cards": cards, "needed": needed}))
            if 2 * xeris > cards:
                problems.append(Problem(ProblemCode.TOO_MANY_XERIS, side, EntryField.XERIS,
                                        {"xeris": xeris, "cards": cards, "needed": 2 * xeris}))
        elif 2 * xeris > (most := _most_cards_a_side_can_have(entry, side, sides)):
            # Only who has most was said, but that bounds the others: a side without most cards has
            # fewer than half the deck, and sides tied for most have at most half each.
            problems.append(Problem(ProblemCode.TOO_MANY_XERIS_FOR_MAJORITY, side, EntryField.XERIS,
                                    {"xeris": xeris, "needed": 2 * xeris, "most": most,
                                     "tie": entry.most_cards is None}))
        if jack_counts and entry.jack_xeris[side]:
            ten_among = 0
            if held is None:
                # The 10♦ is one of the side's counting cards when tens count, so it is not a jack.
                ten_among = int(ten == side and ten_counts)
                jacks = counting[side] - ten_among
            else:
                jacks = sum(1 for c in held[side] if c.rank is Rank.JACK)
            needed_jacks = rules.jacks_per_jack_xeri * entry.jack_xeris[side]
            if jacks < needed_jacks:
                problems.append(Problem(ProblemCode.JACK_XERIS_NEED_JACKS, side, EntryField.JACK_XERIS,
                                        {"jack_xeris": entry.jack_xeris[side], "needed": needed_jacks,
                                         "counting": jacks + ten_among, "exact": entry.held is not None,
                                         "with_ten": bool(ten_among)}))
    return problems


def _most_cards_a_side_can_have(entry: HandEntry, side: int, sides: int) -> int:
    """The most captured cards `side` can hold when only the side with most cards (or a tie) was said."""
    if entry.most_cards is None:
        return DECK_SIZE // 2
    if entry.most_cards == side:
        return DECK_SIZE
    return (DECK_SIZE - 1) // 2


def check_hand(entry: HandEntry, rules: RuleSet, sides: int) -> None:
    """Raise `InvalidHand` with every problem when the entry cannot be right."""
    problems = validate_hand(entry, rules, sides)
    if problems:
        raise InvalidHand(problems)
