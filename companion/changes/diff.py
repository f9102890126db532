"""The diff: what a device's own match holds that the shared documents it knows do not say, as new documents
(`changes_since`). Used only where nothing else can know what happened: a match the group was never told of
(started here, imported from a file, kept from before the device joined) is told whole by the next round.
Every later change writes its own documents with it (`outbox`). See docs/sync.md."""

from __future__ import annotations

from dataclasses import replace

from ..engine.live import TapKind
from ..records import MatchRecord, TrailAction
from .documents import Change, hand, start, status, tap, undo, untap
from .projection import Projection


def changes_since(p: Projection, record: MatchRecord, deleted: bool, at: str, device: str,
                  taps_sent: int = 0) -> list[Change]:
    """The changes that make what the documents add up to (`p`) say what the device's match (`record`, or
    its deletion) says. `taps_sent` numbers the device's taps so far, so every tap has an id of its own."""
    out: list[Change] = []
    m = record.id
    if p.start is None:
        out.append(start(m, replace(record.match, hands=()), record.created, device))
    counted = list(p.hands)
    local = record.match.hands
    generations = dict(p.generations)
    # A changed hand: a new version of its slot; hands beyond: new slots; fewer hands: the last taken back.
    for i, entry in enumerate(local[: len(counted)]):
        if entry != counted[i].entry:
            out.append(hand(m, counted[i].slot, entry, record.taps_of(i), counted[i].id, _edited_at(record, i, at),
                            device, generations.get(counted[i].slot, 0)))
    next_slot = p.next_slot
    for i in range(len(counted), len(local)):
        slot = next_slot + (i - len(counted))
        out.append(hand(m, slot, local[i], record.taps_of(i), None, at, device, generations.get(slot, 0)))
    for version in counted[len(local):]:
        out.append(undo(version.change, _undone_at(record, at), device))
    # Live taps: the device's taps against the documents', as many of each kind per seat.
    if len(local) >= len(counted):
        shared = list(p.live) if len(local) == len(counted) else []
        slot = next_slot + (len(local) - len(counted))
        wanted = [(t.seat, t.kind.value) for t in record.live.taps]
        unmatched = list(shared)
        for seat, kind in wanted:
            same = next((c for c in unmatched if (c.body["seat"], c.body["tap"]) == (seat, kind)), None)
            if same is not None:
                unmatched.remove(same)
            else:
                taps_sent += 1
                out.append(tap(m, slot, seat, TapKind(kind), at, device, taps_sent))
        for c in reversed(unmatched):  # taken back here: the latest of their kind first
            out.append(untap(c, at, device))
    if (record.abandoned, deleted, record.match.finished_early) != (p.abandoned, p.deleted, p.finished):
        out.append(status(m, record.abandoned, deleted, at, device, record.match.finished_early))
    return out


def _edited_at(record: MatchRecord, index: int, default: str) -> str:
    edits = [t.at for t in record.trail if t.action is TrailAction.EDIT and t.hand == index]
    return edits[-1] if edits else default


def _undone_at(record: MatchRecord, default: str) -> str:
    undos = [t.at for t in record.trail if t.action is TrailAction.UNDO]
    return undos[-1] if undos else default
