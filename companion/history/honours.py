"""A group's records over the scored history: the highest hand, the most xeris in a hand, the longest winning
streak, the biggest comeback. Called honours here so as not to be confused with `companion.records`.

Which matches count, as for the other figures (see stats.py): the per-hand records count every hand of finished
and abandoned matches alike; the streak counts only decided matches, and the comeback only won races. A record
belongs to a side: a partnership's record names both partners (`player_ids`), since they share one capture pile.
A side without player ids (a record stored without them) holds no record: there would be nobody to name.

Ties: the first to reach a value keeps the record, in history order (oldest first, as `score_history` orders
it), then hand order, then side order. So every device that holds the same history shows the same records.

Pure: a function of the scored history, no I/O: every figure comes from `ScoredMatch`'s numbers (the most
xeris of a side in one hand too), so no match is scored again.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from collections.abc import Callable, Sequence

from ..engine.match import Status
from .scored import ScoredMatch, SideFigures

__all__ = ["HonourKind", "Honour", "Honours", "honours"]


class HonourKind(enum.StrEnum):
    """Which record an honour is; the value is the name of its field in `Honours`."""

    HIGHEST_HAND = "highest_hand"
    MOST_XERIS_IN_A_HAND = "most_xeris_in_a_hand"
    MOST_JACK_XERIS_IN_A_HAND = "most_jack_xeris_in_a_hand"
    LONGEST_WINNING_STREAK = "longest_winning_streak"
    BIGGEST_COMEBACK = "biggest_comeback"


@dataclass(frozen=True)
class Honour:
    """One record of the group: what it is, how much, whose, and where it was set."""

    kind: HonourKind
    """Which record."""
    value: int
    """Points in a hand, xeris (or jack xeris) in a hand, matches won in a row, or points come back from."""
    player_ids: tuple[str, ...]
    """Who holds it: the side's players (both partners of a partnership); for a streak, those of the side
    whose own streak it is (both partners when they won every match of it together)."""
    side: int
    """The side that set it, in `match_id`."""
    match_id: str
    """The match it was set in; for a streak, the last match won in it."""
    date: str
    """That match's date (`ScoredMatch.date`)."""
    hand: int | None = None
    """The hand (from 1) of a per-hand record; for a comeback, the first hand after which the winner was
    furthest behind; None for a streak."""
    from_match_id: str | None = None
    """For a streak, the first match won in it; None for the other records."""


@dataclass(frozen=True)
class Honours:
    """The group's records; each is None while no match has set it."""

    highest_hand: Honour | None = None
    """The most points one side scored in one hand (finished and abandoned matches)."""
    most_xeris_in_a_hand: Honour | None = None
    """The most xeris (not jack xeris) one side made in one hand; None until somebody made one."""
    most_jack_xeris_in_a_hand: Honour | None = None
    """The most jack xeris one side made in one hand; None until somebody made one."""
    longest_winning_streak: Honour | None = None
    """The most decided matches one player won in a row: a loss or a draw ends a streak, an abandoned
    match neither ends nor extends it."""
    biggest_comeback: Honour | None = None
    """The most points a winner was behind the best other side after a hand, in a won race. Matches played
    for a number of hands are left out: they are won on hands, not points, and a deficit in hands won would
    not compare with one in points."""

    def items(self) -> tuple[Honour, ...]:
        """The records that are set, in `HonourKind` order."""
        found = (getattr(self, kind.value) for kind in HonourKind)
        return tuple(h for h in found if h is not None)


def honours(history: Sequence[ScoredMatch]) -> Honours:
    """The group's records over `history`, oldest first (as `score_history` returns it)."""
    xeris, jack_xeris = _most_in_a_hand(history)
    return Honours(highest_hand=_highest_hand(history), most_xeris_in_a_hand=xeris,
                   most_jack_xeris_in_a_hand=jack_xeris, longest_winning_streak=_longest_streak(history),
                   biggest_comeback=_biggest_comeback(history))


def _ids(sm: ScoredMatch, side: int) -> tuple[str, ...]:
    ids = sm.player_ids
    return ids[side] if side < len(ids) else ()


def _honour(kind: HonourKind, value: int, sm: ScoredMatch, side: int, hand: int | None) -> Honour:
    return Honour(kind=kind, value=value, player_ids=_ids(sm, side), side=side, match_id=sm.id,
                  date=sm.date, hand=hand)


def _beats(value: int, best: Honour | None) -> bool:
    return best is None or value > best.value


def _value(best: Honour | None) -> int:
    return best.value if best is not None else 0


def _highest_hand(history: Sequence[ScoredMatch]) -> Honour | None:
    best = None
    for sm in history:
        for number, points in enumerate(sm.hand_points, start=1):
            for side, mine in enumerate(points):
                if _beats(mine, best) and _ids(sm, side):
                    best = _honour(HonourKind.HIGHEST_HAND, mine, sm, side, number)
    return best


_COUNTED: tuple[tuple[HonourKind, Callable[[SideFigures], tuple[int, int | None]]], ...] = (
    (HonourKind.MOST_XERIS_IN_A_HAND, lambda fig: (fig.top_xeris, fig.top_xeris_hand)),
    (HonourKind.MOST_JACK_XERIS_IN_A_HAND, lambda fig: (fig.top_jack_xeris, fig.top_jack_xeris_hand)),
)
"""The per-hand counts: the record, and a side's most in one hand of its match with the first hand holding it."""


def _most_in_a_hand(history: Sequence[ScoredMatch]) -> tuple[Honour | None, ...]:
    best: dict[HonourKind, Honour | None] = {kind: None for kind, _ in _COUNTED}
    for sm in history:
        for kind, top in _COUNTED:
            # The match's first hand, then side, that holds the most: where a hand-by-hand walk sets the record.
            found = [(count, -hand, -side) for side, fig in enumerate(sm.sides) for count, hand in (top(fig),)
                     if hand is not None and count > _value(best[kind]) and _ids(sm, side)]
            if found:
                count, hand, side = max(found)
                best[kind] = _honour(kind, count, sm, -side, -hand)
    return tuple(best[kind] for kind, _ in _COUNTED)


def _longest_streak(history: Sequence[ScoredMatch]) -> Honour | None:
    running: dict[str, tuple[int, int]] = {}  # player id -> (matches won in a row, index of the first)
    best = None
    for index, sm in enumerate(history):
        if not sm.is_decided:
            continue
        for side, ids in enumerate(sm.player_ids):
            if side != sm.winner:
                for player_id in ids:
                    running.pop(player_id, None)
        if sm.winner is None or not (team := _ids(sm, sm.winner)):
            continue
        for player_id in team:
            length, first = running.get(player_id, (0, index))
            running[player_id] = (length + 1, first)
        # Partners reach their streaks together; the longer, then the one begun earlier, is theirs.
        length, first = min((running[p] for p in team), key=lambda run: (-run[0], run[1]))
        if _beats(length, best):
            holders = tuple(p for p in team if running[p] == (length, first))
            best = Honour(kind=HonourKind.LONGEST_WINNING_STREAK, value=length, player_ids=holders,
                          side=sm.winner, match_id=sm.id, date=sm.date,
                          from_match_id=history[first].id)
    return best


def _biggest_comeback(history: Sequence[ScoredMatch]) -> Honour | None:
    best = None
    for sm in history:
        winner = sm.winner
        if sm.status is not Status.WON or winner is None or not sm.race or not _ids(sm, winner):
            continue
        totals = [0] * len(sm.totals)
        deepest, at = 0, None
        for number, points in enumerate(sm.hand_points, start=1):
            totals = [t + p for t, p in zip(totals, points)]
            behind = max(t for side, t in enumerate(totals) if side != winner) - totals[winner]
            if behind > deepest:
                deepest, at = behind, number
        if at is not None and _beats(deepest, best):
            best = _honour(HonourKind.BIGGEST_COMEBACK, deepest, sm, winner, at)
    return best
