"""A device's stored match beside what its documents add up to: whether they say the same, and the trail they
keep together; and how far a server's feed reaches (`behind`). Pure code, no I/O."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..records import MatchRecord, TrailEntry


def behind(seq: str, checkpoint: str | None) -> bool:
    """Whether a feed's new checkpoint is before the one it was read from. CouchDB's sequences are opaque
    (`123-g1AAA…`) but begin with a number that never goes down on one server, PouchDB's are that number."""
    def number(text: str | None) -> int | None:
        head = (text or "").split("-", 1)[0]
        return int(head) if head.isdigit() and len(head) <= 18 else None

    new, old = number(seq), number(checkpoint)
    return new is not None and old is not None and new < old


def same_record(a: MatchRecord, b: MatchRecord) -> bool:
    """Whether two records say the same about the match (its hands, the taps in play, stopped or not, and what
    its trail holds: a version the table did not keep may be all that changed)."""
    return (a.match == b.match and a.abandoned == b.abandoned
            and sorted((t.seat, t.kind.value) for t in a.live.taps) == sorted((t.seat, t.kind.value)
                                                                               for t in b.live.taps)
            and Counter(map(_what, a.trail)) == Counter(map(_what, b.trail)))


def _what(entry: TrailEntry) -> tuple[Any, ...]:
    """What a trail entry says, without when (a device's own entry and the documents' may differ by that)."""
    return entry.action, entry.hand, entry.before, entry.after


def merged_trail(here: Sequence[TrailEntry], shared: Sequence[TrailEntry]) -> tuple[TrailEntry, ...]:
    """The documents' trail, in their order (logical clock), after every entry of this device's that they do not
    say (kept from before the group knew the match: an import's, or from before the device joined): a version
    not kept reaches the trail of a device whose own version was kept, and nothing of the device's own trail is
    lost."""
    return (*unsaid(here, shared), *shared)


def unsaid(entries: Sequence[TrailEntry], said: Sequence[TrailEntry]) -> list[TrailEntry]:
    """The entries that `said` does not say, in their order (each entry of `said` answers for one)."""
    known = Counter(map(_what, said))
    out = []
    for entry in entries:
        if known[_what(entry)]:
            known[_what(entry)] -= 1
        else:
            out.append(entry)
    return out
