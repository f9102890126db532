"""Each finished or abandoned match scored once by the engine, kept as the few numbers the figures need.

Which matches count: the history is every match that is finished (`MatchRecord.finished` set) or
abandoned; matches still in play are left out everywhere. Scoring is nearly all the cost of the
history's figures (the engine checks and itemises every hand), so a page that shows several figures,
or the app's `HistoryCache`, scores once and passes the scored history around.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, UTC
from collections.abc import Iterable

from ..engine.live import TapKind
from ..engine.match import Match, Status, standing
from ..engine.scoring import HandScore, Item, Note
from ..records import MatchRecord

__all__ = ["SideFigures", "ScoredMatch", "is_history", "score_record", "score_history", "scored", "player_names"]

# Where each scoring item sits among a side's lines (`HandScore.lines[side]` is in `ITEMS` order).
_MAJORITY, _TEN, _TWO, _XERIS, _JACK_XERIS = (list(Item).index(i) for i in
                                               (Item.MAJORITY, Item.TEN_OF_DIAMONDS, Item.TWO, Item.XERIS,
                                                Item.JACK_XERIS))


# --- scoring each stored match once --------------------------------------------------------------

def _parse_time(text: str, record_id: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValueError(f"match {record_id}: {text!r} is not an ISO 8601 timestamp") from None
    # Records are written in UTC; a timestamp without a zone is read as UTC so that all compare.
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@dataclass(frozen=True)
class SideFigures:
    """One side's hand figures in one match, worked out once so that a player's page only adds them up."""

    points: int
    """Points the side scored in the match's hands."""
    hands_won: int
    """Hands the side won (strictly the most points)."""
    hands_tied: int
    """Hands with equal top scores, won by nobody."""
    xeris: int
    """Xeris (not jack xeris)."""
    jack_xeris: int
    """Jack xeris."""
    ten_of_diamonds: int
    """Hands in which the side took the 10♦."""
    two: int
    """Hands in which the side took the special two."""
    most_cards: int
    """Hands in which the side had strictly the most cards."""
    best_points: int | None
    """The most points the side scored in one hand; None for a match without hands."""
    best_hand: int | None
    """The number (from 1) of the first hand with `best_points`."""


def _side_figures(scores: tuple[HandScore, ...], side: int) -> SideFigures:
    points = won = tied = xeris = jack_xeris = tens = twos = most = 0
    best, best_hand = None, None
    for number, score in enumerate(scores, start=1):
        mine, lines = score.points[side], score.lines[side]
        points += mine
        if score.winner == side:
            won += 1
        elif score.winner is None:
            tied += 1
        xeris += lines[_XERIS].count or 0
        jack_xeris += lines[_JACK_XERIS].count or 0
        tens += lines[_TEN].count or 0
        twos += lines[_TWO].count or 0
        most += lines[_MAJORITY].note is Note.MOST
        if best is None or mine > best:
            best, best_hand = mine, number
    return SideFigures(points, won, tied, xeris, jack_xeris, tens, twos, most, best, best_hand)


@dataclass(frozen=True)
class ScoredMatch:
    """A finished or abandoned match scored once by the engine, kept as the few numbers the figures need.

    (Not the whole `Standing`: its itemised lines are many small objects, and a history of a thousand
    matches would keep a hundred thousand of them alive for nothing.)
    """

    record: MatchRecord
    """The stored match."""
    date: str
    """The timestamp the match is dated by: when it finished, or when it started if it never did."""
    when: datetime
    """`date` as an aware UTC datetime, for ordering and months."""
    status: Status
    """Won, drawn, or playing (abandoned)."""
    winner: int | None
    """The winning side, once won."""
    totals: tuple[int, ...]
    """Points per side."""
    hands_won: tuple[int, ...]
    """Hands won per side."""
    hand_points: tuple[tuple[int, ...], ...]
    """Each hand's points per side (hands after the deciding hand, which a stored match never has, left out)."""
    hand_winners: tuple[int | None, ...]
    """Each hand's winning side, or None for a hand won by nobody."""
    sides: tuple[SideFigures, ...]
    """Each side's hand figures."""
    seat_taps: tuple[tuple[int, int, int], ...] = ()
    """Each seat's own (xeris, jack xeris, hands) from the live taps the hands were saved with, over the hands
    whose taps are known: in a partnership, who of the two made the xeris."""

    @property
    def match(self) -> Match:
        """The engine's match."""
        return self.record.match

    @property
    def is_decided(self) -> bool:
        """True when the match was won or drawn; False when it was abandoned."""
        return self.status is not Status.PLAYING

    def seat_of(self, player_id: str) -> int | None:
        """The player's seat (see `Match.seats`: partners sit opposite), or None when not at the table."""
        sides = len(self.record.player_ids)
        for side, ids in enumerate(self.record.player_ids):
            if player_id in ids:
                return ids.index(player_id) * sides + side if self.match.rules.partnerships else side
        return None

    def side_of(self, player_id: str) -> int | None:
        """The side the player sat on, or None when the player was not at the table."""
        for side, ids in enumerate(self.record.player_ids):
            if player_id in ids:
                return side
        return None

    def result_of(self, side: int) -> str:
        """`won`, `lost`, `drawn`, or `abandoned`, for the side."""
        if self.status is Status.WON:
            return "won" if self.winner == side else "lost"
        return "drawn" if self.status is Status.DRAWN else "abandoned"


def is_history(record: MatchRecord) -> bool:
    """True for a match that belongs to the history: finished, or abandoned."""
    return record.finished is not None or record.abandoned


def score_record(record: MatchRecord) -> ScoredMatch:
    """The record scored by the engine; `InvalidHand` if a stored hand cannot be scored under its rules."""
    # strict=False: a stored match never has hands after its end, but if one did, the figures count
    # the hands up to the end instead of failing the whole history page.
    date = record.finished or record.created
    st = standing(record.match, strict=False)
    return ScoredMatch(
        record=record, date=date, when=_parse_time(date, record.id),
        status=st.status, winner=st.winner, totals=st.totals, hands_won=st.hands_won,
        hand_points=tuple(score.points for score in st.scores),
        hand_winners=tuple(score.winner for score in st.scores),
        sides=tuple(_side_figures(st.scores, side) for side in range(len(record.match.sides))),
        seat_taps=_seat_taps(record, len(st.scores)),
    )


def _seat_taps(record: MatchRecord, hands: int) -> tuple[tuple[int, int, int], ...]:
    seats = len(record.match.seats)
    xeris, jacks, known = [0] * seats, [0] * seats, 0
    for hand in range(hands):
        taps = record.taps_of(hand)
        if taps is None:
            continue
        known += 1
        for tap in taps:
            if 0 <= tap.seat < seats:
                (xeris if tap.kind is TapKind.XERI else jacks)[tap.seat] += 1
    return tuple((xeris[s], jacks[s], known) for s in range(seats))


def _order_key(scored: ScoredMatch) -> tuple[datetime, str, str]:
    return scored.when, scored.record.created, scored.record.id


def scored(items: Iterable[MatchRecord | ScoredMatch], player_id: str | None = None) -> list[ScoredMatch]:
    """The history in the items (only the player's, when given), scored, oldest first."""
    out = []
    for item in items:
        record = item.record if isinstance(item, ScoredMatch) else item
        if player_id is not None and not any(player_id in ids for ids in record.player_ids):
            continue  # before scoring: scoring is the expensive part
        if isinstance(item, ScoredMatch):
            out.append(item)
        elif is_history(item):
            out.append(score_record(item))
    out.sort(key=_order_key)
    return out


def score_history(records: Iterable[MatchRecord | ScoredMatch]) -> tuple[ScoredMatch, ...]:
    """The finished and abandoned matches, each scored once, oldest first (pass it to the other functions)."""
    return tuple(scored(records))


def player_names(records: Iterable[MatchRecord | ScoredMatch]) -> dict[str, str]:
    """Each player id with the name it had in its newest match (any match, in play or not)."""
    newest: dict[str, tuple[tuple[datetime, str, str], str]] = {}
    for item in records:
        record = item.record if isinstance(item, ScoredMatch) else item
        key = (_parse_time(record.finished or record.created, record.id), record.created, record.id)
        for side, ids in zip(record.match.sides, record.player_ids):
            for player_id, name in zip(ids, side.members):
                if player_id not in newest or key > newest[player_id][0]:
                    newest[player_id] = (key, name)
    return {player_id: name for player_id, (_, name) in sorted(newest.items())}
