"""Sync, the use case: this device's matches and a group's shared database kept in step, change by change.

A round (`Sync.once`): take the documents every change made here since the last round wrote with it (the
match's outbox), to send (`gather`); send what was not sent yet
(`send`); read what the group's other devices wrote since the last checkpoint and store the matches it
changes (`receive`). Every step is durable before the next: a change is kept before it is sent, a
received document before the checkpoint moves past it, so a round cut anywhere (the app killed, the
network gone) loses nothing and the next round doubles nothing. See docs/sync.md.

Nothing here waits on a screen: the front door runs rounds beside the screens (a thread, or a task in
the browser build) and tells the phones which matches changed.
"""

from __future__ import annotations

import enum
import logging
import secrets
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..clock import Clock
from ..engine.messages import Message, SaidError, Says
from ..records import MatchRecord, Revision
from .. import changes as ch
from ..changes import MAX_KEPT_BYTES, MAX_PAGES, RECEIVE_BATCH, SEND_BATCH, changes_since, outbox
from .ports import DamagedMatch, MatchStorage, NoSuchMatch, Remote, Replica
from .table import Table

log = logging.getLogger(__name__)


class GroupChanged(Exception):
    """A round's group was forgotten while it ran (`Sync.forget_group`)."""


@enum.unique
class RoundSays(Says):
    """Why a round stopped though the server answered every request."""

    __prefix__ = "error.round"
    ENDLESS = ("the group's server kept saying more is coming after {pages} pages of changes: this round "
               "stopped there, and the next goes on from what was read")
    BACKWARDS = ("the group's server went back in its own feed (from {before} to {after}): nothing more was "
                 "read from it this round")
    FULL = ("this device keeps at most {limit} MB of the group's history and it holds {kept} MB: nothing more "
            "was read from the group's server (every match here is as it was)")


class RoundStopped(SaidError):
    """A round stopped by its own bounds (`RoundSays`): the server misbehaves, or is not a CouchDB."""


@enum.unique
class GroupSays(Says):
    """What a round says about the group's database itself (not an error: the round goes on)."""

    __prefix__ = "sync.group"
    STARTED_OVER = ("the group's database is not the history this device synced with (it was wiped or made "
                    "again): it was read again from the start, and everything this device holds was sent again")


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
    """Hands saved differently on two devices, waiting for the table to choose: every one this device holds
    after the round (`Sync.open_conflicts`), not only those the round moved."""
    unreadable: list[ch.ChangeError] = field(default_factory=list)
    """Documents that could not count, and why."""
    started_over: Message | None = None
    """Said when the group's database was not the history this device synced with (`GroupSays`)."""
    group_changed: bool = False
    """The device joined another group or left while the round ran: it stopped there."""
    in_step: bool = False
    """Checked at the round's end, not assumed from no error: this device had nothing left to send or to
    store, and had read the group's feed as far as the server said it reaches (`Sync.in_step`)."""

    def add(self, other: Report) -> None:
        self.sent += other.sent
        self.received += other.received
        self.stored |= other.stored
        self.heard |= other.heard
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
        self._open: dict[str, int] | None = None
        """Open conflicts per match, from the documents held (None: not counted since the process started)."""
        self._recount: set[str] = set()
        """Matches whose documents changed since they were counted."""
        self._own: set[str] = set()
        """Matches whose own documents a round took and did not store since: they may add up to more than the match
        showed (an undo reopens a hand another phone tapped for), so a round stores them as it stores news."""

    def forget_group(self) -> None:
        """Forget what was known of the group (joining another, or leaving): under the round's lock, so a round
        in flight is never between reading the old group's documents and keeping them; the round then stops
        (`_still`)."""
        with self._lock:
            self._group += 1
            self.replica.forget()
            self._open = None

    def _still(self, group: int) -> None:
        """Inside the lock: stop a round whose group was forgotten since it began."""
        if group != self._group:
            raise GroupChanged

    # --- this device's changes ----------------------------------------------------------------------
    def gather(self, only: Iterable[str] | None = None, *, again: bool = False) -> int:
        """Take the documents that each match changed here since it was last taken (of those in `only`, when
        given) wrote with its changes (`MatchRecord.outbox`), to send; how many. Done before new documents of a
        match are kept, so what the device did and what the group did are never mistaken for each other.
        `again`: take the matches in `only` even when their stamps did not change."""
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
            for match_id in sorted(updated):
                if self.replica.compared(match_id) == updated[match_id] and not again:
                    continue  # not changed here since it was taken
                try:
                    record = self.storage.get(match_id)
                except (NoSuchMatch, DamagedMatch):
                    continue
                new += self._taken(record)
                stamps[match_id] = updated[match_id]
            for match_id in sorted(gone):
                if self.replica.compared(match_id) is not None and self.storage.is_taken(match_id):
                    new += self._said(match_id, abandoned=None, deleted=True)   # in the bin: deleted here
            if new:
                self.replica.keep(new, sent=False)
                self._recount |= {c.match for c in new}
                self._own |= {c.match for c in new}
            if stamps:
                self.replica.set_compared(stamps)
            return len(new)

    def _taken(self, record: MatchRecord) -> list[ch.Change]:
        """The documents of the match's outbox that are not kept yet. A match the group was never told of (started
        here, imported, or kept from before the device joined) is told whole: its documents are made from the
        match itself (`changes_since`), the one place where nothing else can know what happened."""
        known = self.replica.known(record.id)
        ids = {c.id for c in known}
        out: list[ch.Change] = []
        for doc in record.outbox:
            if doc.get("_id") not in ids:
                try:
                    out.append(ch.from_doc(doc))
                except ch.ChangeError as exc:  # this device's own: never, unless its file was edited by hand
                    log.warning("%s", exc)
        mine = known + out
        p = ch.project(mine)
        if p.start is None:
            device = self.replica.device
            taps = sum(1 for c in mine if c.kind is ch.Kind.TAP and c.device == device)
            out += ch.named(ch.stamped(mine, changes_since(p, record, False, self.clock(), device, taps)),
                            self.table.device_name())
        return out

    def _said(self, match_id: str, abandoned: bool | None, deleted: bool) -> list[ch.Change]:
        """The match stopped or taken up again, deleted or brought back, as a document stamped after those known
        (none when they say so already, or the group was never told of the match). `abandoned` None: as they say."""
        known = self.replica.known(match_id)
        p = ch.project(known)
        if p.start is None:
            return []
        made = outbox.stopped(p, match_id, p.abandoned if abandoned is None else abandoned, deleted, self.clock(),
                              self.replica.device)
        return ch.named(ch.stamped(known, [made]), self.table.device_name()) if made is not None else []

    def told(self, match_id: str, deleted: bool) -> None:
        """A match about to be deleted here, or brought back from the bin, said before it is (the bin is emptied
        when the app closes, and with it the only sign of a deletion): what the match wrote before (its file is
        still here, or already back), then its status. A device killed between saying and doing is put right by
        its next round, as for any device the group tells so."""
        with self._lock:
            self.gather([match_id], again=True)
            made = self._said(match_id, abandoned=None, deleted=deleted)
            if made:
                self.replica.keep(made, sent=False)
                self._recount.add(match_id)

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
            else:
                raise RoundStopped(RoundSays.ENDLESS, pages=MAX_PAGES)
        return report

    async def _receive_page(self, remote: Remote, report: Report, group: int) -> bool:
        """One page of what the group wrote: kept, the checkpoint moved past it, its matches stored; whether
        more may follow. A feed whose checkpoint goes back (an older history is noticed before, by
        `same_history`) is not a history at all: the round stops there, in words."""
        kept = self.replica.kept_bytes()
        if kept > MAX_KEPT_BYTES:  # a page past the bound at most: a server cannot fill the device
            raise RoundStopped(RoundSays.FULL, limit=MAX_KEPT_BYTES // 2**20, kept=kept // 2**20)
        before = self.replica.checkpoint
        docs, seq, more = await remote.changes(before, RECEIVE_BATCH)
        if ch.behind(seq, before):
            raise RoundStopped(RoundSays.BACKWARDS, before=before, after=seq)
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
            self._recount |= {c.match for c in fresh}
            self._store({c.match for c in fresh}, report)
        return more

    def _store(self, match_ids: set[str], report: Report) -> None:
        """Store these matches as their documents add them up (`settle`), their stamps kept once for all."""
        stamps: dict[str, str] = {}
        later: set[str] = set()
        for match_id in sorted(match_ids):
            if self._settle(match_id, stamps, later):
                report.stored.add(match_id)
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
        # A database put back from an older copy of its files keeps its mark: its history ends before this
        # device's checkpoint.
        older = there == self.replica.mark and ch.behind(await remote.position(), self.replica.checkpoint)
        with self._lock:
            self._still(group)
            known = self.replica.mark
            if known is None:
                self.replica.set_mark(there)
                return None
            if there == known and not older:
                return None
            self.replica.start_over(there)
            self._open = None
            return GroupSays.STARTED_OVER.of()

    async def once(self, remote: Remote) -> Report:
        """One round: gather, the history checked, send, receive (and send what receiving made this device
        say)."""
        group = self._group
        report = Report()
        try:
            self.gather()   # first, with no network: what this device did is kept to send, whatever follows
            with self._lock:
                self._store(self._own, report)
                self._own = set()
            report.started_over = await self.same_history(remote, group)
            report.sent = await self.send(remote, group)
            report.add(await self.receive(remote, group))
            if self.gather(report.stored):   # what receiving made this device say, sent in the same round
                report.sent += await self.send(remote, group)
            report.in_step = await self.in_step(remote)
        except GroupChanged:  # joined another group, or left, meanwhile: the next round is the new group's
            report.group_changed = True
        report.conflicts = self.open_conflicts()
        return report

    async def in_step(self, remote: Remote) -> bool:
        """Whether this device and the group's database agree now: nothing of this device's waits to be sent,
        nothing the group sent waits to be stored, and the server's feed reaches no further than what was
        read (asked of the server, which another device may have written to since)."""
        if self.replica.unsent(1) or self.replica.to_settle():
            return False
        return not ch.behind(self.replica.checkpoint or "0", await remote.position())

    # --- one match: the documents into this device's match -------------------------------------------
    def settle(self, match_id: str) -> bool:
        """Store the match as its documents add it up, when that differs from this device's (which is first
        compared, so nothing of its own is lost); whether it was stored."""
        with self._lock:
            stamps: dict[str, str] = {}
            outcome = self._settle(match_id, stamps, set())
            if stamps:
                self.replica.set_compared(stamps)
            return outcome

    def _settle(self, match_id: str, stamps: dict[str, str], later: set[str]) -> bool:
        """`settle`, the stamp of a match stored put in `stamps` (the caller keeps them, once for many), a match
        changed here since it was compared put in `later`."""
        p = ch.project(self.replica.known(match_id))
        self._counted(match_id, p)
        if p.start is None or not ch.is_start_readable(p):
            return False
        with self.storage.lock:  # no phone's write between reading the match, storing it and its stamp
            try:
                current: MatchRecord | None = self.storage.get(match_id)
            except NoSuchMatch:
                current = None
            except DamagedMatch:
                return False
            if p.deleted:
                if current is not None:
                    self.storage.delete(match_id)
                    return True
                return False
            try:
                shared = ch.record_of(p, match_id, current.player_ids if current is not None else ())
            except ch.ChangeError:
                return False
            if current is not None:
                shared = replace(shared, trail=ch.merged_trail(current.trail, shared.trail))
            if current is not None and ch.same_record(shared, current):
                return False
            if current is not None and self.replica.compared(match_id) != self.storage.updated(match_id):
                later.add(match_id)
                return False  # changed here since it was compared: the next round first says so
            expected: Revision | None = current.revision if current is not None else None
            stored = self.table.apply_shared(shared, expected)
            if stored is not None:
                stamp = self.storage.updated(match_id)
                if stamp is not None:
                    stamps[match_id] = stamp
            return stored is not None

    def open_conflicts(self) -> int:
        """Hands saved differently on two devices that the table has not chosen between yet, over every match
        this device holds of the group: from what it holds, not from what the last round moved, so the count
        stays while a conflict is open and goes when it is chosen, here or elsewhere. Counted once a process
        (only matches where one may be are projected: `changes.may_conflict`), then per match changed."""
        with self._lock:
            if self._open is None:
                self._open, self._recount = {}, set(self.replica.matches())
            for match_id in tuple(self._recount):
                known = self.replica.known(match_id)
                self._counted(match_id, ch.project(known) if ch.may_conflict(known) else None)
            return sum(self._open.values())

    def _counted(self, match_id: str, p: ch.Projection | None) -> None:
        """The match's open conflicts, from its projection (None: it has none), kept for `open_conflicts`; a
        round that settled the match has projected it already, so it is not projected again."""
        if self._open is not None:
            self._open[match_id] = len(p.conflicts) if p is not None and not p.deleted else 0
        self._recount.discard(match_id)

    def refused(self) -> list[tuple[str, str]]:
        """This device's changes the group's server refused, as (match id, the server's word for why), from what
        the device holds (not from the last round): said until the device starts over with the group."""
        return sorted((ident.split(".", 1)[0], why) for ident, why in self.replica.refused().items())

    def last_change(self, match_id: str) -> tuple[str, bool] | None:
        """Who changed the match last, as this device knows: (the name that device goes by, or "", and whether it
        is this device); None when no document says (a device in no group)."""
        try:
            waiting = [ch.from_doc(d) for d in self.storage.get(match_id).outbox]
        except (NoSuchMatch, DamagedMatch, ch.ChangeError):
            waiting = []
        latest = max((*self.replica.known(match_id), *waiting), key=lambda c: c.order, default=None)
        return None if latest is None else (latest.name, latest.device == self.replica.device)

    def stopped_by(self, match_id: str) -> str:
        """The name of the device whose document last stopped the match, from what the group knows and what the
        match's own file holds (a phone of this device's): "" when unnamed, or when the latest says otherwise."""
        try:
            waiting = self._taken(self.storage.get(match_id))
        except (NoSuchMatch, DamagedMatch):
            waiting = []
        said = [c for c in (*self.replica.known(match_id), *waiting) if c.kind is ch.Kind.STATUS]
        latest = max(said, key=lambda c: c.order, default=None)
        return latest.name if latest is not None and latest.body.get("abandoned") else ""

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
            made, = ch.named(ch.stamped(known, [ch.choice(match_id, slot, tuple(keep), drop, self.clock(),
                                                           self.replica.device)]), self.table.device_name())
            self.gather([match_id])
            self.replica.keep([made], sent=False)
            self._recount.add(match_id)
            return self.settle(match_id)
