"""Why talking to a CouchDB server failed, as one family of errors with a sentence for each reason, and the
answer (`Answer`) a failure may carry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..engine.messages import SaidError, Says


class Answer(NamedTuple):
    """What a server answered: its status, its headers (names in lower case) and its body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


class SyncSays(Says):
    """Every reason a sync can fail, closed: the caller branches on the member, a person reads its sentence.

    Technical names (HTTPS, CORS, CouchDB) are values, not words of the sentence: no language translates
    them, and the catalogs' check for English left in a translation then has nothing to flag."""

    __prefix__ = "error.sync"
    NOT_AN_ADDRESS = "this is not a server address of the form {form}"
    NO_DATABASE_NAMED = "the address names no database: put its name after the server, as in {form}"
    BAD_DATABASE_NAME = ("{name} is not a database name: lower-case letters, digits and {signs}, "
                         "starting with a letter")
    NO_PASSWORD = "the address names the user {user} but gives no password"
    NOT_HTTPS = ("{server} is not an {https} address: without it anyone on the way could read the password; "
                 "plain {http} is only for this device")
    UNREACHABLE = "cannot reach the server at {server}: check the address and the network"
    CUT_OFF = "the connection to the server at {server} broke off before its answer was complete"
    TOO_SLOW = "the server at {server} did not answer within {seconds} seconds"
    NEEDS_LOGIN = "the server at {server} wants a user name and a password"
    WRONG_CREDENTIALS = "the server at {server} does not accept this user name and password"
    FORBIDDEN = "{user} may not use the database {database}: the server's owner must make them a member"
    NO_DATABASE = "the server at {server} has no database {database}"
    CORS_REFUSED = "the server at {server} does not let this web page in: its {cors} settings must allow {origin}"
    REDIRECTED = "the server at {server} sent the request to another address, which is not followed: check the address"
    REFUSED = "the server at {server} refused the request ({status})"
    SERVER_ERROR = "the server at {server} failed ({status}); try again later"
    TOO_LARGE = "the server at {server} sent more than {size}; none of it was used"
    NOT_JSON = "the server at {server} answered with something that is not JSON"
    WRONG_SHAPE = "the server at {server} does not answer as a {couchdb} server does ({where})"


class SyncError(SaidError):
    """Talking to the server failed: `reason` says why (a `SyncSays` member, to branch on), `str()` in
    English, `Translator.say` in any language.

    Nothing here ever holds the password: the sentence names the server by its origin only, and `detail`
    (what the network library or the server said, for a log) is built from text that never held it."""

    def __init__(self, says: SyncSays, /, *, detail: str = "", received: Answer | None = None, **values: Any):
        super().__init__(says, **values)
        self.reason = says
        """Why, from a closed set."""
        self.status: int | None = values.get("status")
        """The HTTP status the sentence names, if it names one."""
        self.detail = detail[:300]
        """What the network library or the server said, in English, for a log; never shown to a person."""
        self.received = received
        """What had arrived when a deadline passed (status, headers, the body so far), if the headers had."""
