"""Scoring a hand: itemised points per side, the side's total, and the hand's winner."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .cards import TEN_OF_DIAMONDS, Card
from .entry import HandEntry, check_hand
from .rules import RuleSet

ITEMS = ("majority", "counting", "ten_of_diamonds", "two", "xeris", "jack_xeris")
"""The scoring items of a hand, in the order they are shown; each is a line of every side."""


@dataclass(frozen=True)
class Line:
    """One item of a side's score for a hand: what it is, how many, at how much, and the points."""

    item: str
    """One of `ITEMS`."""
    points: int
    """The points this line gives the side."""
    count: int | None
    """How many: captured cards (majority), counting cards, 1 or 0 for a special card, xeris; None if not counted."""
    each: int | None
    """Points for each one (the majority's value for `majority`); None when cards of a hand differ."""
    note: str = ""
    """Why, as a key: `most`, `tie`, `not_most` for majority; `already_counted` when a special card adds nothing."""


# Speed: building a frozen dataclass costs about as much as the rest of scoring a hand, and a
# hand has 6 lines a side. Lines are immutable values and the possible ones are few (every count
# is bounded by the deck), so equal lines are built once and shared. `typed` keeps a line of
# `True` (a rule set may value ranks at `true`) apart from a line of 1.
_line = lru_cache(maxsize=4096, typed=True)(Line)


@lru_cache(maxsize=64, typed=True)
def _special_lines(ten_extra: int, ten_note: str, two_extra: int) -> tuple[tuple[Line, Line], tuple[Line, Line]]:
    """The 10♦ lines and the special two's lines of a side: without the card, then with it."""
    return ((_line("ten_of_diamonds", 0, 0, ten_extra, ten_note),
             _line("ten_of_diamonds", ten_extra, 1, ten_extra, ten_note)),
            (_line("two", 0, 0, two_extra, ""), _line("two", two_extra, 1, two_extra, "")))


@dataclass(frozen=True)
class HandScore:
    """The score of one hand."""

    points: tuple[int, ...]
    """Points per side."""
    lines: tuple[tuple[Line, ...], ...]
    """Itemised lines per side, in `ITEMS` order."""
    winner: int | None
    """The side with strictly the most points, or None when the top scores are equal."""

    def line(self, side: int, item: str) -> Line:
        """The line of `item` for `side`."""
        return self.lines[side][ITEMS.index(item)]


def hand_winner(points: Iterable[int]) -> int | None:
    """The side with strictly the most points, or None on equal top scores."""
    points = list(points)
    top = max(points)
    leaders = [i for i, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


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


def score_hand(entry: HandEntry, rules: RuleSet, sides: int) -> HandScore:
    """Score a hand entry; raise `InvalidHand` when it cannot be right."""
    check_hand(entry, rules, sides)
    majority = entry.majority()
    most, xeri, jack_xeri = rules.majority_points, rules.xeri_points, rules.jack_xeri_points
    ten_note = "already_counted" if rules.ten_of_diamonds_extra == 0 and rules.ten_of_diamonds_counts else ""
    ten_lines, two_lines = _special_lines(rules.ten_of_diamonds_extra, ten_note, rules.two_extra)
    if entry.held is None:
        each = rules.counting_point or 0
        counting = [_line("counting", n * each, n, each, "") for n in entry.counting]
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
                counting.append(_line("counting", n * each, n, each, ""))
            else:
                values = [rules.rank_value(c) for c in cards if rules.is_counting(c)]
                counting.append(_line("counting", sum(values), len(values), each, ""))
    piles = entry.cards if entry.cards is not None else (None,) * sides
    lines, points = [], []
    for side in range(sides):
        if majority is None:
            maj = _line("majority", 0, piles[side], most, "tie")
        elif majority == side:
            maj = _line("majority", most, piles[side], most, "most")
        else:
            maj = _line("majority", 0, piles[side], most, "not_most")
        cnt = counting[side]
        ten_line = ten_lines[1] if ten == side else ten_lines[0]
        two_line = two_lines[1] if two == side else two_lines[0]
        x, jx = entry.xeris[side], entry.jack_xeris[side]
        xeri_line = _line("xeris", x * xeri, x, xeri, "")
        jack_line = _line("jack_xeris", jx * jack_xeri, jx, jack_xeri, "")
        lines.append((maj, cnt, ten_line, two_line, xeri_line, jack_line))
        points.append(maj.points + cnt.points + ten_line.points + two_line.points + xeri_line.points + jack_line.points)
    points = tuple(points)
    return HandScore(points, tuple(lines), hand_winner(points))
