"""A match as the changes made to it: the documents a group's phones share, how they add up to a match, and
which changes a device's own match holds that the shared ones do not yet.

Every document says one thing that happened and is never changed afterwards ("append, don't rewrite"): a
match started, a hand saved (or a new version of one), a hand taken back, a live tap, a tap taken back, a
match stopped or taken up again, a choice between two versions of a hand. Two phones never write the same
document about different things, so a replicating database never has to pick a winner between them; what
two phones did apart adds up by the rules of `project`:

- different hands, taps and edits all count, in slot order (a hand's slot is its place in the match when
  it was saved); a version withdrawn (undone, or not chosen) stays in the trail;
- two versions of the same hand that say the same thing are one hand, never two;
- two versions of the same hand that differ are a `Conflict`: the earlier counts until the table chooses
  (one of them, or both in turn), and the other is shown beside it;
- a tap counts for the hand in progress; one meant for a hand already saved does not change that hand;
- stopping or taking up a match: the latest says (by logical clock, `Change.clock`; never by a device's own
  clock).

A device never edits these documents by hand: after its own match changed, `changes_since` compares it
with the sum of the documents it knows and writes the documents that would make them equal. So whatever
happened on the device (a save, an undo, an edit, a tap, an import), and however the app was stopped in
between, the next comparison sends it; and a document sent twice has the same id, so it counts once.
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.entry import HandEntry, InvalidHand
from ..engine.live import LiveHand, Tap, TapKind
from ..engine.match import Match, MatchError, Side, standing
from ..engine.messages import SaidError, Says
from ..engine.rules import Goal, RulesError
from ..engine.scoring import score_hand
from ..i18n.explain import HandProblems
from ..formats.matchfile import MatchFileError, hand_from_dict, hand_to_dict, match_from_dict, match_to_dict
from ..records import MatchRecord, TrailAction, TrailEntry, is_time

FORMAT = 1
"""The version of the documents' shape: a document of a newer shape is kept, never read."""
MAX_SLOTS = 1_000
"""The highest slot a hand may have (as many as hands a match may hold)."""
MAX_BODY_CHARS = 64 * 1024
"""The longest body a document may have, as JSON: the largest the app writes (a start with its rules and
four sides' names, a hand with 200 taps) is a few kilobytes. A longer one is not read, so a hostile server
cannot fill this device's disk with documents that are otherwise well formed."""
MAX_CLOCK = 2**53
"""The highest logical clock a document may carry (JSON's exact integers)."""


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

    @property
    def order(self) -> tuple[int, str, str, str]:
        """How changes of one kind are ordered where order matters ("the latest says", the earlier of two
        versions): by logical clock, then device, then id. Wall time (`at`) only breaks ties between documents
        written before the logical clock, as it always did; it never outvotes the clock."""
        return (self.clock, self.at if self.clock == 0 else "", self.device, self.id)

    def to_doc(self) -> dict[str, Any]:
        """The JSON document (without `_rev`)."""
        return {"_id": self.id, "format": FORMAT, "match": self.match, "kind": self.kind.value, "at": self.at,
                "device": self.device, "clock": self.clock, "body": dict(self.body)}


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:24]


# --- making changes ------------------------------------------------------------------------------------
def start(match_id: str, match: Match, created: str, device: str) -> Change:
    """The match was started. Its id is the match's: one start per match, whoever sends it."""
    header = match_to_dict(replace(match, hands=()))
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


def status(match_id: str, abandoned: bool, deleted: bool, at: str, device: str) -> Change:
    """The match stopped unfinished (`abandoned`), or taken up again; deleted, or restored."""
    ident = _hash(match_id, abandoned, deleted, at, device)
    return Change(f"{match_id}.status.{ident}", match_id, Kind.STATUS, at, device,
                  {"abandoned": abandoned, "deleted": deleted})


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
    change = Change(ident, match, Kind(kind), at, device, dict(body), clock)
    _check_body(change)
    return change


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
        _need(isinstance(b.get("abandoned"), bool) and isinstance(b.get("deleted"), bool), m, "a status")
    elif c.kind is Kind.CHOICE:
        keep, drop = b.get("keep"), b.get("drop")
        _need(_slot(b.get("slot")) and isinstance(keep, list) and isinstance(drop, list)
              and len(keep) + len(drop) <= 50 and all(map(_is_id, keep + drop)) and bool(keep), m, "a choice")


# --- adding them up ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Version:
    """One version of a saved hand."""

    change: Change
    entry: HandEntry
    taps: tuple[Tap, ...] | None

    @property
    def id(self) -> str:
        return self.change.id

    @property
    def slot(self) -> int:
        return int(self.change.body["slot"])


@dataclass(frozen=True)
class Conflict:
    """Two or more versions of one hand that two phones saved apart and that differ: the table chooses."""

    slot: int
    """The hand's slot."""
    index: int
    """Where the hand is in the match as it counts now (0-based)."""
    versions: tuple[Version, ...]
    """The versions, the one that counts for now first."""


@dataclass(frozen=True)
class Projection:
    """What a match's shared documents add up to."""

    start: Change | None
    """The start, when known (without it there is no match to show)."""
    hands: tuple[Version, ...] = ()
    """The hands that count, in order."""
    trail: tuple[TrailEntry, ...] = ()
    """Every version withdrawn or changed, oldest first."""
    live: tuple[Change, ...] = ()
    """The live taps of the hand in progress, in order."""
    late: tuple[Change, ...] = ()
    """Taps meant for a hand that another phone had already saved: they do not change it."""
    abandoned: bool = False
    deleted: bool = False
    conflicts: tuple[Conflict, ...] = ()
    """Hands saved differently on two phones, for the table to choose."""
    next_slot: int = 0
    """The slot the next hand saved takes."""
    generations: Mapping[int, int] = field(default_factory=dict)
    """Per slot, how many of its versions were withdrawn (a version saved after them is a new one)."""
    unreadable: tuple[ChangeError, ...] = ()
    """Documents that could not count (a hand that cannot be right): kept, and said."""


def project(changes: Iterable[Change]) -> Projection:
    """Add a match's changes up (see the module's rules). The same changes give the same match, whatever
    order they arrived in."""
    by_kind: dict[Kind, list[Change]] = {k: [] for k in Kind}
    for c in changes:
        by_kind[c.kind].append(c)
    for found in by_kind.values():
        found.sort(key=lambda c: c.order)
    start = by_kind[Kind.START][0] if by_kind[Kind.START] else None
    unreadable: list[ChangeError] = []
    versions: dict[str, Version] = {}
    header = _header(start)
    for c in by_kind[Kind.HAND]:
        try:
            entry = hand_from_dict(c.body["entry"])
            if header is not None:
                score_hand(entry, header.rules, len(header.sides))  # a hand that cannot be right never counts
        except (MatchFileError, InvalidHand) as exc:
            reason: Any = exc.message if isinstance(exc, MatchFileError) else HandProblems(
                exc.problems, tuple(side.name for side in header.sides) if header is not None else ())
            unreadable.append(ChangeError(ChangeSays.HAND, match=c.match, reason=reason))
            continue
        taps = None if c.body.get("taps") is None else tuple(Tap(s, TapKind(k)) for s, k in c.body["taps"])
        versions[c.id] = Version(c, entry, taps)
    undone = {c.body["version"]: c for c in by_kind[Kind.UNDO]}
    dropped: dict[str, Change] = {}
    kept_order: dict[int, list[str]] = {}
    for c in by_kind[Kind.CHOICE]:  # oldest first: a later choice for a slot overrides an earlier one
        for ident in c.body["drop"]:
            dropped[ident] = c
        kept_order[c.body["slot"]] = list(c.body["keep"])
        for ident in c.body["keep"]:
            dropped.pop(ident, None)
    # An undo takes back the hand, not one version of it: the versions it was edited from go with it.
    withdrawn = set(dropped)
    for ident in undone:
        while ident in versions and ident not in withdrawn:
            withdrawn.add(ident)
            ident = versions[ident].change.body.get("base") or ""
    trail: list[TrailEntry] = []
    hands: list[Version] = []
    conflicts: list[Conflict] = []
    generations: dict[int, int] = {}
    slots = sorted({v.slot for v in versions.values()})
    for slot in slots:
        mine = [v for v in versions.values() if v.slot == slot]
        generations[slot] = sum(1 for v in mine if v.id in withdrawn)
        live = [v for v in mine if v.id not in withdrawn]
        replaced = {v.change.body.get("base") for v in live}
        heads = sorted((v for v in live if v.id not in replaced), key=lambda v: v.change.order)
        distinct: list[Version] = []
        for v in heads:
            if not any(d.entry == v.entry for d in distinct):
                distinct.append(v)
        order = kept_order.get(slot, [])
        chosen = [v for ident in order for v in distinct if v.id == ident]
        rest = [v for v in distinct if v not in chosen and v not in distinct[:1]] if not chosen else \
            [v for v in distinct if v not in chosen]
        counted = chosen if chosen else distinct[:1]
        index = len(hands)
        if chosen and rest or not chosen and len(distinct) > 1:
            conflicts.append(Conflict(slot, index, tuple(counted[:1] + rest)))
        # What each counted version replaced, or what was withdrawn, is in the trail.
        for v in mine:
            base = versions.get(v.change.body.get("base") or "")
            if base is not None:
                trail.append(TrailEntry(TrailAction.EDIT, index, base.entry, v.entry, v.change.at))
            if v.id in undone:
                trail.append(TrailEntry(TrailAction.UNDO, index, v.entry, None, undone[v.id].at))
            if v.id in dropped and counted:
                trail.append(TrailEntry(TrailAction.EDIT, index, v.entry, counted[0].entry, dropped[v.id].at))
        hands.extend(counted)
    next_slot = (max(v.slot for v in hands) + 1) if hands else 0
    saved_slots = {v.slot for v in hands}
    untapped = {c.body["tap"] for c in by_kind[Kind.UNTAP]}
    # In the order they were tapped: by time, then device, then the device's own count.
    tapped = sorted((c for c in by_kind[Kind.TAP] if c.id not in untapped),
                  key=lambda c: (c.at, c.device, c.body["n"], c.id))
    live_taps = tuple(c for c in tapped if c.body["slot"] == next_slot)
    late = tuple(c for c in tapped if c.body["slot"] in saved_slots and c.body["slot"] != next_slot)
    latest = by_kind[Kind.STATUS][-1] if by_kind[Kind.STATUS] else None
    return Projection(start=start, hands=tuple(hands), trail=tuple(sorted(trail, key=lambda t: t.at)),
                      live=live_taps, late=late,
                      abandoned=bool(latest and latest.body["abandoned"]),
                      deleted=bool(latest and latest.body["deleted"]), conflicts=tuple(conflicts),
                      next_slot=next_slot, generations=generations, unreadable=tuple(unreadable))


def _header(start: Change | None) -> Match | None:
    """The match a start says (no hands), or None when there is none or it cannot be read."""
    if start is None:
        return None
    try:
        return match_from_dict({**start.body["match"], "hands": []})
    except (MatchFileError, RulesError, MatchError):
        return None


def match_of(p: Projection) -> Match:
    """The engine's match the projection adds up to; `ChangeError` when its start cannot be read or a hand
    is impossible (the hands before it still count)."""
    assert p.start is not None
    try:
        header = {**p.start.body["match"], "hands": []}
        match = match_from_dict(header)
    except (MatchFileError, RulesError) as exc:
        raise ChangeError(ChangeSays.SHAPE, match=p.start.match, detail=str(exc)) from None
    hands = tuple(v.entry for v in p.hands)
    return replace(match, hands=hands)


def record_of(p: Projection, match_id: str, player_ids: tuple[tuple[str, ...], ...]) -> MatchRecord:
    """The match record the projection adds up to (the device's own player ids, found by name)."""
    match = match_of(p)
    st = standing(match, strict=False)
    if st.hands_after_end:
        match = replace(match, hands=match.hands[: len(match.hands) - st.hands_after_end])
        st = standing(match)
    finished = None
    if st.is_over and st.decided_at is not None:
        finished = p.hands[st.decided_at].change.at
    live = LiveHand(tuple(Tap(c.body["seat"], TapKind(c.body["tap"])) for c in p.live
                          if c.body["seat"] < len(match.seats)))
    assert p.start is not None
    return MatchRecord(id=match_id, match=match, created=p.start.at, finished=finished,
                       abandoned=p.abandoned and not st.is_over, player_ids=player_ids,
                       live=LiveHand() if st.is_over else live, trail=p.trail,
                       hand_taps=tuple(v.taps for v in p.hands[: len(match.hands)]))


def names_of(match: Match) -> tuple[tuple[str, ...], ...]:
    """Every side's players by name: how a device finds its own ids for them."""
    return tuple(side.members for side in match.sides)


def is_start_readable(p: Projection) -> bool:
    """True when the projection has a start this app can make a match of."""
    if p.start is None:
        return False
    try:
        match_of(replace(p, hands=()))
    except (ChangeError, MatchError, RulesError):
        return False
    return True


__all__ = ["Change", "ChangeError", "ChangeSays", "Conflict", "Kind", "Projection", "Side", "Version", "Goal",
           "choice", "from_doc", "hand", "match_of", "names_of", "project", "record_of", "start",
           "status", "tap", "undo", "untap"]
