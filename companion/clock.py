"""Where the app takes the time and new ids from: one module, below the service and storage, so both (and
the tests) can be handed another clock or id maker."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], str]
"""Returns now as an ISO 8601 timestamp in UTC (see `utc_now`)."""
IdMaker = Callable[[], str]
"""Returns a new, unique id (see `new_id`)."""


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with milliseconds: `2025-03-01T20:15:42.123Z`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id() -> str:
    """A new match (or player) id: a UUID4 as 32 hex digits."""
    return uuid.uuid4().hex
