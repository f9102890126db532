"""A hostile or broken server gets bounded work and a sentence: every misbehaviour ends within its deadline, with
its reason, and a huge answer costs no more memory than the bound."""

from __future__ import annotations

import base64
import time

import pytest

from companion.i18n import LANGUAGES, Translator
from companion.sync import couch as couch_module
from companion.sync.address import CouchAddress
from companion.sync.couch import CouchClient
from companion.sync.errors import SyncError, SyncSays
from tests.loop import run
from tests.memory import MB, PeakMemory

PASSWORD = "s3cret-pw"
"""The password in `Hostile.database_url()`."""


def failure(hostile, action, *, timeout: float = 3.0, url: str | None = None) -> tuple[SyncError, float]:
    """The error `action(client)` ends in against the hostile server, and how long it took."""
    async def scenario():
        async with CouchClient(CouchAddress.from_url(url or hostile.database_url()), timeout=timeout) as c:
            started = time.monotonic()
            try:
                await action(c)
            except SyncError as exc:
                return exc, time.monotonic() - started
            raise AssertionError("no SyncError")
    return run(scenario())


@pytest.mark.parametrize("declared", [False, True], ids=["streamed", "with its length"])
def test_a_200_mb_answer_is_refused_after_reading_at_most_the_bound_in_bounded_memory(hostile, declared):
    hostile.misbehave("huge", size=200 * MB, declared=declared)
    with PeakMemory() as memory:
        error, took = failure(hostile, lambda c: c.changes(0), timeout=30)
    assert error.reason == SyncSays.TOO_LARGE and "16 MB" in str(error)
    assert took < 10, took
    # The client stops at 16 MB (MAX_BATCH_BYTES); the rest of what the server got out sat in socket buffers.
    assert hostile.sent < 16 * MB + 40 * MB, hostile.sent
    assert memory.growth < 48 * MB, memory.growth / MB


def test_the_memory_check_can_fail():
    with PeakMemory() as memory:
        block = bytearray(64 * MB)
        block[::4096] = b"x" * (64 * MB // 4096)  # touch every page, so it is resident
        del block
    assert memory.growth >= 60 * MB


def test_a_document_answer_is_bounded_smaller_than_a_batch(hostile):
    hostile.misbehave("huge", size=8 * MB)
    error, _ = failure(hostile, lambda c: c.get("m1"))
    assert error.reason == SyncSays.TOO_LARGE and "5 MB" in str(error)


def test_an_endless_changes_feed_is_cut_at_the_bound(hostile):
    hostile.misbehave("endless_changes")
    error, took = failure(hostile, lambda c: c.changes(0), timeout=30)
    assert error.reason == SyncSays.TOO_LARGE and took < 15


def test_an_endless_trickling_longpoll_is_cut_at_its_deadline_and_not_taken_for_a_quiet_feed(hostile, monkeypatch):
    monkeypatch.setattr(couch_module, "LONGPOLL_GRACE", 0.5)
    hostile.misbehave("endless_changes", pause=0.05)
    error, took = failure(hostile, lambda c: c.changes(0, longpoll=True, wait=1.0))
    assert error.reason == SyncSays.TOO_SLOW and 1.4 < took < 4, took


@pytest.mark.parametrize("kind", ["stall", "silent"])
def test_a_server_that_stops_answering_ends_at_the_deadline(hostile, kind):
    hostile.misbehave(kind)
    error, took = failure(hostile, lambda c: c.get("m1"), timeout=1.0)
    assert error.reason == SyncSays.TOO_SLOW and 0.9 < took < 3, took
    assert "1 seconds" in str(error)


def test_a_trickling_answer_ends_at_the_deadline(hostile):
    hostile.misbehave("trickle", pause=0.05)  # a 60-byte answer over 3 s
    error, took = failure(hostile, lambda c: c.server_info(), timeout=1.0)
    assert error.reason == SyncSays.TOO_SLOW and took < 3


def test_a_stalled_longpoll_is_a_quiet_feed_not_an_error(hostile, monkeypatch):
    """Headers and then nothing, on a longpoll, is what PouchDB Server does when nothing changes: harmless."""
    monkeypatch.setattr(couch_module, "LONGPOLL_GRACE", 0.5)
    hostile.misbehave("stall")

    async def scenario():
        async with CouchClient(CouchAddress.from_url(hostile.database_url())) as c:
            return await c.changes("7-abc", longpoll=True, wait=0.5)

    feed = run(scenario())
    assert feed.quiet and feed.results == () and feed.last_seq == "7-abc"


def test_a_compressed_answer_the_client_did_not_ask_for_is_refused_unpacked(hostile):
    hostile.misbehave("gzip", size=64 * MB)
    with PeakMemory() as memory:
        error, _ = failure(hostile, lambda c: c.changes(0))
    assert error.reason == SyncSays.WRONG_SHAPE and "(Content-Encoding)" in str(error)
    assert memory.growth < 32 * MB, memory.growth / MB


def test_garbage_is_not_json(hostile):
    hostile.misbehave("garbage")
    error, _ = failure(hostile, lambda c: c.changes(0))
    assert error.reason == SyncSays.NOT_JSON


@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000, '{"results": [], "last_seq": ' + "9" * 5000 + "}"],
                         ids=["nested 100,000 deep", "a 5,000-digit number"])
def test_json_that_would_take_unbounded_work_is_refused(hostile, body):
    hostile.misbehave("raw", body=body)
    error, _ = failure(hostile, lambda c: c.changes(0))
    assert error.reason == SyncSays.NOT_JSON


REV = "1-" + "a" * 32

WRONG_SHAPES = {
    # name: (what the server answers, what the client asks, where the sentence says it went wrong)
    "root not an object": ([], lambda c: c.server_info(), "GET /"),
    "no version": ({"couchdb": "Welcome"}, lambda c: c.server_info(), "GET / version"),
    "changes without results": ({"last_seq": 1}, lambda c: c.changes(0), "_changes results"),
    "results not a list": ({"results": "x", "last_seq": 1}, lambda c: c.changes(0), "_changes results"),
    "more results than the limit": ({"results": [{"id": f"m{k}", "seq": k, "changes": [{"rev": REV}]}
                                                 for k in range(3)], "last_seq": 3},
                                    lambda c: c.changes(0, limit=2), "_changes results"),
    "an id that is a number": ({"results": [{"id": 7, "seq": 1, "changes": [{"rev": REV}]}], "last_seq": 1},
                               lambda c: c.changes(0), "_changes results[0].id"),
    "a malformed revision": ({"results": [{"id": "m1", "seq": 1, "changes": [{"rev": "banana"}]}], "last_seq": 1},
                             lambda c: c.changes(0), "_changes results[0].changes"),
    "no revisions": ({"results": [{"id": "m1", "seq": 1, "changes": []}], "last_seq": 1},
                     lambda c: c.changes(0), "_changes results[0].changes"),
    "a sequence that is an object": ({"results": [], "last_seq": {"x": 1}}, lambda c: c.changes(0),
                                     "_changes last_seq"),
    "a sequence with spaces": ({"results": [], "last_seq": "1 2"}, lambda c: c.changes(0), "_changes last_seq"),
    "a document of another id": ({"_id": "m2", "_rev": REV}, lambda c: c.get("m1"), "GET /{db}/{id}._id"),
    "a document with a bad revision": ({"_id": "m1", "_rev": "1-xyz"}, lambda c: c.get("m1"), "GET /{db}/{id}._rev"),
    "a write with a bad revision": ({"ok": True, "id": "m1", "rev": "one"}, lambda c: c.put({"_id": "m1"}),
                                    "PUT /{db}/{id} rev"),
    "a write of another id": ({"ok": True, "id": "m2", "rev": REV}, lambda c: c.put({"_id": "m1"}),
                              "PUT /{db}/{id} id"),
    "more bulk results than documents": ([{"id": "a", "rev": REV}, {"id": "b", "rev": REV}],
                                         lambda c: c.bulk_docs([{"_id": "a"}]), "_bulk_docs"),
    "a document count that is text": ({"db_name": "club", "doc_count": "3", "update_seq": 3},
                                      lambda c: c.database_info(), "GET /{db} doc_count"),
    "a session whose roles are not a list": ({"ok": True, "userCtx": {"name": "anna", "roles": "_admin"}},
                                             lambda c: c.session(), "_session roles"),
}


@pytest.mark.parametrize("name", list(WRONG_SHAPES))
def test_an_answer_of_the_wrong_shape_is_refused_before_anything_uses_it(hostile, name):
    body, action, where = WRONG_SHAPES[name]
    hostile.misbehave("json", body=body)
    error, _ = failure(hostile, action)
    assert error.reason == SyncSays.WRONG_SHAPE
    assert f"({where})" in str(error)


def test_a_redirect_is_not_followed(hostile):
    hostile.misbehave("redirect", location=hostile.url + "/elsewhere")
    error, _ = failure(hostile, lambda c: c.get("m1"))
    assert error.reason == SyncSays.REDIRECTED
    assert [path for _, path, _ in hostile.seen] == ["/club/m1"]  # nothing went to /elsewhere


@pytest.mark.parametrize("code, reason", [(401, SyncSays.WRONG_CREDENTIALS), (403, SyncSays.FORBIDDEN),
                                          (404, SyncSays.NO_DATABASE), (400, SyncSays.REFUSED),
                                          (500, SyncSays.SERVER_ERROR), (503, SyncSays.SERVER_ERROR)])
def test_each_refusal_is_its_own_reason(hostile, code, reason):
    hostile.misbehave("status", code=code)
    error, _ = failure(hostile, lambda c: c.changes(0))
    assert error.reason == reason
    assert error.status == (code if reason in (SyncSays.SERVER_ERROR, SyncSays.REFUSED) else None)


def test_a_401_from_a_user_the_server_knows_is_not_being_a_member(hostile):
    """PouchDB Server answers a non-member 401, as it answers a wrong password: `_session` tells them apart."""
    hostile.misbehave("status", code=401, path="/club")
    error, _ = failure(hostile, lambda c: c.get("m1"))
    assert error.reason == SyncSays.FORBIDDEN and "anna" in str(error)


def test_a_server_that_echoes_the_password_does_not_get_it_into_an_error(hostile):
    hostile.misbehave("echo")
    error, _ = failure(hostile, lambda c: c.changes(0))
    assert error.reason == SyncSays.SERVER_ERROR
    assert "***" in error.detail  # the server did echo it
    texts = [str(error), repr(error), error.detail] + [Translator(lang).say(error) for lang in LANGUAGES]
    header = base64.b64encode(f"anna:{PASSWORD}".encode()).decode()
    assert all(PASSWORD not in text and header not in text for text in texts)


def test_the_credentials_go_in_the_authorization_header_only(hostile):
    async def scenario():
        async with CouchClient(CouchAddress.from_url(hostile.database_url())) as c:
            await c.server_info()

    run(scenario())
    ((method, path, authorization),) = hostile.seen
    assert (method, path) == ("GET", "/") and PASSWORD not in path
    assert base64.b64decode(authorization.removeprefix("Basic ")).decode() == f"anna:{PASSWORD}"


def test_every_failure_is_said_in_every_language(hostile):
    hostile.misbehave("status", code=503)
    error, _ = failure(hostile, lambda c: c.changes(0))
    for lang in LANGUAGES:
        said = Translator(lang).say(error)
        assert hostile.url in said and "503" in said
        assert lang == "en" or said != str(error)
