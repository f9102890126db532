"""The network between a device and its server goes away, slows down or breaks mid-answer (a TCP proxy the test
controls, in front of the real server): every failure is a reason and a sentence, within its deadline."""

from __future__ import annotations

import asyncio
import time

import pytest

from companion.sync.address import CouchAddress
from companion.sync.couch import CouchClient, Written
from companion.sync.errors import SyncError, SyncSays
from tests.loop import run


@pytest.fixture
def db(couch) -> str:
    return couch.create_database(couch.db)


def through(couch, proxy, **kwargs) -> CouchClient:
    """A client for this test's database that goes through the proxy."""
    url = couch.url_for().replace(f":{couch.port}/", f":{proxy.port}/")
    return CouchClient(CouchAddress.from_url(url), **kwargs)


async def reason(action) -> tuple[SyncSays, float]:
    """Why `action` failed, and how long it took to."""
    started = time.monotonic()
    with pytest.raises(SyncError) as caught:
        await action
    return caught.value.reason, time.monotonic() - started


def test_a_cut_network_is_unreachable_and_the_same_client_works_once_it_is_back(couch, db, proxy):
    async def scenario():
        async with through(couch, proxy, timeout=5) as c:
            before = await c.put({"_id": "m1"})
            proxy.cut()
            down = await reason(c.get("m1"))
            proxy.restore()
            return before, down, await c.get("m1")

    before, (why, took), doc = run(scenario())
    assert why == SyncSays.UNREACHABLE and took < 5
    assert doc["_rev"] == before.rev


def test_a_connection_cut_mid_answer_is_a_broken_answer_not_a_traceback(couch, db, proxy):
    couch.ok("PUT", f"/{db}/big", {"hands": ["x" * 100] * 2000})  # about 200 KB

    async def scenario():
        async with through(couch, proxy, timeout=10) as c:
            proxy.cut_response_after(5000)
            broken = await reason(c.get("big"))
            proxy.restore()
            return broken, await c.get("big")

    (why, took), doc = run(scenario())
    assert why == SyncSays.CUT_OFF and took < 10
    assert len(doc["hands"]) == 2000


def test_a_network_that_goes_silent_ends_at_the_deadline(couch, db, proxy):
    async def scenario():
        async with through(couch, proxy, timeout=1.5) as c:
            await c.put({"_id": "m1"})
            proxy.cut(silent=True)
            live = await reason(c.get("m1"))          # on the connection kept from the put
            fresh = await reason(c.server_info())     # a new connection, accepted and never answered
            return live, fresh

    (live, live_took), (fresh, fresh_took) = run(scenario())
    assert (live, fresh) == (SyncSays.TOO_SLOW, SyncSays.TOO_SLOW)
    assert 1.4 < live_took < 4 and 1.4 < fresh_took < 4, (live_took, fresh_took)


def test_a_longpoll_whose_connection_is_cut_is_a_broken_answer_not_a_quiet_feed(couch, db, proxy):
    async def scenario():
        async with through(couch, proxy) as c:
            since = (await c.changes(0)).last_seq
            poll = asyncio.create_task(c.changes(since, longpoll=True, wait=20))
            await asyncio.sleep(1.0)  # the answer has begun: PouchDB Server writes its first line at once
            proxy.cut()
            return await reason(poll)

    why, took = run(scenario())
    assert why == SyncSays.CUT_OFF and took < 5


def test_a_slow_network_is_slow_but_everything_arrives(couch, db, proxy):
    proxy.latency = 0.05

    async def scenario():
        async with through(couch, proxy, timeout=10) as c:
            started = time.monotonic()
            written = await c.bulk_docs([{"_id": f"m{k}"} for k in range(50)])
            return written, await c.changes(0, limit=100), time.monotonic() - started

    written, feed, took = run(scenario())
    assert all(isinstance(w, Written) for w in written) and len(feed.results) == 50
    assert took >= 0.2  # two requests, each delayed both ways
