"""A group's database on a CouchDB server, read from one address: `https://user:password@host[:port]/database`."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

from .errors import SyncError, SyncSays

FORM = "https://user:password@host/database"
"""The address as a person is told to write it."""
DATABASE_NAME = re.compile(r"[a-z][a-z0-9_$()+/-]*")
"""CouchDB's rule for a database name (the whole name must match)."""
MAX_DATABASE_NAME = 238
"""CouchDB's longest database name (its files carry the name plus a suffix)."""
MAX_ADDRESS = 2048
"""The longest address read: a host, a port, a name, a user and a password fit in far less."""


def is_local(host: str) -> bool:
    """Is `host` this device (localhost or a loopback address)? Only then may the address be plain HTTP:
    nothing but this device carries what is sent."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class CouchAddress:
    """Where a group's matches sync: a server, one database on it, and who signs in.

    The password is never part of `repr()` or `str()`, of a message or of a request's URL (it travels in
    the `Authorization` header only); `with_credentials()` is the one way to get it back into an address,
    for the device's own settings or a join link.
    """

    server: str
    """The server's origin, `https://host[:port]`, without a user, a path or a trailing slash."""
    database: str
    """The database's name, as CouchDB writes it (`club`, `xeri/thursdays`)."""
    user: str | None = None
    """Who signs in; None: no one (a server that lets anyone in)."""
    password: str | None = field(default=None, repr=False)
    """The user's password; None when no one signs in."""

    def __post_init__(self) -> None:
        parts = urlsplit(self.server)
        if (parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.username
                or any(ch.isspace() or ch in "\\/?#@%" for ch in parts.hostname)):
            raise SyncError(SyncSays.NOT_AN_ADDRESS, form=FORM)
        if parts.scheme == "http" and not is_local(parts.hostname):
            raise SyncError(SyncSays.NOT_HTTPS, server=self.server, https="HTTPS", http="HTTP")
        if len(self.database) > MAX_DATABASE_NAME or not DATABASE_NAME.fullmatch(self.database):
            raise SyncError(SyncSays.BAD_DATABASE_NAME, name=self.database[:60], signs="_ $ ( ) + - /")
        if not self.user and (self.user is not None or self.password is not None):  # `https://:secret@host/db`
            raise SyncError(SyncSays.NOT_AN_ADDRESS, form=FORM)
        if self.user is not None and not self.password:
            raise SyncError(SyncSays.NO_PASSWORD, user=self.user)

    @classmethod
    def from_url(cls, text: str) -> CouchAddress:
        """Read `https://user:password@host[:port]/database`: the user and the password percent-decoded
        (`%40` is `@`), the database name too (`xeri%2Fthursdays` is `xeri/thursdays`).

        The whole path is the database: a server behind a path prefix is not supported. An `http://`
        address is refused unless it is this device.
        """
        text = text.strip()
        try:
            parts = urlsplit(text) if len(text) <= MAX_ADDRESS else None
            port = parts.port if parts else None
        except ValueError:  # a port that is not a number, a broken IPv6 address
            parts = None
        if (parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname
                or parts.query or parts.fragment):
            raise SyncError(SyncSays.NOT_AN_ADDRESS, form=FORM)
        host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
        server = f"{parts.scheme.lower()}://{host}" + (f":{port}" if port is not None else "")
        database = unquote(parts.path.strip("/"))
        if not database:
            raise SyncError(SyncSays.NO_DATABASE_NAMED, form=FORM)
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else None
        return cls(server, database, user, password)

    @property
    def url(self) -> str:
        """The database's address without credentials: what a request goes to and a message may show."""
        return f"{self.server}/{quote(self.database, safe='')}"

    def with_credentials(self) -> str:
        """The address with the user and the password in it, as `from_url` reads it: for the device's
        own settings and a join link, never for a message or a log."""
        if self.user is None:
            return self.url
        scheme, rest = self.server.split("://", 1)
        who = quote(self.user, safe="") + ":" + quote(self.password or "", safe="")
        return f"{scheme}://{who}@{rest}/{quote(self.database, safe='')}"

    def __str__(self) -> str:
        return self.url if self.user is None else f"{self.user} @ {self.url}"

    def __repr__(self) -> str:
        secret = "None" if self.password is None else "'***'"
        return (f"CouchAddress(server={self.server!r}, database={self.database!r}, user={self.user!r}, "
                f"password={secret})")
