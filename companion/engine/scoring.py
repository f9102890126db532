"""Scoring a hand: itemised points per side, the side's total, and the hand's winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .cards import TEN_OF_DIAMONDS
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


def score_hand(entry: HandEntry, rules: RuleSet, sides: int) -> HandScore:
    """Score a hand entry; raise `InvalidHand` when it cannot be right."""
    check_hand(entry, rules, sides)
    majority = entry.majority()
    counting = entry.counting_of(rules)
    ten, two = entry.ten_holder(), entry.two_holder(rules)
    lines = []
    for side in range(sides):
        cards = entry.cards[side] if entry.cards is not None else None
        if majority is None:
            maj = Line("majority", 0, cards, rules.majority_points, "tie")
        elif majority == side:
            maj = Line("majority", rules.majority_points, cards, rules.majority_points, "most")
        else:
            maj = Line("majority", 0, cards, rules.majority_points, "not_most")
        if entry.held is None:
            each = rules.counting_point or 0
            cnt = Line("counting", counting[side] * each, counting[side], each)
        else:
            held = [c for c in entry.held[side] if rules.is_counting(c)]
            cnt = Line("counting", sum(rules.rank_value(c) for c in held), len(held), rules.counting_point)
        ten_note = "already_counted" if rules.ten_of_diamonds_extra == 0 and rules.is_counting(TEN_OF_DIAMONDS) else ""
        ten_line = Line("ten_of_diamonds", rules.ten_of_diamonds_extra if ten == side else 0,
                        int(ten == side), rules.ten_of_diamonds_extra, ten_note)
        two_line = Line("two", rules.two_extra if two == side else 0, int(two == side), rules.two_extra)
        x, jx = entry.xeris[side], entry.jack_xeris[side]
        side_lines = (maj, cnt, ten_line, two_line,
                      Line("xeris", x * rules.xeri_points, x, rules.xeri_points),
                      Line("jack_xeris", jx * rules.jack_xeri_points, jx, rules.jack_xeri_points))
        lines.append(side_lines)
    points = tuple(sum(line.points for line in side_lines) for side_lines in lines)
    return HandScore(points=points, lines=tuple(lines), winner=hand_winner(points))
