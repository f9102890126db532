"""The group this device syncs with, the use case: join it (forgetting the one before), try it, show it,
leave it. Its address is kept by a `GroupPort` (the data folder's `sync/group.json`); a `Connector` knows how
to reach a group's database (CouchDB: `companion.sync`), and what was known of the group is forgotten through
`Sync.forget_group`, under the round's lock."""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.messages import SaidError
from .sync import Sync


class GroupPort(Protocol):
    """Where this device keeps its group's address, user and password (never in an export)."""

    def address(self) -> str | None: ...

    def keep(self, address: str) -> None: ...

    def forget(self) -> None: ...


class Connector(Protocol):
    """How the service reaches a group's database (CouchDB: `companion.sync`), without knowing HTTP."""

    def parse(self, text: str) -> Any:
        """The group's address read from a URL; a `SaidError` saying what is wrong with it."""

    async def check(self, address: Any, create: bool = False) -> Any:
        """Try the address as a round will use it (and create the database when `create` and allowed): a
        result with `ok`, `problem` (a `SaidError`, or None), `database` and `may_create`."""

    def shown(self, address: Any) -> str:
        """The address as a screen shows it: server, database and user, never the password."""

    def link(self, address: Any) -> str:
        """The address with its user and password: what a join link carries to another phone."""


class Group:
    """The group this device syncs with: join it, try it, show it, leave it."""

    def __init__(self, kept: GroupPort, connector: Connector, sync: Sync | None = None,
                 changed: Any = None):
        self.kept = kept
        self.connector = connector
        self.sync = sync
        """What this device knows of the group, forgotten when it joins another or leaves."""
        self._changed = changed
        """Called when the group changed (the runner starts again with it)."""

    def address(self) -> Any | None:
        """The group's address, when this device is in one (and it can still be read)."""
        text = self.kept.address()
        if text is None:
            return None
        try:
            return self.connector.parse(text)
        except SaidError:
            return None

    def shown(self) -> str | None:
        """Server, database and user of the group, for a screen; None when in no group."""
        address = self.address()
        return self.connector.shown(address) if address is not None else None

    def link(self) -> str | None:
        """The join link (with the password): only for the join QR code on this device's own screen."""
        address = self.address()
        return self.connector.link(address) if address is not None else None

    async def test(self, text: str, create: bool = False) -> Any:
        """Try an address as typed (`SaidError` when it is not one); the connector's result."""
        return await self.connector.check(self.connector.parse(text), create)

    def join(self, text: str) -> None:
        """Keep the group's address (`SaidError` when it is not one): rounds start with it. Joining another
        group forgets what was known of the first (its checkpoint and documents)."""
        address = self.connector.parse(text)
        link = self.connector.link(address)
        before = self.kept.address()
        if before is not None and before != link and self.sync is not None:
            self.sync.forget_group()
        self.kept.keep(link)
        if self._changed is not None:
            self._changed()

    def leave(self) -> None:
        """Forget the group, its password and what was known of it; the matches stay on this device."""
        self.kept.forget()
        if self.sync is not None:
            self.sync.forget_group()
        if self._changed is not None:
            self._changed()
