"""What the app keeps about a match beyond the engine's `Match`: ids, times, live taps, the edit trail."""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine.entry import HandEntry
from .engine.live import LiveHand
from .engine.match import Match


@dataclass(frozen=True)
class TrailEntry:
    """One change to a recorded hand, kept so a dispute about a changed score can be looked up."""

    action: str
    """`undo` (the last hand was taken back) or `edit` (a hand was replaced)."""
    hand: int
    """The 0-based index of the hand concerned."""
    before: HandEntry
    """The hand as it was."""
    after: HandEntry | None
    """The hand as it became (None for an undo)."""
    at: str
    """When, as an ISO 8601 timestamp in UTC."""


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
