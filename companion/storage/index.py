"""The index in memory: every match's entry, found by id, by content (fingerprint) and by bucket file."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .documents import DocumentError, check_summary_doc, is_id
from .folder import DAMAGE, INDEX_TABLE, DataFolder, db, reason
from .schema import TooNew


def bucket_of(match_id: str) -> str:
    """The bucket (index file) of a match: the first two hex digits of its id, one of 256."""
    return match_id[:2]


class Index:
    """The index entries (summary documents) of the stored matches.

    Kept three ways so that no lookup walks the whole index: by id, by fingerprint (an import asks
    whether the same content is stored, once per match imported), and by bucket (a save rewrites one
    bucket file from memory).
    """

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Any]] = {}
        self._prints: dict[str, set[str]] = defaultdict(set)
        self._buckets: dict[str, set[str]] = defaultdict(set)

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
        return old

    def pop(self, match_id: str) -> dict[str, Any] | None:
        """Remove the entry of a match; returns it, or None when there was none."""
        old = self._entries.pop(match_id, None)
        if old is not None:
            self._prints[old["fingerprint"]].discard(match_id)
            self._buckets[bucket_of(match_id)].discard(match_id)
        return old

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
