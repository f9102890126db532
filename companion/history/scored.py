"""Each finished or abandoned match scored once by the engine, kept as the few numbers the figures need.

Which matches count: the history is every match that is finished (`MatchRecord.finished` set) or
abandoned; matches still in play are left out everywhere. Scoring is nearly all the cost of the
history's figures (the engine checks and itemises every hand), so a page that shows several figures,
or the app's `HistoryCache`, scores once and passes the scored history around.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, field, fields
from itertools import chain
from operator import attrgetter, itemgetter
from datetime import datetime, UTC
from typing import Any
from collections.abc import Iterable

from ..engine.live import TapKind
from ..engine.match import Status, standing
from ..engine.scoring import HandScore, Item, Note
from ..records import MatchRecord, MatchSummary

__all__ = ["SideFigures", "ScoredMatch", "is_history", "score_record", "score_history", "scored", "player_names",
           "figures_doc", "from_figures", "FIGURES"]

FIGURES = 1
"""The version of the figures a stored summary keeps (`figures_doc`): raise it when what they hold changes, and
every stored summary is worked out again from its match file, once."""

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


@dataclass(frozen=True, slots=True)
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
    top_xeris: int = 0
    """The most xeris the side made in one hand."""
    top_xeris_hand: int | None = None
    """The number (from 1) of the first hand with `top_xeris` xeris (None when it made none)."""
    top_jack_xeris: int = 0
    """The most jack xeris the side made in one hand."""
    top_jack_xeris_hand: int | None = None
    """The number (from 1) of the first hand with `top_jack_xeris` jack xeris (None when it made none)."""


def _side_figures(scores: tuple[HandScore, ...], side: int) -> SideFigures:
    points = won = tied = xeris = jack_xeris = tens = twos = most = top_x = top_j = 0
    best, best_hand, top_x_hand, top_j_hand = None, None, None, None
    for number, score in enumerate(scores, start=1):
        mine, lines = score.points[side], score.lines[side]
        points += mine
        if score.winner == side:
            won += 1
        elif score.winner is None:
            tied += 1
        x, j = lines[_XERIS].count or 0, lines[_JACK_XERIS].count or 0
        xeris += x
        jack_xeris += j
        if x > top_x:
            top_x, top_x_hand = x, number
        if j > top_j:
            top_j, top_j_hand = j, number
        tens += lines[_TEN].count or 0
        twos += lines[_TWO].count or 0
        most += lines[_MAJORITY].note is Note.MOST
        if best is None or mine > best:
            best, best_hand = mine, number
    return SideFigures(points, won, tied, xeris, jack_xeris, tens, twos, most, best, best_hand,
                       top_x, top_x_hand, top_j, top_j_hand)


@dataclass(frozen=True, slots=True)
class ScoredMatch:
    """A finished or abandoned match scored once by the engine, kept as the few numbers the figures need.

    (Not the whole `Standing`, nor the record: its itemised lines and hands are many small objects, and a
    history of a thousand matches would keep a hundred thousand of them alive for nothing. What is not in
    the stored summary is kept beside it (`figures_doc`), so the history is built without a match file read.)
    """

    id: str
    """The match's id."""
    created: str
    """When the match was started."""
    finished: str | None
    """When it was won or drawn; None when it was abandoned."""
    player_ids: tuple[tuple[str, ...], ...]
    """Each side's player ids (`MatchRecord.player_ids`)."""
    members: tuple[tuple[str, ...], ...]
    """Each side's players' names, as the match was stored (`Side.members`)."""
    rules: str
    """The rule set's name."""
    partnerships: bool
    """True when two partnerships played (partners sit opposite: see `Match.seats`)."""
    race: bool
    """True when the match's goal was a race to a target; False for an agreed number of hands."""
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
    players: frozenset[str] = field(init=False, repr=False, compare=False)
    """Every player id at the table (`player_ids` as a set: a player's figures pick their matches by it)."""
    order: tuple[datetime, str, str] = field(init=False, repr=False, compare=False)
    """Where the match sits in the history (`order_key`), worked out once: every figure sorts by it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", frozenset(p for ids in self.player_ids for p in ids))
        object.__setattr__(self, "order", (self.when, self.created, self.id))

    @property
    def is_decided(self) -> bool:
        """True when the match was won or drawn; False when it was abandoned."""
        return self.status is not Status.PLAYING

    def seat_of(self, player_id: str) -> int | None:
        """The player's seat (see `Match.seats`: partners sit opposite), or None when not at the table."""
        sides = len(self.player_ids)
        for side, ids in enumerate(self.player_ids):
            if player_id in ids:
                return ids.index(player_id) * sides + side if self.partnerships else side
        return None

    def partner_seat(self, seat: int) -> int | None:
        """The seat opposite `seat` in a partnership (its partner's, as `Match.seats` seats them); None otherwise."""
        if not self.partnerships:
            return None
        sides = len(self.player_ids)
        return (seat + sides) % (2 * sides)

    def side_of(self, player_id: str) -> int | None:
        """The side the player sat on, or None when the player was not at the table."""
        for side, ids in enumerate(self.player_ids):
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
    match = record.match
    return ScoredMatch(
        id=record.id, created=record.created, finished=record.finished, player_ids=record.player_ids,
        members=tuple(side.members for side in match.sides), rules=match.rules.name,
        partnerships=match.rules.partnerships, race=match.goal.is_race, date=date, when=_parse_time(date, record.id),
        status=st.status, winner=st.winner, totals=st.totals, hands_won=st.hands_won,
        hand_points=tuple(score.points for score in st.scores),
        hand_winners=tuple(score.winner for score in st.scores),
        sides=tuple(_side_figures(st.scores, side) for side in range(len(match.sides))),
        seat_taps=_seat_taps(record, len(st.scores)),
    )


# --- the figures kept with each stored summary ---------------------------------------------------

def figures_doc(scored: ScoredMatch) -> list[int | None]:
    """What of a scored match its summary (`MatchSummary`) does not hold, as one flat JSON list: the store keeps
    it with the match's summary, written with each save, so the history is built without reading a match file
    (`from_figures` turns it back).

    One list of numbers, not nested lists: the index of 5,000 matches stays in memory while the app runs, and
    every list in it is an object the garbage collector walks on each full collection (18 per match nested, 1
    flat). In order, for `n` sides, `h` hands and `s` seats: `FIGURES` (the version), partnerships (1 or 0),
    `n`, `h`; hands won per side (n); each hand's points per side (h × n); each hand's winner, or null (h); each
    side's `SideFigures`, field after field (14 × n); each seat's own (xeris, jack xeris, hands) (3 × s).
    """
    return [FIGURES, int(scored.partnerships), len(scored.sides), len(scored.hand_points), *scored.hands_won,
            *chain.from_iterable(scored.hand_points), *scored.hand_winners,
            *chain.from_iterable(astuple(fig) for fig in scored.sides), *chain.from_iterable(scored.seat_taps)]


_WHOLE, _WHOLE_OR_NONE = frozenset({int}), frozenset({int, type(None)})
_SIDE_FIELDS = len(fields(SideFigures))
_REQUIRED = itemgetter(*(i for i, f in enumerate(fields(SideFigures))
                         if f.name not in {"best_points", "best_hand", "top_xeris_hand", "top_jack_xeris_hand"}))
"""A side's figures that are always whole numbers (the others are None where there is no such hand)."""


def from_figures(summary: MatchSummary, doc: Any) -> ScoredMatch:
    """The scored match of a stored summary and its figures (`figures_doc`); `ValueError` when the figures are
    not such a list, of this version (`FIGURES`), for a match of the summary's sides. (Read for every match of
    the history when it is built: the checks are slices and C-level `map`, not loops here.)"""
    if type(doc) is not list or len(doc) < 4 or doc[0] != FIGURES or not set(map(type, doc)) <= _WHOLE_OR_NONE:
        raise ValueError("not the figures of this version")
    if None in doc[:4]:
        raise ValueError("not the figures of a match")
    _, partnerships, n, h = doc[:4]
    seats = 2 * n if partnerships else n
    if n != len(summary.sides) or partnerships not in (0, 1) or h < 0 \
            or len(doc) != 4 + n + h * n + h + _SIDE_FIELDS * n + 3 * seats:
        raise ValueError("not the figures of a match of these sides")
    at = 4 + n + h * n
    taps = at + h + _SIDE_FIELDS * n
    side_figures = [doc[i:i + _SIDE_FIELDS] for i in range(at + h, taps, _SIDE_FIELDS)]
    if None in doc[4:at] or None in doc[taps:] or any(None in _REQUIRED(fig) for fig in side_figures):
        raise ValueError("a figure is missing")
    date = summary.finished or summary.created
    return ScoredMatch(
        id=summary.id, created=summary.created, finished=summary.finished, player_ids=summary.player_ids,
        members=summary.members, rules=summary.rules, partnerships=bool(partnerships),
        race=summary.goal.get("target") is not None, date=date, when=_parse_time(date, summary.id),
        status=summary.status, winner=summary.winner, totals=summary.totals, hands_won=tuple(doc[4:4 + n]),
        hand_points=tuple(tuple(doc[i:i + n]) for i in range(4 + n, at, n)), hand_winners=tuple(doc[at:at + h]),
        sides=tuple(SideFigures(*fig) for fig in side_figures),
        seat_taps=tuple(tuple(doc[i:i + 3]) for i in range(taps, len(doc), 3)))


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


def order_key(scored: ScoredMatch) -> tuple[datetime, str, str]:
    """Where a scored match sits in the history: by date, then start, then id."""
    return scored.order


_ORDER = attrgetter("order")


def scored(items: Iterable[MatchRecord | ScoredMatch], player_id: str | None = None) -> list[ScoredMatch]:
    """The history in the items (only the player's, when given), scored, oldest first."""
    out = []
    for item in items:
        if player_id is not None and (player_id not in item.players if isinstance(item, ScoredMatch)
                                      else not any(player_id in ids for ids in item.player_ids)):
            continue  # before scoring: scoring is the expensive part
        if isinstance(item, ScoredMatch):
            out.append(item)
        elif is_history(item):
            out.append(score_record(item))
    out.sort(key=_ORDER)
    return out


def score_history(records: Iterable[MatchRecord | ScoredMatch]) -> tuple[ScoredMatch, ...]:
    """The finished and abandoned matches, each scored once, oldest first (pass it to the other functions)."""
    return tuple(scored(records))


def player_names(records: Iterable[MatchRecord | ScoredMatch]) -> dict[str, str]:
    """Each player id with the name it had in its newest match (any match, in play or not)."""
    newest: dict[str, tuple[tuple[datetime, str, str], str]] = {}
    for item in records:
        if isinstance(item, ScoredMatch):
            key, members = order_key(item), item.members
        else:
            key = (_parse_time(item.finished or item.created, item.id), item.created, item.id)
            members = tuple(side.members for side in item.match.sides)
        for ids, names in zip(item.player_ids, members):
            for player_id, name in zip(ids, names):
                if player_id not in newest or key > newest[player_id][0]:
                    newest[player_id] = (key, name)
    return {player_id: name for player_id, (_, name) in sorted(newest.items())}
