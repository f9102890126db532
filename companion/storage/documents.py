"""Stored documents <-> app values: match records, index entries (summaries), players and settings."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping, Sequence

from ..engine.limits import shown
from ..engine.live import LiveHand, Tap
from ..engine.match import Side, Standing, Status, standing
from ..formats.matchfile import (MatchFileError, fingerprint_of, hand_from_dict, hand_to_dict, match_from_dict,
                                 match_to_dict)
from ..history.scored import FIGURES, figures_doc, score_record
from ..records import MatchRecord, MatchSummary, Player, TrailAction, TrailEntry, is_time
from .schema import SCHEMA, migrate

ID_PATTERN = re.compile(r"[0-9a-f]{32}")
"""Match and player ids: a UUID4 as 32 lower-case hex digits."""

DEFAULT_SETTINGS: Mapping[str, Any] = MappingProxyType(
    {"language": "en", "theme": "system", "last_rules": "", "keep_awake": True, "language_chosen": False})
"""The settings of a new data folder. Until someone picks a language in the settings (`language_chosen`), each
phone shows the app in its own browser's language when the app speaks it; until a match is started
(`last_rules`), the new-match form starts from the first rules offered in the phone's language."""

_SETTING_TYPES = {"language": str, "theme": str, "last_rules": str, "keep_awake": bool, "language_chosen": bool,
                  "last_table": str, "rules_by_table": dict, "device_name": str}
"""`last_table` and `rules_by_table` (table size → the rules last started at it) are set once a match starts;
`device_name`, the name this device goes by in its group ("Anna's phone"), when its owner gives one."""


MAX_OUTBOX = 100_000
"""The most documents a match may have waiting for sync (`MatchRecord.outbox`): a match of a thousand hands,
each tapped, edited and taken back many times, offline for good."""


class DocumentError(ValueError):
    """A stored document that parses but is not what it should be; the message says what is wrong."""


# --- small checks ------------------------------------------------------------------------------

def _need(condition: bool, message: str) -> None:
    if not condition:
        raise DocumentError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value: Any) -> bool:
    """True for a well-formed match or player id."""
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


def match_name(sides: Sequence[str]) -> str:
    """How a damaged-file message names a match: its side names."""
    return " – ".join(sides)


# --- names that follow renamed players ---------------------------------------------------------

def renamed_sides(sides: Sequence[Side], player_ids: Sequence[Sequence[str]],
                  names: Mapping[str, str]) -> tuple[Side, ...]:
    """The sides with today's player names.

    A single player's side is named after the player, so it follows a rename; a partnership keeps
    the team name it was given, and its two players follow their renames (a team left unnamed is called
    after them, so its name follows too).
    """
    out = []
    for side, ids in zip(sides, player_ids):
        if side.players:
            out.append(Side(side.title, tuple(names.get(pid, old) for pid, old in zip(ids, side.players))))
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
    return {"action": entry.action.value, "hand": entry.hand, "before": hand_to_dict(entry.before),
            "after": hand_to_dict(entry.after) if entry.after is not None else None, "at": entry.at}


def trail_from_dict(data: Any, where: str) -> TrailEntry:
    _need(isinstance(data, dict), f"{where} is not an object")
    _need(data.get("action") in tuple(TrailAction), f"{where}: the action is 'undo', 'edit' or 'redo'")
    _need(_is_int(data.get("hand")) and data["hand"] >= 0, f"{where}: 'hand' is a hand number")
    _need(is_time(data.get("at")), f"{where}: 'at' is a time")
    try:
        before = hand_from_dict(data.get("before"), f"{where}, before")
        after = hand_from_dict(data["after"], f"{where}, after") if data.get("after") is not None else None
    except MatchFileError as exc:
        raise DocumentError(str(exc)) from None
    _need((after is None) == (data["action"] == TrailAction.UNDO),
          f"{where}: an edit or a redo has an 'after', an undo has none")
    return TrailEntry(data["action"], data["hand"], before, after, data["at"])


def record_to_doc(record: MatchRecord, updated: str, match_doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stored document of a match record (schema `SCHEMA`); the match is in match-file form
    (`match_doc`, when the caller already has it)."""
    return {
        "schema": SCHEMA,
        "id": record.id,
        "created": record.created,
        "updated": updated,
        "finished": record.finished,
        "abandoned": record.abandoned,
        "player_ids": [list(ids) for ids in record.player_ids],
        "live": record.live.to_list(),
        "hand_taps": [None if taps is None else [[t.seat, t.kind.value] for t in taps] for taps in record.hand_taps],
        "trail": [trail_to_dict(t) for t in record.trail],
        "match": match_doc if match_doc is not None else match_to_dict(record.match),
        **({"outbox": [dict(d) for d in record.outbox]} if record.outbox else {}),
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
        # Matches stored before names were limited in length still open (the score sheet cuts long names).
        match = match_from_dict(doc.get("match"), limit_names=False)
    except MatchFileError as exc:
        raise DocumentError(str(exc)) from None
    ids: Any = doc.get("player_ids")
    _need(isinstance(ids, list) and len(ids) == len(match.sides), "'player_ids' has one list per side")
    for side, side_ids in zip(match.sides, ids):
        _need(isinstance(side_ids, list) and len(side_ids) == len(side.members) and all(map(is_id, side_ids)),
              f"'player_ids' of {side.name!r} has one player id per player")
    live_doc: Any = doc.get("live")
    _need(isinstance(live_doc, list) and all(isinstance(t, list) and len(t) == 2 and _is_int(t[0])
                                             and isinstance(t[1], str) for t in live_doc),
          "'live' is a list of [seat, kind] taps")
    try:
        live = LiveHand(tuple(Tap(seat, kind) for seat, kind in live_doc))
    except ValueError as exc:
        raise DocumentError(f"'live': {exc}") from None
    _need(all(0 <= t.seat < len(match.seats) for t in live.taps),
          "'live' has a tap for a seat that is not at the table")
    # Added without a schema step: a document without it (an older app's) simply knows no hand's taps.
    hand_taps_doc: Any = doc.get("hand_taps", [])
    _need(isinstance(hand_taps_doc, list) and len(hand_taps_doc) <= len(match.hands)
          and all(h is None or (isinstance(h, list) and all(isinstance(t, list) and len(t) == 2 and _is_int(t[0])
                                                           and isinstance(t[1], str) for t in h))
                  for h in hand_taps_doc),
          "'hand_taps' is a list of [seat, kind] taps per hand")
    try:
        hand_taps = tuple(None if h is None else tuple(Tap(seat, kind) for seat, kind in h) for h in hand_taps_doc)
    except ValueError as exc:
        raise DocumentError(f"'hand_taps': {exc}") from None
    _need(all(h is None or all(0 <= t.seat < len(match.seats) for t in h) for h in hand_taps),
          "'hand_taps' has a tap for a seat that is not at the table")
    trail_doc: Any = doc.get("trail")
    _need(isinstance(trail_doc, list), "'trail' is a list")
    trail = tuple(trail_from_dict(t, f"trail entry {i + 1}") for i, t in enumerate(trail_doc))
    # Added without a schema step: an older app's document has nothing waiting for sync. Each document is read
    # again, field by field, by sync (`changes.from_doc`) before it counts.
    outbox: Any = doc.get("outbox", [])
    _need(isinstance(outbox, list) and len(outbox) <= MAX_OUTBOX and all(isinstance(d, dict) for d in outbox),
          "'outbox' is a list of the group's documents")
    record = MatchRecord(id=doc["id"], match=match, created=doc["created"], finished=doc.get("finished"),
                         abandoned=doc["abandoned"], player_ids=tuple(tuple(s) for s in ids), live=live, trail=trail,
                         hand_taps=hand_taps, outbox=tuple(outbox))
    return record, doc["updated"]


# --- index entries -----------------------------------------------------------------------------

def summary_doc(record: MatchRecord, updated: str, stamp: Sequence[int] | None,
                st: Standing | None = None, match_doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """The index entry of a match record; `stamp` is its file's [size, mtime_ns] when written.

    Pass the match's standing and document when they are at hand, so neither is worked out again. A finished or
    abandoned match's entry keeps its scored figures too (`figures`: see `history.scored.figures_doc`), so the
    history is built from the index without reading a match file; a match in play has none.
    """
    st = st or standing(record.match)
    return seal({
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
        "fingerprint": fingerprint_of(match_doc if match_doc is not None else match_to_dict(record.match)),
        "stamp": list(stamp) if stamp is not None else None,
        # Which matches the history lists: `MatchSummary.is_history`, from the entry's own fields.
        **({"figures": figures_doc(score_record(record))} if st.status is not Status.PLAYING or record.abandoned
           else {}),
    })


def entry_check(doc: Mapping[str, Any]) -> str:
    """The checksum of an index entry: a digest of every field but the checksum itself."""
    content = {k: v for k, v in doc.items() if k != "check"}
    text = json.dumps(content, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def seal(doc: dict[str, Any]) -> dict[str, Any]:
    """The index entry with its checksum (`check`) over its other fields, so that a changed byte is seen."""
    doc["check"] = entry_check(doc)
    return doc


def check_summary_doc(raw: Any) -> dict[str, Any]:
    """An index entry brought to the current schema and checked; `DocumentError` when it is not one.

    An entry whose checksum does not fit its fields was changed on disk (one flipped byte can turn a
    total of 31 into 3): it is refused, and the index rebuilt from the match files. An entry written
    before entries had checksums is taken, with no stamp, so its match file is read again at open; so is
    the entry of a finished or abandoned match without figures of this version (`FIGURES`: written by an
    older app, or before figures were kept), so an old folder's index gains them once.
    """
    if isinstance(raw, dict) and "check" in raw and raw["check"] != entry_check(raw):
        raise DocumentError(f"the index entry of match {shown(raw.get('id'))} does not match its checksum")
    doc = migrate("summary", raw)
    if "check" not in doc:
        doc["stamp"] = None
    _need(is_id(doc.get("id")), "an index entry has no valid match id")
    for key in ("created", "updated"):
        _need(is_time(doc.get(key)), f"an index entry has no {key!r} time")
    _need(doc.get("finished") is None or is_time(doc["finished"]), "an index entry's 'finished' is a time or null")
    doc.setdefault("finished", None)
    _need(doc.get("status") in [s.value for s in Status], "an index entry has no status")
    sides: Any = doc.get("sides")
    members: Any = doc.get("members")
    ids: Any = doc.get("player_ids")
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
    history = doc["status"] != Status.PLAYING.value or doc["abandoned"]
    figures = doc.get("figures")
    if not history or not isinstance(figures, list) or figures[:1] != [FIGURES]:
        doc.pop("figures", None)   # a match in play has none; others are worked out again at open
        if history:
            doc["stamp"] = None
    # Checked above and unchanged since (nearly always): its checksum stands, worked out once, not twice.
    return doc if "check" in doc and doc == raw else seal(doc)


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
    if "language_chosen" not in values and "language" in values:
        # Stored before each phone spoke its browser's language: a language other than English was chosen.
        values["language_chosen"] = values["language"] != DEFAULT_SETTINGS["language"]
    return {**DEFAULT_SETTINGS, **values}


def settings_doc(values: Mapping[str, Any]) -> dict[str, Any]:
    return {"schema": SCHEMA, **values}
