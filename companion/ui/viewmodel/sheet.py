"""A match's hands as the screens show them: one row per hand, and each hand's breakdown line by line.

Shared by the scoreboard and a past match; plain values, so the screens need no engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...engine.match import Match, Standing
from ...engine.scoring import ITEMS, HandScore
from ...history.stats import running_totals_series
from ...i18n import Translator
from ...i18n.explain import item_label, line_text


@dataclass(frozen=True)
class HandRow:
    """One hand of the score sheet."""

    index: int
    """The hand's place, from 0."""
    title: str
    """`Hand 3`."""
    detail: str
    """Who dealt, and who won it."""
    points: tuple[int, ...]
    """Each side's points in the hand."""
    running: tuple[int, ...]
    """Each side's total after the hand."""
    winner: int | None
    """The side that won the hand, or None."""
    dealer: str = ""
    """Who dealt it."""
    event: str | None = None
    """What the hand did to the match, in words: "Both passed 151: played on to 251"."""

    @property
    def number(self) -> int:
        """The hand's number, from 1."""
        return self.index + 1


@dataclass(frozen=True)
class BreakdownLine:
    """One item of a side's score: its name, the rule in words, the points."""

    label: str
    text: str
    points: int


@dataclass(frozen=True)
class BreakdownSide:
    """A side's part of a hand's breakdown."""

    side: int
    name: str
    total: int
    lines: tuple[BreakdownLine, ...]


def target_in_force(goal: Mapping[str, int], totals: Sequence[int]) -> int | None:
    """The target a race stands at, from its goal (match-file form) and its totals alone: it rose by the
    step each time two sides reached it together, and totals never go down, so while two or more sides
    are at or over a target it was raised. None for a hands goal."""
    target, extension = goal.get("target"), goal.get("extension")
    if not target:
        return None
    step = max(1, (extension or target + 100) - target)
    while sum(1 for t in totals if t >= target) >= 2:
        target += step
    return target


def extension_event(match: Match, st: Standing, index: int, tr: Translator) -> str | None:
    """What hand `index` did to the target, in words, when it raised it ("Both passed 151: played on to 251")."""
    if not st.extensions:
        return None
    targets = running_totals_series(match).target
    if targets and targets[index + 1] != targets[index]:
        return tr("match.extension_event", first=targets[index], target=targets[index + 1])
    return None


def hand_rows(match: Match, st: Standing, tr: Translator) -> list[HandRow]:
    """The hands of the match, newest first, each with the running totals and what it did to the target."""
    targets = running_totals_series(match).target if st.extensions else None
    rows = []
    for index in reversed(range(len(st.scores))):
        score = st.scores[index]
        dealer = match.seats[match.dealer_of(index)].player
        winner = (tr("match.hand_winner", side=match.sides[score.winner].name) if score.winner is not None
                  else tr("match.hand_tie"))
        event = None
        if targets and targets[index + 1] != targets[index]:
            event = tr("match.extension_event", first=targets[index], target=targets[index + 1])
        rows.append(HandRow(index, tr("match.hand_n", n=index + 1),
                            tr("match.hand_dealer", dealer=dealer) + " · " + winner,
                            score.points, st.running[index], score.winner, dealer, event))
    return rows


def breakdown(match: Match, score: HandScore, tr: Translator) -> list[BreakdownSide]:
    """Every line of a hand's score, per side, with the rule it comes from in words."""
    out = []
    for side, s in enumerate(match.sides):
        lines = tuple(BreakdownLine(item_label(item, match.rules, tr), line_text(line, match.rules, tr), line.points)
                      for item, line in zip(ITEMS, score.lines[side]))
        out.append(BreakdownSide(side, s.name, score.points[side], lines))
    return out
