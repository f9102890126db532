"""A CouchDB database in memory, as `service.sync.Remote` sees it, for the service's sync tests (the real
server's are in tests/sync/)."""

from __future__ import annotations


class SharedDatabase:
    """A CouchDB database as `Remote` sees it: documents by id, a sequence of changes, a local document (the
    history's mark); `down` cuts it off, `wipe()` makes it again, empty, as a server reinstalled would."""

    def __init__(self) -> None:
        self.docs: dict[str, dict] = {}
        self.log: list[str] = []
        self.down = False
        self.fail_after_send = False
        self.marked: str | None = None

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("the server is down")

    async def mark(self):
        self._check()
        return self.marked

    async def claim(self, mark):
        self._check()
        self.marked = self.marked or mark
        return self.marked

    async def position(self):
        self._check()
        return str(len(self.log))

    async def send(self, docs):
        self._check()
        stored = set()
        for doc in docs:
            if doc["_id"] not in self.docs:
                self.docs[doc["_id"]] = dict(doc)
                self.log.append(doc["_id"])
            stored.add(doc["_id"])
        if self.fail_after_send:
            self.fail_after_send = False
            raise ConnectionError("the answer was lost")
        return stored, {}

    async def changes(self, since, limit):
        self._check()
        start = int(since or 0)
        ids = self.log[start:start + limit]
        return [self.docs[i] for i in ids], str(start + len(ids)), start + len(ids) < len(self.log)

    async def wait(self, since, seconds):
        return int(since or 0) < len(self.log)

    def wipe(self) -> None:
        self.docs.clear()
        self.log.clear()
        self.marked = None
