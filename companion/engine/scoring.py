"""Scoring a hand: itemised points per side, the side's total, and the hand's winner."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Iterable

from .cards import TEN_OF_DIAMONDS, Card
from .entry import HandEntry, check_hand
from .rules import RuleSet
from .tally import unique_leader


class Item(enum.StrEnum):
    """A scoring item of a hand; every side has one line of each."""

    MAJORITY = "majority"
    COUNTING = "counting"
    TEN_OF_DIAMONDS = "ten_of_diamonds"
    TWO = "two"
    XERIS = "xeris"
    JACK_XERIS = "jack_xeris"


ITEMS: tuple[Item, ...] = tuple(Item)
"""The scoring items of a hand, in the order they are shown."""
_ITEM_INDEX = {item: i for i, item in enumerate(ITEMS)}


class Note(enum.StrEnum):
    """Why a line gives what it gives, where the count alone does not say."""

    NONE = ""
    MOST = "most"
    """The side has most cards."""
    TIE = "tie"
    """Most cards are tied: nobody gets the points."""
    NOT_MOST = "not_most"
    """Another side has most cards."""
    ALREADY_COUNTED = "already_counted"
    """The special card adds nothing beyond its counting value."""


@dataclass(frozen=True)
class Line:
    """One item of a side's score for a hand: what it is, how many, at how much, and the points."""

    item: Item
    """The scoring item."""
    points: int
    """The points this line gives the side."""
    count: int | None
    """How many: captured cards (majority), counting cards, 1 or 0 for a special card, xeris; None if not counted."""
    each: int | None
    """Points for each one (the majority's value for `majority`); None when cards of a hand differ."""
    note: Note = Note.NONE
    """Why, where the count alone does not say (most cards, a special card already counted)."""


# Speed: building a frozen dataclass costs about as much as the rest of scoring a hand, and a
# hand has 6 lines a side. Lines are immutable values and the possible ones are few (every count
# is bounded by the deck), so equal lines are built once and shared. `typed` keeps a line of
# `True` (a rule set may value ranks at `true`) apart from a line of 1.
_line = lru_cache(maxsize=4096, typed=True)(Line)


@lru_cache(maxsize=64, typed=True)
def _special_lines(ten_extra: int, ten_note: Note, two_extra: int) -> tuple[tuple[Line, Line], tuple[Line, Line]]:
    """The 10♦ lines and the special two's lines of a side: without the card, then with it."""
    return ((_line(Item.TEN_OF_DIAMONDS, 0, 0, ten_extra, ten_note),
             _line(Item.TEN_OF_DIAMONDS, ten_extra, 1, ten_extra, ten_note)),
            (_line(Item.TWO, 0, 0, two_extra, Note.NONE), _line(Item.TWO, two_extra, 1, two_extra, Note.NONE)))


@dataclass(frozen=True)
class HandScore:
    """The score of one hand."""

    points: tuple[int, ...]
    """Points per side."""
    lines: tuple[tuple[Line, ...], ...]
    """Itemised lines per side, in `ITEMS` order."""
    winner: int | None
    """The side with strictly the most points, or None when the top scores are equal."""

    def line(self, side: int, item: Item | str) -> Line:
        """The line of `item` for `side`."""
        return self.lines[side][_ITEM_INDEX[Item(item)]]


def hand_winner(points: Iterable[int]) -> int | None:
    """The side with strictly the most points, or None on equal top scores."""
    return unique_leader(points)


def _holder(held: tuple[tuple[Card, ...], ...], card: Card) -> int | None:
    """The side listing `card` in a sound exact entry (every scoring card listed once, and only cards).

    Speed: compares rank and suit, which is what card equality compares, without the Python call per
    card that `card in cards` makes (as in `HandEntry.holder_of`).
    """
    rank, suit = card.rank, card.suit
    for side, cards in enumerate(held):
        for c in cards:
            if c.rank == rank and c.suit == suit:
                return side
    return None


# Speed: an enum member is looked up through the enum's metaclass (about 75 ns, five times a plain
# attribute), and scoring a hand names a dozen of them; the hot path reads these module names instead.
_MAJORITY, _COUNTING, _XERIS, _JACK_XERIS = Item.MAJORITY, Item.COUNTING, Item.XERIS, Item.JACK_XERIS
_NONE, _TIE, _MOST, _NOT_MOST, _ALREADY_COUNTED = Note.NONE, Note.TIE, Note.MOST, Note.NOT_MOST, Note.ALREADY_COUNTED


def score_hand(entry: HandEntry, rules: RuleSet, sides: int) -> HandScore:
    """Score a hand entry; raise `InvalidHand` when it cannot be right."""
    check_hand(entry, rules, sides)
    majority = entry.majority()
    most, xeri, jack_xeri = rules.majority_points, rules.xeri_points, rules.jack_xeri_points
    ten_note = _ALREADY_COUNTED if rules.ten_of_diamonds_extra == 0 and rules.ten_of_diamonds_counts else _NONE
    ten_lines, two_lines = _special_lines(rules.ten_of_diamonds_extra, ten_note, rules.two_extra)
    each: int | None
    if entry.held is None:
        each = rules.counting_point or 0
        counting = [_line(_COUNTING, n * each, n, each, _NONE) for n in entry.counting or ()]
        ten, two = entry.ten_of_diamonds, entry.two
    else:
        ten, two = _holder(entry.held, TEN_OF_DIAMONDS), _holder(entry.held, rules.two)
        each = rules.counting_point
        counting = []
        for side, cards in enumerate(entry.held):
            if each is not None:
                # Speed: a sound entry lists the side's counting cards and its special cards, each
                # once, so the special cards of no counting rank are all that is not counted.
                n = len(cards)
                n -= (ten == side and not rules.ten_of_diamonds_counts) + (two == side and not rules.two_counts)
                counting.append(_line(_COUNTING, n * each, n, each, _NONE))
            else:
                values = [rules.rank_value(c) for c in cards if rules.is_counting(c)]
                counting.append(_line(_COUNTING, sum(values), len(values), each, _NONE))
    piles = entry.cards if entry.cards is not None else (None,) * sides
    lines, side_points = [], []
    for side in range(sides):
        if majority is None:
            maj = _line(_MAJORITY, 0, piles[side], most, _TIE)
        elif majority == side:
            maj = _line(_MAJORITY, most, piles[side], most, _MOST)
        else:
            maj = _line(_MAJORITY, 0, piles[side], most, _NOT_MOST)
        cnt = counting[side]
        ten_line = ten_lines[1] if ten == side else ten_lines[0]
        two_line = two_lines[1] if two == side else two_lines[0]
        x, jx = entry.xeris[side], entry.jack_xeris[side]
        xeri_line = _line(_XERIS, x * xeri, x, xeri, _NONE)
        jack_line = _line(_JACK_XERIS, jx * jack_xeri, jx, jack_xeri, _NONE)
        lines.append((maj, cnt, ten_line, two_line, xeri_line, jack_line))
        side_points.append(maj.points + cnt.points + ten_line.points + two_line.points + xeri_line.points
                           + jack_line.points)
    points = tuple(side_points)
    return HandScore(points, tuple(lines), hand_winner(points))
