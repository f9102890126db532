"""The CouchDB client against a real CouchDB-protocol server (PouchDB Server, in memory, started by the fixture)."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request

import pytest

from companion.i18n import LANGUAGES, Translator
from companion.sync import couch as couch_module
from companion.sync.address import CouchAddress
from companion.sync.couch import Conflict, CouchClient, Written
from companion.sync.errors import SyncError, SyncSays
from tests.loop import run
from tests.ports import free_port

PASSWORD = "Zq9!anna-pw"
"""A member's password that cannot turn up in a message by accident."""


def client(url: str, **kwargs) -> CouchClient:
    return CouchClient(CouchAddress.from_url(url), **kwargs)


def attempt(url: str, action, **kwargs):
    """What `action(client)` returns, with a client for `url` opened and closed around it."""
    async def scenario():
        async with client(url, **kwargs) as c:
            return await action(c)
    return run(scenario())


def failure(url: str, action, **kwargs) -> SyncError:
    with pytest.raises(SyncError) as caught:
        attempt(url, action, **kwargs)
    return caught.value


@pytest.fixture
def db(couch) -> str:
    """This test's database, created."""
    return couch.create_database(couch.db)


def test_the_server_says_what_it_is_and_who_is_signed_in(couch):
    async def scenario():
        async with client(couch.url_for()) as c:
            return await c.server_info(), await c.session()

    info, session = run(scenario())
    assert info.version == "4.2.0"
    assert session.name == couch.admin and session.is_admin


def test_a_document_written_is_read_back_at_its_revision(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            written = await c.put({"_id": "m1", "hands": [1, 2]})
            return written, await c.get("m1"), await c.get("nothing-here")

    written, doc, missing = run(scenario())
    assert isinstance(written, Written) and written.rev.startswith("1-")
    assert doc == {"_id": "m1", "_rev": written.rev, "hands": [1, 2]}
    assert missing is None


def test_a_write_on_a_stale_revision_is_a_conflict_and_changes_nothing(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            first = await c.put({"_id": "m1", "v": 1})
            second = await c.put({"_id": "m1", "_rev": first.rev, "v": 2})
            stale = await c.put({"_id": "m1", "_rev": first.rev, "v": 3})
            again = await c.put({"_id": "m1", "v": 4})  # no _rev: as if new, on a document that exists
            return second, stale, again, await c.get("m1")

    second, stale, again, doc = run(scenario())
    assert stale == Conflict("m1") and again == Conflict("m1")
    assert doc["v"] == 2 and doc["_rev"] == second.rev


def test_a_deleted_document_reads_as_none_and_its_deletion_is_a_revision(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            written = await c.put({"_id": "m1", "v": 1})
            deleted = await c.put({"_id": "m1", "_rev": written.rev, "_deleted": True})  # as another client may
            return deleted, await c.get("m1"), await c.changes(0)

    deleted, doc, feed = run(scenario())
    assert isinstance(deleted, Written) and deleted.rev.startswith("2-")
    assert doc is None
    assert [(ch.id, ch.deleted, ch.revs) for ch in feed.results] == [("m1", True, (deleted.rev,))]


def test_bulk_docs_judges_each_document_on_its_own(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            first = await c.put({"_id": "a", "v": 1})
            return await c.bulk_docs([{"_id": "a", "v": 2}, {"_id": "b", "v": 1},
                                             {"_id": "a", "_rev": first.rev, "v": 3}])

    outcomes = run(scenario())
    assert outcomes[0] == Conflict("a")
    assert isinstance(outcomes[1], Written) and outcomes[1].id == "b"
    assert isinstance(outcomes[2], Written) and outcomes[2].rev.startswith("2-")


def test_a_changes_page_with_documents_leaves_out_none_and_names_deletions(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            written = await c.bulk_docs([{"_id": f"m{k}", "k": k} for k in range(5)])
            await c.put({"_id": "m4", "_rev": written[4].rev, "_deleted": True})
            return await c.changes(0, include_docs=True)

    feed = run(scenario())
    assert sorted((ch.id, ch.deleted) for ch in feed.results) == [(f"m{k}", k == 4) for k in range(5)]
    assert {ch.id: ch.doc["k"] for ch in feed.results if not ch.deleted} == {f"m{k}": k for k in range(4)}


def test_changes_since_a_checkpoint_list_only_what_changed_after_it(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            for k in range(3):
                await c.put({"_id": f"m{k}"})
            first = await c.changes(0)
            saved = await c.put({"_id": "_local/checkpoint", "since": first.last_seq})
            checkpoint = await c.get("_local/checkpoint")
            await c.put({"_id": "m3"})
            later = await c.changes(checkpoint["since"])
            moved = await c.put({"_id": "_local/checkpoint", "_rev": saved.rev, "since": later.last_seq})
            stale = await c.put({"_id": "_local/checkpoint", "_rev": saved.rev, "since": 0})
            return first, later, await c.changes(later.last_seq), moved, stale

    first, later, nothing, moved, stale = run(scenario())
    assert sorted(ch.id for ch in first.results) == ["m0", "m1", "m2"]
    assert [ch.id for ch in later.results] == ["m3"]
    assert nothing.results == () and nothing.last_seq == later.last_seq
    assert isinstance(moved, Written) and stale == Conflict("_local/checkpoint")


def test_a_local_checkpoint_is_not_in_the_changes_feed(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            await c.put({"_id": "_local/checkpoint", "since": 0})
            return await c.changes(0), await c.get("_local/nothing")

    feed, missing = run(scenario())
    assert feed.results == () and missing is None


def test_changes_come_in_batches_of_at_most_the_limit(couch, db):
    async def scenario():
        async with client(couch.url_for()) as c:
            await c.bulk_docs([{"_id": f"m{k}"} for k in range(5)])
            seen, since, batches = [], 0, 0
            while True:
                batch = await c.changes(since, limit=2)
                if not batch.results:
                    return seen, batches
                assert len(batch.results) <= 2
                seen += [ch.id for ch in batch.results]
                since, batches = batch.last_seq, batches + 1

    seen, batches = run(scenario())
    assert sorted(seen) == [f"m{k}" for k in range(5)] and batches == 3


def test_a_longpoll_answers_as_soon_as_a_document_is_written(couch, db):
    async def scenario():
        async with client(couch.url_for()) as reader, client(couch.url_for()) as writer:
            since = (await reader.changes(0)).last_seq
            started = time.monotonic()
            poll = asyncio.create_task(reader.changes(since, longpoll=True, wait=20, include_docs=True))
            await asyncio.sleep(0.5)
            assert not poll.done()
            await writer.put({"_id": "hand", "xeri": True})
            feed = await poll
            return feed, time.monotonic() - started

    feed, took = run(scenario())
    assert [ch.doc["xeri"] for ch in feed.results] == [True]
    assert took < 5, took


def test_a_longpoll_with_nothing_to_say_ends_quiet_within_its_wait(couch, db, monkeypatch):
    monkeypatch.setattr(couch_module, "LONGPOLL_GRACE", 1.0)

    async def scenario():
        async with client(couch.url_for()) as c:
            since = (await c.changes(0)).last_seq
            started = time.monotonic()
            feed = await c.changes(since, longpoll=True, wait=1.0)
            return since, feed, time.monotonic() - started

    since, feed, took = run(scenario())
    assert feed.quiet and feed.results == () and feed.last_seq == since
    assert 1.0 <= took < 4, took


def test_a_database_is_created_once_and_then_exists(couch):
    async def scenario():
        async with client(couch.url_for()) as c:
            return await c.create_database(), await c.create_database(), await c.database_info()

    made, again, info = run(scenario())
    assert (made, again) == (True, False)
    assert info.name == couch.db and info.doc_count == 0


def test_only_members_may_use_a_database_with_members(couch, db):
    couch.add_user("anna", PASSWORD)
    couch.add_user("ben", "ben-pw")

    couch.set_members(db, names=("anna",))

    written = attempt(couch.url_for("anna", PASSWORD), lambda c: c.put({"_id": "m1"}))
    assert isinstance(written, Written)
    ben = failure(couch.url_for("ben", "ben-pw"), lambda c: c.get("m1"))
    assert ben.reason == SyncSays.FORBIDDEN and "ben" in str(ben) and couch.db in str(ben)
    no_one = failure(f"{couch.url}/{couch.db}", lambda c: c.get("m1"))
    assert no_one.reason == SyncSays.NEEDS_LOGIN


def test_a_wrong_password_is_said_as_such_and_never_shown(couch, db):
    couch.add_user("anna", "the-right-one")
    error = failure(couch.url_for("anna", PASSWORD), lambda c: c.get("m1"))
    assert error.reason == SyncSays.WRONG_CREDENTIALS
    texts = [str(error), repr(error), error.detail] + [Translator(lang).say(error) for lang in LANGUAGES]
    assert all(PASSWORD not in text for text in texts)


def test_a_missing_database_is_said_naming_it(couch):
    error = failure(couch.url_for(), lambda c: c.changes(0))
    assert error.reason == SyncSays.NO_DATABASE and couch.db in str(error)


def test_check_finds_good_settings_good(couch, db):
    couch.add_user("anna", PASSWORD)
    check = attempt(couch.url_for(), lambda c: c.check())
    assert check.ok and (check.reachable, check.signed_in, check.database, check.may_create) == (True, True, True, True)
    anna = attempt(couch.url_for("anna", PASSWORD), lambda c: c.check())
    assert anna.ok and anna.may_create is False and anna.cors is None


@pytest.mark.parametrize("who", ["admin", "member"])
def test_check_says_a_database_is_missing_and_whether_the_user_may_create_it(couch, who):
    couch.add_user("anna", PASSWORD)
    url = couch.url_for() if who == "admin" else couch.url_for("anna", PASSWORD)
    check = attempt(url, lambda c: c.check())
    assert check.problem.reason == SyncSays.NO_DATABASE
    assert (check.reachable, check.signed_in, check.database) == (True, True, False)
    assert check.may_create is (who == "admin")


def test_check_says_a_wrong_password_and_a_database_the_user_may_not_use(couch, db):
    couch.add_user("anna", PASSWORD)
    couch.set_members(db, ["someone-else"])
    wrong = attempt(couch.url_for("anna", "not-it"), lambda c: c.check())
    assert wrong.problem.reason == SyncSays.WRONG_CREDENTIALS and wrong.signed_in is False
    outsider = attempt(couch.url_for("anna", PASSWORD), lambda c: c.check())
    assert outsider.problem.reason == SyncSays.FORBIDDEN and outsider.signed_in is True
    assert outsider.database is None


def test_check_says_a_server_that_is_not_there_is_unreachable(couch):
    check = attempt(f"http://127.0.0.1:{free_port()}/club", lambda c: c.check(), timeout=5)
    assert check.problem.reason == SyncSays.UNREACHABLE and not check.reachable


def test_a_killed_server_is_unreachable_and_a_restarted_one_has_lost_its_data(couch, db):
    async def scenario():
        async with client(couch.url_for(), timeout=5) as c:
            await c.put({"_id": "m1"})
            couch.kill()
            try:
                await c.get("m1")
            except SyncError as exc:
                down = exc
            couch.restart()  # in memory: a new server, no databases; the admin is kept in its config
            try:
                await c.get("m1")
            except SyncError as exc:
                return down, exc

    down, after = run(scenario())
    assert down.reason == SyncSays.UNREACHABLE
    assert after.reason == SyncSays.NO_DATABASE


def test_the_client_says_who_it_talks_to_but_not_with_what_password(couch):
    c = client(couch.url_for("anna", PASSWORD))
    assert "anna" in repr(c) and PASSWORD not in repr(c)
    run(c.aclose())


def test_cors_lets_in_the_pages_it_names_and_no_others(couch):
    def allowed(origin: str) -> str | None:
        """What a browser's preflight for a PUT with a password hears: the origin let in, or None."""
        call = urllib.request.Request(couch.url + "/", method="OPTIONS",
                                      headers={"Origin": origin, "Access-Control-Request-Method": "PUT",
                                               "Access-Control-Request-Headers": "authorization, content-type"})
        try:
            with urllib.request.urlopen(call, timeout=10) as answer:
                return answer.headers.get("Access-Control-Allow-Origin")
        except urllib.error.HTTPError as refused:  # no CORS: the preflight is an unknown route (404)
            return refused.headers.get("Access-Control-Allow-Origin")

    try:
        couch.set_cors("https://xeri.example")
        assert allowed("https://xeri.example") == "https://xeri.example"
        assert allowed("https://elsewhere.example") is None
        couch.set_cors(None)
        assert allowed("https://xeri.example") is None
    finally:
        couch.set_cors("*")  # the server is shared: back to PouchDB Server's default
    assert allowed("https://elsewhere.example") == "https://elsewhere.example"


def test_the_client_has_only_the_calls_the_app_makes():
    """Nothing of the client is there for its own sake: every public call is made by the app (a round, Join
    and Test, the group's mark), so every call fuzzed and tested is one a server's answer can reach."""
    import inspect
    import re
    from pathlib import Path

    calls = {name for name, f in inspect.getmembers(CouchClient, inspect.iscoroutinefunction)
             if not name.startswith("_")}
    assert calls == {"aclose", "bulk_docs", "changes", "check", "create_database", "database_info", "get", "put",
                     "server_info", "session"}
    app = Path(couch_module.__file__).parent.parent
    text = "\n".join(re.sub(r"async def \w+\(", "", p.read_text(encoding="utf-8")) for p in app.rglob("*.py"))
    unused = sorted(name for name in calls if not re.search(rf"\.{name}\(", text))
    assert unused == []
