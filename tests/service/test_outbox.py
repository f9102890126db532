"""One truth per change (#23): every use case that changes a match the group knows writes the documents that say
the change in the same atomic write as the match (its outbox, in the match's own file); a round takes them
as they are and never works a known match's changes out by comparing it with its documents."""

from __future__ import annotations

import json

import pytest

from companion.engine.live import TapKind
from companion.service import sync as sync_module
from tests.service.devices import sharing
from tests.storage.builders import hand_for, match_file, new_match


def kinds(docs: list[dict]) -> list[str]:
    return [d["kind"] for d in docs]


def test_each_change_to_a_match_the_group_knows_is_written_with_its_documents_in_the_match_file(device):
    a = device("a")
    m = a.table.start(new_match(hands=1)).id
    assert a.in_file(m) == []               # not known to the group yet: the next round tells it the whole match
    a.once()
    a.table.tap(m, 0, TapKind.XERI, hand=1)
    assert kinds(a.in_file(m)) == ["tap"]
    a.table.undo_tap(m)
    assert kinds(a.in_file(m)) == ["tap", "untap"]
    a.table.tap(m, 1, TapKind.JACK_XERI, hand=1)
    a.reopen()                               # what is on disk is what counts: the file holds them
    assert kinds(a.in_file(m)) == ["tap", "untap", "tap"]
    tap_ids = [d["_id"] for d in a.in_file(m) if d["kind"] == "tap"]
    assert len(set(tap_ids)) == 2            # two taps, two documents
    a.once()
    a.table.abandon(m)
    assert kinds(a.in_file(m)) == ["status"]                     # what a round took has left the file
    assert a.in_file(m)[0]["body"] == {"abandoned": True, "deleted": False}
    a.table.resume(m)
    assert kinds(a.in_file(m))[-1] == "status" and a.in_file(m)[-1]["body"]["abandoned"] is False
    a.once()
    a.table.edit_hand(m, 0, hand_for(7))
    edit = a.in_file(m)[-1]
    assert edit["kind"] == "hand" and edit["body"]["base"] is not None and edit["body"]["slot"] == 0
    a.once()
    a.table.undo_hand(m)
    assert kinds(a.in_file(m)) == ["undo"]
    a.once()
    a.table.abandon(m)
    a.table.record_hand(m, hand_for(3))      # saving a hand takes a stopped match up again: both are said
    assert kinds(a.in_file(m))[-2:] == ["hand", "status"]
    clocks = [d["clock"] for d in a.in_file(m)]
    assert clocks == sorted(clocks) and len(set(clocks)) == len(clocks)   # each after the one before


def test_a_round_takes_the_documents_as_written_and_never_works_a_known_match_out_by_comparing(device, monkeypatch):
    a, b, m = sharing(device)
    compared: list[str] = []
    real = sync_module.changes_since
    monkeypatch.setattr(sync_module, "changes_since",
                        lambda p, record, *rest: compared.append(record.id) or real(p, record, *rest))
    a.table.record_hand(m, hand_for(2))
    a.table.tap(m, 0, TapKind.XERI, hand=2)
    a.once()
    b.once()
    b.table.tap(m, 1, TapKind.XERI, hand=2)
    b.table.abandon(m)
    for d in (b, a, b):
        d.once()
    assert compared == []
    for d in (a, b):
        record = d.table.get(m)
        assert record.match.hands == (*new_match(hands=1).hands, hand_for(2))
        assert sorted(t.seat for t in record.live.taps) == [0, 1] and record.abandoned
    a.table.start(new_match(hands=2))               # started in the group: its documents come with it
    a.once()
    assert compared == []
    imported = a.library.import_match(match_file(7)).record.id   # a match the group never heard of: told whole
    a.once()
    assert compared == [imported]


def test_a_tap_made_while_a_round_keeps_the_groups_hand_never_takes_that_hand_back(device, monkeypatch):
    """B taps a xeri for the hand it is playing while its round has kept A's save of that hand and not yet
    stored it. Before the outbox, the next round compared B's match (one hand, a tap) with its documents (two
    hands) and sent an undo of A's hand: the hand was lost on every device."""
    a, b, m = sharing(device)
    a.table.record_hand(m, hand_for(2))
    a.once()
    real_store = b.sync._store
    tapped: list[bool] = []

    def store_after_a_tap(match_ids, report):
        if not tapped:
            tapped.append(True)
            b.table.tap(m, 1, TapKind.XERI, hand=1)   # B's screen still shows one hand
        return real_store(match_ids, report)

    monkeypatch.setattr(b.sync, "_store", store_after_a_tap)
    for d in (b, a, b, a):
        d.once()
    assert tapped
    for d in (a, b):
        assert d.table.get(m).match.hands == (*new_match(hands=1).hands, hand_for(2))   # A's hand stands, once
        assert d.table.get(m).live.taps == ()                            # the tap was for a hand already saved


def test_a_deletion_and_the_hands_saved_just_before_it_reach_the_group(device):
    a, b, m = sharing(device)
    a.table.record_hand(m, hand_for(2))
    a.parts.services.library.delete(m)       # no round between the save and the deletion
    a.once()
    b.once()
    assert m not in {s.id for s in b.parts.services.library.matches()}
    a.parts.services.library.restore(m)
    a.once()
    b.once()
    assert b.table.get(m).match.hands == (*new_match(hands=1).hands, hand_for(2))   # the hand saved before, too


def test_a_match_file_with_an_outbox_that_is_not_a_list_of_documents_is_set_aside_in_words(device):
    a = device("a")
    m = a.table.start(new_match(hands=1)).id
    a.once()
    a.table.tap(m, 0, TapKind.XERI, hand=1)
    a.parts.close()
    path = a.folder / "matches" / f"{m}.json"
    doc = json.loads(path.read_text("utf-8"))
    next(iter(doc["match"].values()))["outbox"] = "everything"
    path.write_text(json.dumps(doc), "utf-8")
    a.parts = a._open()
    damaged, = a.library.damaged()
    assert damaged.match_id == m and "'outbox' is a list of the group's documents" in damaged.reason
    assert damaged.new_path is not None and damaged.new_path.exists()   # kept, never deleted


class Killed(BaseException):
    """The app killed at this point (nothing after it runs)."""


def test_a_deletion_is_said_before_it_is_done_so_a_kill_right_after_it_never_brings_the_match_back(device, monkeypatch):
    """Killed the moment the match went into the bin: the bin is emptied at the next start, so what the device
    said before is the only sign of the deletion. Said after (as before the outbox), the next round took the
    group's copy back and the match returned on every device."""
    a, b, m = sharing(device)
    real = a.parts.storage.delete

    def delete_then_die(match_id):
        real(match_id)
        raise Killed

    monkeypatch.setattr(a.parts.storage, "delete", delete_then_die)
    with pytest.raises(Killed):
        a.parts.services.library.delete(m)
    monkeypatch.undo()
    a.reopen()                                  # the bin is emptied as the app starts again
    for d in (a, b, a, b):
        d.once()
    for d in (a, b):
        assert m not in {s.id for s in d.parts.services.library.matches()}


def test_a_match_started_in_the_group_travels_with_its_whole_story_one_from_before_is_told_as_it_stands(device):
    a, b = device("a"), device("b")
    before = a.table.start(new_match(hands=1)).id       # before A ever synced: not in a group yet
    a.table.record_hand(before, hand_for(2))
    a.table.undo_hand(before)
    assert a.in_file(before) == []
    a.once()                                            # joined: the match is told as it stands
    b.once()
    m = a.table.start(new_match(hands=1)).id            # in the group: written with its documents
    assert kinds(a.in_file(m)) == ["start", "hand"]
    a.table.record_hand(m, hand_for(3))
    a.table.undo_hand(m)
    a.once()
    b.once()
    assert [t.action.value for t in b.table.get(m).trail] == ["undo"]       # the undo made before any round
    assert b.table.get(m).trail == a.table.get(m).trail
    assert b.table.get(before).match.hands == a.table.get(before).match.hands
    assert b.table.get(before).trail == ()              # what happened before joining stays on A


def test_a_device_signs_what_it_writes_with_the_name_it_goes_by_and_the_others_read_it(device):
    a, b, m = sharing(device)
    a.library.update_settings(device_name="Anna's phone")
    a.table.abandon(m)
    assert a.in_file(m)[-1]["name"] == "Anna's phone"
    a.once()
    b.once()
    assert b.sync.stopped_by(m) == "Anna's phone"
    assert b.table.get(m).abandoned


@pytest.mark.parametrize("name", ["x" * 41, "Anna\nBen", 7, " Anna"])
def test_a_document_whose_device_name_cannot_be_a_name_is_not_read(name):
    from companion import changes as ch

    doc = {**ch.status("0" * 32, True, False, "2026-12-05T20:00:00Z", "d1").to_doc(), "name": name}
    with pytest.raises(ch.ChangeError):
        ch.from_doc(doc)
    good = {**doc, "name": "Anna's phone"}
    assert ch.from_doc(good).name == "Anna's phone" and ch.from_doc(good).to_doc() == good


def test_home_rows_say_where_a_match_in_play_changed_last(device):
    from companion.ui.viewmodel import AppModel

    a, b, m = sharing(device)
    b.library.update_settings(device_name="Ben's phone")
    b.table.record_hand(m, hand_for(2))
    b.once()
    a.once()
    row, = AppModel(a.parts.services).history.in_play()
    assert row.detail.startswith("Hand 3 · Ben's phone, changed")
    a.table.tap(m, 0, TapKind.XERI, hand=2)            # this device's own change, not sent yet
    row, = AppModel(a.parts.services).history.in_play()
    assert row.detail.startswith("Hand 3 · this device, changed")
    b.table.tap(m, 1, TapKind.XERI, hand=2)
    b.library.update_settings(device_name="")
    b.table.tap(m, 1, TapKind.XERI, hand=2)
    b.once()
    a.once()
    row, = AppModel(a.parts.services).history.in_play()
    assert row.detail.startswith("Hand 3 · another device, changed")


def test_a_device_in_no_group_says_no_where(tmp_path):
    from companion import bootstrap
    from companion.ui.viewmodel import AppModel
    from tests.storage.builders import Clock

    with bootstrap.build(bootstrap.open_folder(tmp_path / "alone"), clock=Clock()) as parts:
        parts.services.table.start(new_match(hands=1))
        row, = AppModel(parts.services).history.in_play()
        assert row.detail.startswith("Hand 2 · changed")
