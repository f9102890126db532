"""Who may do what at the table: the access level of a browser session, and the table code that grants it."""

from __future__ import annotations

import contextvars
import enum
import hashlib
import hmac
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


class Access(enum.StrEnum):
    """What one browser session may do."""

    OWNER = "owner"
    """The device that runs the app (a loopback client), or anyone when the app serves loopback only."""
    PLAYER = "player"
    """A phone that gave the table code: it keeps score like the owner."""
    WATCHER = "watcher"
    """A phone without the code: it sees the table and changes nothing."""

    @property
    def can_write(self) -> bool:
        """True for a session that may tap, save, delete, import and change settings."""
        return self is not Access.WATCHER


CURRENT: contextvars.ContextVar[Access] = contextvars.ContextVar("xeri_access", default=Access.OWNER)
"""The access level of the WebSocket being served, set by the server around the Flet app for each
connection. Flet runs `before_main`, `main` and the event handlers in tasks made inside that connection's
task, which copy the context: that is how the level reaches the session. Outside a server (the desktop
window, tests) it is `OWNER`."""

WANTED_LANGUAGES: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("xeri_languages", default=())
"""The languages the browser of the WebSocket being served asks for (its Accept-Language), best first: the
first run shows the app in the first of them it speaks."""


def wanted_languages(header: str | None) -> tuple[str, ...]:
    """The language codes of an Accept-Language header, best first: `ko-KR,ko;q=0.9,en;q=0.8` → ko, en."""
    found: list[tuple[float, int, str]] = []
    for n, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        code = tag.split("-")[0].strip().lower()
        if not (code.isascii() and code.isalpha() and 2 <= len(code) <= 3):  # ISO 639: "x-…", "*" are not
            continue
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if weight > 0:  # q=0: "not this one"
            found.append((-weight, n, code))
    out: list[str] = []
    for _, _, code in sorted(found):
        if code not in out:
            out.append(code)
    return tuple(out)


CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""No 0/O or 1/I/L: a code is read aloud and typed on a phone."""
CODE_LENGTH = 6
"""31⁶ ≈ 890 million codes; few wrong guesses are allowed (see `Throttle`)."""
MAX_FAILURES = 5
"""Wrong codes one source (an IPv4 address, an IPv6 /64) may give in `WINDOW` seconds."""
MAX_FAILURES_OVERALL = 20
"""Wrong codes all sources together may give in `WINDOW` seconds before every source must wait: a person who
mistypes the code tries two or three times; two hundred addresses guessing at five each do not get in."""
WINDOW = 60.0
"""Seconds over which wrong codes are counted, and the first wait when too many came from all sources."""
LONGEST_WAIT = 3600.0
"""The longest wait: each time the overall limit is reached again soon after a wait, the next is twice as long."""


def new_code() -> str:
    """A fresh random table code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise(text: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch not in " -_")[:32]


@dataclass(frozen=True)
class TableInfo:
    """How another phone joins this table, for the owner's screen: the address, the code, and a QR code
    of the address with the code in it."""

    url: str
    """The address to open on a phone on the same network (`http://192.168.1.20:8550/`)."""
    code: str
    """The table code."""
    join_url: str
    """The address with the code (`…/?code=K7P2QX`): opening it once lets that browser keep score."""
    qr_svg: str
    """The QR code of `join_url` as SVG text (an `ft.Image(src=…)` draws it, on any address)."""
    qr_png: str
    """The same QR code as a base64 PNG: `ft.Image(src=…)` shows a base64 string on a plain-HTTP LAN
    address too, where raw bytes show nothing (Chromium: not a secure context)."""


class Throttle:
    """Counts wrong codes and says when to stop listening to them: per source (`MAX_FAILURES` in `WINDOW`
    seconds), and from all sources together (`MAX_FAILURES_OVERALL`), after which every source waits `WINDOW`
    seconds, then twice as long each time the limit is reached again soon after, up to `LONGEST_WAIT`.

    A source is what `hosts.source_of` makes of an address: an IPv6 device has a whole /64 to pick addresses
    from. With two hundred addresses an attacker still gets `MAX_FAILURES_OVERALL` guesses, then fewer each
    hour; a person who mistypes the code a few times does not notice it.
    """

    def __init__(self, per_source: int = MAX_FAILURES, overall: int = MAX_FAILURES_OVERALL, window: float = WINDOW,
                 longest: float = LONGEST_WAIT, clock: Callable[[], float] = time.monotonic):
        self.per_source, self.overall, self.window, self.longest = per_source, overall, window, longest
        self.clock = clock
        """Where the time is read (a test gives a clock of its own)."""
        self._sources: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._closed_until = -math.inf
        self._wait = window
        """The next overall wait."""

    def _recent(self, tries: deque[float], now: float) -> deque[float]:
        while tries and now - tries[0] > self.window:
            tries.popleft()
        return tries

    def throttled(self, source: str) -> bool:
        """True while no code is heard from `source`: it, or all sources together, gave too many wrong ones."""
        now = self.clock()
        if now < self._closed_until:
            return True
        tries = self._sources.get(source)
        if tries is None:
            return False
        if not self._recent(tries, now):
            del self._sources[source]  # the table of sources does not grow with every phone ever seen
            return False
        return len(tries) >= self.per_source

    def failed(self, source: str) -> None:
        """Count a wrong code from `source`."""
        now = self.clock()
        self._sources.setdefault(source, deque()).append(now)
        if len(self._sources) > 2 * self.overall:
            for quiet in [s for s, tries in self._sources.items() if not self._recent(tries, now)]:
                del self._sources[quiet]
        self._all.append(now)
        if len(self._recent(self._all, now)) >= self.overall:
            if now - self._closed_until > self._wait:
                self._wait = self.window  # quiet for as long as the last wait would have been: start again
            self._closed_until = now + self._wait
            self._wait = min(2 * self._wait, self.longest)
            self._all.clear()


class TableCode:
    """The table code of one server and the cookie that proves a browser gave it.

    Opening `…?code=XXXXXX` once sets an HttpOnly cookie holding a keyed hash of the code (never the code
    itself); the WebSocket carries it back, and `access_for` reads it. The key is new each time the app
    starts, so a restart (with its new code) sends every phone back to watching. Wrong codes are counted
    by `throttle`, per source and in all.
    """

    def __init__(self, code: str | None, port: int, *, loopback_is_owner: bool = True, max_age: int = 12 * 3600,
                 throttle: Throttle | None = None):
        self.code = normalise(code) if code else None
        """None when the app serves loopback only: then every session is an owner."""
        self.loopback_is_owner = loopback_is_owner
        """A client on this machine is its owner (off only for tests, which all run on this machine)."""
        self.cookie_name = f"xeri_table_{port}"
        """Cookies belong to a host, not a port: the port keeps two apps on one laptop apart."""
        self.max_age = max_age
        self._key = secrets.token_bytes(32)
        self.throttle = throttle or Throttle()
        """Counts wrong codes (see `Throttle`)."""

    def _token(self) -> str:
        return hmac.new(self._key, f"player:{self.code}".encode(), hashlib.sha256).hexdigest()

    def cookie(self) -> str:
        """The Set-Cookie value for a browser that gave the right code."""
        return f"{self.cookie_name}={self._token()}; Path=/; HttpOnly; SameSite=Strict; Max-Age={self.max_age}"

    def matches(self, text: str) -> bool:
        """True when `text` is the code (as typed: see `normalise`)."""
        return self.code is not None and hmac.compare_digest(normalise(text).encode(), self.code.encode())

    def throttled(self, source: str) -> bool:
        """True while codes from `source` are not heard (see `Throttle`)."""
        return self.throttle.throttled(source)

    def failed(self, source: str) -> None:
        """Count a wrong code from `source`."""
        self.throttle.failed(source)

    def access_for(self, loopback: bool, cookie_header: str) -> Access:
        """The access of a connection: from this machine, with the code's cookie, or neither."""
        if self.code is None or (loopback and self.loopback_is_owner):
            return Access.OWNER
        from http.cookies import CookieError, SimpleCookie   # the served app's only: not a browser build's start

        jar = SimpleCookie()
        try:
            jar.load(cookie_header or "")
        except CookieError:
            return Access.WATCHER
        morsel = jar.get(self.cookie_name)
        if morsel is not None and hmac.compare_digest(morsel.value.encode(), self._token().encode()):
            return Access.PLAYER
        return Access.WATCHER
