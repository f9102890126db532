"""What a player's page shows, as numbers and ids (no words): worked out from the scored history and the
all-time ratings, and kept between runs of the app so a page opens at once however long the history.

Pure: `player_figures` adds the figures up (the functions of stats.py, the rating book's moves); `pages_bytes`
and `pages_from_bytes` turn every player's figures into the bytes the storage keeps (`MatchStorage.keep`), under
the history's key (`MatchStorage.history_key`) and this module's `VERSION`. Kept figures are a cache: figures
kept under another key or version, or damaged, are worked out again from the history, never shown.

The charts are thinned to at most `CHART_POINTS` points: a player at 5,000 tables has 50,000 hands, more points
than a phone's chart has pixels (and each point was a control to draw). Points per hand are averaged over runs
of hands; the rating is sampled evenly, its first and last value always kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .ratings import Move, PlayerRating
from .scored import FIGURES, ScoredMatch, scored
from .stats import (BestHand, HeadToHead, MonthWins, Partnership, PlayerStats, head_to_head, partnerships,
                    player_stats, points_per_hand, wins_per_month)

__all__ = ["CHART_POINTS", "MOVES_SHOWN", "VERSION", "PlayerFigures", "Rated", "averaged", "sampled",
           "player_figures", "kept_key", "pages_bytes", "pages_from_bytes"]

VERSION = 2
"""The version of what `player_figures` works out: figures kept by another version are worked out again."""
KEPT_VERSION = f"{VERSION}/{FIGURES}"
"""What kept figures are checked against: this module's version and that of each match's scored figures (the
history's key is the same when the figures are scored anew by another version of the app)."""
CHART_POINTS = 120
"""The most points a chart of a player's page has."""
MOVES_SHOWN = 10
"""The latest matches a player's page says moved the rating."""


@dataclass(frozen=True)
class Rated:
    """A player's all-time rating, as the page shows it."""

    rating: float
    provisional: bool
    matches: int
    """Rated matches."""
    first: float
    """The rating before the first rated match, where the player started (the chart starts there)."""
    moves: tuple[Move, ...]
    """The latest `MOVES_SHOWN` moves, oldest first."""
    form: tuple[str, ...]


@dataclass(frozen=True)
class PlayerFigures:
    """Everything a player's page shows, in numbers and ids."""

    stats: PlayerStats
    head_to_head: tuple[HeadToHead, ...]
    partners: tuple[Partnership, ...]
    months: tuple[MonthWins, ...]
    points: tuple[tuple[int, float], ...]
    """The chart of points per hand: (the last hand of the run, the run's average), oldest first."""
    hands_per_point: int
    """How many hands each point of `points` averages (1: every hand its own point)."""
    rated: Rated | None
    ratings: tuple[tuple[int, float], ...]
    """The chart of the rating: (0, the rating the player started from), then (rated match number from 1, the
    rating after it), sampled."""


def averaged(values: Sequence[float], most: int = CHART_POINTS) -> tuple[tuple[tuple[int, float], ...], int]:
    """`values` as at most `most` points: each the average of a run of `per` values (to a tenth: a chart's
    tooltip shows it), at the run's last position (from 1); and `per`. The last run may be shorter."""
    per = max(1, -(-len(values) // most))
    if per == 1:   # every value its own point, as it is
        return tuple((i + 1, v) for i, v in enumerate(values)), 1
    points = tuple((min(start + per, len(values)), round(sum(run) / len(run), 1))
                   for start in range(0, len(values), per) if (run := values[start:start + per]))
    return points, per


def sampled(values: Sequence[float], most: int = CHART_POINTS) -> tuple[tuple[int, float], ...]:
    """At most `most` of `values`, evenly spaced, the first and last always among them: (position from 1, value)."""
    n = len(values)
    if n <= most:
        return tuple((i + 1, v) for i, v in enumerate(values))
    picks = sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})
    return tuple((i + 1, values[i]) for i in picks)


def player_figures(history: Iterable[ScoredMatch], player_id: str, rated: PlayerRating | None) -> PlayerFigures:
    """The page of `player_id` over the scored history, with their all-time rating (`Leaderboard.of`)."""
    mine = scored(history, player_id)   # the player's matches, picked once for every figure below
    points, per = averaged(points_per_hand(mine, player_id))
    rating = None
    ratings: tuple[tuple[int, float], ...] = ()
    if rated is not None and rated.moves:
        moves = rated.moves
        rating = Rated(rated.rating, rated.provisional, rated.matches, moves[0].before, moves[-MOVES_SHOWN:],
                       rated.form)
        # From where the player started (0: before any rated match): one rated match is a line, not a lone dot.
        ratings = ((0, moves[0].before), *sampled([m.after for m in moves], CHART_POINTS - 1))
    return PlayerFigures(player_stats(mine, player_id), tuple(head_to_head(mine, player_id)),
                         tuple(partnerships(mine, player_id)), tuple(wins_per_month(mine, player_id)), points, per,
                         rating, ratings)


# --- kept between runs ------------------------------------------------------------------------------------------

_NESTED: dict[type, dict[str, Any]] = {
    PlayerFigures: {"stats": PlayerStats, "head_to_head": (HeadToHead,), "partners": (Partnership,),
                    "months": (MonthWins,), "rated": Rated},
    PlayerStats: {"best_hand": BestHand},
    Rated: {"moves": (Move,)},
}
"""The fields of each kept type that hold another (a tuple: a tuple of them)."""


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _names(cls: Any) -> list[str]:
    return [f.name for f in fields(cls)] if hasattr(cls, "__dataclass_fields__") else list(cls._fields)


def _load(cls: Any, values: Any) -> Any:
    """A dataclass (or named tuple) from the list of its fields' values (`_dump`)."""
    names = _names(cls)
    if not isinstance(values, list) or len(values) != len(names):
        raise ValueError(f"{cls.__name__}: {len(names)} values expected")
    nested = _NESTED.get(cls, {})
    out = []
    for name, value in zip(names, values):
        kind = nested.get(name)
        if kind is not None and value is not None:
            value = tuple(_load(kind[0], v) for v in value) if isinstance(kind, tuple) else _load(kind, value)
        out.append(_tuples(value))
    return cls(*out)


def _dump(obj: Any) -> Any:
    """Plain JSON values: a dataclass or tuple as the list of its values."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if hasattr(obj, "__dataclass_fields__"):
        return [_dump(getattr(obj, f.name)) for f in fields(obj)]
    return [_dump(v) for v in obj]


def pages_bytes(key: str, pages: Mapping[str, PlayerFigures]) -> bytes:
    """Every player's figures as the storage keeps them: a header line (version, key, checksum), then the
    figures."""
    body = json.dumps({pid: _dump(f) for pid, f in pages.items()}, separators=(",", ":")).encode()
    head = json.dumps({"version": KEPT_VERSION, "key": key, "check": hashlib.blake2b(body, digest_size=16).hexdigest()})
    return head.encode() + b"\n" + body


def kept_key(data: bytes | None) -> str | None:
    """The key figures were kept under (`pages_bytes`), from their header alone; None when it cannot be read."""
    try:
        head = json.loads((data or b"").partition(b"\n")[0])
    except ValueError:
        return None
    return head.get("key") if isinstance(head, dict) and head.get("version") == KEPT_VERSION else None


def pages_from_bytes(data: bytes | None, key: str) -> dict[str, PlayerFigures] | None:
    """The figures kept in `data` if they were kept under `key` by this version and are whole; else None."""
    if not data:
        return None
    try:
        head_bytes, _, body = data.partition(b"\n")
        head = json.loads(head_bytes)
        if (not isinstance(head, dict) or head.get("version") != KEPT_VERSION or head.get("key") != key
                or head.get("check") != hashlib.blake2b(body, digest_size=16).hexdigest()):
            return None
        pages = json.loads(body)
        return {str(pid): _load(PlayerFigures, values) for pid, values in pages.items()}
    except (ValueError, TypeError, AttributeError):   # damaged: worked out again from the history
        return None
