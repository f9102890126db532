"""The matches in play: load a match, let the engine change it, save it. Every write of the app goes
through here, guarded by the revision the screen showed, so a stale phone cannot double a hand."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..engine.entry import HandEntry
from ..engine.live import LiveHand, Tap, TapKind
from ..engine.match import (Match, MatchError, MatchOver, Standing, edit_hand, finish_now, record_hand, standing,
                            undo_hand)
from ..engine.messages import Says
from ..clock import new_id, utc_now
from ..records import MatchRecord, Revision, TrailAction, TrailEntry
from .. import changes as ch
from ..changes import outbox as said
from .ports import DamagedMatch, Ledger, MatchStorage, NoSuchMatch

Said = Callable[[ch.Projection, list[ch.Change], str, str], Sequence[ch.Change | None]]
"""What a use case says as the group's documents, given what the match's documents add up to, the documents, the
time and this device's id in the group."""


class TableSays(Says):
    """Why the table refuses a change."""

    __prefix__ = "error.table"
    STALE = "the match was changed on another device since this screen showed it"
    NO_SEAT = "there is no seat {seat} at this table; seats are 0 to {last}"
    NO_HAND_IN_PROGRESS = "the match is over: there is no hand in progress"
    TAPS_DIFFER = "the xeris named per player do not add up to the hand's xeris per side"


class StaleWrite(MatchError):
    """A change made from a screen that no longer shows the match as stored: another phone changed it."""

    def __init__(self, current: MatchRecord):
        super().__init__(TableSays.STALE)
        self.current = current
        """The match as it is stored now."""


class Table:
    """Matches in play: start, record, undo and edit hands, live taps, abandon, resume, rematch.

    One lock makes each check-and-write atomic, whichever browser session (phone) sends it. A write
    given `expected` (the `Revision` its screen showed) is refused with `StaleWrite` when the match has
    moved on since. The standing is worked out once per match value (the engine keeps it), so a hand
    saved scores only the new hand, and the storage writes the match once, with the group's documents that
    say the change (`MatchRecord.outbox`, see `_told`).
    """

    def __init__(self, storage: MatchStorage, clock: Callable[[], str] = utc_now,
                 make_id: Callable[[], str] = new_id):
        self.storage = storage
        """Where matches are kept."""
        self._clock = clock
        self._make_id = make_id
        self._lock = getattr(storage, "lock", None) or threading.RLock()
        self.ledger: Ledger | None = None
        """What this device knows of its group's documents (set by the bootstrap). In a group, a match started
        and every change to a match the group knows is written with its own documents, in the same write; a match
        the group was never told of (from before the device joined, or imported) is told whole by the next round
        (`Sync.gather`)."""

    def _told(self, before: MatchRecord, after: MatchRecord, says: Said = lambda *_: (),
              live_from_documents: bool = False) -> MatchRecord:
        """`after` (the match as `before` became by one use case) with the documents that say so added to its
        outbox: what `says` makes of it, and a status when the match was stopped or taken up again. Documents
        sync has taken since (`Ledger.known`) leave the outbox here. `live_from_documents`: the live taps are
        the ones the group's documents hold for the hand in progress (an undo reopens the hand with every tap
        made for it, another phone's too)."""
        if self.ledger is None:
            return after
        known = self.ledger.known(before.id)
        ids = {c.id for c in known}
        pending = []
        for doc in before.outbox:
            if doc.get("_id") not in ids:
                try:
                    pending.append(ch.from_doc(doc))
                except ch.ChangeError:  # written by this app a moment ago, so never; kept out all the same
                    continue
        everything = known + pending
        p = ch.project(everything)
        made: list[ch.Change] = []
        if p.start is not None:  # else the group was never told of the match: the next round tells it all
            at, device = self._clock(), self.ledger.device
            made = said.present(says(p, everything, at, device))
            if (before.abandoned, before.match.finished_early) != (after.abandoned, after.match.finished_early) \
                    and not any(c.kind is ch.Kind.STATUS for c in made):
                made += said.present([said.stopped(p, before.id, after.abandoned, p.deleted, at, device,
                                                   after.match.finished_early)])
            made = ch.named(ch.stamped(everything, made), self.device_name())
            if len(after.trail) != len(before.trail) or len(after.match.hands) > len(before.match.hands) \
                    or live_from_documents:
                # The trail says the change as the group's documents do: an edit or an undo made on a screen that
                # had not shown another phone's news yet says what it replaced in the group's history (the
                # device kept its own words apart, and two phones listed the trail differently); a hand saved
                # where one was undone is put back by the group's clock, not by this device's trail.
                told = ch.project([*everything, *made])
                after = replace(after, trail=(*before.trail, *ch.unsaid(told.trail, p.trail)))
                if live_from_documents:
                    after = replace(after, live=ch.live_of(told, len(after.match.seats)))
        return replace(after, outbox=tuple(c.to_doc() for c in (*pending, *made)))

    def device_name(self) -> str:
        """The name this device goes by in its group ("Anna's phone"), signed on what it writes; "" when none."""
        value = self.storage.settings().get("device_name", "")
        return value if isinstance(value, str) else ""

    # --- reading -----------------------------------------------------------------------------------
    def get(self, match_id: str) -> MatchRecord:
        """The match as stored now."""
        return self.storage.get(match_id)

    @staticmethod
    def standing(record: MatchRecord) -> Standing:
        """Where the match stands (worked out once per version of the match)."""
        return standing(record.match)

    def unfinished(self) -> MatchRecord | None:
        """The match to resume: the one played most recently that is still playing and not abandoned."""
        for summary in sorted(self.storage.playing(), key=lambda s: (s.updated, s.created, s.id), reverse=True):
            try:
                return self.storage.get(summary.id)
            except (NoSuchMatch, DamagedMatch):  # gone, or set aside as damaged: the next one, then
                continue
        return None

    # --- writing -------------------------------------------------------------------------------------
    def _current(self, match_id: str, expected: Revision | None) -> MatchRecord:
        record = self.storage.get(match_id)
        if expected is not None and record.revision != expected:
            raise StaleWrite(record)
        return record

    def _save(self, record: MatchRecord) -> MatchRecord:
        """Store a record whose match changed: `finished` follows the standing (set once, cleared by an undo)."""
        st = standing(record.match)
        finished = (record.finished or self._clock()) if st.is_over else None
        if finished != record.finished:
            record = replace(record, finished=finished)
        return self.storage.put(record, st)

    def start(self, match: Match, stop: str | None = None, expected: Revision | None = None) -> MatchRecord:
        """Store a new match (its hands, if any, are checked as when played); known players keep their ids.

        `stop` names a match still in play that the table leaves for this one: it is marked abandoned. With
        `expected` (the revision of `stop` the person agreed to stop), a match that moved on since is not
        stopped and nothing is started (`StaleWrite`).
        """
        with self._lock:
            checked = replace(match, hands=())
            for entry in match.hands:
                checked = record_hand(checked, entry)
            if stop is not None:
                self.abandon(stop, expected=expected)
            player_ids = tuple(tuple(self.storage.player_id(name) for name in side.members) for side in match.sides)
            record = MatchRecord(id=self._make_id(), match=checked, created=self._clock(), player_ids=player_ids)
            st = standing(checked)
            if st.is_over:
                record = replace(record, finished=record.created)
            if self.ledger is not None and self.ledger.mark is not None:   # in a group: its story from the start
                made = ch.changes_since(ch.project([]), record, False, record.created, self.ledger.device)
                record = replace(record, outbox=tuple(c.to_doc() for c in ch.named(ch.stamped([], made),
                                                                                   self.device_name())))
            return self.storage.add(record, st)

    def record_hand(self, match_id: str, entry: HandEntry, expected: Revision | None = None,
                    taps: tuple[Tap, ...] | None = None) -> MatchRecord:
        """Add a hand: the live taps are cleared, an abandoned match is taken up again, and `finished` is
        set when this hand decides the match. `InvalidHand`, `MatchOver` or `StaleWrite` change nothing.

        `taps` says who made each of the hand's xeris, as the hand entry corrected them (kept with the hand
        for the players' own figures); by default the live taps. Taps that do not add up to the entry's
        xeris per side are not kept (`MatchError`)."""
        with self._lock:
            record = self._current(match_id, expected)
            match = record_hand(record.match, entry)
            own = record.live.taps if taps is None else self._checked_taps(record.match, entry, taps)
            kept = tuple(record.taps_of(i) for i in range(len(record.match.hands))) + (own,)
            index = len(record.match.hands)
            # Saved in the place of the hand undone last there: the trail says it was put back (in a group the
            # documents decide, `_told`).
            said_last = next((t for t in reversed(record.trail) if t.hand == index), None)
            trail = record.trail
            if said_last is not None and said_last.action is TrailAction.UNDO:
                trail += (TrailEntry(TrailAction.REDO, index, said_last.before, entry, self._clock()),)
            return self._save(self._told(
                record, replace(record, match=match, live=LiveHand(), abandoned=False, hand_taps=kept, trail=trail),
                lambda p, _, at, device: [said.saved(p, match_id, index, entry, own, at, device)]))

    def undo_hand(self, match_id: str, expected: Revision | None = None) -> MatchRecord:
        """Take back the last hand; the trail keeps it. The hand is open again: its live taps are back (the ones
        it was saved with), to be saved again as it was or corrected (`record_hand`), or cleared (`clear_taps`)."""
        with self._lock:
            record = self._current(match_id, expected)
            match = undo_hand(record.match)
            index = len(match.hands)
            entry = TrailEntry(TrailAction.UNDO, index, record.match.hands[index], None, self._clock())
            live = LiveHand(record.taps_of(index) or ())
            return self._save(self._told(
                record, replace(record, match=match, trail=record.trail + (entry,), hand_taps=record.hand_taps[:index],
                                live=live),
                lambda p, _, at, device: [said.undone(p, index, entry.at, device, entry.before)],   # the trail's time
                live_from_documents=True))

    def edit_hand(self, match_id: str, index: int, entry: HandEntry, expected: Revision | None = None,
                  taps: tuple[Tap, ...] | None = None) -> MatchRecord:
        """Replace hand `index` (0-based); the trail keeps what it was and what it became. `taps`: who made
        each of its xeris now (see `record_hand`); by default what was kept stays."""
        with self._lock:
            record = self._current(match_id, expected)
            match = edit_hand(record.match, index, entry)
            before = record.match.hands[index]
            hand_taps = record.hand_taps
            if taps is not None:
                known = list(hand_taps) + [None] * (len(record.match.hands) - len(hand_taps))
                known[index] = self._checked_taps(record.match, entry, taps)
                hand_taps = tuple(known)
            if before == entry and hand_taps == record.hand_taps:
                return record
            change = TrailEntry(TrailAction.EDIT, index, before, entry, self._clock())
            now = hand_taps[index] if index < len(hand_taps) else None
            return self._save(self._told(
                record, replace(record, match=match, trail=record.trail + (change,), hand_taps=hand_taps),
                lambda p, _, at, device: [said.edited(p, match_id, index, entry, now, change.at, device, before)]))

    @staticmethod
    def _checked_taps(match: Match, entry: HandEntry, taps: tuple[Tap, ...]) -> tuple[Tap, ...]:
        seats = match.seats
        if not all(0 <= t.seat < len(seats) for t in taps):
            raise MatchError(TableSays.NO_SEAT, seat=max(t.seat for t in taps), last=len(seats) - 1)
        live = LiveHand(tuple(taps))
        if live.per_side([seat.side for seat in seats], len(match.sides)) != (tuple(entry.xeris),
                                                                              tuple(entry.jack_xeris)):
            raise MatchError(TableSays.TAPS_DIFFER)
        return tuple(taps)

    def tap(self, match_id: str, seat: int, kind: TapKind, hand: int | None = None) -> MatchRecord:
        """A xeri or jack xeri of the player at `seat`, in the hand being played.

        Taps on several phones add up whatever their order, so only the hand is checked (`hand`, the
        number of hands recorded when the screen showed it): a tap meant for a hand already saved is
        refused with `StaleWrite`, as is any tap once the match is over (`MatchOver`).
        """
        with self._lock:
            record = self.storage.get(match_id)
            if hand is not None and hand != len(record.match.hands):
                raise StaleWrite(record)
            self._check_in_play(record)
            seats = len(record.match.seats)
            if not 0 <= seat < seats:
                raise MatchError(TableSays.NO_SEAT, seat=seat, last=seats - 1)
            index = len(record.match.hands)
            return self.storage.put(self._told(
                record, replace(record, live=record.live.tap(seat, kind)),
                lambda p, known, at, device: [said.tapped(p, match_id, index, seat, kind, at, device, known)]), None)

    def undo_tap(self, match_id: str, expected: Revision | None = None) -> MatchRecord:
        """Take back the last live tap; refused (`StaleWrite`) when it is not the one this screen showed last."""
        with self._lock:
            record = self._current(match_id, expected)
            self._check_in_play(record)
            if not record.live.taps:
                return record
            index, taken = len(record.match.hands), record.live.taps[-1]
            return self.storage.put(self._told(
                record, replace(record, live=record.live.undo()),
                lambda p, _, at, device: [said.untapped(p, index, taken, at, device)]), None)

    def clear_taps(self, match_id: str, expected: Revision | None = None) -> MatchRecord:
        """Take back every live tap of the hand in progress (a hand undone and then discarded); refused
        (`StaleWrite`) when the match moved on since this screen showed it."""
        with self._lock:
            record = self._current(match_id, expected)
            if not record.live.taps:
                return record
            index = len(record.match.hands)
            return self.storage.put(self._told(
                record, replace(record, live=LiveHand()),
                lambda p, _, at, device: said.cleared(p, index, at, device)), None)

    def finish_now(self, match_id: str, expected: Revision | None = None) -> MatchRecord:
        """Finish a match over an agreed number of hands once a side is sure to win, before its last hand: won
        now (the table's choice; an undo of its last hand plays it on). `MatchError` while no side is sure."""
        with self._lock:
            record = self._current(match_id, expected)
            return self._save(self._told(record, replace(record, match=finish_now(record.match), live=LiveHand())))

    def _check_in_play(self, record: MatchRecord) -> None:
        st = standing(record.match)
        if not st.takes_hand:   # over; but a drawn match may take a deciding hand
            raise MatchOver(TableSays.NO_HAND_IN_PROGRESS, st.decided_at)

    def abandon(self, match_id: str, expected: Revision | None = None) -> MatchRecord:
        """Mark a match the table stopped unfinished (it can be resumed); a finished match is left as it is.
        With `expected`, a match changed since that screen showed it is left alone (`StaleWrite`)."""
        with self._lock:
            record = self._current(match_id, expected)
            if record.abandoned or record.finished is not None or standing(record.match).is_over:
                return record
            return self.storage.put(self._told(record, replace(record, abandoned=True)), standing(record.match))

    def resume(self, match_id: str, stop: str | None = None, expected: Revision | None = None) -> MatchRecord:
        """Take an abandoned match up again; `stop` names the match in play it replaces (abandoned), and
        `expected` the revision of it the person agreed to stop (see `start`)."""
        with self._lock:
            if stop is not None and stop != match_id:
                self.abandon(stop, expected=expected)
            record = self.storage.get(match_id)
            if not record.abandoned:
                return record
            return self.storage.put(self._told(record, replace(record, abandoned=False)), standing(record.match))

    def apply_shared(self, record: MatchRecord, expected: Revision | None) -> MatchRecord | None:
        """Store a match as the group's shared changes add it up (another device's save, tap or undo).

        `expected`: the version of this device's match the shared one was compared with (None: it has
        none). When the match changed here since, nothing is stored (None): the next round compares again.
        The players are this device's own, found by name.
        """
        with self._lock:
            player_ids = tuple(tuple(self.storage.player_id(name) for name in side.members)
                               for side in record.match.sides)
            record = replace(record, player_ids=player_ids)
            st = standing(record.match)
            if not self.storage.is_taken(record.id):
                if expected is not None:
                    return None
                return self.storage.add(record, st)
            try:
                current = self.storage.get(record.id)
            except NoSuchMatch:
                # In this device's bin while the group says the match is in play: deleted here, and taken up
                # again elsewhere later (by the group's logical clock; a deletion here was told to sync at
                # once, so it is in that order). The group's order stands: the match comes back from the bin.
                if expected is not None:
                    return None
                current = self.storage.restore(record.id)
                expected = current.revision
            if expected is None or current.revision != expected:
                return None
            finished = (current.finished or record.finished or self._clock()) if st.is_over else None
            return self.storage.put(replace(record, finished=finished), st)

    def rematch(self, match_id: str) -> MatchRecord:
        """A new match of the same sides, rules and goal; the deal moves on from where this one left it."""
        with self._lock:
            old = self.storage.get(match_id)
            st = standing(old.match)
            fresh = Match.new(old.match.rules, old.match.sides, old.match.goal, first_dealer=st.next_dealer)
            return self.start(fresh, stop=None if st.is_over else match_id)
