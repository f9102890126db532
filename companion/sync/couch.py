"""A small CouchDB client for one database: the documented CouchDB 3 HTTP API, every answer bounded and checked.

Only what Apache CouchDB 3 documents is used, so Apache CouchDB, a hosted CouchDB service and PouchDB
Server all serve it. Every request has a deadline and a bound on the answer's size (`transport.py`);
an answer is parsed as JSON only once it is known to be small enough, and its shape is checked (ids are
strings, revisions `N-hex`, a `_changes` answer has a list of results, …) before anything uses it. What
goes wrong is a `SyncError` whose `reason` is one `SyncSays` member; a conflict is not an error but a
result (`Conflict`): in CouchDB a conflict is data to merge, not a failure.

What differs between the servers, and how it is met:
- A signed-in user who is not a member of a database gets 403 from Apache CouchDB but 401 from PouchDB
  Server, which is also what a wrong password gets. On a 401 the client asks `GET /_session` once whether
  the name and password are right: if they are, the 401 meant "not a member" (`FORBIDDEN`).
- PouchDB Server ignores a longpoll's `timeout` and keeps the request open until a change comes (writing
  a newline every few seconds). The client's own deadline, a little after the asked-for wait, ends it;
  an answer that got no further than `{"results":[` by then is a quiet feed, not a failure.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self
from urllib.parse import quote, urlencode

from .address import CouchAddress
from .errors import SyncError, SyncSays
from .transport import Answer, Transport, default_transport, in_browser

TIMEOUT = 20.0
"""Seconds one request may take from start to the last byte of its answer."""
LONGPOLL_WAIT = 25.0
"""Seconds a longpoll asks the server to wait for a change before it answers with none."""
LONGPOLL_GRACE = 5.0
"""Seconds the client waits on a longpoll beyond the wait it asked for."""
MAX_SMALL_BYTES = 256 * 1024
"""The largest answer to a request that returns no documents (server, session, database, a write, security)."""
MAX_DOCUMENT_BYTES = 5 * 1024 * 1024
"""The largest answer with one document: a match file is at most 4 MB (`formats.matchfile.MAX_FILE_CHARS`),
and no real one comes near; the rest is room for its revisions and conflicts."""
MAX_BATCH_BYTES = 16 * 1024 * 1024
"""The largest answer to a batch request (`_changes`, `_bulk_get`, `_all_docs`, `_bulk_docs`, `_revs_diff`)."""
MAX_BATCH = 1000
"""The most documents, ids or changes one batch request asks for."""
MAX_ID = 1024
"""The longest document id read from a server (the app's ids are 32 characters)."""
MAX_SEQ = 4096
"""The longest update sequence read (Apache CouchDB's are opaque strings of a few hundred characters)."""
REV = re.compile(r"[0-9]{1,10}-[0-9a-f]{1,128}")
"""A revision: its generation, a dash and a hexadecimal hash (`3-917fa23…`; a `_local` document's are `0-1`)."""
HASH = re.compile(r"[0-9a-f]{1,128}")
"""A revision's hash, as `_revisions` lists them."""
SEQ = re.compile(rf"[\x21-\x7e]{{1,{MAX_SEQ}}}")
"""An update sequence written as a string: printable ASCII, no spaces."""

Seq = int | str
"""Where a `_changes` feed is: opaque, handed back to the server as it came (`since`)."""
Doc = dict[str, Any]
"""A document as CouchDB holds it: `_id`, `_rev`, and maybe `_deleted`, `_conflicts`, `_revisions`."""


@dataclass(frozen=True)
class ServerInfo:
    """What `GET /` says about the server."""

    version: str
    """Its version (`3.3.3` for Apache CouchDB, `4.2.0` for PouchDB Server)."""
    vendor: str | None
    """Who made it, if it says."""


@dataclass(frozen=True)
class Session:
    """Who the server takes the client for (`GET /_session`)."""

    name: str | None
    """The signed-in user; None: no one (the server did not take the credentials, or none were given)."""
    roles: tuple[str, ...]
    """The user's roles; `_admin` for a server admin."""

    @property
    def is_admin(self) -> bool:
        """May this user create databases and set who may use them?"""
        return "_admin" in self.roles


@dataclass(frozen=True)
class DatabaseInfo:
    """What `GET /{db}` says about the database."""

    name: str
    """Its name."""
    doc_count: int
    """How many documents it holds (deleted ones left out)."""
    update_seq: Seq
    """Its latest update sequence."""


@dataclass(frozen=True)
class Written:
    """A revision the server stored."""

    id: str
    """The document's id."""
    rev: str
    """Its new revision: the `_rev` to give with the next change."""


@dataclass(frozen=True)
class Conflict:
    """Not written: the document is at another revision than the one given. Read it again and merge."""

    id: str
    """The document's id."""


@dataclass(frozen=True)
class Rejected:
    """A document of a bulk write the server refused for a reason other than a conflict."""

    id: str
    """The document's id."""
    error: str
    """CouchDB's word for why (`forbidden`, `unauthorized`, …), cut to 60 characters."""
    reason: str = ""
    """The server's own sentence (a validation's message), printable characters only, cut to 120."""


@dataclass(frozen=True)
class Change:
    """One document that changed, as a `_changes` feed lists it."""

    id: str
    """The document's id."""
    revs: tuple[str, ...]
    """Its leaf revisions (every one with `all_revs`, else the winner only)."""
    seq: Seq
    """Where in the feed it changed."""
    deleted: bool
    """Its winning revision is a deletion."""
    doc: Doc | None
    """The winning revision, when asked for (`include_docs`)."""


@dataclass(frozen=True)
class Changes:
    """One batch of a `_changes` feed."""

    results: tuple[Change, ...]
    """What changed, in feed order; at most the `limit` asked for."""
    last_seq: Seq
    """Where the next batch starts (`since`): keep it as the checkpoint once the batch is stored."""
    pending: int | None = None
    """How many changes are left after this batch, if the server says."""
    quiet: bool = False
    """A longpoll that waited and saw no change (`results` is empty and `last_seq` is the `since` given)."""


@dataclass(frozen=True)
class Names:
    """Users and roles named in a database's security object."""

    names: tuple[str, ...] = ()
    """User names."""
    roles: tuple[str, ...] = ()
    """Role names."""


@dataclass(frozen=True)
class Security:
    """Who may use a database (`_security`): with no members named, CouchDB 3 lets only server admins in;
    PouchDB Server lets anyone in."""

    admins: Names = Names()
    """Who may change the database's design documents and security."""
    members: Names = Names()
    """Who may read and write its documents."""


@dataclass(frozen=True)
class Check:
    """What a *Test* of the sync settings found, step by step, and the first problem in words.

    Each step runs only when the one before it went well; a step not run is None."""

    reachable: bool
    """The server answered (even if it refused)."""
    signed_in: bool | None = None
    """The user name and password were accepted; None if the address gives none."""
    database: bool | None = None
    """The database exists (and the user may use it)."""
    may_create: bool = False
    """The user is a server admin: a missing database can be created (`create_database`)."""
    cors: bool | None = None
    """The server's CORS settings let this page in: a browser only, None elsewhere."""
    version: str | None = None
    """The server's version, once it answered."""
    problem: SyncError | None = None
    """The first thing wrong (`Translator.say(problem)` says it); None: syncing can start."""

    @property
    def ok(self) -> bool:
        """Everything needed to sync is in place."""
        return self.problem is None


class CouchClient:
    """One database on one server, through a `Transport`. Use it from one event loop, and close it
    (`async with CouchClient(address) as couch:` or `await couch.aclose()`).

    `timeout` is the deadline of each request; every answer is bounded (the `MAX_*` sizes above).
    """

    def __init__(self, address: CouchAddress, transport: Transport | None = None, *, timeout: float = TIMEOUT):
        self.address = address
        self.transport = transport or default_transport()
        self._owns_transport = transport is None
        self.timeout = timeout
        self._db = "/" + quote(address.database, safe="")
        self._secret = address.password or ""
        self._authorization = ""
        if address.user is not None:
            pair = f"{address.user}:{self._secret}".encode()
            self._authorization = "Basic " + base64.b64encode(pair).decode("ascii")

    def __repr__(self) -> str:
        return f"CouchClient({self.address!r})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the transport, if the client made it."""
        if self._owns_transport:
            await self.transport.aclose()

    # --- the server ----------------------------------------------------------------------------------

    async def server_info(self) -> ServerInfo:
        """`GET /`: is this a CouchDB server, and which."""
        answer = await self._send("GET", "/")
        if answer.status != 200:
            raise await self._refused(answer, "GET /", database=False)
        info = self._object(self._parse(answer), "GET /")
        version = info.get("version")
        vendor = info.get("vendor")
        vendor_name = vendor.get("name") if isinstance(vendor, dict) else None
        if not isinstance(version, str) or len(version) > 100:
            raise self._shape("GET / version")
        return ServerInfo(version, vendor_name[:100] if isinstance(vendor_name, str) else None)

    async def session(self) -> Session:
        """`GET /_session` with the address's user and password: who the server takes the client for."""
        answer = await self._send("GET", "/_session")
        if answer.status != 200:
            raise await self._refused(answer, "GET /_session", database=False)
        return self._session(self._parse(answer))

    # --- the database --------------------------------------------------------------------------------

    async def database_info(self) -> DatabaseInfo:
        """`GET /{db}`; `NO_DATABASE` if there is none."""
        answer = await self._send("GET", self._db)
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}")
        info = self._object(self._parse(answer), "GET /{db}")
        name = info.get("db_name")
        if not isinstance(name, str):
            raise self._shape("GET /{db} db_name")
        return DatabaseInfo(name[:300], self._count(info.get("doc_count"), "GET /{db} doc_count"),
                            self._seq(info.get("update_seq"), "GET /{db} update_seq"))

    async def create_database(self) -> bool:
        """`PUT /{db}`: True if it was made, False if it was there already. Only a server admin may;
        ask `session().is_admin` first (PouchDB Server 4.2 crashes on a creation by anyone else)."""
        answer = await self._send("PUT", self._db)
        if answer.status in (201, 202):
            return True
        if answer.status == 412:
            return False
        raise await self._refused(answer, "PUT /{db}", database=False)

    async def security(self) -> Security:
        """`GET /{db}/_security`: who may use the database."""
        answer = await self._send("GET", self._db + "/_security")
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}/_security")
        found = self._object(self._parse(answer), "_security")
        return Security(admins=self._names(found.get("admins"), "_security admins"),
                        members=self._names(found.get("members"), "_security members"))

    async def put_security(self, security: Security) -> None:
        """`PUT /{db}/_security`: set who may use the database (a database admin or server admin only)."""
        body = {part: {"names": list(names.names), "roles": list(names.roles)}
                for part, names in (("admins", security.admins), ("members", security.members))}
        answer = await self._send("PUT", self._db + "/_security", body=body)
        if answer.status != 200:
            raise await self._refused(answer, "PUT /{db}/_security")

    # --- documents -----------------------------------------------------------------------------------

    async def get(self, doc_id: str, *, rev: str | None = None, conflicts: bool = False,
                  revs: bool = False) -> Doc | None:
        """`GET /{db}/{id}`: the winning revision (or `rev`), None if there is no such document or it was
        deleted. `conflicts` adds `_conflicts` (the other leaf revisions), `revs` adds `_revisions` (its
        history). A `_local/…` id reads a local document (a checkpoint: never replicated)."""
        query: dict[str, str] = {}
        if rev is not None:
            query["rev"] = _checked_rev(rev)
        if conflicts:
            query["conflicts"] = "true"
        if revs:
            query["revs"] = "true"
        answer = await self._send("GET", self._doc_path(doc_id), query=query, max_bytes=MAX_DOCUMENT_BYTES)
        if answer.status == 404 and self._missing_document(answer):
            return None
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}/{id}")
        return self._doc(self._parse(answer), "GET /{db}/{id}", doc_id)

    async def open_revs(self, doc_id: str, revs: Sequence[str] | None = None) -> list[Doc]:
        """`GET /{db}/{id}?open_revs=…&revs=true`: the given revisions of a document (every leaf if None),
        each with its history (`_revisions`); revisions the server lacks are left out."""
        which = "all" if revs is None else json.dumps([_checked_rev(r) for r in _bounded(revs)])
        answer = await self._send("GET", self._doc_path(doc_id), query={"open_revs": which, "revs": "true"},
                                  max_bytes=MAX_BATCH_BYTES)
        if answer.status == 404 and self._missing_document(answer):
            return []
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}/{id}?open_revs")
        found = self._list(self._parse(answer), "open_revs")
        docs = []
        for k, entry in enumerate(found):
            entry = self._object(entry, f"open_revs[{k}]")
            if "ok" in entry:
                docs.append(self._doc(entry["ok"], f"open_revs[{k}].ok", doc_id))
            elif not (isinstance(entry.get("missing"), str)):
                raise self._shape(f"open_revs[{k}]")
        return docs

    async def put(self, doc: Doc) -> Written | Conflict:
        """`PUT /{db}/{id}`: store `doc` (its `_id`; its `_rev` when it changes a stored document).
        `Conflict` if the document is at another revision than `_rev` (or exists and no `_rev` was given)."""
        doc_id = doc.get("_id")
        if not isinstance(doc_id, str):
            raise TypeError("a document to put needs an _id")
        answer = await self._send("PUT", self._doc_path(doc_id), body=doc)
        return await self._written(answer, doc_id, "PUT /{db}/{id}")

    async def delete(self, doc_id: str, rev: str) -> Written | Conflict:
        """`DELETE /{db}/{id}?rev=…`: a deletion is a new revision (a tombstone), replicated like any."""
        answer = await self._send("DELETE", self._doc_path(doc_id), query={"rev": _checked_rev(rev)})
        return await self._written(answer, doc_id, "DELETE /{db}/{id}")

    async def bulk_docs(self, docs: Sequence[Doc], *, new_edits: bool = True) -> list[Written | Conflict | Rejected]:
        """`POST /{db}/_bulk_docs`: many writes in one request, each judged on its own.

        With `new_edits=False` the documents keep the `_rev` (and `_revisions`) they carry, as replication
        writes them: nothing conflicts, a second leaf simply joins the tree. CouchDB then answers only the
        documents it refused (often none)."""
        for doc in _bounded(docs):
            if not isinstance(doc.get("_id"), str):
                raise TypeError("every document of a bulk write needs an _id")
        answer = await self._send("POST", self._db + "/_bulk_docs", body={"docs": list(docs), "new_edits": new_edits},
                                  max_bytes=MAX_BATCH_BYTES)
        if answer.status not in (200, 201, 202):
            raise await self._refused(answer, "POST /{db}/_bulk_docs")
        found = self._list(self._parse(answer), "_bulk_docs")
        if len(found) > len(docs):
            raise self._shape("_bulk_docs")
        outcomes: list[Written | Conflict | Rejected] = []
        for k, entry in enumerate(found):
            where = f"_bulk_docs[{k}]"
            entry = self._object(entry, where)
            doc_id = self._id(entry.get("id"), where + ".id")
            error = entry.get("error")
            if error is None:
                outcomes.append(Written(doc_id, self._rev(entry.get("rev"), where + ".rev")))
            elif error == "conflict":
                outcomes.append(Conflict(doc_id))
            elif isinstance(error, str):
                reason = entry.get("reason")
                said = "".join(c for c in reason if c.isprintable())[:120] if isinstance(reason, str) else ""
                outcomes.append(Rejected(doc_id, error[:60], said))
            else:
                raise self._shape(where + ".error")
        return outcomes

    async def bulk_get(self, wanted: Sequence[tuple[str, str | None]], *, revs: bool = False) -> list[Doc]:
        """`POST /{db}/_bulk_get`: documents by (id, revision), the winner where the revision is None;
        `revs` adds each one's history (`_revisions`). What the server lacks is left out."""
        asked = {doc_id for doc_id, _ in _bounded(wanted)}
        body = {"docs": [{"id": doc_id} if rev is None else {"id": doc_id, "rev": _checked_rev(rev)}
                         for doc_id, rev in wanted]}
        answer = await self._send("POST", self._db + "/_bulk_get", query={"revs": "true"} if revs else None,
                                  body=body, max_bytes=MAX_BATCH_BYTES)
        if answer.status != 200:
            raise await self._refused(answer, "POST /{db}/_bulk_get")
        results = self._object(self._parse(answer), "_bulk_get").get("results")
        docs = []
        for k, result in enumerate(self._list(results, "_bulk_get results")):
            where = f"_bulk_get results[{k}]"
            result = self._object(result, where)
            doc_id = self._id(result.get("id"), where + ".id")
            if doc_id not in asked:
                raise self._shape(where + ".id")
            for n, entry in enumerate(self._list(result.get("docs"), where + ".docs")):
                entry = self._object(entry, f"{where}.docs[{n}]")
                if "ok" in entry:  # else "error" (missing), or {} from PouchDB Server
                    docs.append(self._doc(entry["ok"], f"{where}.docs[{n}].ok", doc_id))
        return docs

    async def all_docs(self, keys: Sequence[str]) -> dict[str, Doc | None]:
        """`POST /{db}/_all_docs?include_docs=true&conflicts=true`: the winning revision of each id (with
        `_conflicts`), None for an id with no document or a deleted one."""
        asked = [self._id(key, "keys") for key in _bounded(keys)]
        answer = await self._send("POST", self._db + "/_all_docs", query={"include_docs": "true", "conflicts": "true"},
                                  body={"keys": asked}, max_bytes=MAX_BATCH_BYTES)
        if answer.status != 200:
            raise await self._refused(answer, "POST /{db}/_all_docs")
        rows = self._list(self._object(self._parse(answer), "_all_docs").get("rows"), "_all_docs rows")
        if len(rows) > len(asked):
            raise self._shape("_all_docs rows")
        found: dict[str, Doc | None] = {key: None for key in asked}
        for k, row in enumerate(rows):
            where = f"_all_docs rows[{k}]"
            row = self._object(row, where)
            key = row.get("key")
            if not isinstance(key, str) or key not in found:
                raise self._shape(where + ".key")
            doc = row.get("doc")
            if "error" not in row and doc is not None:
                found[key] = self._doc(doc, where + ".doc", key)
        return found

    async def revs_diff(self, revs: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
        """`POST /{db}/_revs_diff`: of these revisions, which the server lacks (id -> revisions); ids it
        has every revision of are left out."""
        asked = {self._id(doc_id, "_revs_diff"): {_checked_rev(r) for r in doc_revs}
                 for doc_id, doc_revs in _bounded_map(revs).items()}
        answer = await self._send("POST", self._db + "/_revs_diff", body={k: sorted(v) for k, v in asked.items()},
                                  max_bytes=MAX_BATCH_BYTES)
        if answer.status != 200:
            raise await self._refused(answer, "POST /{db}/_revs_diff")
        missing: dict[str, tuple[str, ...]] = {}
        for doc_id, entry in self._object(self._parse(answer), "_revs_diff").items():
            if doc_id not in asked:  # an id the server made up: not named, it could say anything
                raise self._shape("_revs_diff")
            where = "_revs_diff " + doc_id[:60]
            lacks = self._list(self._object(entry, where).get("missing"), where + ".missing")
            if not all(isinstance(rev, str) and rev in asked[doc_id] for rev in lacks):
                raise self._shape(where + ".missing")
            if lacks:
                missing[doc_id] = tuple(lacks)
        return missing

    # --- the changes feed ----------------------------------------------------------------------------

    async def changes(self, since: Seq = 0, *, limit: int = 100, include_docs: bool = False, conflicts: bool = False,
                      all_revs: bool = True, longpoll: bool = False, wait: float = LONGPOLL_WAIT) -> Changes:
        """`GET /{db}/_changes`: what changed after `since` (a `last_seq` this feed gave; 0 from the start;
        `"now"` from here on), at most `limit` documents.

        `all_revs` lists every leaf revision (`style=all_docs`), so a conflict shows; `include_docs` adds
        each winning revision (`conflicts` its `_conflicts` too). With `longpoll` the server holds the
        request until something changes or `wait` seconds pass; the client waits `LONGPOLL_GRACE` more,
        and then calls the feed quiet (`Changes.quiet`). No heartbeat is asked for.
        """
        if not _is_seq(since) or not 1 <= limit <= MAX_BATCH:
            raise ValueError("since is a sequence the feed gave (or 0, or 'now'); limit is 1 to MAX_BATCH")
        query: dict[str, str] = {"since": str(since), "limit": str(limit)}
        if all_revs:
            query["style"] = "all_docs"
        if include_docs:
            query["include_docs"] = "true"
            if conflicts:
                query["conflicts"] = "true"
        deadline = self.timeout
        if longpoll:
            query.update(feed="longpoll", timeout=str(int(wait * 1000)))
            deadline = wait + LONGPOLL_GRACE
        try:
            answer = await self._send("GET", self._db + "/_changes", query=query, max_bytes=MAX_BATCH_BYTES,
                                      timeout=deadline)
        except SyncError as exc:
            if longpoll and _is_quiet(exc):
                return Changes((), since, quiet=True)
            raise
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}/_changes")
        return self._changes(self._parse(answer), limit)

    # --- a Test button -------------------------------------------------------------------------------

    async def check(self) -> Check:
        """Try the settings the way a sync will use them: the server, the user, the database (and, in a
        browser, CORS). Never writes: a missing database is reported with whether it may be created."""
        cors = True if in_browser() else None  # once the server answered this page at all
        try:
            info = await self.server_info()
        except SyncError as exc:
            if exc.reason == SyncSays.CORS_REFUSED:
                return Check(True, cors=False, problem=exc)
            if exc.reason in (SyncSays.WRONG_CREDENTIALS, SyncSays.NEEDS_LOGIN):  # a server that lets no one in
                return Check(True, signed_in=False, cors=cors, problem=exc)
            answered = exc.reason not in (SyncSays.UNREACHABLE, SyncSays.TOO_SLOW, SyncSays.CUT_OFF)
            return Check(answered, cors=cors if answered else None, problem=exc)
        signed_in: bool | None = None
        may_create = False
        try:
            session = await self.session()
            may_create = session.is_admin
            if self.address.user is not None:
                signed_in = session.name == self.address.user
                if not signed_in:  # the server answered as if no one had signed in
                    problem = SyncError(SyncSays.WRONG_CREDENTIALS, server=self.address.server,
                                        detail="_session names another user, or none")
                    return Check(True, signed_in=False, cors=cors, version=info.version, problem=problem)
            await self.database_info()
        except SyncError as exc:
            if exc.reason in (SyncSays.WRONG_CREDENTIALS, SyncSays.NEEDS_LOGIN):
                signed_in = False
            database = False if exc.reason == SyncSays.NO_DATABASE else None
            return Check(True, signed_in=signed_in, database=database, may_create=may_create, cors=cors,
                         version=info.version, problem=exc)
        return Check(True, signed_in=signed_in, database=True, may_create=may_create, cors=cors, version=info.version)

    # --- requests ------------------------------------------------------------------------------------

    async def _send(self, method: str, path: str, *, query: Mapping[str, str] | None = None, body: Any = None,
                    max_bytes: int = MAX_SMALL_BYTES, timeout: float | None = None) -> Answer:
        url = self.address.server + path + ("?" + urlencode(query) if query else "")
        headers = {"accept": "application/json"}
        if self._authorization:
            headers["authorization"] = self._authorization
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
            headers["content-type"] = "application/json"
        try:
            return await self.transport.request(method, url, headers=headers, body=data,
                                                timeout=self.timeout if timeout is None else timeout,
                                                max_bytes=max_bytes)
        except SyncError as exc:
            exc.detail = self._scrub(exc.detail)
            raise

    def _scrub(self, text: str) -> str:
        """`text` with the password (and the header that carries it) taken out: a hostile server may echo
        them in what it says, and what it says may end in a log."""
        for secret in (self._authorization.removeprefix("Basic "), self._secret):
            if len(secret) >= 1:
                text = text.replace(secret, "***")
        return text

    async def _refused(self, answer: Answer, request: str, *, database: bool = True) -> SyncError:
        """The error an answer other than the expected one means (`request` names it for the log)."""
        server, status = self.address.server, answer.status
        detail = self._scrub(f"{request}: {status} {_couch_words(answer)}")
        if 300 <= status < 400:
            return SyncError(SyncSays.REDIRECTED, server=server, detail=detail)
        if status in (401, 403) and not self._authorization:
            return SyncError(SyncSays.NEEDS_LOGIN, server=server, detail=detail)
        if status == 401:
            if await self._signed_in():
                return SyncError(SyncSays.FORBIDDEN, user=self.address.user, database=self.address.database,
                                 detail=detail)
            return SyncError(SyncSays.WRONG_CREDENTIALS, server=server, detail=detail)
        if status == 403:
            return SyncError(SyncSays.FORBIDDEN, user=self.address.user, database=self.address.database,
                             detail=detail)
        if status == 404:
            if database:
                return SyncError(SyncSays.NO_DATABASE, server=server, database=self.address.database, detail=detail)
            return SyncError(SyncSays.WRONG_SHAPE, server=server, couchdb="CouchDB", where=f"{request}: 404",
                             detail=detail)
        if 500 <= status <= 599:
            return SyncError(SyncSays.SERVER_ERROR, server=server, status=status, detail=detail)
        return SyncError(SyncSays.REFUSED, server=server, status=status, detail=detail)

    async def _signed_in(self) -> bool:
        """Does the server take this user name and password (`GET /_session`)? Asked once, after a 401."""
        try:
            answer = await self._send("GET", "/_session")
            return answer.status == 200 and self._session(self._parse(answer)).name == self.address.user
        except SyncError:
            return False

    async def _written(self, answer: Answer, doc_id: str, request: str) -> Written | Conflict:
        if answer.status == 409:
            return Conflict(doc_id)
        if answer.status not in (200, 201, 202):
            raise await self._refused(answer, request)
        said = self._object(self._parse(answer), request)
        if said.get("id") != doc_id:
            raise self._shape(request + " id")
        return Written(doc_id, self._rev(said.get("rev"), request + " rev"))

    def _doc_path(self, doc_id: str) -> str:
        if not isinstance(doc_id, str) or not 0 < len(doc_id) <= MAX_ID:
            raise ValueError("a document id is a string of 1 to MAX_ID characters")
        for prefix in ("_local/", "_design/"):  # the slash after these is part of the path, not of a name
            if doc_id.startswith(prefix) and len(doc_id) > len(prefix):
                return f"{self._db}/{prefix}{quote(doc_id[len(prefix):], safe='')}"
        return f"{self._db}/{quote(doc_id, safe='')}"

    def _missing_document(self, answer: Answer) -> bool:
        """Is a 404 about the document (CouchDB's reason `missing` or `deleted`), not the database?"""
        try:
            said = json.loads(answer.body) if len(answer.body) <= 4096 else None
        except (ValueError, RecursionError):
            return False
        return isinstance(said, dict) and said.get("reason") in ("missing", "deleted")

    # --- reading answers -----------------------------------------------------------------------------

    def _parse(self, answer: Answer) -> Any:
        """The answer's JSON (its size was bounded by the transport before this)."""
        try:
            return json.loads(answer.body)
        except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, nested too deep, a 5,000-digit number
            raise SyncError(SyncSays.NOT_JSON, server=self.address.server,
                            detail=self._scrub(f"{type(exc).__name__}: {exc}"[:200])) from None

    def _shape(self, where: str) -> SyncError:
        return SyncError(SyncSays.WRONG_SHAPE, server=self.address.server, couchdb="CouchDB", where=where,
                         detail=f"unexpected shape at {where}")

    def _object(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self._shape(where)
        return value

    def _list(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self._shape(where)
        return value

    def _id(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not 0 < len(value) <= MAX_ID:
            raise self._shape(where)
        return value

    def _rev(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not REV.fullmatch(value):
            raise self._shape(where)
        return value

    def _count(self, value: Any, where: str) -> int:
        if not _is_count(value):
            raise self._shape(where)
        return value

    def _seq(self, value: Any, where: str) -> Seq:
        if not _is_seq(value):
            raise self._shape(where)
        return value

    def _doc(self, value: Any, where: str, doc_id: str | None = None) -> Doc:
        """A document whose `_id`, `_rev`, `_deleted`, `_conflicts` and `_revisions` are what CouchDB writes."""
        doc = self._object(value, where)
        if self._id(doc.get("_id"), where + "._id") != (doc_id if doc_id is not None else doc["_id"]):
            raise self._shape(where + "._id")
        self._rev(doc.get("_rev"), where + "._rev")
        if not isinstance(doc.get("_deleted", False), bool):
            raise self._shape(where + "._deleted")
        for k, rev in enumerate(self._list(doc.get("_conflicts", []), where + "._conflicts")):
            self._rev(rev, f"{where}._conflicts[{k}]")
        if "_revisions" in doc:
            history = self._object(doc["_revisions"], where + "._revisions")
            start, ids = history.get("start"), self._list(history.get("ids"), where + "._revisions.ids")
            if not _is_count(start) or not all(isinstance(h, str) and HASH.fullmatch(h) for h in ids):
                raise self._shape(where + "._revisions")
        return doc

    def _session(self, value: Any) -> Session:
        context = self._object(self._object(value, "_session").get("userCtx"), "_session userCtx")
        name, roles = context.get("name"), self._list(context.get("roles", []), "_session roles")
        if not (name is None or isinstance(name, str)) or not all(isinstance(r, str) for r in roles):
            raise self._shape("_session userCtx")
        return Session(name, tuple(roles))

    def _names(self, value: Any, where: str) -> Names:
        if value is None:
            return Names()
        part = self._object(value, where)
        names, roles = part.get("names", []), part.get("roles", [])
        if not all(isinstance(x, list) and all(isinstance(s, str) for s in x) for x in (names, roles)):
            raise self._shape(where)
        return Names(tuple(names), tuple(roles))

    def _changes(self, value: Any, limit: int) -> Changes:
        feed = self._object(value, "_changes")
        results = self._list(feed.get("results"), "_changes results")
        if len(results) > limit:
            raise self._shape("_changes results")
        changes = []
        for k, row in enumerate(results):
            where = f"_changes results[{k}]"
            row = self._object(row, where)
            doc_id = self._id(row.get("id"), where + ".id")
            revs = self._list(row.get("changes"), where + ".changes")
            if not revs:
                raise self._shape(where + ".changes")
            leafs = tuple(self._rev(self._object(r, where + ".changes").get("rev"), where + ".changes") for r in revs)
            deleted = row.get("deleted", False)
            if not isinstance(deleted, bool):
                raise self._shape(where + ".deleted")
            doc = row.get("doc")
            if doc is not None:
                doc = self._doc(doc, where + ".doc", doc_id)
            changes.append(Change(doc_id, leafs, self._seq(row.get("seq"), where + ".seq"), deleted, doc))
        pending = feed.get("pending")
        return Changes(tuple(changes), self._seq(feed.get("last_seq"), "_changes last_seq"),
                       None if pending is None else self._count(pending, "_changes pending"))


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53


def _is_seq(value: Any) -> bool:
    return _is_count(value) or isinstance(value, str) and SEQ.fullmatch(value) is not None


def _is_quiet(exc: SyncError) -> bool:
    """Did a longpoll's deadline pass with the answer begun and no change in it? PouchDB Server writes
    `{"results":[` at once and newlines as it waits; Apache CouchDB answers at its own `timeout`."""
    got = exc.received
    if exc.reason != SyncSays.TOO_SLOW or got is None or got.status != 200:
        return False
    return b'{"results":['.startswith(re.sub(rb"\s+", b"", got.body))


def _checked_rev(rev: str) -> str:
    if not isinstance(rev, str) or not REV.fullmatch(rev):
        raise ValueError(f"not a revision: {rev!r}")
    return rev


def _bounded(items: Sequence[Any]) -> Sequence[Any]:
    if len(items) > MAX_BATCH:
        raise ValueError(f"at most {MAX_BATCH} items in one request, not {len(items)}")
    return items


def _bounded_map(items: Mapping[str, Any]) -> Mapping[str, Any]:
    if len(items) > MAX_BATCH:
        raise ValueError(f"at most {MAX_BATCH} documents in one request, not {len(items)}")
    return items


def _couch_words(answer: Answer) -> str:
    """CouchDB's `error` and `reason` in a refusal, short, for a log."""
    try:
        said = json.loads(answer.body) if len(answer.body) <= 4096 else None
    except (ValueError, RecursionError):
        return ""
    if not isinstance(said, dict):
        return ""
    return f"{str(said.get('error', ''))[:60]} {str(said.get('reason', ''))[:120]}".strip()
