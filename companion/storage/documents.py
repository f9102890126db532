"""Stored documents <-> app values: match records, index entries (summaries), players and settings."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..engine.live import LiveHand, Tap
from ..engine.match import Match, Side, Standing, Status, standing
from ..matchfile import MatchFileError, hand_from_dict, hand_to_dict, match_from_dict, match_to_dict
from ..records import MatchRecord, TrailEntry
from .schema import SCHEMA, migrate

ID_PATTERN = re.compile(r"[0-9a-f]{32}")
"""Match and player ids: a UUID4 as 32 lower-case hex digits."""

DEFAULT_SETTINGS: Mapping[str, Any] = MappingProxyType(
    {"language": "en", "theme": "system", "last_rules": "classic", "keep_awake": True})
"""The settings of a new data folder."""

_SETTING_TYPES = {"language": str, "theme": str, "last_rules": str, "keep_awake": bool}


class DocumentError(ValueError):
    """A stored document that parses but is not what it should be; the message says what is wrong."""


@dataclass(frozen=True)
class Player:
    """A known player: a stable id that matches refer to, and the name shown today."""

    id: str
    """A UUID hex string; never changes, so renaming keeps the player's history."""
    name: str
    """The player's name as last given."""


@dataclass(frozen=True)
class MatchSummary:
    """One line of the match history, read from the small index only (no match file is opened)."""

    id: str
    """The match id."""
    created: str
    """When the match was started (ISO 8601, UTC)."""
    updated: str
    """When the match was last changed (ISO 8601, UTC)."""
    finished: str | None
    """When the match was won or drawn, else None."""
    status: Status
    """Playing, won or drawn."""
    sides: tuple[str, ...]
    """The side names, in score-sheet order (following renamed players)."""
    members: tuple[tuple[str, ...], ...]
    """The players of each side (one name for a single player, two for a partnership)."""
    player_ids: tuple[tuple[str, ...], ...]
    """Stable player ids, parallel to `members`."""
    rules: str
    """The rule set's preset name."""
    goal: Mapping[str, int]
    """The goal in match-file form: `{"target": 151, "extension": 251}` or `{"hands": 11}`."""
    totals: tuple[int, ...]
    """Points per side so far."""
    winner: int | None
    """The winning side, once won."""
    hands: int
    """How many hands are recorded."""
    abandoned: bool
    """True when the table stopped the match unfinished."""

    @property
    def is_playing(self) -> bool:
        """True while the match is neither won nor drawn."""
        return self.status is Status.PLAYING


@dataclass(frozen=True)
class DamagedFile:
    """A stored file that could not be read: what it was, where it was moved, and why."""

    path: Path
    """Where the file was."""
    new_path: Path | None
    """Where it was moved aside (kept, never deleted); None when it was left in place (a newer schema)."""
    reason: str
    """What is wrong with it, in words."""
    match_name: str | None = None
    """The match it held, as its side names ("Anna – Ben"), when known."""
    match_id: str | None = None
    """The id of the match it held, when it was a match file."""
    created: str | None = None
    """When that match was started, when known."""


# --- small checks ------------------------------------------------------------------------------

def _need(condition: bool, message: str) -> None:
    if not condition:
        raise DocumentError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_time(value: Any) -> bool:
    """True for an ISO 8601 timestamp (a trailing Z allowed)."""
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def is_id(value: Any) -> bool:
    """True for a well-formed match or player id."""
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


def match_name(sides: Sequence[str]) -> str:
    """How a damaged-file message names a match: its side names."""
    return " – ".join(sides)


# --- names that follow renamed players ---------------------------------------------------------

def renamed_sides(sides: Sequence[Side], player_ids: Sequence[Sequence[str]], names: Mapping[str, str]) -> tuple[Side, ...]:
    """The sides with today's player names.

    A single player's side is named after the player, so it follows a rename; a partnership keeps
    the team name it was given, and its two players follow their renames.
    """
    out = []
    for side, ids in zip(sides, player_ids):
        if side.players:
            out.append(Side(side.name, tuple(names.get(pid, old) for pid, old in zip(ids, side.players))))
        else:
            out.append(Side(names.get(ids[0], side.name) if ids else side.name))
    return tuple(out) + tuple(sides[len(out):])


def with_names(record: MatchRecord, names: Mapping[str, str]) -> MatchRecord:
    """The record with today's player names on its sides (the same record when nothing changed)."""
    sides = renamed_sides(record.match.sides, record.player_ids, names)
    if sides == record.match.sides:
        return record
    return replace(record, match=replace(record.match, sides=sides))


# --- match records -----------------------------------------------------------------------------

def trail_to_dict(entry: TrailEntry) -> dict[str, Any]:
    return {"action": entry.action, "hand": entry.hand, "before": hand_to_dict(entry.before),
            "after": hand_to_dict(entry.after) if entry.after is not None else None, "at": entry.at}


def trail_from_dict(data: Any, where: str) -> TrailEntry:
    _need(isinstance(data, dict), f"{where} is not an object")
    _need(data.get("action") in ("undo", "edit"), f"{where}: the action is 'undo' or 'edit'")
    _need(_is_int(data.get("hand")) and data["hand"] >= 0, f"{where}: 'hand' is a hand number")
    _need(is_time(data.get("at")), f"{where}: 'at' is a time")
    try:
        before = hand_from_dict(data.get("before"), f"{where}, before")
        after = hand_from_dict(data["after"], f"{where}, after") if data.get("after") is not None else None
    except MatchFileError as exc:
        raise DocumentError(str(exc)) from None
    _need((after is None) == (data["action"] == "undo"), f"{where}: an edit has an 'after', an undo has none")
    return TrailEntry(data["action"], data["hand"], before, after, data["at"])


def record_to_doc(record: MatchRecord, updated: str) -> dict[str, Any]:
    """The stored document of a match record (schema `SCHEMA`); the match is in match-file form."""
    return {
        "schema": SCHEMA,
        "id": record.id,
        "created": record.created,
        "updated": updated,
        "finished": record.finished,
        "abandoned": record.abandoned,
        "player_ids": [list(ids) for ids in record.player_ids],
        "live": record.live.to_list(),
        "trail": [trail_to_dict(t) for t in record.trail],
        "match": match_to_dict(record.match),
    }


def record_from_doc(raw: Any) -> tuple[MatchRecord, str]:
    """The match record in a stored document, and when it was last changed.

    Every hand is checked by the engine; `DocumentError` (or `SchemaError`) says what is wrong.
    """
    doc = migrate("match", raw)
    _need(is_id(doc.get("id")), "the match has no valid id")
    _need(is_time(doc.get("created")), "the match has no start time")
    _need(is_time(doc.get("updated")), "the match has no time of its last change")
    _need(doc.get("finished") is None or is_time(doc["finished"]), "'finished' is a time or null")
    _need(isinstance(doc.get("abandoned"), bool), "'abandoned' is true or false")
    try:
        match = match_from_dict(doc.get("match"))
    except MatchFileError as exc:
        raise DocumentError(str(exc)) from None
    ids = doc.get("player_ids")
    _need(isinstance(ids, list) and len(ids) == len(match.sides), "'player_ids' has one list per side")
    for side, side_ids in zip(match.sides, ids):
        _need(isinstance(side_ids, list) and len(side_ids) == len(side.members) and all(map(is_id, side_ids)),
              f"'player_ids' of {side.name!r} has one player id per player")
    live_doc = doc.get("live")
    _need(isinstance(live_doc, list) and all(isinstance(t, list) and len(t) == 2 and _is_int(t[0])
                                             and isinstance(t[1], str) for t in live_doc),
          "'live' is a list of [seat, kind] taps")
    try:
        live = LiveHand(tuple(Tap(seat, kind) for seat, kind in live_doc))
    except ValueError as exc:
        raise DocumentError(f"'live': {exc}") from None
    _need(all(0 <= t.seat < len(match.seats) for t in live.taps), "'live' has a tap for a seat that is not at the table")
    trail_doc = doc.get("trail")
    _need(isinstance(trail_doc, list), "'trail' is a list")
    trail = tuple(trail_from_dict(t, f"trail entry {i + 1}") for i, t in enumerate(trail_doc))
    record = MatchRecord(id=doc["id"], match=match, created=doc["created"], finished=doc.get("finished"),
                         abandoned=doc["abandoned"], player_ids=tuple(tuple(s) for s in ids), live=live, trail=trail)
    return record, doc["updated"]


def fingerprint(match: Match) -> str:
    """A digest of the match's content (rules, sides, goal, dealer, hands): two equal matches share it."""
    text = json.dumps(match_to_dict(match), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- index entries -----------------------------------------------------------------------------

def summary_doc(record: MatchRecord, updated: str, stamp: Sequence[int] | None,
                st: Standing | None = None) -> dict[str, Any]:
    """The index entry of a match record; `stamp` is its file's [size, mtime_ns] when written.

    Pass the match's standing when it is at hand: the engine scores every hand to compute it.
    """
    st = st or standing(record.match)
    return {
        "schema": SCHEMA,
        "id": record.id,
        "created": record.created,
        "updated": updated,
        "finished": record.finished,
        "status": st.status.value,
        "sides": [s.name for s in record.match.sides],
        "members": [list(s.members) for s in record.match.sides],
        "player_ids": [list(ids) for ids in record.player_ids],
        "rules": record.match.rules.name,
        "goal": record.match.goal.to_dict(),
        "totals": list(st.totals),
        "winner": st.winner,
        "hands": len(record.match.hands),
        "abandoned": record.abandoned,
        "fingerprint": fingerprint(record.match),
        "stamp": list(stamp) if stamp is not None else None,
    }


def check_summary_doc(raw: Any) -> dict[str, Any]:
    """An index entry brought to the current schema and checked; `DocumentError` when it is not one."""
    doc = migrate("summary", raw)
    _need(is_id(doc.get("id")), "an index entry has no valid match id")
    for key in ("created", "updated"):
        _need(is_time(doc.get(key)), f"an index entry has no {key!r} time")
    _need(doc.get("finished") is None or is_time(doc["finished"]), "an index entry's 'finished' is a time or null")
    doc.setdefault("finished", None)
    _need(doc.get("status") in [s.value for s in Status], "an index entry has no status")
    sides, members, ids = doc.get("sides"), doc.get("members"), doc.get("player_ids")
    _need(isinstance(sides, list) and all(isinstance(s, str) for s in sides), "an index entry has no side names")
    for value in (members, ids):
        _need(isinstance(value, list) and len(value) == len(sides)
              and all(isinstance(x, list) and all(isinstance(n, str) for n in x) for x in value),
              "an index entry's players do not match its sides")
    _need([len(m) for m in members] == [len(i) for i in ids], "an index entry's players do not match its ids")
    _need(isinstance(doc.get("rules"), str) and isinstance(doc.get("goal"), dict), "an index entry has no rules")
    _need(isinstance(doc.get("totals"), list) and len(doc["totals"]) == len(sides)
          and all(map(_is_int, doc["totals"])), "an index entry has no totals")
    _need(doc.get("winner") is None or _is_int(doc["winner"]), "an index entry's winner is a side")
    doc.setdefault("winner", None)
    _need(_is_int(doc.get("hands")), "an index entry has no hand count")
    _need(isinstance(doc.get("abandoned"), bool), "an index entry's 'abandoned' is true or false")
    _need(isinstance(doc.get("fingerprint"), str), "an index entry has no fingerprint")
    stamp = doc.setdefault("stamp", None)
    _need(stamp is None or (isinstance(stamp, list) and len(stamp) == 2 and all(map(_is_int, stamp))),
          "an index entry's stamp is [size, mtime]")
    return doc


def summary_from_doc(doc: Mapping[str, Any], names: Mapping[str, str]) -> MatchSummary:
    """The public summary of a checked index entry, with today's player names."""
    old = [Side(name, tuple(m) if len(m) == 2 else ()) for name, m in zip(doc["sides"], doc["members"])]
    sides = renamed_sides(old, doc["player_ids"], names)
    return MatchSummary(
        id=doc["id"], created=doc["created"], updated=doc["updated"], finished=doc["finished"],
        status=Status(doc["status"]), sides=tuple(s.name for s in sides),
        members=tuple(s.members for s in sides), player_ids=tuple(tuple(i) for i in doc["player_ids"]),
        rules=doc["rules"], goal=MappingProxyType(dict(doc["goal"])), totals=tuple(doc["totals"]),
        winner=doc["winner"], hands=doc["hands"], abandoned=doc["abandoned"])


# --- players and settings ----------------------------------------------------------------------

def player_doc(player: Player) -> dict[str, Any]:
    return {"schema": SCHEMA, "id": player.id, "name": player.name}


def player_from_doc(raw: Any) -> Player:
    doc = migrate("player", raw)
    _need(is_id(doc.get("id")), "a player has no valid id")
    _need(isinstance(doc.get("name"), str) and doc["name"].strip() != "", "a player has no name")
    return Player(doc["id"], doc["name"])


def check_setting(key: str, value: Any) -> None:
    """Refuse a value of the wrong type for a known setting, and any value JSON cannot hold."""
    expected = _SETTING_TYPES.get(key)
    if expected is not None and type(value) is not expected:
        raise ValueError(f"the setting {key!r} is a {expected.__name__}, not {value!r}")
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise ValueError(f"the setting {key!r} cannot be stored: {value!r} is not plain data") from None


def settings_from_doc(raw: Any) -> dict[str, Any]:
    doc = migrate("settings", raw)
    values = {k: v for k, v in doc.items() if k != "schema"}
    for key, value in values.items():
        try:
            check_setting(key, value)
        except ValueError as exc:
            raise DocumentError(str(exc)) from None
    return {**DEFAULT_SETTINGS, **values}


def settings_doc(values: Mapping[str, Any]) -> dict[str, Any]:
    return {"schema": SCHEMA, **values}


def new_record(id: str, match: Match, created: str, player_ids: Sequence[Sequence[str]],
               finished: str | None = None) -> MatchRecord:
    """A record for a match just created or imported."""
    return MatchRecord(id=id, match=match, created=created, finished=finished,
                       player_ids=tuple(tuple(ids) for ids in player_ids), live=LiveHand(), trail=())

