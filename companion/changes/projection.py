"""How a match's documents add up to a match (`project`), by the rules `companion.changes` states: the
versions of each hand (`_versions`), what was withdrawn (`_withdrawn`), the hands that count and the
conflicts (`_heads`), the live taps (`_taps`) and the latest status. Pure code, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.entry import HandEntry, InvalidHand
from ..engine.live import LiveHand, Tap, TapKind
from ..engine.match import Match, MatchError, standing
from ..engine.rules import RulesError
from ..engine.scoring import score_hand
from ..formats.matchfile import MatchFileError, hand_from_dict, match_from_dict
from ..i18n.explain import HandProblems
from ..records import MatchRecord, TrailAction, TrailEntry
from .documents import Change, ChangeError, ChangeSays, Kind


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
    finished: bool = False
    """The table finished the match before its last agreed hand, once a side was sure to win (the latest status)."""
    conflicts: tuple[Conflict, ...] = ()
    """Hands saved differently on two phones, for the table to choose."""
    next_slot: int = 0
    """The slot the next hand saved takes."""
    generations: Mapping[int, int] = field(default_factory=dict)
    """Per slot, how many of its versions were withdrawn (a version saved after them is a new one)."""
    unreadable: tuple[ChangeError, ...] = ()
    """Documents that could not count (a hand that cannot be right): kept, and said."""


def project(changes: Iterable[Change]) -> Projection:
    """Add a match's changes up (see the package's rules). The same changes give the same match, whatever
    order they arrived in."""
    by_kind: dict[Kind, list[Change]] = {k: [] for k in Kind}
    for c in changes:
        by_kind[c.kind].append(c)
    for found in by_kind.values():
        found.sort(key=lambda c: c.order)
    start = by_kind[Kind.START][0] if by_kind[Kind.START] else None
    versions, unreadable = _versions(by_kind[Kind.HAND], _header(start))
    undone = {c.body["version"]: c for c in by_kind[Kind.UNDO]}
    dropped, kept_order = _choices(by_kind[Kind.CHOICE])
    heads = _heads(versions, undone, by_kind[Kind.CHOICE], kept_order, _withdrawn(versions, undone, dropped))
    next_slot = (max(v.slot for v in heads.hands) + 1) if heads.hands else 0
    live, late = _taps(by_kind[Kind.TAP], by_kind[Kind.UNTAP], next_slot, {v.slot for v in heads.hands})
    latest = by_kind[Kind.STATUS][-1] if by_kind[Kind.STATUS] else None  # by logical clock
    return Projection(start=start, hands=heads.hands, trail=heads.trail, live=live, late=late,
                      abandoned=bool(latest and latest.body["abandoned"]),
                      deleted=bool(latest and latest.body["deleted"]),
                      finished=bool(latest and latest.body.get("finished")), conflicts=heads.conflicts,
                      next_slot=next_slot, generations=heads.generations, unreadable=unreadable)


def may_conflict(changes: Iterable[Change]) -> bool:
    """False when `project` could find no conflict in these changes, known without reading a hand: no slot
    has two versions that no other version replaces. Cheap (no hand is scored), so a device can count the
    conflicts it holds over a decade's matches and project only the few where one may be."""
    hands = [c for c in changes if c.kind is Kind.HAND]
    replaced = {c.body.get("base") for c in hands}
    slots = [c.body["slot"] for c in hands if c.id not in replaced]
    return len(slots) != len(set(slots))


def _versions(saved: Iterable[Change], header: Match | None) -> tuple[dict[str, Version], tuple[ChangeError, ...]]:
    """Every hand document that can count, by id; and those that cannot (unreadable, or a hand that cannot be
    right under the match's rules: it never counts, and is said)."""
    unreadable: list[ChangeError] = []
    versions: dict[str, Version] = {}
    for c in saved:
        try:
            entry = hand_from_dict(c.body["entry"])
            if header is not None:
                score_hand(entry, header.rules, len(header.sides))
        except (MatchFileError, InvalidHand) as exc:
            reason: Any = exc.message if isinstance(exc, MatchFileError) else HandProblems(
                exc.problems, tuple(side.name for side in header.sides) if header is not None else ())
            unreadable.append(ChangeError(ChangeSays.HAND, match=c.match, reason=reason))
            continue
        taps = None if c.body.get("taps") is None else tuple(Tap(s, TapKind(k)) for s, k in c.body["taps"])
        versions[c.id] = Version(c, entry, taps)
    return versions, tuple(unreadable)


def _choices(choices: Iterable[Change]) -> tuple[dict[str, Change], dict[int, list[str]]]:
    """The table's choices, oldest first (a later choice for a slot overrides an earlier one): the versions
    dropped (by the choice that dropped them) and, per slot, the versions kept in the order kept."""
    dropped: dict[str, Change] = {}
    kept_order: dict[int, list[str]] = {}
    for c in choices:
        for ident in c.body["drop"]:
            dropped[ident] = c
        kept_order[c.body["slot"]] = list(c.body["keep"])
        for ident in c.body["keep"]:
            dropped.pop(ident, None)
    return dropped, kept_order


def _withdrawn(versions: Mapping[str, Version], undone: Mapping[str, Change],
               dropped: Mapping[str, Change]) -> dict[str, tuple]:
    """The versions that no longer count, each with the logical order of the change that withdrew it: dropped by
    a choice, or undone. An undo takes back the hand, not one version of it: the versions it was edited from go
    with it."""
    withdrawn = {ident: c.order for ident, c in dropped.items()}
    for ident, u in undone.items():
        while ident in versions and (ident not in withdrawn or u.order < withdrawn[ident]):
            withdrawn[ident] = u.order
            ident = versions[ident].change.body.get("base") or ""
    return withdrawn


_NEVER = (float("inf"),)
"""The order of a change that never happened: after every other (a version not withdrawn)."""


@dataclass(frozen=True)
class _Heads:
    hands: tuple[Version, ...]
    trail: tuple[TrailEntry, ...]
    conflicts: tuple[Conflict, ...]
    generations: Mapping[int, int]


def _heads(versions: Mapping[str, Version], undone: Mapping[str, Change], choices: Sequence[Change],
           kept_order: Mapping[int, list[str]], withdrawn: Mapping[str, tuple]) -> _Heads:
    """Per slot, in slot order: the version that counts (the earliest of the distinct heads, by logical clock,
    unless the table chose), a conflict where distinct heads are left unchosen, and the trail of what each
    version replaced or what was withdrawn, of a hand saved again in the place of one undone, and of every choice
    the table made (one a later choice overrode too: two phones that chose apart both said so), by logical clock."""
    trail: list[tuple[tuple[int, str, str, str], TrailEntry]] = []   # (the change's logical order, the entry)
    by_slot: dict[int, list[Version]] = {}
    for v in versions.values():
        by_slot.setdefault(v.slot, []).append(v)

    def number_at(slot: int, order: tuple) -> int:
        """The hand's index when the change of logical order `order` was made: the earlier slots that counted
        a hand then. (Counted now, a later undo of an earlier hand renumbered entries already listed, and a
        device's own trail of that moment said another hand than the group's.)"""
        return sum(1 for other, mine in by_slot.items() if other < slot
                   and any(v.change.order < order and withdrawn.get(v.id, _NEVER) > order for v in mine))

    hands: list[Version] = []
    conflicts: list[Conflict] = []
    generations: dict[int, int] = {}
    for slot in sorted({v.slot for v in versions.values()}):
        mine = [v for v in versions.values() if v.slot == slot]
        generations[slot] = sum(1 for v in mine if v.id in withdrawn)
        live = [v for v in mine if v.id not in withdrawn]
        replaced = {v.change.body.get("base") for v in live}
        heads = sorted((v for v in live if v.id not in replaced), key=lambda v: v.change.order)
        distinct: list[Version] = []
        for v in heads:
            if not any(d.entry == v.entry for d in distinct):
                distinct.append(v)
        chosen = [v for ident in kept_order.get(slot, []) for v in distinct if v.id == ident]
        rest = [v for v in distinct if v not in chosen and v not in distinct[:1]] if not chosen else \
            [v for v in distinct if v not in chosen]
        counted = chosen if chosen else distinct[:1]
        index = len(hands)
        if chosen and rest or not chosen and len(distinct) > 1:
            conflicts.append(Conflict(slot, index, tuple(counted[:1] + rest)))
        for v in mine:
            base = versions.get(v.change.body.get("base") or "")
            if base is not None:
                trail.append((v.change.order, TrailEntry(TrailAction.EDIT, number_at(slot, v.change.order), base.entry,
                                                         v.entry, v.change.at)))
            else:
                # Saved in the place of a hand undone before it (by logical clock): the hand put back, as it was
                # or corrected, says so beside the undo.
                gone = [(undone[u.id].order, u) for u in mine if u.id in undone and undone[u.id].order < v.change.order]
                if gone:
                    trail.append((v.change.order, TrailEntry(TrailAction.REDO, number_at(slot, v.change.order),
                                                             max(gone, key=lambda o: o[0])[1].entry, v.entry,
                                                             v.change.at)))
            if v.id in undone:
                u = undone[v.id]
                trail.append((u.order, TrailEntry(TrailAction.UNDO, number_at(slot, u.order), v.entry, None, u.at)))
        for c in choices:
            kept = versions.get(c.body["keep"][0]) if c.body["slot"] == slot and c.body["keep"] else None
            if kept is not None:
                trail.extend((c.order, TrailEntry(TrailAction.EDIT, number_at(slot, c.order), versions[i].entry,
                                                  kept.entry, c.at)) for i in c.body["drop"] if i in versions)
        hands.extend(counted)
    # In the order things happened (logical clock), never by the phones' own clocks: an edit on a phone an hour
    # ahead still comes before the undo another phone made after seeing it.
    return _Heads(tuple(hands), tuple(t for _, t in sorted(trail, key=lambda o: o[0])), tuple(conflicts), generations)


def _taps(taps: Iterable[Change], untaps: Iterable[Change], next_slot: int,
          saved_slots: set[int]) -> tuple[tuple[Change, ...], tuple[Change, ...]]:
    """The live taps of the hand in progress, and the late ones (meant for a hand another phone had already
    saved: they do not change it); a tap taken back is neither. In the order tapped: by logical clock (a
    tap made after another was seen comes after it, whatever the phones' clocks say), then device, then the
    device's own count."""
    untapped = {c.body["tap"] for c in untaps}
    tapped = sorted((c for c in taps if c.id not in untapped), key=lambda c: (c.order[:3], c.body["n"], c.id))
    live = tuple(c for c in tapped if c.body["slot"] == next_slot)
    late = tuple(c for c in tapped if c.body["slot"] in saved_slots and c.body["slot"] != next_slot)
    return live, late


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
    return replace(match, hands=hands, finished_early=p.finished)


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
    live = live_of(p, len(match.seats))
    assert p.start is not None
    return MatchRecord(id=match_id, match=match, created=p.start.at, finished=finished,
                       abandoned=p.abandoned and not st.is_over, player_ids=player_ids,
                       live=live if st.takes_hand else LiveHand(), trail=p.trail,
                       hand_taps=tuple(v.taps for v in p.hands[: len(match.hands)]))


def live_of(p: Projection, seats: int) -> LiveHand:
    """The live taps of the hand in progress as the documents say them (of the match's `seats` seats)."""
    return LiveHand(tuple(Tap(c.body["seat"], TapKind(c.body["tap"])) for c in p.live if c.body["seat"] < seats))


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
