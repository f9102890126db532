"""The group's documents: each says one thing that happened to one match, once (see `companion.changes`).
How they are made, and how one is read back from a server that may be hostile (`from_doc`, every field
checked). Pure code, no I/O."""

from __future__ import annotations

import enum
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.entry import HandEntry
from ..engine.live import Tap, TapKind
from ..engine.match import Match
from ..engine.messages import SaidError, Says
from ..engine.names import problem_of, tidy
from ..formats.matchfile import hand_to_dict, match_to_dict
from ..records import is_time
from .limits import FORMAT, MAX_BODY_CHARS, MAX_CLOCK, MAX_SLOTS


class Kind(enum.StrEnum):
    """What a document says happened."""

    START = "start"
    """The match was started: its sides, rules, goal and first dealer (a match file without hands)."""
    HAND = "hand"
    """A hand was saved, or a saved hand changed (`base`: the version it replaces)."""
    UNDO = "undo"
    """A version of a hand was taken back (the last hand, undone)."""
    TAP = "tap"
    """A xeri or jack xeri, tapped live during the hand in progress."""
    UNTAP = "untap"
    """A live tap was taken back."""
    STATUS = "status"
    """The match was stopped unfinished, taken up again, deleted or restored."""
    CHOICE = "choice"
    """The table chose between versions of one hand that two phones saved apart."""


class ChangeSays(Says):
    """Why a shared document is not read (it is kept aside, and the others still count)."""

    __prefix__ = "error.change"
    SHAPE = "a shared document of match {match} is not one this app can read ({detail})"
    NEWER = "a shared document of match {match} was written by a newer version of the app"
    HAND = "a hand of match {match} shared by another device cannot be right: {reason}"


class ChangeError(SaidError):
    """A shared document that cannot be read, or that would make an impossible match."""


@dataclass(frozen=True)
class Change:
    """One shared document: what happened to one match, once."""

    id: str
    """The document's id: `<match>.<kind>.<what>`, the same for the same thing on any device."""
    match: str
    """The match it is about."""
    kind: Kind
    """What happened."""
    at: str
    """When (ISO 8601, UTC), on the device that did it."""
    device: str
    """The device that did it (an id of its own, never a name)."""
    body: Mapping[str, Any] = field(default_factory=dict)
    """What the kind needs: see `start`, `hand`, … below."""
    clock: int = 0
    """A logical clock (Lamport's): one more than the highest of the match's documents the device knew when it
    wrote this one (`stamped`). What a device did after seeing a change is ordered after it, whatever the
    devices' own clocks say; 0 in documents of versions before it."""
    name: str = ""
    """The name the device that wrote it goes by ("Anna's phone"), as its owner set it; "" when none was set. For
    people to read ("saved on Anna's phone"); the device id stays what tells devices apart."""

    @property
    def order(self) -> tuple[int, str, str, str]:
        """How changes of one kind are ordered where order matters ("the latest says", the earlier of two
        versions): by logical clock, then device, then id. Wall time (`at`) only breaks ties between documents
        written before the logical clock, as it always did; it never outvotes the clock."""
        return (self.clock, self.at if self.clock == 0 else "", self.device, self.id)

    def to_doc(self) -> dict[str, Any]:
        """The JSON document (without `_rev`)."""
        return {"_id": self.id, "format": FORMAT, "match": self.match, "kind": self.kind.value, "at": self.at,
                "device": self.device, "clock": self.clock, "body": dict(self.body),
                **({"name": self.name} if self.name else {})}


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:24]


# --- making changes ------------------------------------------------------------------------------------
def start(match_id: str, match: Match, created: str, device: str) -> Change:
    """The match was started. Its id is the match's: one start per match, whoever sends it."""
    header = match_to_dict(replace(match, hands=(), finished_early=False))   # finished early: a status says so
    header.pop("hands", None)
    return Change(f"{match_id}.start", match_id, Kind.START, created, device, {"match": header})


def hand(match_id: str, slot: int, entry: HandEntry, taps: tuple[Tap, ...] | None, base: str | None, at: str,
         device: str, generation: int = 0) -> Change:
    """Hand `slot` saved (`base` None) or changed (`base`: the id of the version it replaces).

    Its id depends only on what it says (and on how many versions of the slot were withdrawn before it,
    `generation`): two phones that saved the same hand the same way wrote one document, not two, and a hand
    saved again after an undo is a new one.
    """
    entry_doc = hand_to_dict(entry)
    taps_doc = None if taps is None else [[t.seat, t.kind.value] for t in taps]
    ident = _hash(match_id, slot, entry_doc, base, generation)
    return Change(f"{match_id}.hand.{ident}", match_id, Kind.HAND, at, device,
                  {"slot": slot, "entry": entry_doc, "taps": taps_doc, "base": base})


def undo(version: Change, at: str, device: str) -> Change:
    """Version `version` (a hand) taken back. One undo per version, whoever sends it."""
    return Change(f"{version.match}.undo.{version.id.rsplit('.', 1)[-1]}", version.match, Kind.UNDO, at, device,
                  {"version": version.id})


def tap(match_id: str, slot: int, seat: int, kind: TapKind, at: str, device: str, n: int) -> Change:
    """A live tap for hand `slot`; `n` numbers this device's taps of that hand (two taps are two)."""
    ident = _hash(match_id, slot, device, n)
    return Change(f"{match_id}.tap.{ident}", match_id, Kind.TAP, at, device,
                  {"slot": slot, "seat": seat, "tap": kind.value, "n": n})


def untap(tapped: Change, at: str, device: str) -> Change:
    """Live tap `tapped` taken back."""
    return Change(f"{tapped.match}.untap.{tapped.id.rsplit('.', 1)[-1]}", tapped.match, Kind.UNTAP, at, device,
                  {"tap": tapped.id})


def status(match_id: str, abandoned: bool, deleted: bool, at: str, device: str, finished: bool = False) -> Change:
    """The match stopped unfinished (`abandoned`), or taken up again; deleted, or restored; `finished`: the table
    finished it once a side was sure to win, before its last agreed hand (`Match.finished_early`; said only when
    true, so a status without it reads as before)."""
    ident = _hash(match_id, abandoned, deleted, at, device, *(("finished",) if finished else ()))
    return Change(f"{match_id}.status.{ident}", match_id, Kind.STATUS, at, device,
                  {"abandoned": abandoned, "deleted": deleted, **({"finished": True} if finished else {})})


def choice(match_id: str, slot: int, keep: tuple[str, ...], drop: tuple[str, ...], at: str, device: str) -> Change:
    """The table's choice for hand `slot`: the versions it keeps (one, or several in turn), those it drops."""
    ident = _hash(match_id, slot, keep, drop)
    return Change(f"{match_id}.choice.{ident}", match_id, Kind.CHOICE, at, device,
                  {"slot": slot, "keep": list(keep), "drop": list(drop)})


# --- reading documents -------------------------------------------------------------------------------
def _need(condition: bool, match: str, detail: str) -> None:
    if not condition:
        raise ChangeError(ChangeSays.SHAPE, match=match, detail=detail)


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 200 and value.isprintable()


MATCH_ID = re.compile(r"[0-9a-f]{32}")
"""A match id as the app makes them (32 hex digits): a document about anything else is not read."""


def _slot(value: Any) -> bool:
    return type(value) is int and 0 <= value < MAX_SLOTS


def from_doc(doc: Any) -> Change:
    """A change from its document, every field checked (a document may come from a hostile server);
    `ChangeError` saying what is wrong."""
    match: Any = doc.get("match") if isinstance(doc, Mapping) else None
    name: str = match if _is_id(match) else "?"
    _need(isinstance(doc, Mapping), name, "not an object")
    if doc.get("format") != FORMAT:
        if type(doc.get("format")) is int and doc["format"] > FORMAT:
            raise ChangeError(ChangeSays.NEWER, match=name)
        _need(False, name, "no format")
    ident: Any = doc.get("_id")
    kind, at, device, body = doc.get("kind"), doc.get("at"), doc.get("device"), doc.get("body")
    _need(isinstance(match, str) and MATCH_ID.fullmatch(match) is not None, name, "its match id")
    _need(_is_id(ident) and ident.startswith(f"{match}."), name, "its id")
    _need(kind in Kind.__members__.values() or kind in [k.value for k in Kind], name, "its kind")
    _need(is_time(at) and _is_id(device) and isinstance(body, Mapping), name, "its time, device or body")
    _need(len(json.dumps(body, ensure_ascii=False, default=str)) <= MAX_BODY_CHARS, name, "a body too large")
    clock: Any = doc.get("clock", 0)
    _need(type(clock) is int and 0 <= clock <= MAX_CLOCK, name, "its clock")
    by: Any = doc.get("name", "")
    _need(isinstance(by, str) and (by == "" or problem_of(by) is None) and by == tidy(by), name,
          "the name of the device that wrote it")
    change = Change(ident, match, Kind(kind), at, device, dict(body), clock, by)
    _check_body(change)
    return change


def named(made: Iterable[Change], name: str) -> list[Change]:
    """`made` (changes this device makes) signed with the name it goes by, when it has one."""
    return [replace(c, name=name) if name else c for c in made]


def stamped(known: Iterable[Change], made: Iterable[Change]) -> list[Change]:
    """`made` (new changes of one match, in the order they happened) with their logical clocks: each one more
    than the highest of the match's `known` documents and of those made before it."""
    top = max((c.clock for c in known), default=0)
    out = []
    for c in made:
        top += 1
        out.append(replace(c, clock=top))
    return out


def _check_body(c: Change) -> None:
    b, m = c.body, c.match
    if c.kind is Kind.START:
        _need(c.id == f"{m}.start" and isinstance(b.get("match"), Mapping), m, "a start without a match")
    elif c.kind is Kind.HAND:
        _need(_slot(b.get("slot")) and isinstance(b.get("entry"), Mapping), m, "a hand without a slot or entry")
        _need(b.get("base") is None or _is_id(b.get("base")), m, "a hand's base")
        taps = b.get("taps")
        _need(taps is None or (isinstance(taps, list) and len(taps) <= 200 and all(
            isinstance(t, list) and len(t) == 2 and type(t[0]) is int and 0 <= t[0] < 4
            and t[1] in (TapKind.XERI.value, TapKind.JACK_XERI.value) for t in taps)), m, "a hand's taps")
    elif c.kind in (Kind.UNDO, Kind.UNTAP):
        target = b.get("version" if c.kind is Kind.UNDO else "tap")
        _need(_is_id(target), m, "what it takes back")
    elif c.kind is Kind.TAP:
        _need(_slot(b.get("slot")) and type(b.get("seat")) is int and 0 <= b["seat"] < 4
              and b.get("tap") in (TapKind.XERI.value, TapKind.JACK_XERI.value) and type(b.get("n")) is int,
              m, "a tap")
    elif c.kind is Kind.STATUS:
        _need(isinstance(b.get("abandoned"), bool) and isinstance(b.get("deleted"), bool)
              and isinstance(b.get("finished", False), bool), m, "a status")
    elif c.kind is Kind.CHOICE:
        keep, drop = b.get("keep"), b.get("drop")
        _need(_slot(b.get("slot")) and isinstance(keep, list) and isinstance(drop, list)
              and len(keep) + len(drop) <= 50 and all(map(_is_id, keep + drop)) and bool(keep), m, "a choice")
