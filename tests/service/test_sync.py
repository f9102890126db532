"""Sync, the use case, between devices with their own data folders and a shared database in memory (the
real server's tests are in tests/sync/): what one device saves another has, once; what two did apart adds
up; a round cut anywhere loses nothing and doubles nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tests.loop import run
from companion import bootstrap
from companion.engine.live import TapKind
from companion.records import TrailAction
from companion.service.sync import Sync
from companion.storage.replica import FolderReplica
from tests.service.devices import Device, sharing
from tests.service.shared_db import SharedDatabase
from tests.storage.builders import Clock, hand_for, new_match


def test_a_match_saved_on_one_device_arrives_on_another_once_with_its_id_and_sheet(device):
    a, b = device("a"), device("b")
    started = a.table.start(new_match(hands=3))
    a.table.tap(started.id, 0, TapKind.XERI, hand=3)
    sent = a.once()
    assert sent.sent > 0
    got = b.once()
    assert got.stored == {started.id}
    mine, theirs = a.table.get(started.id), b.table.get(started.id)
    assert theirs.match == mine.match and theirs.live == mine.live and theirs.created == mine.created
    again_a, again_b = a.once(), b.once()
    assert (again_a.sent, again_a.received, again_b.sent, again_b.received) == (0, 0, 0, 0)
    assert len(b.matches()) == 1


def test_hands_and_taps_from_two_devices_in_turn_all_count(device):
    a, b, m = sharing(device)
    b.table.record_hand(m, hand_for(1))
    b.table.tap(m, 1, TapKind.JACK_XERI, hand=2)
    b.once()
    a.once()
    a.table.tap(m, 0, TapKind.XERI, hand=2)
    a.once()
    b.once()
    assert a.table.get(m).match == b.table.get(m).match == new_match(hands=2)
    assert sorted(t.seat for t in b.table.get(m).live.taps) == [0, 1]


def saved_apart(device) -> tuple[Device, Device, str]:
    """Devices A and B on one match, one hand in; each saved its own hand 2 while offline (nothing sent)."""
    a, b, m = sharing(device)
    a.table.record_hand(m, hand_for(5))
    b.table.record_hand(m, hand_for(6))
    return a, b, m


def test_the_same_hand_saved_differently_offline_is_a_conflict_the_table_resolves_and_nothing_is_lost(device):
    a, b, m = saved_apart(device)
    a.once()
    b.once()
    a.once()
    assert len(a.sync.conflicts(m)) == len(b.sync.conflicts(m)) == 1
    assert a.table.get(m).match.hands == b.table.get(m).match.hands            # the same hand counts on both
    assert len(a.table.get(m).match.hands) == 2                                  # never counted twice
    conflict = b.sync.conflicts(m)[0]
    loser = conflict.versions[0]
    b.sync.choose(m, conflict.slot, [conflict.versions[1].id])
    b.once()
    a.once()
    for d in (a, b):
        rec = d.table.get(m)
        assert rec.match.hands[1] == conflict.versions[1].entry and d.sync.conflicts(m) == ()
        assert any(t.before == loser.entry for t in rec.trail)                  # the other stays in the trail


def test_the_open_conflict_count_is_what_the_device_holds_not_what_the_last_round_moved(device, tmp_path, shared):
    a, b, m = saved_apart(device)
    a.once()
    assert b.once().conflicts == 1                      # the round that brought it
    quiet = b.once()
    assert quiet.received == 0 and quiet.conflicts == 1  # a round that moved nothing: still open (was 0)
    b.close()
    again = Device(tmp_path / "b", shared)               # the app started again: counted from the folder
    try:
        assert again.sync.open_conflicts() == 1
        assert a.once().conflicts == 1
        conflict = a.sync.conflicts(m)[0]
        a.sync.choose(m, conflict.slot, [conflict.versions[0].id])
        assert a.sync.open_conflicts() == 0              # chosen here: gone at once
        a.once()
        assert again.once().conflicts == 0               # chosen elsewhere: gone with the round that says so
    finally:
        again.close()


def test_a_round_cut_while_sending_or_with_the_server_down_loses_and_doubles_nothing(device, shared):
    a, b = device("a"), device("b")
    m = a.table.start(new_match(hands=2)).id
    shared.fail_after_send = True              # stored there, but the answer never came back
    with pytest.raises(ConnectionError):
        a.once()
    shared.down = True
    a.table.record_hand(m, hand_for(2))
    with pytest.raises(ConnectionError):
        a.once()
    shared.down = False
    a.once()
    b.once()
    assert b.table.get(m).match == new_match(hands=3)
    assert len(shared.docs) == len(set(shared.docs))
    assert a.once().sent == 0


def test_what_was_kept_to_send_survives_the_device_being_closed_and_opened_again(tmp_path, shared):
    a = Device(tmp_path / "a", shared)
    m = a.table.start(new_match(hands=2)).id
    a.sync.gather()                            # kept to send, and the app stops before sending
    a.close()
    a = Device(tmp_path / "a", shared)
    a.once()
    a.close()
    b = Device(tmp_path / "b", shared)
    b.once()
    assert b.table.get(m).match == new_match(hands=2)
    b.close()


def test_an_undo_and_a_stop_travel(device):
    a, b = device("a"), device("b")
    m = a.table.start(new_match(hands=3)).id
    a.once()
    b.once()
    a.table.undo_hand(m)
    a.table.abandon(m)
    a.once()
    b.once()
    rec = b.table.get(m)
    assert rec.match == new_match(hands=2) and rec.abandoned and rec.trail[-1].before == hand_for(2)


def test_a_hand_undone_and_saved_again_reaches_every_device_with_its_taps_and_the_same_trail(device):
    """Undo on one phone reopens the hand on every phone with the taps made for it (the other phone's too); saved
    again, corrected, on the other phone: every device lists undo, then the hand saved again, alike."""
    a, b = device("a"), device("b")
    m = a.table.start(new_match(hands=1)).id
    a.once()
    b.once()
    a.table.tap(m, 0, TapKind.XERI, hand=1)
    a.once()
    b.once()
    b.table.tap(m, 1, TapKind.XERI, hand=1)
    b.table.record_hand(m, replace(hand_for(1), xeris=(1, 1), jack_xeris=(0, 0)))
    b.once()
    a.once()
    undone = a.table.undo_hand(m)
    assert sorted((t.seat, t.kind) for t in undone.live.taps) == [(0, TapKind.XERI), (1, TapKind.XERI)]
    a.once()
    b.once()
    assert b.table.get(m).live == undone.live and b.table.get(m).match.hands == (hand_for(0),)
    b.table.record_hand(m, replace(hand_for(7), xeris=(1, 1), jack_xeris=(0, 0)))
    b.once()
    a.once()
    trails = [d.table.get(m).trail for d in (a, b)]
    assert trails[0] == trails[1]
    assert [(t.action, t.hand) for t in trails[0]] == [(TrailAction.UNDO, 1), (TrailAction.REDO, 1)]
    assert (trails[0][1].before, trails[0][1].after) == (replace(hand_for(1), xeris=(1, 1), jack_xeris=(0, 0)), replace(hand_for(7), xeris=(1, 1), jack_xeris=(0, 0)))


def test_a_deleted_match_is_deleted_on_the_other_device(device):
    a, b, m = sharing(device)
    a.parts.services.library.delete(m)
    a.once()
    b.once()
    assert b.matches() == []


def test_a_stale_phone_on_the_other_device_is_still_refused(device):
    a, b, m = sharing(device)
    shown = b.table.get(m).revision              # a phone on B opened the entry for hand 2
    a.table.record_hand(m, hand_for(1))
    a.once()
    b.once()
    from companion.service import StaleWrite

    with pytest.raises(StaleWrite):
        b.table.record_hand(m, hand_for(7), expected=shown)
    assert b.table.get(m).match == new_match(hands=2)


def test_a_form_opened_on_a_hand_the_group_then_replaced_is_refused(device):
    # A and B saved hand 2 apart; the group's order keeps one version. On the device whose own version is
    # displaced, nothing is counted more or less (same hands, trail and taps), yet what it shows changed:
    # an edit opened on the old version must be refused, not saved over the group's.
    from companion.service import StaleWrite

    a, b, m = saved_apart(device)
    shown = {d: d.table.get(m).revision for d in (a, b)}
    mine = {d: d.table.get(m).match.hands[1] for d in (a, b)}
    for d in (a, b, a, b):
        d.once()
    displaced = [d for d in (a, b) if d.table.get(m).match.hands[1] != mine[d]]
    assert len(displaced) == 1
    d = displaced[0]
    assert len(d.table.get(m).match.hands) == 2 and d.table.get(m).revision != shown[d]
    with pytest.raises(StaleWrite):
        d.table.edit_hand(m, 1, hand_for(9), expected=shown[d])
    with pytest.raises(StaleWrite):
        d.table.undo_hand(m, expected=shown[d])
    assert d.table.get(m).match.hands[1] != mine[d] and len(d.table.get(m).match.hands) == 2


def test_a_device_that_changed_meanwhile_keeps_its_change(device):
    # B's own tap lands between its comparison and the shared match arriving: it is never overwritten.
    a, b, m = sharing(device)
    a.table.record_hand(m, hand_for(1))
    a.once()
    b.table.tap(m, 1, TapKind.XERI, hand=1)      # for the hand A just saved, unknown here yet
    b.once()
    a.once()
    for d in (a, b):
        assert d.table.get(m).match == new_match(hands=2)   # A's hand counts; B's late tap does not change it
    assert replace(b.table.get(m), live=a.table.get(m).live).match == a.table.get(m).match


def test_news_kept_but_not_stored_when_the_device_died_is_stored_at_its_next_round(tmp_path, shared, monkeypatch):
    # B keeps what A sent and moves its checkpoint past it, then dies before storing the match: the documents
    # come no more (the checkpoint is past them), yet the match must arrive.
    a = Device(tmp_path / "a", shared)
    m = a.table.start(new_match(hands=3)).id
    a.once()
    b = Device(tmp_path / "b", shared)

    def killed(*args, **kwargs):
        raise SystemExit("the app was killed")

    monkeypatch.setattr(Sync, "_settle", killed)
    with pytest.raises(SystemExit):
        b.once()
    monkeypatch.undo()
    assert b.replica.checkpoint is not None and b.matches() == []
    b.close()
    b = Device(tmp_path / "b", shared)
    report = b.once()
    assert report.received == 0 and report.stored == {m}
    assert b.table.get(m).match == new_match(hands=3)
    b.close()
    a.close()


def test_a_conflict_and_the_choice_are_news_for_the_phones_even_where_the_match_stays_as_it_was(device):
    # Found by the browser sync test: the device whose own version counts for now stored nothing, so its phones
    # were not told, and the table never saw the conflict there (nor, after the choice, the card go away).
    a, b, m = saved_apart(device)
    a.once()
    told: dict[str, list[str]] = {"a": [], "b": []}
    a.parts.listen(told["a"].append)
    b.parts.listen(told["b"].append)
    heard = {"b": b.once(), "a": a.once()}     # each receives the other's version
    for name, d in (("a", a), ("b", b)):
        assert m in heard[name].heard and d.sync.conflicts(m)
        d.parts.tell(heard[name])
        assert told[name] == [m]
    unchanged = [name for name in heard if m not in heard[name].stored]
    assert len(unchanged) == 1                 # the device whose version counts for now stored nothing
    keeper = a if unchanged == ["a"] else b
    conflict = keeper.sync.conflicts(m)[0]
    mine = next(v.id for v in conflict.versions if v.entry == keeper.table.get(m).match.hands[1])
    keeper.sync.choose(m, conflict.slot, [mine])
    keeper.once()
    other = b if keeper is a else a
    report = other.once()                      # the choice keeps the version that counted: still news
    assert m in report.heard and not other.sync.conflicts(m)
    lost = next(v.entry for v in conflict.versions if v.id != mine)
    for d in (keeper, other):                  # the version not kept is in the trail on both devices
        rec = d.table.get(m)
        assert [(t.hand, t.before, t.after) for t in rec.trail] == [(1, lost, rec.match.hands[1])]
    assert (keeper.once().stored, other.once().stored) == (set(), set())   # and it stays so: nothing to store


def test_two_phones_that_choose_apart_both_say_so_in_the_trail_and_every_device_lists_it_alike(device):
    # Found by the model test (seed 7): each phone chose a different version before hearing the other's choice.
    # The later choice counts; the earlier one was kept only in its own phone's trail, so the trails differed.
    a, b, m = saved_apart(device)
    for _ in range(2):
        a.once(), b.once()
    first, second = (next(v for v in a.sync.conflicts(m)[0].versions if v.entry == hand_for(n)) for n in (5, 6))
    a.sync.choose(m, first.slot, [first.id])      # A keeps its own hand, B keeps its own, neither has heard
    b.sync.choose(m, second.slot, [second.id])
    for _ in range(2):
        a.once(), b.once()
    trails = [[(t.action, t.hand, t.before, t.after) for t in d.table.get(m).trail] for d in (a, b)]
    assert trails[0] == trails[1]                 # in one order on both (logical clock, then device)
    assert sorted(trails[0], key=repr) == sorted([(TrailAction.EDIT, 1, hand_for(6), hand_for(5)),
                                                  (TrailAction.EDIT, 1, hand_for(5), hand_for(6))], key=repr)
    kept = trails[0][-1][3]                       # the later choice counts, on both
    assert a.table.get(m).match == b.table.get(m).match and a.table.get(m).match.hands[1] == kept
    assert not a.sync.conflicts(m) and not b.sync.conflicts(m)


def test_a_device_in_no_group_writes_nothing_for_sync_and_names_itself_once_it_keeps_a_document(tmp_path):
    from companion.storage import Store

    with Store(tmp_path / "data") as store, bootstrap.build(store) as parts:
        record = parts.services.table.start(new_match("Anna", "Ben"))
        assert not (tmp_path / "data" / "sync").exists()        # opened and saved: no group, nothing written
        device = parts.services.sync.replica.device
        parts.services.sync.gather()                            # what a first round keeps for the outbox
    assert (tmp_path / "data" / "sync" / "state.json").exists()
    assert FolderReplica(tmp_path / "data" / "sync").device == device   # the name its documents carry
    assert record.id in FolderReplica(tmp_path / "data" / "sync").matches()


class HeldAnswers:
    """The shared database, its `_changes` answer held until `go` is set (`reading` is set when one is asked)."""

    def __init__(self, shared: SharedDatabase):
        self.shared = shared
        self.reading, self.go = None, None

    async def mark(self):
        return await self.shared.mark()

    async def claim(self, mark):
        return await self.shared.claim(mark)

    async def position(self):
        return await self.shared.position()

    async def send(self, docs):
        return await self.shared.send(docs)

    async def changes(self, since, limit):

        self.reading.set()
        await self.go.wait()
        return await self.shared.changes(since, limit)


def test_joining_another_group_while_a_round_reads_keeps_nothing_of_the_group_before(tmp_path, device):
    """`Group.join` forgets what the device knew of its group; a round that was waiting for the old group's
    answer meanwhile must not keep that answer (its documents and its checkpoint) as the new group's (#23)."""
    import asyncio

    other = device("other")
    other.table.start(new_match(hands=2))
    other.once()                                      # the old group holds a match
    with bootstrap.build(bootstrap.open_folder(tmp_path / "me"), clock=Clock()) as parts:
        sync, group = parts.services.sync, parts.services.group
        group.join("http://127.0.0.1:5984/old-group")
        held = HeldAnswers(other.shared)

        async def evening():
            held.reading, held.go = asyncio.Event(), asyncio.Event()
            round_ = asyncio.ensure_future(sync.once(held))
            await held.reading.wait()                 # the round waits for the old group's documents
            group.join("http://127.0.0.1:5984/new-group")
            held.go.set()
            return await round_

        report = run(evening())
        assert sync.replica.matches() == set() and sync.replica.checkpoint is None
        assert parts.services.library.matches() == []   # nothing of the old group stored as a match either
        assert report.group_changed and sync.replica.mark is None


def test_a_match_taken_up_again_stays_taken_up_whatever_the_clock_of_the_phone_that_stopped_it(tmp_path, shared):
    """Statuses are ordered by a logical clock, not by each device's own: a phone whose clock runs an hour
    ahead stopped the match; a phone with the right clock saw that and took it up again. Ordered by wall
    time the stop, "later", won every round and the match was stopped again on both (#23)."""
    ahead = Device(tmp_path / "ahead", shared, ahead=timedelta(hours=1))
    right = Device(tmp_path / "right", shared)
    m = ahead.table.start(new_match(hands=1)).id
    ahead.table.abandon(m)
    ahead.once()
    right.once()
    assert right.table.get(m).abandoned
    right.table.resume(m)
    right.once()
    ahead.once()
    right.once()
    assert not right.table.get(m).abandoned and not ahead.table.get(m).abandoned
    ahead.close()
    right.close()


def test_what_a_device_keeps_of_the_group_is_counted_in_bytes_as_its_files_are(tmp_path, shared):
    a, b = Device(tmp_path / "a", shared), Device(tmp_path / "b", shared)
    for _ in range(3):
        a.table.start(new_match("Anna", "Ben"))
    a.once()
    b.once()
    on_disk = sum(f.stat().st_size for f in (tmp_path / "b" / "sync" / "matches").glob("*.json"))
    assert b.replica.kept_bytes() == on_disk > 0
    assert FolderReplica(tmp_path / "b" / "sync").kept_bytes() == on_disk      # read again after a restart
    m = a.matches()[0].id
    a.table.record_hand(m, hand_for(1))
    a.once()
    b.once()                                                                    # a hand more: counted as written
    assert b.replica.kept_bytes() == sum(f.stat().st_size for f in (tmp_path / "b" / "sync" / "matches").glob("*.json"))
    assert b.replica.kept_bytes() > on_disk
    b.replica.forget()
    assert b.replica.kept_bytes() == 0
    a.close()
    b.close()


class Through:
    """The shared database as it is (a test changes one of its answers)."""

    def __init__(self, shared: SharedDatabase):
        self.shared = shared

    def __getattr__(self, name: str):
        return getattr(self.shared, name)


class WrittenMeanwhile(Through):
    """The shared database, into which `other` sends what it keeps just as this round asks where the feed
    reaches: another device writing between this round's last page and its check."""

    def __init__(self, shared: SharedDatabase, other: Device):
        super().__init__(shared)
        self.other, self.read = other, False

    async def changes(self, since, limit):
        self.read = True
        return await self.shared.changes(since, limit)

    async def position(self):
        if self.read:   # the round has read the feed: now the other device writes
            await self.shared.send([c.to_doc() for c in self.other.replica.unsent(100)])
        return await self.shared.position()


def test_in_step_is_said_only_when_the_round_checked_that_device_and_group_agree(tmp_path, shared):
    """Before (#23), a round that ended without an error was "In step", whatever it had left behind."""
    a, b = Device(tmp_path / "a", shared), Device(tmp_path / "b", shared)
    m = a.table.start(new_match("Anna", "Ben")).id
    assert a.once().in_step
    assert b.once().in_step and b.table.get(m)
    b.table.record_hand(m, hand_for(1))
    b.sync.gather()                                   # kept to send, not sent yet
    assert not run(a.sync.once(WrittenMeanwhile(shared, b))).in_step   # B wrote as A's round ended
    report = a.once()                                 # the next round reads it, and then they agree
    assert report.in_step and m in report.stored and len(a.table.get(m).match.hands) == 1
    b.once()
    b.table.record_hand(m, hand_for(2))               # a server that keeps B's hand back without a word:
    assert not run(b.sync.once(KeptBack(shared))).in_step    # no error, and still not in step
    assert b.once().in_step
    a.close()
    b.close()


class KeptBack(Through):
    """The shared database, which takes none of the documents sent and says nothing of it."""

    async def send(self, docs):
        return set(), {}


def test_the_trail_is_in_the_order_things_happened_whatever_the_phones_clocks(tmp_path, shared):
    """An edit on a phone an hour ahead, then an undo on a phone whose clock is right, made after seeing the edit:
    every device's trail says edit, then undo (ordered by wall time it said the undo first)."""
    ahead = Device(tmp_path / "ahead", shared, ahead=timedelta(hours=1))
    right = Device(tmp_path / "right", shared)
    m = right.table.start(new_match(hands=2)).id
    right.once()
    ahead.once()
    ahead.table.edit_hand(m, 1, hand_for(9))
    ahead.once()
    right.once()
    right.table.undo_hand(m)
    right.once()
    ahead.once()
    for d in (ahead, right):
        assert [t.action for t in d.table.get(m).trail] == [TrailAction.EDIT, TrailAction.UNDO]
        assert d.table.get(m).trail[1].before == hand_for(9)      # the undo took back the edited hand
    for d in (ahead, right):
        d.close()
