"""Skill ratings from the group's history: openskill's Weng–Lin Bayesian model (Plackett–Luce), never one of
our own. Pure: a function of the scored history and the season asked for; no I/O.

What counts: every decided match (won or drawn; an abandoned match is left out) in the season, whose seats all
have player ids, in the order the matches finished (ties by match id: every device of a group orders them
alike, as every device has the same matches with the same finishing times and ids). Two sides of one player
are a one-player team each; a partnership is a two-player team; three and four players are a ranking. The
ranking is the match's result: the winner first, the others by what the goal counts (points in a race, hands
won in a match of so many hands), sides level share a place, and a draw is a draw.

What is shown is openskill's ordinal, the conservative skill μ − 3σ ("at least this good, nearly surely"), on
a friendly scale: `SHOWN_TARGET` + `SHOWN_ALPHA` × (μ − 3σ), so a newcomer starts at 1000. A player is
*provisional* for their first `PROVISIONAL_MATCHES` matches of the season: until then σ is most of the
number, and the rating says more about how little is known than about how well they play.

`RatingBook` keeps the work of earlier calls: a new match at the end of the season costs one openskill update;
a match edited, deleted or arriving late replays from the last checkpoint before it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING

from ..engine.match import Status
from .scored import ScoredMatch

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = ["Filter", "Leaderboard", "Move", "PlayerRating", "RatingBook", "Season", "leaderboard", "table_of",
           "PROVISIONAL_MATCHES", "SHOWN_ALPHA", "SHOWN_TARGET"]

PROVISIONAL_MATCHES = 5
"""Matches a player's rating is provisional for (see the module's docstring)."""
SHOWN_ALPHA, SHOWN_TARGET = 40.0, 1000.0
"""The friendly scale: shown = SHOWN_TARGET + SHOWN_ALPHA × (μ − 3σ) (openskill's `ordinal(alpha, target)`)."""
CHECKPOINT = 250
"""Matches between the ratings a `RatingBook` keeps to replay from."""
FORM = 5
"""Results in a player's form (the last five)."""
LEVEL = 1.0
"""Shown points within which two ratings are level (`Move.opponents_rated`)."""


@cache
def _model() -> PlackettLuce:
    """openskill's model, imported with the first match rated: not with the app, whose first screen rates
    nothing (in the browser build every module imported before it costs a first visit, issue #27)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def shown(mu: float, sigma: float) -> float:
    """A rating on the friendly scale."""
    return SHOWN_ALPHA * (mu - 3 * sigma) + SHOWN_TARGET


@dataclass(frozen=True)
class Season:
    """The matches a leaderboard counts: those finished from `start` (inclusive) to `end` (exclusive), UTC
    dates; None for no bound."""

    start: date | None = None
    end: date | None = None

    @classmethod
    def month(cls, today: date) -> Season:
        first = today.replace(day=1)
        return cls(first, (first + timedelta(days=32)).replace(day=1))

    @classmethod
    def quarter(cls, today: date) -> Season:
        first = today.replace(month=(today.month - 1) // 3 * 3 + 1, day=1)
        return cls(first, (first + timedelta(days=95)).replace(day=1))

    @classmethod
    def year(cls, today: date) -> Season:
        return cls(today.replace(month=1, day=1), today.replace(year=today.year + 1, month=1, day=1))

    def holds(self, when: datetime) -> bool:
        day = when.astimezone(UTC).date()
        return (self.start is None or day >= self.start) and (self.end is None or day < self.end)


TABLES = ("2", "3", "4", "2x2")
"""Table sizes a leaderboard may be kept to: two, three or four players, or two partnerships."""


def table_of(match: ScoredMatch) -> str:
    """The match's table size, one of `TABLES`."""
    return "2x2" if match.partnerships else str(len(match.totals))


@dataclass(frozen=True)
class Filter:
    """Which matches a leaderboard counts: a season, and optionally one rule set (its name) and one table size."""

    season: Season = Season()
    rules: str | None = None
    table: str | None = None

    def covers(self, match: ScoredMatch) -> bool:
        """Whether the match is of the season, the rule set and the table size (rated or not)."""
        return (self.season.holds(match.when) and (self.rules is None or match.rules == self.rules)
                and (self.table is None or table_of(match) == self.table))

    def holds(self, match: ScoredMatch) -> bool:
        """Whether the match is rated: covered, decided, and every seat's player known."""
        return (match.is_decided and match.finished is not None and self.covers(match)
                and bool(match.player_ids) and all(match.player_ids))


@dataclass(frozen=True)
class Move:
    """How one match moved one player's rating."""

    match_id: str
    date: str
    """The match's date (`ScoredMatch.date`)."""
    before: float
    after: float
    """The shown rating before and after the match."""
    result: str
    """`won`, `lost` or `drawn` (a ranking's winner won; a side placed below another lost)."""
    opponents: tuple[str, ...]
    """The other sides' players, by id."""
    opponents_rated: str
    """`above`, `level` or `below`: the opponents' mean shown rating before the match beside the player's (level
    within `LEVEL` points)."""

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class PlayerRating:
    """One player's line on the leaderboard."""

    player_id: str
    mu: float
    sigma: float
    moves: tuple[Move, ...]
    """Every match that moved the rating, oldest first."""
    week_change: float | None
    """Shown rating now minus a week before `now`; None when the player had no rated match a week before."""

    @property
    def rating(self) -> float:
        return shown(self.mu, self.sigma)

    @property
    def matches(self) -> int:
        return len(self.moves)

    @property
    def wins(self) -> int:
        return sum(m.result == "won" for m in self.moves)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES

    @property
    def form(self) -> tuple[str, ...]:
        """The last five results, oldest first."""
        return tuple(m.result for m in self.moves[-FORM:])


@dataclass(frozen=True)
class Leaderboard:
    """The players of a season, best first (by shown rating; provisional players after the others)."""

    players: tuple[PlayerRating, ...]
    matches: int
    """Matches counted."""

    def of(self, player_id: str) -> PlayerRating | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def ranked(self, names: Mapping[str, str]) -> tuple[PlayerRating, ...]:
        """The players in the order shown: best first, provisional after, equal ratings (partners who only ever
        played together) by name, the same on every device (player ids are each device's own)."""
        return tuple(sorted(self.players, key=lambda p: (p.provisional, -p.rating, names.get(p.player_id, ""),
                                                         p.player_id)))


@dataclass(frozen=True)
class _Effect:
    """What one match did: per player, the side, the result, and μ, σ before and after."""

    match_id: str
    date: str
    when: datetime
    lines: tuple[tuple[str, int, str, float, float, float, float], ...]


def _ranks(match: ScoredMatch) -> list[int]:
    """The sides' places (0 first, equal places shared): the winner first, then by what the goal counts."""
    counts = match.totals if match.race else match.hands_won
    keys = [(match.status is Status.WON and match.winner == side, counts[side]) for side in range(len(counts))]
    order = sorted(set(keys), reverse=True)
    return [order.index(key) for key in keys]


def _result(ranks: Sequence[int], side: int) -> str:
    best = min(ranks)
    if ranks[side] != best:
        return "lost"
    return "drawn" if ranks.count(best) > 1 else "won"


def _rate(match: ScoredMatch, ratings: dict[str, tuple[float, float]]) -> _Effect:
    """One openskill update; `ratings` (player id → μ, σ) is updated in place."""
    model = _model()
    fresh = model.rating()
    sides = match.player_ids
    teams = [[model.rating(*ratings.get(p, (fresh.mu, fresh.sigma))) for p in ids] for ids in sides]
    ranks = _ranks(match)
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    lines = []
    for side, (ids, before, after) in enumerate(zip(sides, teams, rated)):
        for player, b, a in zip(ids, before, after):
            ratings[player] = (a.mu, a.sigma)
            lines.append((player, side, _result(ranks, side), b.mu, b.sigma, a.mu, a.sigma))
    return _Effect(match.id, match.date, match.when, tuple(lines))


def _key(match: ScoredMatch) -> tuple:
    """What of a match its ratings depend on (an edit that changes none of it changes no rating)."""
    return (match.id, match.date, match.status, match.winner, match.totals, match.hands_won,
            match.player_ids, match.race)


def _order(match: ScoredMatch) -> tuple[datetime, str]:
    return match.when, match.id


@dataclass
class RatingBook:
    """The ratings of one filter, kept between calls (see the module's docstring)."""

    filter: Filter = Filter()
    _keys: list[tuple] = field(default_factory=list)
    _effects: list[_Effect] = field(default_factory=list)
    _checkpoints: dict[int, dict[str, tuple[float, float]]] = field(default_factory=lambda: {0: {}})
    _ratings: dict[str, tuple[float, float]] = field(default_factory=dict)
    _last: object = None
    _moves: dict[str, tuple[list[Move], list[datetime]]] = field(default_factory=dict)
    """Each player's moves so far, and when each match was (`leaderboard` asks on every page: each effect is
    turned into moves once, not on every call)."""
    _moved: int = 0
    """How many of `_effects` `_moves` holds."""

    def update(self, history: Iterable[ScoredMatch]) -> None:
        """Bring the ratings up to `history` (any order: the season's matches are ordered here). The very history
        of the last update (`HistoryCache` hands out the same tuple while nothing changed) costs nothing: Home
        asks on every redraw."""
        if isinstance(history, tuple) and history is self._last:   # a tuple cannot have changed since
            return
        self._last = history if isinstance(history, tuple) else None
        matches = sorted((m for m in history if self.filter.holds(m)), key=_order)
        keys = [_key(m) for m in matches]
        same = 0
        for old, new in zip(self._keys, keys):
            if old != new:
                break
            same += 1
        if same < len(self._effects):     # a match changed, left or came in before the end: replay from before it
            start = max(k for k in self._checkpoints if k <= same)
            self._ratings = dict(self._checkpoints[start])
            del self._effects[start:]
            self._moves, self._moved = {}, 0
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= start}
        for index in range(len(self._effects), len(matches)):
            if index % CHECKPOINT == 0 and index not in self._checkpoints:
                self._checkpoints[index] = dict(self._ratings)
            self._effects.append(_rate(matches[index], self._ratings))
        self._keys = keys

    def changes(self, match_ids: Iterable[str]) -> dict[str, float]:
        """How far these matches moved each of their players' shown ratings, added up (as of the last `update`;
        a match not rated is left out)."""
        wanted, out = set(match_ids), dict[str, float]()
        for effect in self._effects:
            if effect.match_id in wanted:
                for player, _, _, mu0, s0, mu1, s1 in effect.lines:
                    out[player] = out.get(player, 0.0) + shown(mu1, s1) - shown(mu0, s0)
        return out

    def leaderboard(self, now: datetime) -> Leaderboard:
        """The leaderboard as of the last `update`; `now` for the change since a week before."""
        for effect in self._effects[self._moved:]:
            shown_before = {p: shown(mu, sigma) for p, _, _, mu, sigma, _, _ in effect.lines}
            for player, side, result, mu0, s0, mu1, s1 in effect.lines:
                others = [p for p, s, *_ in effect.lines if s != side]
                gap = sum(shown_before[p] for p in others) / len(others) - shown_before[player] if others else 0.0
                rated = "above" if gap > LEVEL else "below" if gap < -LEVEL else "level"
                moves, whens = self._moves.setdefault(player, ([], []))
                moves.append(Move(effect.match_id, effect.date, shown(mu0, s0), shown(mu1, s1), result, tuple(others),
                                  rated))
                whens.append(effect.when)
        self._moved = len(self._effects)
        week_ago = now - timedelta(days=7)
        players = []
        for player, (mu, sigma) in self._ratings.items():
            moves, whens = self._moves.get(player, ([], []))
            at_week = bisect_right(whens, week_ago)   # the player's matches up to a week before `now`
            change = shown(mu, sigma) - moves[at_week - 1].after if at_week else None
            players.append(PlayerRating(player, mu, sigma, tuple(moves), change))
        players.sort(key=lambda p: (p.provisional, -p.rating, p.player_id))
        return Leaderboard(tuple(players), len(self._effects))


def leaderboard(history: Iterable[ScoredMatch], now: datetime, filter: Filter = Filter()) -> Leaderboard:
    """The leaderboard of `filter`'s matches in `history`, computed from scratch."""
    book = RatingBook(filter)
    book.update(history)
    return book.leaderboard(now)
