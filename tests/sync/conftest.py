"""The sync tests' servers: a real CouchDB-protocol server, a TCP proxy the test controls, a hostile server.

- `couch`: PouchDB Server in memory on 127.0.0.1 (one process for the session: it takes seconds to start),
  running when the test starts, with `couch.db` a database name no other test uses (not yet created:
  `couch.create_database(couch.db)`). The helpers (`add_user`, `set_members`, `set_cors`, `kill`,
  `restart`, …) are `CouchServer`'s. Without Node.js and npm the tests that use it skip, saying how to
  get them.
- `proxy`: a `Proxy` in front of `couch` (`proxy.port`); closed at the end.
- `hostile`: a `Hostile` server; closed at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.sync.couchserver import CouchServer, missing
from tests.sync.hostile import Hostile
from tests.sync.proxy import Proxy


@pytest.fixture(scope="session")
def couch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CouchServer]:
    why = missing()
    if why:
        pytest.skip(why)
    server = CouchServer(tmp_path_factory.mktemp("couch"))
    server.start()
    try:
        yield server
    finally:
        server.kill()


@dataclass
class Couch:
    """The session's server, for one test: `db` is this test's own database name."""

    server: CouchServer
    db: str

    def __getattr__(self, name: str):  # the server's helpers and fields: couch.url, couch.add_user(…)
        if name == "server":  # not set yet (a copy being made): no endless lookup
            raise AttributeError(name)
        return getattr(self.server, name)

    def url_for(self, user: str | None = None, password: str | None = None, database: str | None = None) -> str:
        """This test's database address for `user` (the admin when no user is given)."""
        if user is None:
            return self.server.admin_url(database or self.db)
        return self.server.database_url(database or self.db, user, password)


@pytest.fixture
def couch(couch_server: CouchServer) -> Couch:
    if not couch_server.running():  # a test before this one killed it
        couch_server.start()
    return Couch(couch_server, couch_server.new_database_name())


@pytest.fixture
def proxy(couch: Couch) -> Iterator[Proxy]:
    with Proxy(couch.port) as p:
        yield p


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    with Hostile() as server:
        yield server
