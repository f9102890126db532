"""Fuzzing the client: whatever a server answers (any status, any JSON near CouchDB's shapes, any bytes), every
call ends in a result or a `SyncError`, never another exception.

In `make test` each call gets a small fixed budget; `XERI_FUZZ_EXAMPLES=2000 pytest -m fuzz tests/sync` runs long.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.sync.address import CouchAddress
from companion.sync.couch import CouchClient
from companion.sync.errors import SyncError
from companion.sync.transport import Answer
from tests.loop import run

pytestmark = pytest.mark.fuzz

LONG = "XERI_FUZZ_EXAMPLES" in os.environ
EXAMPLES = int(os.environ.get("XERI_FUZZ_EXAMPLES", "60"))
REV = "1-" + "a" * 32

KEYS = ["results", "id", "changes", "rev", "seq", "last_seq", "pending", "doc", "deleted", "_id", "_rev",
        "_deleted", "ok", "error", "reason", "mark", "userCtx", "name", "roles", "version", "vendor", "db_name",
        "doc_count", "update_seq", "m1", "m2"]
"""The words of CouchDB's answers: random objects made of them come close to the real shapes."""
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.floats(allow_nan=False),
                    st.text(max_size=8), st.sampled_from([REV, "0-1", "banana", "m1", "m2", "_admin", "anna", "3-x"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=5),
                      max_leaves=25)
bodies = st.one_of(values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=40))
statuses = st.sampled_from([200, 200, 200, 201, 202, 302, 400, 401, 403, 404, 409, 412, 500, 503])


class Scripted:
    """A transport that answers each request with the next of `answers` (the last one again once they run out)."""

    def __init__(self, answers: list[tuple[int, bytes]]):
        self.answers = answers

    async def request(self, method: str, url: str, *, headers: Mapping[str, str], body: bytes | None,
                      timeout: float, max_bytes: int) -> Answer:
        status, data = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return Answer(status, {"content-type": "application/json"}, data)

    async def aclose(self) -> None:
        pass


CALLS = {
    "server_info": lambda c: c.server_info(),
    "session": lambda c: c.session(),
    "database_info": lambda c: c.database_info(),
    "create_database": lambda c: c.create_database(),
    "bulk_docs": lambda c: c.bulk_docs([{"_id": "m1"}, {"_id": "m2"}]),
    "changes": lambda c: c.changes(0, include_docs=True, limit=3),
    "longpoll": lambda c: c.changes(3, limit=1, longpoll=True, wait=1),
    "read the group's mark": lambda c: c.get("_local/xeri-group"),
    "claim the group": lambda c: c.put({"_id": "_local/xeri-group", "mark": "m"}),
    "check": lambda c: c.check(),
}
"""The calls the app makes (`sync.runner`, `sync.remote`): Join and Test, the group's mark and where the
database is, a round's push and pull, and the wait for news. The client has no others (tests/sync/test_couch)."""


@pytest.mark.parametrize("call", list(CALLS))
@settings(max_examples=EXAMPLES if LONG else 40, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(answers=st.lists(st.tuples(statuses, bodies), min_size=1, max_size=3))
def test_any_answer_ends_in_a_result_or_a_sync_error(call, answers):
    async def scenario():
        client = CouchClient(CouchAddress.from_url("http://anna:pw@127.0.0.1:5984/club"), Scripted(list(answers)))
        try:
            return await CALLS[call](client)
        except SyncError as exc:
            str(exc)  # and it can be said
            return exc

    run(scenario())


def test_the_fuzzing_can_find_what_the_client_does_not_expect():
    async def scenario():
        client = CouchClient(CouchAddress.from_url("http://anna:pw@127.0.0.1:5984/club"),
                             Scripted([(200, json.dumps({"results": [{"id": {"a": 1}, "seq": 1, "changes": []}],
                                                         "last_seq": 1}).encode())]))
        return await client.changes(0, include_docs=True, limit=3)

    with pytest.raises(SyncError):  # a document id that is an object is refused, not handed to the replica
        run(scenario())
