"""Small builders for storage tests: valid hands, new matches, a deterministic clock."""

from __future__ import annotations

from datetime import datetime, timedelta, UTC

from companion.engine import Goal, HandEntry, Match, Side, record_hand, score_hand
from companion.formats.matchfile import dumps
from companion.formats.presets import preset

CLASSIC = preset("classic")


def hand(cards=(30, 22), counting=(12, 8), xeris=(1, 0), jack_xeris=(0, 0), ten=0, two=1) -> HandEntry:
    """A classic two-side hand entry in count mode; the defaults are a valid hand."""
    return HandEntry(cards=tuple(cards), counting=tuple(counting), xeris=tuple(xeris),
                     jack_xeris=tuple(jack_xeris), ten_of_diamonds=ten, two=two)


def hand_for(n: int) -> HandEntry:
    """The n-th hand of a deterministic sequence of valid, varied classic hands."""
    a = 20 + n % 13
    c = 5 + n % 11
    entry = hand(cards=(a, 52 - a), counting=(c, 20 - c), xeris=(n % 3, (n + 1) % 2),
                 jack_xeris=(1, 0) if n % 7 == 3 else (0, 0), ten=n % 2, two=(n + 1) % 2)
    score_hand(entry, CLASSIC, 2)  # a builder that made an impossible hand would make every test lie
    return entry


IMPOSSIBLE = hand(cards=(30, 30))
"""60 captured cards from a 52-card deck."""


def new_match(a: str = "Anna", b: str = "Ben", goal: Goal | None = None, hands: int = 0) -> Match:
    """A classic match between two players, with `hands` hands from `hand_for` already played."""
    match = Match.new(CLASSIC, [Side(a), Side(b)], goal or Goal(hands=1000))
    for n in range(hands):
        match = record_hand(match, hand_for(n))
    return match


def partnership_match(goal: Goal | None = None) -> Match:
    """A four-player partnership match: Anna & Chris against Ben & Dora."""
    rules = preset("partnership")
    return Match.new(rules, [Side("Blue", ("Anna", "Chris")), Side("Red", ("Ben", "Dora"))], goal)


class Clock:
    """A clock for the store that moves one second each time it is read."""

    def __init__(self, start: str = "2025-03-01T20:00:00"):
        self.now = datetime.fromisoformat(start).replace(tzinfo=UTC)

    def __call__(self) -> str:
        self.now += timedelta(seconds=1)
        return self.now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stored_matches(folder, count: int, hands: int = 10) -> list[str]:
    """Write `count` finished matches of `hands` hands straight into match files, as the store would.

    Much faster than playing them through a store; the next store to open indexes them.
    """
    import uuid
    from pathlib import Path

    from companion.records import MatchRecord
    from companion.storage import AtomicJSONStorage
    from companion.storage.documents import record_to_doc

    matches = Path(folder) / "matches"
    matches.mkdir(parents=True, exist_ok=True)
    match = new_match(goal=Goal(hands=hands), hands=hands)
    clock = Clock("2024-01-01T18:00:00")
    ids = []
    for _ in range(count):
        created, finished = clock(), clock()
        record = MatchRecord(id=uuid.uuid4().hex, match=match, created=created, finished=finished,
                             player_ids=((uuid.uuid4().hex,), (uuid.uuid4().hex,)))
        AtomicJSONStorage(matches / f"{record.id}.json").write({"match": {"1": record_to_doc(record, finished)}})
        ids.append(record.id)
    return ids


def match_file(k: int) -> str:
    """A finished match of two players of its own."""
    match = Match.new(CLASSIC, [Side(f"Player {2 * k}"), Side(f"Player {2 * k + 1}")], Goal(hands=2))
    for n in range(2):
        match = record_hand(match, hand_for(n + k))
    return dumps(match)
