"""The documents a use case writes with its change (the transactional outbox): what a save, an edit, an undo, a
tap, a tap taken back, stopping or taking up again says, as documents, against what the match's documents add
up to (`Projection`) on this device when it was made. The service writes them in the same atomic write as the
match (`MatchRecord.outbox`), so a round never has to work out what happened (see docs/sync.md).

Every function takes the index the device's screen showed (hand 3 is index 2) and maps it to the documents'
slot: a device's match is what its documents add up to, but a page of the group's news may be kept a moment
before the match is stored from it, and a change made in that moment still says what the person did (a tap
for the hand they were playing, never an undo of a hand they had not seen). Pure code, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.entry import HandEntry
from ..engine.live import Tap, TapKind
from .documents import Change, Kind, hand, status, tap, undo, untap
from .projection import Projection, Version


def slot_of(p: Projection, index: int) -> int:
    """The slot of the hand at `index` of the device's match: a counted hand's own, else a new one."""
    if index < len(p.hands):
        return p.hands[index].slot
    return p.next_slot + (index - len(p.hands))


def saved(p: Projection, match_id: str, index: int, entry: HandEntry, taps: tuple[Tap, ...] | None, at: str,
          device: str) -> Change:
    """Hand `index` saved. Where the documents already count a hand there (another device saved it, and this
    device has not stored it yet), this is a second version of that hand: a conflict for the table, never a
    hand lost or counted twice."""
    slot = slot_of(p, index)
    return hand(match_id, slot, entry, taps, None, at, device, p.generations.get(slot, 0))


def shown(p: Projection, index: int, before: HandEntry | None) -> Version | None:
    """The version of hand `index` the device's screen showed (`before`, its entry): the one that counts, or,
    where two devices saved it apart and this device has not stored the group's count yet, its own version."""
    if index >= len(p.hands):
        return None
    counted = p.hands[index]
    if before is None or counted.entry == before:
        return counted
    others = [v for c in p.conflicts if c.slot == counted.slot for v in c.versions]
    return next((v for v in others if v.entry == before), counted)


def edited(p: Projection, match_id: str, index: int, entry: HandEntry, taps: tuple[Tap, ...] | None, at: str,
           device: str, before: HandEntry | None = None) -> Change:
    """Hand `index` changed from `before` (as the screen showed it): a new version of that version (`base`)."""
    version = shown(p, index, before)
    if version is None:
        return saved(p, match_id, index, entry, taps, at, device)
    return hand(match_id, version.slot, entry, taps, version.id, at, device, p.generations.get(version.slot, 0))


def undone(p: Projection, index: int, at: str, device: str, before: HandEntry | None = None) -> Change | None:
    """Hand `index` (the last the device showed, as `before`) taken back; None when the documents count no such
    hand."""
    version = shown(p, index, before)
    return undo(version.change, at, device) if version is not None else None


def tapped(p: Projection, match_id: str, index: int, seat: int, kind: TapKind, at: str, device: str,
           mine: Iterable[Change]) -> Change:
    """A live tap for hand `index`, the one in progress on the device's screen. `mine`: the match's documents,
    whose taps by this device number this one (two taps are two documents)."""
    n = 1 + sum(1 for c in mine if c.kind is Kind.TAP and c.device == device)
    return tap(match_id, slot_of(p, index), seat, kind, at, device, n)


def untapped(p: Projection, index: int, taken: Tap, at: str, device: str) -> Change | None:
    """The latest live tap of this kind by this seat for hand `index`, taken back; None when there is none."""
    slot = slot_of(p, index)
    same = [c for c in (*p.live, *p.late)
            if c.body["slot"] == slot and (c.body["seat"], c.body["tap"]) == (taken.seat, taken.kind.value)]
    return untap(same[-1], at, device) if same else None


def cleared(p: Projection, index: int, at: str, device: str) -> list[Change]:
    """Every live tap of hand `index` (the one in progress) taken back, the latest first."""
    slot = slot_of(p, index)
    return [untap(c, at, device) for c in reversed(p.live) if c.body["slot"] == slot]


def stopped(p: Projection, match_id: str, abandoned: bool, deleted: bool, at: str, device: str,
            finished: bool | None = None) -> Change | None:
    """Stopped unfinished or taken up again, deleted or brought back, finished early or played on (`finished`;
    None: as the documents say); None when the documents say so already."""
    finished = p.finished if finished is None else finished
    if (p.abandoned, p.deleted, p.finished) == (abandoned, deleted, finished):
        return None
    return status(match_id, abandoned, deleted, at, device, finished)


def present(changes: Sequence[Change | None]) -> list[Change]:
    """The changes made, without the Nones of those that had nothing to say."""
    return [c for c in changes if c is not None]
