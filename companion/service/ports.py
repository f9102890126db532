"""What the service needs of a storage backend (`MatchStorage`), and the errors a backend raises.

The TinyDB folder of `companion.storage` is one backend; the phone build's is another. The service and
the UI know only this protocol, so a backend plugs in without touching them.
"""

from __future__ import annotations

import errno
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..engine.match import Standing
from ..history.scored import ScoredMatch
from ..records import DamagedFile, MatchRecord, MatchSummary, Player
from .. import changes as ch


class StorageError(RuntimeError):
    """Something the storage cannot do; the message says what, in words a player understands."""


class StoreLocked(StorageError):
    """Another app process holds the data folder."""

    def __init__(self, folder: Path):
        super().__init__(f"Xeri Companion is already open with this data folder ({folder}); close it there first.")
        self.folder = folder
        """The data folder that is in use."""


class Fault(enum.StrEnum):
    """Why the disk refused: each has its sentence (`notice.disk.<fault>` in the catalogs)."""

    FULL = "full"
    """No space left (or the quota is used up)."""
    DENIED = "denied"
    """The data folder cannot be written: read-only, or no permission."""
    GONE = "gone"
    """The data folder (or a folder in it) is not there any more."""
    OTHER = "other"
    """Anything else the disk said (an input/output error, …)."""


_FAULTS = {errno.ENOSPC: Fault.FULL, errno.EDQUOT: Fault.FULL, errno.EACCES: Fault.DENIED, errno.EPERM: Fault.DENIED,
           errno.EROFS: Fault.DENIED, errno.ENOENT: Fault.GONE, errno.ENOTDIR: Fault.GONE}

_ADVICE = {
    Fault.FULL: "the disk is full; free some space, then try again",
    Fault.DENIED: "the data folder cannot be written (read-only, or no permission); check it, then try again",
    Fault.GONE: "the data folder is not there any more; check where it was, then try again",
    Fault.OTHER: "the disk reported an error; check it, then try again",
}


class DiskFault(StorageError):
    """The disk refused a read or a write (full, read-only, folder gone). Nothing saved before is lost: every
    write replaces a file whole, so a refused one leaves the file as it was."""

    def __init__(self, doing: str, folder: Path | None, error: OSError):
        self.fault = _FAULTS.get(error.errno or 0, Fault.OTHER)
        """Why, as a `Fault`."""
        self.doing = doing
        """What could not be done, in words (`save the match`)."""
        self.folder = folder
        """The data folder."""
        self.detail = error.strerror or type(error).__name__
        """What the system said."""
        super().__init__(f"could not {doing}: {_ADVICE[self.fault]} ({self.detail}; data folder {folder}). "
                         "Nothing saved before is lost.")


class StoreClosed(StorageError):
    """The storage was used after `close()`."""


class NoSuchMatch(StorageError, LookupError):
    """No stored match has this id (or, for `restore`, no deleted one)."""


class NoSuchPlayer(StorageError, LookupError):
    """No known player has this id."""


class DamagedMatch(StorageError):
    """A match file found damaged when opened; it was moved aside (see `damaged`)."""

    def __init__(self, damaged: DamagedFile):
        name = f" ({damaged.match_name})" if damaged.match_name else ""
        super().__init__(f"the match{name} could not be opened: {damaged.reason}; "
                         f"the file was kept as {damaged.new_path}")
        self.damaged = damaged
        """What was moved aside, and why."""


@runtime_checkable
class MatchStorage(Protocol):
    """Matches, known players and settings, durably: documents in and out, nothing of the game's rules.

    Every write is durable when the method returns. The service decides what a record becomes (a hand
    recorded, finished, live taps cleared); the storage only keeps it. `st` is the record's standing,
    which the service has already worked out: the index keeps its totals, winner and status.

    What the app is built from (`companion.bootstrap.build`) is declared here too, so that a new backend
    cannot lack it without a type error: `path`, `clock`, `read_only`, `check_folder`.
    """

    path: Path
    """Where the storage keeps its files (in a browser, its folder in memory, kept in IndexedDB): sync keeps
    what it knows of the group beside them (`sync/`)."""
    clock: Callable[[], str]
    """Where the storage, and the services over it, take the time from (ISO 8601, UTC)."""
    read_only: bool
    """Opened to read only (an export): no writes, and so no group and no sync."""

    def check_folder(self) -> bool:
        """Make the folder again if it was deleted while the app ran; True if it was (`StorageError` when it
        could not be)."""

    @property
    def folder(self) -> Path | None:
        """Where the data lives, when it is a folder a person can find (None in a browser)."""

    @property
    def damaged(self) -> list[DamagedFile]:
        """Files found damaged and set aside, for the app to report."""

    @property
    def lock(self) -> Any:
        """A re-entrant lock (`threading.RLock`): the service holds it around each read-change-write, so a
        change made from one phone cannot interleave with another's, however many services share the
        storage."""

    @property
    def closed(self) -> bool: ...

    def close(self) -> None: ...

    def batch(self) -> AbstractContextManager[None]:
        """Many writes as one: inside it, what every write would rewrite (the index, the players) is written
        once, at the end. Each match is still durable when its method returns; a crash inside a batch may
        lose the index entries and players of the batch so far, which the next open rebuilds from the
        match files."""

    # matches
    def get(self, match_id: str) -> MatchRecord: ...

    def add(self, record: MatchRecord, st: Standing) -> MatchRecord: ...

    def put(self, record: MatchRecord, st: Standing | None) -> MatchRecord:
        """Replace a stored record; `st` None when only its live taps changed."""

    def list_matches(self) -> list[MatchSummary]: ...

    def history(self, *, player: str | None = None, rules: str | None = None, empty: bool = True,
                limit: int | None = None) -> list[MatchSummary]:
        """The finished and abandoned matches (`MatchSummary.is_history`), newest first by `when` then id,
        filtered: seating `player`, of the rule set `rules`, `empty` for the matches stopped before their first
        hand too; at most `limit`, building only the summaries returned."""

    def history_count(self, *, player: str | None = None, rules: str | None = None, empty: bool = True) -> int:
        """How many matches `history` lists with these filters and no limit."""

    def playing(self) -> list[MatchSummary]:
        """The matches in play (neither decided nor abandoned), any order."""

    def seen_players(self) -> set[str]:
        """The ids of the players some stored match seats."""

    def history_key(self) -> str:
        """A key of the history: the same while no finished or abandoned match is added, changed or removed."""

    def scored_with_key(self) -> tuple[str, list[ScoredMatch]]:
        """`history_key` and `list_scored` read together, with no write between them."""

    def list_scored(self) -> list[ScoredMatch]:
        """The finished and abandoned matches (`MatchSummary.is_history`) scored, any order, without reading a
        match file where the storage keeps each match's figures with its summary (every save writes them)."""

    def updated(self, match_id: str) -> str | None:
        """When the stored match last changed (its summary's `updated`), None when it is not stored: what
        `list_matches` says of one match, without listing them all (sync asks this of every match it
        stores)."""

    def find_same(self, fingerprint: str) -> MatchRecord | None:
        """A stored match with this content (`fingerprint`), if any."""

    def is_taken(self, match_id: str) -> bool:
        """True when the id is stored, deleted but restorable, or otherwise in use."""

    def delete(self, match_id: str) -> None: ...

    def restore(self, match_id: str) -> MatchRecord: ...

    # figures kept between runs (a cache of what the matches add up to)
    def read_kept(self, name: str) -> bytes | None:
        """What `keep` kept under `name`, None when nothing is."""

    def read_kept_with_key(self, name: str) -> tuple[str, bytes | None]:
        """`history_key` and `read_kept` read together, with no write between them."""

    def keep(self, name: str, data: bytes) -> None:
        """Keep figures worked out from the matches: never synced or exported; read back with the key they were
        worked out under, so figures of another history are never shown."""

    # players and settings
    def player_id(self, name: str) -> str: ...

    def players(self) -> list[Player]: ...

    def rename_player(self, player_id: str, name: str) -> None: ...

    def settings(self) -> dict[str, Any]: ...

    def update_settings(self, **changes: Any) -> dict[str, Any]: ...


# --- what a round of sync needs (service.sync): the group's database, and what this device knows of it ---
class Remote(Protocol):
    """The group's shared database, as a round needs it (a CouchDB database: `companion.sync.couch`)."""

    async def mark(self) -> str | None:
        """The mark of the database's history (a random name the first device to sync with it wrote there,
        never replicated, so a database wiped and made again, or restored, has none), or None."""

    async def claim(self, mark: str) -> str:
        """Write `mark` as the database's mark unless one is there already; the mark that is there now."""

    async def position(self) -> str:
        """How far the database's own history goes (its latest update sequence)."""

    async def send(self, docs: Sequence[Mapping[str, Any]]) -> tuple[set[str], dict[str, str]]:
        """Store these documents: the ids now stored there (a document already there counts as stored), and
        those the server refused, each with the server's word for why (`forbidden`)."""

    async def changes(self, since: str | None, limit: int) -> tuple[list[Any], str, bool]:
        """Documents written after checkpoint `since` (all, when None), at most `limit`: the documents, the new
        checkpoint, and whether more may follow."""

    async def wait(self, since: str, seconds: float) -> bool:
        """Wait until something is written after `since` (True) or `seconds` passed (False)."""


class Ledger(Protocol):
    """What the table reads of the group's documents, to write a change's own documents with it (the outbox)."""

    @property
    def device(self) -> str:
        """This device's id in the group (random, made once; never a name)."""

    def known(self, match_id: str) -> list[ch.Change]:
        """Every document known about a match."""

    @property
    def mark(self) -> str | None:
        """The mark of the group's history this device synced with (`Remote.mark`), or None: in no group yet."""


class Replica(Ledger, Protocol):
    """This device's copy of the shared documents it knows, kept durably beside its matches."""

    def keep(self, changes: Iterable[ch.Change], sent: bool) -> list[ch.Change]:
        """Keep these documents (durable when it returns); those not known before. `sent`: they are in the
        shared database already (received from it)."""

    def unsent(self, limit: int) -> list[ch.Change]:
        """Documents kept but not yet sent, oldest first."""

    def mark_sent(self, ids: Iterable[str]) -> None: ...

    def refuse(self, reasons: Mapping[str, str]) -> None:
        """The server refused these documents (id -> its word for why): out of the queue, so they never hold
        back the documents behind them, and kept with the reason, to be said (`refused`) and sent again when
        the device starts over with the group."""

    def refused(self) -> dict[str, str]:
        """Documents of this device the server refused, with why."""

    def to_settle(self) -> set[str]:
        """Matches with documents kept from the group (`keep(sent=True)`) and not stored here since: kept as
        durably as the documents, so a device killed in between stores them at its next round."""

    def settled(self, match_ids: Iterable[str]) -> None: ...

    def matches(self) -> set[str]:
        """Every match with a document."""

    def set_mark(self, mark: str) -> None: ...

    def start_over(self, mark: str) -> None:
        """The group's database is another history than the one synced with: read it from the start (no
        checkpoint) and send it every document known here (all unsent again); `mark` is the history now."""

    @property
    def checkpoint(self) -> str | None:
        """How far the shared database has been read (its `_changes` sequence), or None: from the start."""

    def set_checkpoint(self, seq: str) -> None: ...

    def compared(self, match_id: str) -> str | None:
        """The `updated` stamp of the device's match when it was last compared with the documents."""

    def set_compared(self, stamps: Mapping[str, str]) -> None: ...

    def kept_bytes(self) -> int:
        """How many bytes of the group's documents this device keeps (`changes.limits.MAX_KEPT_BYTES`)."""

    def forget(self) -> None:
        """Forget the group: every document known, the mark, the checkpoint, the comparisons (not the device's
        id, nor its matches)."""
