"""The group's shared database as `service.sync.Remote`: a CouchDB database through `CouchClient`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .couch import MAX_BATCH, Conflict, CouchClient, Rejected, Written
from .errors import SyncError, SyncSays

DESIGN = "_design/"
"""Design documents (views, validation) are the server owner's: never read as changes."""
MARK = "_local/xeri-group"
"""The document holding the mark of the database's history (`Remote.mark`): a local document, so it is never
replicated (a database restored by replication from another has none), never in `_changes`, never counted."""
MAX_MARK = 64


class CouchRemote:
    """One group's database: documents sent with `_bulk_docs`, read back from `_changes`."""

    def __init__(self, client: CouchClient):
        self.client = client

    async def mark(self) -> str | None:
        doc = await self.client.get(MARK)
        value = doc.get("mark") if doc is not None else None
        return value if isinstance(value, str) and 0 < len(value) <= MAX_MARK else None

    async def claim(self, mark: str) -> str:
        if isinstance(await self.client.put({"_id": MARK, "mark": mark}), Written):
            return mark
        there = await self.mark()   # another device's came first
        if there is None:           # a mark document that is no mark: not a database this app wrote
            raise SyncError(SyncSays.WRONG_SHAPE, server=self.client.address.server, couchdb="CouchDB",
                            where=MARK)
        return there

    async def position(self) -> str:
        return str((await self.client.database_info()).update_seq)

    async def send(self, docs: Sequence[Mapping[str, Any]]) -> tuple[set[str], dict[str, str]]:
        """Store the documents. Each is written once and never changed, so one already there (a conflict: its
        id is taken) was sent before, and counts as stored; one refused (a server's validation, a member who
        may only read) comes back with the server's word for why."""
        stored: set[str] = set()
        refused: dict[str, str] = {}
        for start in range(0, len(docs), MAX_BATCH):
            outcomes = await self.client.bulk_docs([dict(d) for d in docs[start:start + MAX_BATCH]])
            stored |= {o.id for o in outcomes if isinstance(o, Written | Conflict)}
            refused |= {o.id: f"{o.error}: {o.reason}" if o.reason else o.error
                        for o in outcomes if isinstance(o, Rejected)}
        return stored, refused

    async def changes(self, since: str | None, limit: int) -> tuple[list[Any], str, bool]:
        batch = await self.client.changes(since if since is not None else 0, limit=min(limit, MAX_BATCH),
                                          include_docs=True)
        docs = [c.doc for c in batch.results
                if c.doc is not None and not c.deleted and not c.id.startswith(DESIGN)]
        more = bool(batch.pending) if batch.pending is not None else len(batch.results) >= limit
        return docs, str(batch.last_seq), more

    async def wait(self, since: str, seconds: float) -> bool:
        """Hold a longpoll until something is written after `since`, or `seconds` pass."""
        batch = await self.client.changes(since, limit=1, longpoll=True, wait=seconds)
        return bool(batch.results)

    async def aclose(self) -> None:
        await self.client.aclose()
