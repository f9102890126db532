"""The index in memory: every match's entry, found by id, by content (fingerprint) and by bucket file."""

from __future__ import annotations

import hashlib
from bisect import bisect_left, insort
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..engine.match import Status
from .documents import DocumentError, check_summary_doc, is_id
from .folder import DAMAGE, INDEX_TABLE, DataFolder, db, reason
from .schema import TooNew


_PLAYING = Status.PLAYING.value


def is_history(entry: dict[str, Any]) -> bool:
    """An entry's `MatchSummary.is_history`: decided, or stopped unfinished."""
    return entry["status"] != _PLAYING or entry["abandoned"]


def is_empty(entry: dict[str, Any]) -> bool:
    """A match stopped before its first hand (the history hides them unless asked)."""
    return entry["status"] == _PLAYING and entry["abandoned"] and entry["hands"] == 0


def history_order(entry: dict[str, Any]) -> tuple[str, str]:
    """Where the history lists a match: by `MatchSummary.when` (finished, else started), then id."""
    return entry["finished"] or entry["created"], entry["id"]


def _digest(entry: dict[str, Any]) -> int:
    """What of a history entry its scored figures come from: the match's content (its fingerprint), its times,
    players and figures (who made each xeri), not its last change: a live tap on a drawn match's deciding hand
    changes that alone, and moved the history's key with every tap."""
    said = "\0".join((entry["id"], entry["fingerprint"], entry["created"], str(entry["finished"]),
                      str(entry["abandoned"]), str(entry["player_ids"]), str(entry.get("figures"))))
    return int.from_bytes(hashlib.blake2b(said.encode(), digest_size=16).digest())


def bucket_of(match_id: str) -> str:
    """The bucket (index file) of a match: the first two hex digits of its id, one of 256."""
    return match_id[:2]


class Index:
    """The index entries (summary documents) of the stored matches.

    Kept several ways so that no lookup walks the whole index: by id, by fingerprint (an import asks
    whether the same content is stored, once per match imported), by bucket (a save rewrites one
    bucket file from memory), the history in its order (a page of the history list builds only the rows
    it shows), the matches in play, and the players seen. Each is kept up to date by `put` and `pop`,
    the only ways an entry changes.
    """

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Any]] = {}
        self._prints: dict[str, set[str]] = defaultdict(set)
        self._buckets: dict[str, set[str]] = defaultdict(set)
        self._history: list[tuple[str, str]] = []
        """`history_order` of every history entry, oldest first."""
        self._empty = 0
        """How many history entries are matches stopped before their first hand."""
        self._playing: set[str] = set()
        """Matches in play (not abandoned)."""
        self._seen: Counter[str] = Counter()
        """Each player id, by how many entries seat it."""
        self._key = 0
        """The history's key: the XOR of each history entry's digest (`_digest`)."""

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, match_id: str) -> dict[str, Any] | None:
        return self._entries.get(match_id)

    def values(self) -> list[dict[str, Any]]:
        return list(self._entries.values())

    def put(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """Add or replace the entry of its match; returns the entry it replaced."""
        match_id = entry["id"]
        old = self.pop(match_id)
        self._entries[match_id] = entry
        self._prints[entry["fingerprint"]].add(match_id)
        self._buckets[bucket_of(match_id)].add(match_id)
        if is_history(entry):
            insort(self._history, history_order(entry))
            self._empty += is_empty(entry)
            self._key ^= _digest(entry)
        elif not entry["abandoned"]:
            self._playing.add(match_id)
        self._seen.update(pid for ids in entry["player_ids"] for pid in ids)
        return old

    def pop(self, match_id: str) -> dict[str, Any] | None:
        """Remove the entry of a match; returns it, or None when there was none."""
        old = self._entries.pop(match_id, None)
        if old is not None:
            self._prints[old["fingerprint"]].discard(match_id)
            self._buckets[bucket_of(match_id)].discard(match_id)
            if is_history(old):
                del self._history[bisect_left(self._history, history_order(old))]
                self._empty -= is_empty(old)
                self._key ^= _digest(old)
            self._playing.discard(match_id)
            self._seen.subtract(pid for ids in old["player_ids"] for pid in ids)
            self._seen += Counter()   # drops the players no entry seats any more
        return old

    def history(self) -> Iterator[dict[str, Any]]:
        """The history's entries, newest first (`history_order`)."""
        return (self._entries[match_id] for _, match_id in reversed(self._history))

    def history_size(self, empty: bool = True) -> int:
        """How many history entries there are (`empty`: counting matches stopped before their first hand)."""
        return len(self._history) - (0 if empty else self._empty)

    def empty_count(self) -> int:
        return self._empty

    def playing(self) -> list[dict[str, Any]]:
        """The entries of the matches in play (not abandoned), any order."""
        return [self._entries[m] for m in self._playing]

    def seen(self) -> set[str]:
        """The player ids some entry seats."""
        return set(self._seen)

    def history_key(self) -> str:
        """A digest of the history's matches (`_digest`: what their figures come from): the same for the same
        history, whatever order it was built in; another when a history match is added, changed or removed."""
        return f"{len(self._history)}-{self._key:032x}"

    def with_fingerprint(self, fingerprint: str) -> list[dict[str, Any]]:
        """The entries of the matches with this content, oldest first."""
        found = [self._entries[m] for m in self._prints.get(fingerprint, ())]
        return sorted(found, key=lambda s: (s["created"], s["id"]))

    def bucket(self, prefix: str) -> list[dict[str, Any]]:
        """The entries of one bucket file, by id."""
        return [self._entries[m] for m in sorted(self._buckets.get(prefix, ()))]


def read_buckets(folder: Path, files: DataFolder) -> Iterator[dict[str, Any]]:
    """Every entry of the index files in `folder`. A bucket file that cannot be read is set aside: the index
    is only a cache of the match files, and what it lacked is rebuilt from them."""
    for path in sorted(folder.glob("*.json")):
        prefix = path.stem
        if len(prefix) != 2 or not is_id(prefix * 16):
            continue
        try:
            entries = []
            for doc in db(path).table(INDEX_TABLE).all():
                summary = check_summary_doc(dict(doc))
                if bucket_of(summary["id"]) != prefix:
                    raise DocumentError(f"the index entry of match {summary['id']} is in the wrong file")
                entries.append(summary)
        except TooNew as exc:
            files.set_aside(path, str(exc))
            continue
        except DAMAGE as exc:
            files.set_aside(path, reason(exc))
            continue
        yield from entries
