"""Sync, the use case: this device's matches and a group's shared database kept in step, change by change.

A round (`Sync.once`): compare every match changed here since the last round with what the shared
documents add up to, and keep what is new as changes to send (`gather`); send what was not sent yet
(`send`); read what the group's other devices wrote since the last checkpoint and store the matches it
changes (`receive`). Every step is durable before the next: a change is kept before it is sent, a
received document before the checkpoint moves past it, so a round cut anywhere (the app killed, the
network gone) loses nothing and the next round doubles nothing. See docs/sync.md.

Nothing here waits on a screen: the front door runs rounds beside the screens (a thread, or a task in
the browser build) and tells the phones which matches changed.
"""

from __future__ import annotations

import enum
import secrets
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..clock import Clock
from ..engine.messages import Message, SaidError, Says
from ..records import MatchRecord, Revision, TrailEntry
from . import changes as ch
from .ports import DamagedMatch, MatchStorage, NoSuchMatch
from .table import Table

SEND_BATCH = 200
"""Documents sent in one request."""
RECEIVE_BATCH = 500
"""Documents asked for in one request."""
MAX_PAGES = 10_000
"""The most pages one round reads (5 million documents): a server that never says it is done is cut off."""


class GroupChanged(Exception):
    """A round's group was forgotten while it ran (`Sync.forget_group`)."""


@enum.unique
class GroupSays(Says):
    """What a round says about the group's database itself (not an error: the round goes on)."""

    __prefix__ = "sync.group"
    STARTED_OVER = ("the group's database is not the history this device synced with (it was wiped or made "
                    "again): it was read again from the start, and everything this device holds was sent again")


class Remote(Protocol):
    """The group's shared database, as a round needs it (a CouchDB database: `companion.sync.couch`)."""

    async def mark(self) -> str | None:
        """The mark of the database's history (a random name the first device to sync with it wrote there,
        never replicated, so a database wiped and made again, or restored, has none), or None."""

    async def claim(self, mark: str) -> str:
        """Write `mark` as the database's mark unless one is there already; the mark that is there now."""

    async def send(self, docs: Sequence[Mapping[str, Any]]) -> tuple[set[str], dict[str, str]]:
        """Store these documents: the ids now stored there (a document already there counts as stored), and
        those the server refused, each with the server's word for why (`forbidden`)."""

    async def changes(self, since: str | None, limit: int) -> tuple[list[Any], str, bool]:
        """Documents written after checkpoint `since` (all, when None), at most `limit`: the documents, the new
        checkpoint, and whether more may follow."""

    async def wait(self, since: str, seconds: float) -> bool:
        """Wait until something is written after `since` (True) or `seconds` passed (False)."""


class Replica(Protocol):
    """This device's copy of the shared documents it knows, kept durably beside its matches."""

    @property
    def device(self) -> str:
        """This device's id in the group (random, made once; never a name)."""

    def known(self, match_id: str) -> list[ch.Change]:
        """Every document known about a match."""

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

    @property
    def mark(self) -> str | None:
        """The mark of the group's history this device synced with (`Remote.mark`), or None: not yet."""

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

    @property
    def taps_sent(self) -> int:
        """How many live taps this device has written as documents (each tap's id counts on it)."""

    def set_taps_sent(self, n: int) -> None: ...

    def forget(self) -> None:
        """Forget the group: every document known, the mark, the checkpoint, the comparisons (not the device's
        id, nor its matches)."""


@dataclass
class Report:
    """What one round moved."""

    sent: int = 0
    """Documents sent to the shared database."""
    received: int = 0
    """New documents read from it."""
    stored: set[str] = field(default_factory=set)
    """Matches of this device that changed because of them."""
    heard: set[str] = field(default_factory=set)
    """Matches the group wrote something new about, stored here or not: the phones showing one show it again
    (a hand saved differently elsewhere, or the table's choice, may leave this device's match as it was and
    still be news: a conflict to show, or one to take away)."""
    conflicts: int = 0
    """Hands saved differently on two devices, waiting for the table to choose."""
    unreadable: list[ch.ChangeError] = field(default_factory=list)
    """Documents that could not count, and why."""
    started_over: Message | None = None
    """Said when the group's database was not the history this device synced with (`GroupSays`)."""
    group_changed: bool = False
    """The device joined another group or left while the round ran: it stopped there."""

    def add(self, other: Report) -> None:
        self.sent += other.sent
        self.received += other.received
        self.stored |= other.stored
        self.heard |= other.heard
        self.conflicts = other.conflicts or self.conflicts
        self.unreadable += other.unreadable
        self.started_over = other.started_over or self.started_over


class Sync:
    """This device's matches and the group's shared documents, kept in step (see the module)."""

    def __init__(self, storage: MatchStorage, replica: Replica, table: Table, clock: Clock):
        self.storage = storage
        self.replica = replica
        self.table = table
        self.clock = clock
        self._lock = threading.RLock()
        """One round (or a choice) at a time: a round runs beside the screens, a choice comes from a phone."""
        self._group = 0
        """Moves when the device joins another group or leaves (`forget_group`): a round that began with the
        group before stops before it keeps anything more (its answers are the old group's)."""

    def forget_group(self) -> None:
        """Forget what was known of the group (joining another, or leaving): under the round's lock, so a round
        in flight is never between reading the old group's documents and keeping them; the round then stops
        (`_still`)."""
        with self._lock:
            self._group += 1
            self.replica.forget()

    def _still(self, group: int) -> None:
        """Inside the lock: stop a round whose group was forgotten since it began."""
        if group != self._group:
            raise GroupChanged

    # --- this device's changes ----------------------------------------------------------------------
    def gather(self, only: Iterable[str] | None = None, *, again: bool = False) -> int:
        """Compare each match changed here since it was last compared (of those in `only`, when given) with the
        documents known, and keep what is new as changes to send; how many. Done before new documents of a
        match are kept, so what the device did and what the group did are never mistaken for each other.
        `again`: compare the matches in `only` even when their stamps did not change."""
        with self._lock:
            if only is None:
                updated = {s.id: s.updated for s in self.storage.list_matches()}
                gone = self.replica.matches() - set(updated)
            else:  # a few matches (a page of what the group wrote): asked one by one, not by listing them all
                asked = set(only)
                updated = {m: stamp for m in asked if (stamp := self.storage.updated(m)) is not None}
                gone = (asked - set(updated)) & self.replica.matches()
            new: list[ch.Change] = []
            stamps: dict[str, str] = {}
            taps = self.replica.taps_sent
            for match_id in sorted(updated):
                if self.replica.compared(match_id) == updated[match_id] and not again:
                    continue  # not changed here since it was compared (a match brought back from the bin is
                    # as it was: `again`, told by the library, compares it all the same)
                try:
                    record = self.storage.get(match_id)
                except (NoSuchMatch, DamagedMatch):
                    continue
                made, taps = self._changes_of(record, False, taps)
                new += made
                stamps[match_id] = updated[match_id]
            for match_id in sorted(gone):
                if self.replica.compared(match_id) is not None and self.storage.is_taken(match_id):
                    made, taps = self._deleted(match_id, taps)   # in the bin: deleted here
                    new += made
            if new:
                self.replica.keep(new, sent=False)
                self.replica.set_taps_sent(taps)
            if stamps:
                self.replica.set_compared(stamps)
            return len(new)

    def _changes_of(self, record: MatchRecord, deleted: bool, taps: int) -> tuple[list[ch.Change], int]:
        known = self.replica.known(record.id)
        out: list[ch.Change] = []
        for _ in range(4):  # an undo can reveal taps of the hand it reopens: compare again, at most a few times
            made = ch.changes_since(ch.project(known + out), record, deleted, self.clock(), self.replica.device, taps)
            if not made:
                break
            made = ch.stamped(known + out, made)
            taps += sum(1 for c in made if c.kind is ch.Kind.TAP)
            out += made
        return out, taps

    def _deleted(self, match_id: str, taps: int) -> tuple[list[ch.Change], int]:
        known = self.replica.known(match_id)
        p = ch.project(known)
        if p.deleted or p.start is None:
            return [], taps
        return ch.stamped(known, [ch.status(match_id, p.abandoned, True, self.clock(), self.replica.device)]), taps

    # --- the group's changes ------------------------------------------------------------------------
    async def send(self, remote: Remote, group: int | None = None) -> int:
        """Send every change kept but not sent; how many were sent."""
        group = self._group if group is None else group
        sent = 0
        while True:
            batch = self.replica.unsent(SEND_BATCH)
            if not batch:
                return sent
            stored, refused = await remote.send([c.to_doc() for c in batch])
            ids = [c.id for c in batch if c.id in stored]
            turned = {c.id: refused[c.id] for c in batch if c.id in refused and c.id not in stored}
            with self._lock:
                self._still(group)
                self.replica.mark_sent(ids)
                if turned:
                    self.replica.refuse(turned)
            sent += len(ids)
            if len(ids) + len(turned) < len(batch):
                return sent  # the server kept some back without a word: they are sent again next round

    async def receive(self, remote: Remote, group: int | None = None) -> Report:
        """Read what the group wrote since the checkpoint, page by page; store the matches it changes.

        The matches are stored as one batch of writes (`MatchStorage.batch`): a history of a thousand matches
        arriving costs a sync of each match file, not of the index's files each time too. What sync knows (the
        documents, the checkpoint) is durable page by page, whatever the batch."""
        group = self._group if group is None else group
        report = Report()
        with self.storage.batch():
            left = self.replica.to_settle()
            if left:  # news kept by a round that ended (or was killed) before it stored them
                with self._lock:
                    report.heard |= left
                    self._store(left, report)
            for _ in range(MAX_PAGES):
                if not await self._receive_page(remote, report, group):
                    break
        return report

    async def _receive_page(self, remote: Remote, report: Report, group: int) -> bool:
        """One page of what the group wrote: kept, the checkpoint moved past it, its matches stored; whether
        more may follow."""
        docs, seq, more = await remote.changes(self.replica.checkpoint, RECEIVE_BATCH)
        read: list[ch.Change] = []
        for doc in docs:
            try:
                read.append(ch.from_doc(doc))
            except ch.ChangeError as exc:
                report.unreadable.append(exc)
        with self._lock:
            self._still(group)
            self.gather({c.match for c in read})
            fresh = self.replica.keep(read, sent=True)
            self.replica.set_checkpoint(seq)
            report.received += len(fresh)
            report.heard |= {c.match for c in fresh}
            self._store({c.match for c in fresh}, report)
        return more

    def _store(self, match_ids: set[str], report: Report) -> None:
        """Store these matches as their documents add them up (`settle`), their stamps kept once for all."""
        stamps: dict[str, str] = {}
        later: set[str] = set()
        for match_id in sorted(match_ids):
            stored, conflicts = self._settle(match_id, stamps, later)
            if stored:
                report.stored.add(match_id)
            report.conflicts += conflicts
        if stamps:
            self.replica.set_compared(stamps)
        self.replica.settled(match_ids - later)  # changed here meanwhile: stored next round, once compared

    async def same_history(self, remote: Remote, group: int | None = None) -> Message | None:
        """Make sure the group's database is the history this device synced with, before anything is read from
        or sent to it; when it is not (wiped and made again, restored, another group's), start over with it
        and say so. The first device to sync with a database without a mark gives it one; a device that finds
        none where it knew one gives it a new one, so every other device notices too."""
        group = self._group if group is None else group
        there = await remote.mark()
        if there is None:
            there = await remote.claim(secrets.token_hex(8))
        with self._lock:
            self._still(group)
            known = self.replica.mark
            if known is None:
                self.replica.set_mark(there)
                return None
            if there == known:
                return None
            self.replica.start_over(there)
            return GroupSays.STARTED_OVER.of()

    async def once(self, remote: Remote) -> Report:
        """One round: gather, the history checked, send, receive (and send what receiving made this device
        say)."""
        group = self._group
        report = Report()
        try:
            self.gather()   # first, with no network: what this device did is kept to send, whatever follows
            report.started_over = await self.same_history(remote, group)
            report.sent = await self.send(remote, group)
            report.add(await self.receive(remote, group))
            if self.gather(report.stored):   # what receiving made this device say, sent in the same round
                report.sent += await self.send(remote, group)
        except GroupChanged:  # joined another group, or left, meanwhile: the next round is the new group's
            report.group_changed = True
        return report

    # --- one match: the documents into this device's match -------------------------------------------
    def settle(self, match_id: str) -> tuple[bool, int]:
        """Store the match as its documents add it up, when that differs from this device's (which is first
        compared, so nothing of its own is lost); (whether it was stored, conflicts waiting)."""
        with self._lock:
            stamps: dict[str, str] = {}
            outcome = self._settle(match_id, stamps, set())
            if stamps:
                self.replica.set_compared(stamps)
            return outcome

    def _settle(self, match_id: str, stamps: dict[str, str], later: set[str]) -> tuple[bool, int]:
        """`settle`, the stamp of a match stored put in `stamps` (the caller keeps them, once for many), a match
        changed here since it was compared put in `later`."""
        p = ch.project(self.replica.known(match_id))
        if p.start is None or not ch.is_start_readable(p):
            return False, 0
        with self.storage.lock:  # no phone's write between reading the match, storing it and its stamp
            try:
                current: MatchRecord | None = self.storage.get(match_id)
            except NoSuchMatch:
                current = None
            except DamagedMatch:
                return False, len(p.conflicts)
            if p.deleted:
                if current is not None:
                    self.storage.delete(match_id)
                    return True, 0
                return False, 0
            try:
                shared = ch.record_of(p, match_id, current.player_ids if current is not None else ())
            except ch.ChangeError:
                return False, len(p.conflicts)
            if current is not None:
                shared = replace(shared, trail=_merged_trail(current.trail, shared.trail))
            if current is not None and _same(shared, current):
                return False, len(p.conflicts)
            if current is not None and self.replica.compared(match_id) != self.storage.updated(match_id):
                later.add(match_id)
                return False, len(p.conflicts)  # changed here since it was compared: the next round first says so
            expected: Revision | None = current.revision if current is not None else None
            stored = self.table.apply_shared(shared, expected)
            if stored is not None:
                stamp = self.storage.updated(match_id)
                if stamp is not None:
                    stamps[match_id] = stamp
            return stored is not None, len(p.conflicts)

    def refused(self) -> list[tuple[str, str]]:
        """This device's changes the group's server refused, as (match id, the server's word for why), from what
        the device holds (not from the last round): said until the device starts over with the group."""
        return sorted((ident.split(".", 1)[0], why) for ident, why in self.replica.refused().items())

    def conflicts(self, match_id: str) -> tuple[ch.Conflict, ...]:
        """Hands of the match saved differently on two devices, waiting for the table."""
        return ch.project(self.replica.known(match_id)).conflicts

    def choose(self, match_id: str, slot: int, keep: Sequence[str]) -> bool:
        """The table's choice for a hand saved differently on two devices: the versions it keeps, in order (the
        others are dropped, and stay in the trail). True when the match changed here."""
        with self._lock:
            known = self.replica.known(match_id)
            p = ch.project(known)
            conflict = next((c for c in p.conflicts if c.slot == slot), None)
            if conflict is None:
                return False
            ids = {v.id for v in conflict.versions}
            keep = [k for k in keep if k in ids]
            if not keep:
                return False
            drop = tuple(sorted(ids - set(keep)))
            made, = ch.stamped(known, [ch.choice(match_id, slot, tuple(keep), drop, self.clock(), self.replica.device)])
            self.gather([match_id])
            self.replica.keep([made], sent=False)
            stored, _ = self.settle(match_id)
            return stored


def _same(a: MatchRecord, b: MatchRecord) -> bool:
    """Whether two records say the same about the match (its hands, the taps in play, stopped or not, and what
    its trail holds: a version the table did not keep may be all that changed)."""
    return (a.match == b.match and a.abandoned == b.abandoned
            and sorted((t.seat, t.kind.value) for t in a.live.taps) == sorted((t.seat, t.kind.value)
                                                                               for t in b.live.taps)
            and Counter(map(_said, a.trail)) == Counter(map(_said, b.trail)))


def _said(entry: TrailEntry) -> tuple[Any, ...]:
    """What a trail entry says, without when (a device's own entry and the documents' may differ by that)."""
    return entry.action, entry.hand, entry.before, entry.after


def _merged_trail(here: Sequence[TrailEntry], shared: Sequence[TrailEntry]) -> tuple[TrailEntry, ...]:
    """The documents' trail, with every entry of this device's that they do not say (kept from before the
    device joined, an import's): a version not kept reaches the trail of a device whose own version was
    kept, and nothing of the device's own trail is lost."""
    known = Counter(map(_said, shared))
    mine = []
    for entry in here:
        if known[_said(entry)]:
            known[_said(entry)] -= 1
        else:
            mine.append(entry)
    return tuple(sorted((*shared, *mine), key=lambda t: t.at))


class GroupPort(Protocol):
    """Where this device keeps its group's address, user and password (never in an export)."""

    def address(self) -> str | None: ...

    def keep(self, address: str) -> None: ...

    def forget(self) -> None: ...


class Connector(Protocol):
    """How the service reaches a group's database (CouchDB: `companion.sync`), without knowing HTTP."""

    def parse(self, text: str) -> Any:
        """The group's address read from a URL; a `SaidError` saying what is wrong with it."""

    async def check(self, address: Any, create: bool = False) -> Any:
        """Try the address as a round will use it (and create the database when `create` and allowed): a
        result with `ok`, `problem` (a `SaidError`, or None), `database` and `may_create`."""

    def shown(self, address: Any) -> str:
        """The address as a screen shows it: server, database and user, never the password."""

    def link(self, address: Any) -> str:
        """The address with its user and password: what a join link carries to another phone."""


class Group:
    """The group this device syncs with: join it, try it, show it, leave it."""

    def __init__(self, kept: GroupPort, connector: Connector, sync: Sync | None = None,
                 changed: Any = None):
        self.kept = kept
        self.connector = connector
        self.sync = sync
        """What this device knows of the group, forgotten when it joins another or leaves."""
        self._changed = changed
        """Called when the group changed (the runner starts again with it)."""

    def address(self) -> Any | None:
        """The group's address, when this device is in one (and it can still be read)."""
        text = self.kept.address()
        if text is None:
            return None
        try:
            return self.connector.parse(text)
        except SaidError:
            return None

    def shown(self) -> str | None:
        """Server, database and user of the group, for a screen; None when in no group."""
        address = self.address()
        return self.connector.shown(address) if address is not None else None

    def link(self) -> str | None:
        """The join link (with the password): only for the join QR code on this device's own screen."""
        address = self.address()
        return self.connector.link(address) if address is not None else None

    async def test(self, text: str, create: bool = False) -> Any:
        """Try an address as typed (`SaidError` when it is not one); the connector's result."""
        return await self.connector.check(self.connector.parse(text), create)

    def join(self, text: str) -> None:
        """Keep the group's address (`SaidError` when it is not one): rounds start with it. Joining another
        group forgets what was known of the first (its checkpoint and documents)."""
        address = self.connector.parse(text)
        link = self.connector.link(address)
        before = self.kept.address()
        if before is not None and before != link and self.sync is not None:
            self.sync.forget_group()
        self.kept.keep(link)
        if self._changed is not None:
            self._changed()

    def leave(self) -> None:
        """Forget the group, its password and what was known of it; the matches stay on this device."""
        self.kept.forget()
        if self.sync is not None:
            self.sync.forget_group()
        if self._changed is not None:
            self._changed()
