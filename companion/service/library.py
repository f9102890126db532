"""Everything stored beyond the match in play: the history list, deleting and restoring, importing
and exporting match files, known players and settings."""

from __future__ import annotations

import enum
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ..engine.match import standing
from ..formats.matchfile import dumps, fingerprint, match_from_dict, parse
from .ports import DamagedMatch, MatchStorage
from ..history.scored import ScoredMatch
from ..records import DamagedFile, MatchRecord, MatchSummary, Player, is_time
from ..clock import new_id, utc_now


class Arrival(enum.StrEnum):
    """What became of one imported match file."""

    NEW = "new"
    """Stored as a new match."""
    KNOWN = "known"
    """The same match (same id and content, or same content) was already stored: nothing changed."""
    DIFFERED = "differed"
    """A match with the file's id but other content was stored: the file was stored as a new match
    beside it (an edit made elsewhere, or two devices that happened to make the same id)."""


@dataclass(frozen=True)
class Imported:
    """One imported match: the stored record and what the import did."""

    record: MatchRecord
    arrival: Arrival


class Library:
    """The stored matches as a whole, players and settings."""

    def __init__(self, storage: MatchStorage, clock: Callable[[], str] = utc_now,
                 make_id: Callable[[], str] = new_id):
        self.storage = storage
        self._clock = clock
        self._make_id = make_id
        self.told: Callable[[str, bool], object] | None = None
        """Told of a match about to be deleted (True) or brought back (False), before it is (sync keeps the change
        to send: the bin is emptied when the app closes, and with it the only sign of the deletion)."""

    # --- where the data is ----------------------------------------------------------------------------
    @property
    def folder(self) -> Path | None:
        """The data folder, when it is one a person can find on this device (None in a browser tab)."""
        return self.storage.folder

    def damaged(self) -> list[DamagedFile]:
        """Files found damaged and set aside (kept, never deleted), for the app to tell."""
        return list(self.storage.damaged)

    # --- the history ---------------------------------------------------------------------------------
    def matches(self) -> list[MatchSummary]:
        """Every stored match, newest first (the index alone: no match file is read)."""
        return self.storage.list_matches()

    def history(self, *, player: str | None = None, rules: str | None = None, empty: bool = True,
                limit: int | None = None) -> list[MatchSummary]:
        """Finished and abandoned matches, newest first, filtered (see `MatchStorage.history`); only the
        summaries asked for are built."""
        return self.storage.history(player=player, rules=rules, empty=empty, limit=limit)

    def history_count(self, *, player: str | None = None, rules: str | None = None, empty: bool = True) -> int:
        return self.storage.history_count(player=player, rules=rules, empty=empty)

    def playing(self) -> list[MatchSummary]:
        """The matches in play (neither decided nor abandoned), any order."""
        return self.storage.playing()

    def seen_players(self) -> set[str]:
        """The ids of the players some stored match seats."""
        return self.storage.seen_players()

    def history_key(self) -> str:
        """The same while no finished or abandoned match is added, changed or removed (see `MatchStorage`)."""
        return self.storage.history_key()

    def read_kept(self, name: str) -> bytes | None:
        """Figures kept between runs (`MatchStorage.keep`), None when none are."""
        return self.storage.read_kept(name)

    def read_kept_with_key(self, name: str) -> tuple[str, bytes | None]:
        """The history's key and the figures kept under `name`, read together (see `HistoryCache`)."""
        return self.storage.read_kept_with_key(name)

    def scored_with_key(self) -> tuple[str, list[ScoredMatch]]:
        """The history's key and the history scored (`scored`), read together: the figures of that very key."""
        return self.storage.scored_with_key()

    def keep(self, name: str, data: bytes) -> None:
        self.storage.keep(name, data)

    def scored(self) -> list[ScoredMatch]:
        """The history's matches scored, any order (`score_history` orders them), from what the storage keeps
        with each summary: no match file is read."""
        return self.storage.list_scored()

    def get(self, match_id: str) -> MatchRecord:
        return self.storage.get(match_id)

    def delete(self, match_id: str) -> None:
        """Move a match into the bin; `restore` brings it back until the app closes."""
        if self.told is not None:  # said first: a round that finds it said of a match still here deletes it
            self.told(match_id, True)
        self.storage.delete(match_id)

    def restore(self, match_id: str) -> MatchRecord:
        if self.told is not None:  # said first: a round that finds it said of a match in the bin brings it back
            self.told(match_id, False)
        return self.storage.restore(match_id)

    # --- match files ---------------------------------------------------------------------------------
    def export_match(self, match_id: str) -> str:
        """The match file (docs/match-file.md) of a stored match, with its id and times in `meta`."""
        record = self.storage.get(match_id)
        return dumps(record.match, meta={"id": record.id, "created": record.created, "finished": record.finished,
                                         "abandoned": record.abandoned})

    def batch(self) -> AbstractContextManager[None]:
        """Many imports as one: the storage writes its index and players once, at the end (see `MatchStorage`)."""
        return self.storage.batch()

    def import_match(self, text: str) -> Imported:
        """Store the match in a match file; `MatchFileError` when it cannot be read.

        A match already stored (the same `meta.id` with the same content, or the same content) is not
        stored twice. A file whose id is stored with other content is a different match: it is stored
        as a new one, and the arrival says so (`Arrival.DIFFERED`).
        """
        doc = parse(text)
        match = match_from_dict(doc)
        meta = doc.get("meta")
        meta = meta if isinstance(meta, dict) else {}
        wanted = meta.get("id")
        print_ = fingerprint(match)
        differed = False
        if isinstance(wanted, str) and self.storage.is_taken(wanted):
            try:
                stored = self.storage.get(wanted)
                if fingerprint(stored.match) == print_:
                    return Imported(stored, Arrival.KNOWN)
                differed = True
            except (LookupError, DamagedMatch):
                pass  # not stored, or damaged: this file brings the match back under a new id
        same = self.storage.find_same(print_)
        if same is not None:
            return Imported(same, Arrival.KNOWN)
        match_id = wanted if isinstance(wanted, str) and not self.storage.is_taken(wanted) else self._make_id()
        created: str = meta["created"] if is_time(meta.get("created")) else self._clock()
        finished = meta.get("finished") if is_time(meta.get("finished")) else None
        st = standing(match)
        finished = (finished or self._clock()) if st.is_over else None
        player_ids = tuple(tuple(self.storage.player_id(name) for name in side.members) for side in match.sides)
        record = MatchRecord(id=match_id, match=match, created=created, finished=finished, player_ids=player_ids,
                             abandoned=meta.get("abandoned") is True and not st.is_over)
        return Imported(self.storage.add(record, st), Arrival.DIFFERED if differed else Arrival.NEW)

    # --- players and settings ------------------------------------------------------------------------
    def players(self) -> list[Player]:
        """Every known player, sorted by name."""
        return self.storage.players()

    def rename_player(self, player_id: str, name: str) -> None:
        self.storage.rename_player(player_id, name)

    def settings(self) -> dict[str, Any]:
        return self.storage.settings()

    def update_settings(self, **changes: Any) -> dict[str, Any]:
        return self.storage.update_settings(**changes)

