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
from typing import Any, Self
from urllib.parse import quote, urlencode

from .address import CouchAddress
from .answers import (Change, Changes, Check, Conflict, DatabaseInfo, Doc, Rejected, Seq, ServerInfo, Session,
                      Written)
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
"""The largest answer to a batch request (`_changes`, `_bulk_docs`)."""
MAX_BATCH = 1000
"""The most documents, ids or changes one batch request asks for."""
MAX_ID = 1024
"""The longest document id read from a server (the app's ids are 32 characters)."""
MAX_SEQ = 4096
"""The longest update sequence read (Apache CouchDB's are opaque strings of a few hundred characters)."""
REV = re.compile(r"[0-9]{1,10}-[0-9a-f]{1,128}")
"""A revision: its generation, a dash and a hexadecimal hash (`3-917fa23…`; a `_local` document's are `0-1`)."""
SEQ = re.compile(rf"[\x21-\x7e]{{1,{MAX_SEQ}}}")
"""An update sequence written as a string: printable ASCII, no spaces."""

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

    # --- documents -----------------------------------------------------------------------------------

    async def get(self, doc_id: str) -> Doc | None:
        """`GET /{db}/{id}`: the winning revision, None if there is no such document or it was deleted. A
        `_local/…` id reads a local document (never replicated: the group's mark)."""
        answer = await self._send("GET", self._doc_path(doc_id), max_bytes=MAX_DOCUMENT_BYTES)
        if answer.status == 404 and self._missing_document(answer):
            return None
        if answer.status != 200:
            raise await self._refused(answer, "GET /{db}/{id}")
        return self._doc(self._parse(answer), "GET /{db}/{id}", doc_id)

    async def put(self, doc: Doc) -> Written | Conflict:
        """`PUT /{db}/{id}`: store `doc` (its `_id`; its `_rev` when it changes a stored document).
        `Conflict` if the document is at another revision than `_rev` (or exists and no `_rev` was given)."""
        doc_id = doc.get("_id")
        if not isinstance(doc_id, str):
            raise TypeError("a document to put needs an _id")
        answer = await self._send("PUT", self._doc_path(doc_id), body=doc)
        return await self._written(answer, doc_id, "PUT /{db}/{id}")

    async def bulk_docs(self, docs: Sequence[Doc]) -> list[Written | Conflict | Rejected]:
        """`POST /{db}/_bulk_docs`: many writes in one request, each judged on its own."""
        for doc in _bounded(docs):
            if not isinstance(doc.get("_id"), str):
                raise TypeError("every document of a bulk write needs an _id")
        answer = await self._send("POST", self._db + "/_bulk_docs", body={"docs": list(docs)},
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

    # --- the changes feed ----------------------------------------------------------------------------

    async def changes(self, since: Seq = 0, *, limit: int = 100, include_docs: bool = False, longpoll: bool = False,
                      wait: float = LONGPOLL_WAIT) -> Changes:
        """`GET /{db}/_changes`: what changed after `since` (a `last_seq` this feed gave; 0 from the start;
        `"now"` from here on), at most `limit` documents.

        Each change names its winning revision; `include_docs` adds the document. With `longpoll` the server holds the
        request until something changes or `wait` seconds pass; the client waits `LONGPOLL_GRACE` more,
        and then calls the feed quiet (`Changes.quiet`). No heartbeat is asked for.
        """
        if not _is_seq(since) or not 1 <= limit <= MAX_BATCH:
            raise ValueError("since is a sequence the feed gave (or 0, or 'now'); limit is 1 to MAX_BATCH")
        query: dict[str, str] = {"since": str(since), "limit": str(limit)}
        if include_docs:
            query["include_docs"] = "true"
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
        """A document whose `_id`, `_rev` and `_deleted` are what CouchDB writes."""
        doc = self._object(value, where)
        if self._id(doc.get("_id"), where + "._id") != (doc_id if doc_id is not None else doc["_id"]):
            raise self._shape(where + "._id")
        self._rev(doc.get("_rev"), where + "._rev")
        if not isinstance(doc.get("_deleted", False), bool):
            raise self._shape(where + "._deleted")
        return doc

    def _session(self, value: Any) -> Session:
        context = self._object(self._object(value, "_session").get("userCtx"), "_session userCtx")
        name, roles = context.get("name"), self._list(context.get("roles", []), "_session roles")
        if not (name is None or isinstance(name, str)) or not all(isinstance(r, str) for r in roles):
            raise self._shape("_session userCtx")
        return Session(name, tuple(roles))

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


def _bounded(items: Sequence[Any]) -> Sequence[Any]:
    if len(items) > MAX_BATCH:
        raise ValueError(f"at most {MAX_BATCH} items in one request, not {len(items)}")
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
