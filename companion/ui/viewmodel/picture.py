"""A match's score sheet as a picture for the group's chat: the plain values the sheet card draws
(`views.picture`), made from a stored match; the page captures the card as a PNG (`PageAdapter.share_picture`).

Shared by the scoreboard (a match just over) and a past match from the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ...engine.match import Standing, Status
from ...i18n import Translator
from ...i18n.explain import goal_text, join_names, status_text
from ...records import MatchRecord
from .sheet import HandRow, hand_rows


@dataclass(frozen=True)
class PictureSide:
    """One side as the picture names it, with its result."""

    name: str
    players: str | None
    """A partnership's players in words ("Anna and Dora"); None for a single player."""
    total: int
    hands_won: str
    """`3 hands won`."""
    is_winner: bool


@dataclass(frozen=True)
class SheetPicture:
    """Everything the picture of a match says, in the phone's language."""

    title: str
    day: str
    """The day the match ended (or started, if it never did), as the language writes it."""
    rules: str
    """The rule set and the goal: `Classic Xeri · first to 151 (251 if …)`."""
    result: str
    """`Anna wins the match.`, or how it stands."""
    won: bool
    """Whether a side won (the result line carries a trophy)."""
    sides: tuple[PictureSide, ...]
    hands: tuple[HandRow, ...]
    """Every hand, oldest first."""
    hand_head: str
    total_head: str
    no_hands: str
    """Said in place of the table when no hand was played."""
    footer: str
    caption: str
    """The words shared with the picture: the result, the totals, the goal and the hands played."""
    file_name: str
    label: str
    """The picture in one sentence, for screen readers (the card is never on screen; this is for tests)."""


def picture_day(record: MatchRecord) -> date:
    """The day a match is dated by: the day it was decided, else the day it started (UTC, as stored)."""
    stamp = record.finished or record.created
    try:
        return date.fromisoformat(stamp[:10])
    except ValueError:
        return date(1970, 1, 1)


def sheet_picture(record: MatchRecord, st: Standing, tr: Translator) -> SheetPicture:
    """The picture of match `record`, standing `st`, in `tr`'s language."""
    match = record.match
    names = [side.name for side in match.sides]
    sides = tuple(PictureSide(side.name, join_names(side.players, tr) if side.players else None, st.totals[i],
                              tr.n("match.hands_won", st.hands_won[i]), st.winner == i and st.status is Status.WON)
                  for i, side in enumerate(match.sides))
    hands = tuple(reversed(hand_rows(match, st, tr)))      # the score sheet's rows, oldest first
    if record.abandoned and not st.is_over:
        result, short = tr("history.abandoned_long"), tr("history.abandoned_long")
    else:
        result = status_text(match, st, tr)
        short = _over_title(record, st, tr) if st.is_over else tr("share.in_play")
    goal = goal_text(match.goal, tr, st.target)
    when = picture_day(record)
    totals = " – ".join(f"{name} {total}" for name, total in zip(names, st.totals))
    caption = tr("share.result", result=short, totals=totals, goal=goal, hands=tr.n("share.hands", len(st.scores)))
    title = tr("picture.title")
    day = tr.day(when)
    return SheetPicture(
        title=title, day=day, rules=f"{tr(f'rules.{match.rules.name}.title')} · {goal}", result=result,
        won=st.status is Status.WON, sides=sides, hands=hands, hand_head=tr("picture.hand"),
        total_head=tr("picture.total"), no_hands=tr("match.no_hands"), footer=tr("app.title"), caption=caption,
        file_name=f"xeri-score-sheet-{when.isoformat()}.png",
        label=f"{title}, {day}. {result} {totals}.")


def _over_title(record: MatchRecord, st: Standing, tr: Translator) -> str:
    """`Anna wins!`, `Reds win!`, `A draw!` (as the end of the match says it)."""
    if st.status is Status.WON and st.winner is not None:
        side = record.match.sides[st.winner]
        return tr("over.winner.team" if side.players else "over.winner", side=side.name)
    return tr("over.drawn")
