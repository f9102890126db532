"""Sync through faults, against the real server: devices are data folders (the command line, or the app built in
this process on the folder), the network between them and the server a proxy the test cuts, the server a real
process the test kills. Whatever breaks, nothing a device saved is lost, nothing is counted twice, and what
two devices hold in the end is the same; a wrong password, a database the user is not a member of and a
hostile server each end a round in bounded time with a sentence, and change nothing here.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Translator
from companion.sync.errors import SyncError, SyncSays
from companion.engine.live import TapKind
from tests.storage.builders import hand_for, new_match
from tests.sync.devices import (a_round, cli, cli_sync, contents, failed_round, history, open_device, sheets,
                                shared_docs, synced, through, unsent, wait_for)
from tests.memory import MB, PeakMemory

pytestmark = [pytest.mark.slow]

EN = Translator("en")


def state(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "sync" / "state.json").read_text(encoding="utf-8"))


def doc_count(couch: Any) -> int:
    return int(couch.ok("GET", f"/{couch.db}")["doc_count"])


def in_step(a: Path, b: Path, couch: Any, matches: int) -> None:
    """A and B hold the same matches, every one; the group's database holds each document once, and adds up
    on B to what A saved."""
    on_a, on_b = sheets(a), sheets(b)
    assert len(on_a) == matches and on_b == on_a
    docs = shared_docs(couch)
    assert all(doc["_rev"].startswith("1-") and "_conflicts" not in doc for doc in docs.values())  # written once
    starts = [d for d in docs.values() if d.get("kind") == "start"]
    assert sorted(d["match"] for d in starts) == sorted(on_a)


@pytest.fixture
def folders(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    yield tmp_path / "a", tmp_path / "b"


# --- a history, and the network cut while it moves ----------------------------------------------------------
def test_a_1000_match_history_reaches_an_empty_device_with_the_same_sheets(couch, folders):
    couch.create_database(couch.db)
    a, b = folders
    made = history(a, 1000)
    started = time.monotonic()
    synced(a, couch.url_for())
    pushed = time.monotonic() - started
    started = time.monotonic()
    said = synced(b, couch.url_for())
    pulled = time.monotonic() - started
    assert "1000 matches changed here" in said, said
    assert sheets(b) == made
    in_step(a, b, couch, 1000)
    again = synced(b)
    assert "sent 0 changes, received 0; 0 matches changed here" in again
    print(f"1,000 matches: sent in {pushed:.1f} s, received by an empty device in {pulled:.1f} s")


def test_the_network_cut_mid_push_loses_nothing_and_doubles_nothing(couch, proxy, folders):
    """Each answer of the server is cut after 2 kB: the documents it stored are stored, the device does not
    know; the next round sends them again and the server's "already there" counts as sent."""
    couch.create_database(couch.db)
    a, b = folders
    history(a, 150)
    proxy.cut_response_after(2000)
    error, _ = failed_round(a, through(proxy, couch))
    assert error.reason in (SyncSays.CUT_OFF, SyncSays.UNREACHABLE), error
    stored_meanwhile = doc_count(couch)
    assert stored_meanwhile > 0 and unsent(a)             # some stored there, not known here as sent
    proxy.restore()
    report = a_round(a, through(proxy, couch))
    assert report.sent > 0 and not unsent(a)
    a_round(b, couch.url_for())
    in_step(a, b, couch, 150)


def test_the_network_cut_mid_pull_loses_nothing_and_doubles_nothing(couch, proxy, folders):
    couch.create_database(couch.db)
    a, b = folders
    history(a, 300)
    synced(a, couch.url_for())
    proxy.cut_response_after(400_000)                     # inside the second page of 500 documents
    error, _ = failed_round(b, through(proxy, couch))
    assert error.reason == SyncSays.CUT_OFF, error
    partly = sheets(b)
    assert 0 < len(partly) < 300                           # a page was kept before the cut
    proxy.restore()
    a_round(b, through(proxy, couch))
    in_step(a, b, couch, 300)


def test_the_network_gone_silent_mid_pull_ends_at_the_deadline_and_the_next_round_goes_on(couch, proxy, folders):
    couch.create_database(couch.db)
    a, b = folders
    history(a, 300)
    synced(a, couch.url_for())
    proxy.latency = 0.01                                  # slow enough to be cut in the middle
    outcome: dict[str, Any] = {}

    def pull() -> None:
        try:
            outcome["report"] = a_round(b, through(proxy, couch), timeout=3.0)
        except SyncError as exc:
            outcome["error"] = exc
            outcome["at"] = time.monotonic()

    puller = threading.Thread(target=pull)
    puller.start()
    wait_for(lambda: (b / "sync" / "state.json").exists() and state(b).get("checkpoint"), 120,
             what="a first page kept")
    cut_at = time.monotonic()
    proxy.cut(silent=True)                                # Wi-Fi gone: nothing answers, nothing is refused
    puller.join(60)
    assert not puller.is_alive() and "error" in outcome, outcome
    assert outcome["error"].reason == SyncSays.TOO_SLOW and outcome["at"] - cut_at < 3.0 + 5.0
    proxy.restore()
    proxy.latency = 0.0
    a_round(b, through(proxy, couch))
    in_step(a, b, couch, 300)


# --- the server killed ---------------------------------------------------------------------------------------
def test_the_server_killed_mid_push_costs_a_sentence_and_keeps_what_was_not_stored_in_the_outbox(couch, proxy,
                                                                                                 folders):
    """The server process dies (SIGKILL) while a device sends: the round ends at once with a sentence, the
    device's matches are untouched, and every document the server had not acknowledged is still to send.

    PouchDB Server keeps its databases in memory, so the server that comes back is empty (a CouchDB on disk
    would have kept what it acknowledged): the group joins it again, and everything arrives once."""
    couch.create_database(couch.db)
    a, b = folders
    history(a, 300)
    before = contents(a)
    proxy.latency = 0.005                                 # a push of seconds, to be killed in the middle
    outcome: dict[str, Any] = {}

    def push() -> None:
        try:
            a_round(a, through(proxy, couch))
        except SyncError as exc:
            outcome["error"] = exc
            outcome["at"] = time.monotonic()

    pusher = threading.Thread(target=push)
    pusher.start()
    wait_for(lambda: doc_count(couch) > 0, 120, every=0.02, what="a first batch stored")
    killed_at = time.monotonic()
    couch.kill()
    pusher.join(60)
    assert "error" in outcome and outcome["at"] - killed_at < 10
    assert outcome["error"].reason in (SyncSays.CUT_OFF, SyncSays.UNREACHABLE), outcome["error"]
    assert "cannot reach" in EN.say(outcome["error"]) or "broke off" in EN.say(outcome["error"])
    assert contents(a) == before                          # nothing here changed
    assert unsent(a)                                       # what was not acknowledged waits to be sent
    couch.start()                                         # empty: the group joins it again
    couch.create_database(couch.db)
    assert cli(a, "sync", "--forget").returncode == 0   # the group's database was lost: join it again
    synced(a, couch.url_for())
    synced(b, couch.url_for())
    in_step(a, b, couch, 300)


def test_the_server_killed_mid_pull_leaves_the_device_whole(couch, proxy, folders):
    couch.create_database(couch.db)
    a, b = folders
    made = history(a, 300)
    synced(a, couch.url_for())
    proxy.latency = 0.01
    outcome: dict[str, Any] = {}

    def pull() -> None:
        try:
            a_round(b, through(proxy, couch))
        except SyncError as exc:
            outcome["error"] = exc

    puller = threading.Thread(target=pull)
    puller.start()
    wait_for(lambda: (b / "sync" / "state.json").exists() and state(b).get("checkpoint"), 120,
             what="a first page kept")
    couch.kill()
    puller.join(60)
    assert not puller.is_alive() and outcome["error"].reason in (SyncSays.CUT_OFF, SyncSays.UNREACHABLE)
    partly = contents(b)
    assert 0 < len(partly) < 300
    for match_id, held in partly.items():   # what arrived is A's match, or its first hands (the rest to come)
        whole = json.loads(made[match_id])
        assert held["match"] == {**whole, "hands": whole["hands"][: len(held["match"]["hands"])]}
    couch.start()


# --- two devices apart ----------------------------------------------------------------------------------------
def test_the_same_hand_saved_differently_on_two_devices_apart_is_a_conflict_on_both_until_chosen(couch, proxy, folders):
    couch.create_database(couch.db)
    a, b = folders
    with open_device(a) as parts:
        match_id = parts.services.table.start(new_match(hands=1)).id
    synced(a, couch.url_for())
    synced(b, through(proxy, couch))                      # B reaches the server through its own network
    proxy.cut()                                           # B is offline
    with open_device(a) as parts:
        parts.services.table.record_hand(match_id, hand_for(5))
    with open_device(b) as parts:
        parts.services.table.record_hand(match_id, hand_for(6))
    assert "cannot reach" in cli_sync(b).stderr           # B tries, and is told
    synced(a)                                              # A's hand is in the group
    proxy.restore()
    said_b = synced(b)
    said_a = synced(a)
    assert "1 hand was saved differently on two devices" in said_b, said_b
    assert "1 hand was saved differently on two devices" in said_a, said_a
    for folder in (a, b):
        with open_device(folder) as parts:
            sync = parts.services.sync
            assert sync is not None and len(sync.conflicts(match_id)) == 1
    assert contents(a)[match_id]["match"] == contents(b)[match_id]["match"]     # the same hand counts on both
    assert len(contents(a)[match_id]["match"]["hands"]) == 2                    # never both
    with open_device(b) as parts:
        sync = parts.services.sync
        assert sync is not None
        conflict = sync.conflicts(match_id)[0]
        counted, other = conflict.versions[0], conflict.versions[1]      # the earlier counts until chosen
        assert {counted.entry, other.entry} == {hand_for(5), hand_for(6)}
        assert parts.services.table.get(match_id).match.hands[1] == counted.entry
        assert sync.choose(match_id, conflict.slot, [other.id])          # the table chose the other: it counts
    synced(b)
    synced(a)
    for folder in (a, b):
        with open_device(folder) as parts:
            sync = parts.services.sync
            record = parts.services.table.get(match_id)
            assert sync is not None and sync.conflicts(match_id) == ()
            assert record.match.hands[1] == other.entry and len(record.match.hands) == 2
            assert any(t.before == counted.entry for t in record.trail)       # the one not chosen is in the trail


# --- refused, and hostile -----------------------------------------------------------------------------------------
def untouched(folder: Path) -> dict[str, Any]:
    """What a failed round must leave as it was: the matches, how far the group was read, the documents known."""
    known = {p.stem: sorted(json.loads(p.read_text(encoding="utf-8"))["docs"])
             for p in sorted((folder / "sync" / "matches").glob("*.json"))}
    return {"matches": contents(folder), "checkpoint": state(folder).get("checkpoint"), "known": known}


@pytest.fixture
def device(tmp_path: Path) -> Path:
    """A device with three matches and one in play with a live tap, its changes kept to send, in no group."""
    folder = tmp_path / "device"
    history(folder, 3)
    with open_device(folder) as parts:
        table = parts.services.table
        in_play = table.start(new_match(hands=2))
        table.tap(in_play.id, 0, TapKind.XERI, hand=2)
        assert parts.services.sync is not None
        parts.services.sync.gather()                     # kept to send, as the runner does first
    return folder


def test_a_wrong_password_and_a_database_the_user_is_no_member_of_end_the_round_with_a_sentence(couch, device):
    couch.create_database(couch.db)
    couch.add_user("anna", "right-password")
    couch.add_user("ben", "bens-password")
    couch.set_members(couch.db, ["anna"])
    before = untouched(device)
    error, took = failed_round(device, couch.url_for("anna", "wrong-password"))
    assert error.reason == SyncSays.WRONG_CREDENTIALS and took < 20
    said = EN.say(error)
    assert "does not accept this user name and password" in said and "wrong-password" not in said
    error, _ = failed_round(device, couch.url_for("ben", "bens-password"))
    assert error.reason == SyncSays.FORBIDDEN and "ben may not use the database" in EN.say(error)
    assert untouched(device) == before and unsent(device)
    assert doc_count(couch) == 0
    report = a_round(device, couch.url_for("anna", "right-password"))   # a member: the same round works
    assert report.sent > 0 and not unsent(device)


HOSTILE = {
    # name: (misbehave(kind, **options), the reasons the round may end with)
    "a 200 MB answer": (("huge", {"size": 200 * MB}), {SyncSays.TOO_LARGE}),
    "garbage instead of JSON": (("garbage", {}), {SyncSays.NOT_JSON}),
    "an endless feed": (("endless_changes", {"path": "/club/_changes"}), {SyncSays.TOO_LARGE}),
    "a feed that trickles for ever": (("endless_changes", {"path": "/club/_changes", "pause": 0.05}),
                                      {SyncSays.TOO_SLOW}),
    "wrong revisions when sending": (("json", {"body": [{"id": "x", "rev": "banana"}], "path": "/club/_bulk_docs"}),
                                     {SyncSays.WRONG_SHAPE}),
    "wrong revisions in the feed": (("json", {"path": "/club/_changes", "body": {
        "results": [{"id": "m1", "seq": 1, "changes": [{"rev": "banana"}]}], "last_seq": 1}}),
        {SyncSays.WRONG_SHAPE}),
    "a document of another id than its row": (("json", {"path": "/club/_changes", "body": {
        "results": [{"id": "a" * 32 + ".start", "seq": 1, "changes": [{"rev": "1-" + "a" * 32}],
                     "doc": {"_id": "b" * 32 + ".start", "_rev": "1-" + "a" * 32}}], "last_seq": 1}}),
        {SyncSays.WRONG_SHAPE}),
    "a server that stops answering": (("stall", {}), {SyncSays.TOO_SLOW}),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_server_gets_bounded_work_and_a_sentence_and_changes_nothing_here(hostile, device, name):
    a_round(device, hostile.database_url())               # a round against it while it behaves: all is sent
    with open_device(device) as parts:                    # then one more change here, to send
        table = parts.services.table
        in_play = next(s for s in parts.services.library.matches() if s.is_playing)
        table.tap(in_play.id, 1, TapKind.JACK_XERI, hand=2)
        assert parts.services.sync is not None and parts.services.sync.gather() == 1   # kept to send
    (kind, options), reasons = HOSTILE[name]
    hostile.misbehave(kind, **options)
    before = untouched(device)
    with PeakMemory() as memory:
        error, took = failed_round(device, hostile.database_url(), timeout=3.0)
    assert error.reason in reasons, (name, error)
    assert took < 20, took
    assert memory.growth < 96 * MB, memory.growth / MB
    said = EN.say(error)
    assert said and "s3cret-pw" not in said and "Traceback" not in said
    assert untouched(device) == before


def test_huge_documents_from_a_hostile_server_are_not_kept_and_are_said(hostile, device):
    """Two documents of 6 MB each, shaped as the app's (a match stopped, with 6 MB more in its body): the round
    reads them within its bounds, keeps neither, and says why; nothing here changes."""
    a_round(device, hostile.database_url())
    match_id = "c" * 32

    def huge(n: int) -> dict[str, Any]:
        doc_id = f"{match_id}.status.{n}"
        return {"id": doc_id, "seq": n, "changes": [{"rev": "1-" + "a" * 32}],
                "doc": {"_id": doc_id, "_rev": "1-" + "a" * 32, "format": 1, "match": match_id, "kind": "status",
                        "at": "2026-01-01T00:00:00.000Z", "device": "hostile",
                        "body": {"abandoned": False, "deleted": False, "more": "x" * (6 * MB)}}}

    hostile.misbehave("json", path="/club/_changes", body={"results": [huge(1), huge(2)], "last_seq": 2})
    before = untouched(device)
    with PeakMemory() as memory:
        report = a_round(device, hostile.database_url(), timeout=10.0)
    assert memory.growth < 160 * MB, memory.growth / MB
    assert len(report.unreadable) == 2 and report.received == 0 and not report.stored
    assert all("cannot read" in EN.say(p) or "not one this app can read" in EN.say(p) for p in report.unreadable)
    after = untouched(device)
    assert after["matches"] == before["matches"] and after["known"] == before["known"]
    assert not (device / "sync" / "matches" / f"{match_id}.json").exists()
    assert sum(p.stat().st_size for p in (device / "sync").rglob("*.json")) < 1 * MB
