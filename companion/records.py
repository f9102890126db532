"""What the app keeps about a match beyond the engine's `Match`: ids, times, live taps, the edit trail,
and the one row the history lists (`MatchSummary`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from .engine.entry import HandEntry
from .engine.live import LiveHand, Tap
from .engine.match import Match, Status


class TrailAction(enum.StrEnum):
    """What happened to a recorded hand."""

    UNDO = "undo"
    """The last hand was taken back."""
    EDIT = "edit"
    """A hand was replaced."""
    REDO = "redo"
    """A hand undone was saved again in its place (as it was, or corrected): `before` is the hand undone."""


@dataclass(frozen=True)
class TrailEntry:
    """One change to a recorded hand, kept so a dispute about a changed score can be looked up."""

    action: TrailAction
    """Undo, edit or redo (given as an action or its value)."""
    hand: int
    """The 0-based index of the hand concerned."""
    before: HandEntry
    """The hand as it was."""
    after: HandEntry | None
    """The hand as it became (None for an undo)."""
    at: str
    """When, as an ISO 8601 timestamp in UTC."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", TrailAction(self.action))


@dataclass(frozen=True)
class Revision:
    """Which version of a match a screen shows: a write made from another version is refused.

    Derived from the record itself, so nothing extra is stored: any hand recorded, undone or edited, any
    live tap, abandoning the match, and a hand replaced by the group's version (nothing counted more or
    less, yet what the screen shows changed) all change it. Holds the hands themselves, not their number:
    comparing is a tuple comparison, which stops at the first hand that differs.
    """

    hands: tuple[HandEntry, ...]
    """The hands recorded, as they stand."""
    hand_taps: tuple[tuple[Tap, ...] | None, ...]
    """Who made each recorded hand's xeris (`MatchRecord.hand_taps`)."""
    changes: int
    """Undos and edits made (the trail's length)."""
    taps: tuple[Tap, ...]
    """The live taps of the hand in progress."""
    abandoned: bool
    """Whether the table has stopped the match."""


@dataclass(frozen=True)
class MatchRecord:
    """A stored match: the engine value plus what the app knows about it."""

    id: str
    """A stable id (a UUID hex string)."""
    match: Match
    """The match itself; its hands are the source of truth."""
    created: str
    """When the match was started (ISO 8601, UTC)."""
    finished: str | None = None
    """When the match was won or drawn (ISO 8601, UTC), else None."""
    abandoned: bool = False
    """True when the table stopped the match unfinished (it can still be continued)."""
    player_ids: tuple[tuple[str, ...], ...] = ()
    """Stable player ids per side, one per member (`Side.members`), so renaming keeps history."""
    live: LiveHand = field(default_factory=LiveHand)
    """Xeris tapped during the hand in progress."""
    trail: tuple[TrailEntry, ...] = ()
    """Every undo and edit, oldest first."""
    hand_taps: tuple[tuple[Tap, ...] | None, ...] = ()
    """For each recorded hand, the live taps it was saved with (who made each xeri), or None where not
    known (hands recorded before the app kept them, or imported). Shorter than the hands means unknown."""
    outbox: tuple[Mapping[str, Any], ...] = ()
    """The group's documents (`companion.changes`) that this device's changes to the match wrote and that sync
    has not taken yet: written with the match, in the same atomic write, so no change is ever without its
    documents (the transactional outbox; `Sync.gather` takes them). Never in a match file or an export."""

    def taps_of(self, hand: int) -> tuple[Tap, ...] | None:
        """The live taps hand `hand` was saved with, or None when not known."""
        return self.hand_taps[hand] if hand < len(self.hand_taps) else None

    @property
    def revision(self) -> Revision:
        """The version of the match this record is (see `Revision`)."""
        return Revision(self.match.hands, self.hand_taps, len(self.trail), self.live.taps, self.abandoned)


@dataclass(frozen=True)
class Player:
    """A known player: a stable id that matches refer to, and the name shown today."""

    id: str
    """A UUID hex string; never changes, so renaming keeps the player's history."""
    name: str
    """The player's name as last given."""


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One match as the history lists it, read from the storage index alone (no match file is opened).

    The one shape of a history row: the storage returns it, the history and home screens show it.
    """

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

    @property
    def is_history(self) -> bool:
        """True for a match the history lists: decided, or stopped unfinished."""
        return not self.is_playing or self.abandoned

    @property
    def is_stopped(self) -> bool:
        """True for a match stopped before it was decided."""
        return self.abandoned and self.is_playing

    @property
    def when(self) -> str:
        """The time the history sorts and dates the match by: when it finished, else when it started. Both come
        with the match to every device of a group (a last change is each device's own time of storing it, so
        sorting by it listed the same stopped matches in different orders on two phones)."""
        return self.finished or self.created

    def has_player(self, player_id: str) -> bool:
        """True when the player sat at this table."""
        return any(player_id in ids for ids in self.player_ids)


@dataclass(frozen=True)
class DamagedFile:
    """A stored file that could not be read: what it was, where it was moved, and why."""

    path: Path
    """Where the file was."""
    new_path: Path | None
    """Where it was moved aside (kept, never deleted); None when it was left in place (a newer schema, or a
    store that only reads)."""
    reason: str
    """What is wrong with it, in words."""
    match_name: str | None = None
    """The match it held, as its side names ("Anna – Ben"), when known."""
    match_id: str | None = None
    """The id of the match it held, when it was a match file."""
    created: str | None = None
    """When that match was started, when known."""


def is_time(value: Any) -> bool:
    """True for an ISO 8601 timestamp (a trailing Z allowed), as records and match files carry them."""
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
