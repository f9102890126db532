"""A CouchDB-protocol server for the tests: PouchDB Server (pinned in tools/couch/), in memory, on 127.0.0.1.

`make test` installs it into build/couch/ once. It keeps nothing on disk but its `/_config` (a config.json
in the server's own temporary folder, with the admin's hashed password) and its log, both outside the
repository. The helpers speak to it with the standard library only, so they do not lean on the client
under test.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
POUCHDB_SERVER = ROOT / "build" / "couch" / "node_modules" / ".bin" / "pouchdb-server"
HOW_TO = "sync tests need Node.js and npm: apt-get install nodejs npm, then make test"
START_TIMEOUT = 60.0
"""Seconds the server may take to answer after it was started (about 1.5 s on a quiet machine, 5 s busy)."""
_names = itertools.count(1)


def missing() -> str | None:
    """Why the server cannot be started here, or None if it can."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return HOW_TO
    if not POUCHDB_SERVER.exists():
        return f"sync tests need PouchDB Server in {POUCHDB_SERVER.parent.parent}: run make test (or make couch)"
    return None


class CouchServer:
    """`pouchdb-server --in-memory` on 127.0.0.1, in a process group of its own, with a server admin.

    `kill()` stops it as a crash would (SIGKILL). `restart()` starts a new one on the same port: being in
    memory, it has **no databases and no users** (`_users` included) any more, but the same `/_config`
    (the admin, CORS), which lives in its config.json, as a real CouchDB keeps its ini files.
    """

    def __init__(self, folder: Path, *, admin: str = "admin", password: str | None = None):
        self.folder = folder
        self.port = free_port()
        self.admin = admin
        self.password = password or secrets.token_urlsafe(12)
        self.proc: subprocess.Popen | None = None
        self.log = folder / "pouchdb-server.out"
        folder.mkdir(parents=True, exist_ok=True)
        # Its log file and its database folder default to the current directory: both go to `folder`.
        (folder / "config.json").write_text(json.dumps({"log": {"file": str(folder / "log.txt")}}))

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT`, no trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    # --- the process ---------------------------------------------------------------------------------

    def start(self) -> CouchServer:
        """Start it and wait until it answers; on any failure it is killed before the error goes up."""
        command = [str(POUCHDB_SERVER), "--in-memory", "--host", "127.0.0.1", "--port", str(self.port),
                   "--config", str(self.folder / "config.json"), "--dir", str(self.folder / "db"), "--no-color"]
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(command, cwd=self.folder, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            self._wait_ready()
            if not self._admin_exists():
                self.request("PUT", f"/_config/admins/{quote(self.admin)}", self.password, auth=False)
        except BaseException:
            self.kill()
            raise
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"pouchdb-server did not answer within {START_TIMEOUT:.0f} s:\n{self.said()}")
            try:  # the pause between tries, which also notices the process ending
                code = self.proc.wait(0.05) if self.proc else None
            except subprocess.TimeoutExpired:
                continue
            raise RuntimeError(f"pouchdb-server exited ({code}):\n{self.said()}")

    def _admin_exists(self) -> bool:
        config = json.loads((self.folder / "config.json").read_text() or "{}")
        return self.admin in config.get("admins", {})

    def said(self) -> str:
        """The end of what the server printed."""
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL to its process group (npm's launcher and node alike), and wait for it."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)

    def restart(self) -> CouchServer:
        """Kill it and start a new, empty one on the same port (see the class's docstring)."""
        self.kill()
        return self.start()

    # --- speaking to it (standard library only) -------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None, *, auth: bool | tuple[str, str] = True,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """One request as the admin (or as `auth=(user, password)`, or no one); (status, JSON answer)."""
        sent = {"Accept": "application/json", **(headers or {})}
        if auth:
            user, password = auth if isinstance(auth, tuple) else (self.admin, self.password)
            sent["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        call = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(call, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def ok(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        status, said = self.request(method, path, body, **kwargs)
        if not 200 <= status < 300:
            raise AssertionError(f"{method} {path}: {status} {said}")
        return said

    def new_database_name(self) -> str:
        """A name no test used before: tests share the server, never a database."""
        return f"test-{next(_names):04d}-{secrets.token_hex(3)}"

    def create_database(self, name: str) -> str:
        self.ok("PUT", "/" + quote(name, safe=""))
        return name

    def set_members(self, database: str, names: Sequence[str] = (), roles: Sequence[str] = ()) -> None:
        """Only these users (and roles) may use the database (and the admins, always)."""
        self.ok("PUT", f"/{quote(database, safe='')}/_security",
                {"admins": {"names": [], "roles": []}, "members": {"names": list(names), "roles": list(roles)}})

    def add_user(self, name: str, password: str, roles: Sequence[str] = ()) -> None:
        """A user of the server (a document in `_users`), not an admin; an existing one (users belong to the
        server, which the tests share) gets this password and these roles."""
        path = "/_users/" + quote(f"org.couchdb.user:{name}", safe="")
        user = {"name": name, "password": password, "roles": list(roles), "type": "user"}
        status, said = self.request("GET", path)
        if status == 200:
            user["_rev"] = said["_rev"]
        self.ok("PUT", path, user)

    def set_cors(self, origins: str | None) -> None:
        """Let pages of `origins` (`"*"`, or `"https://a.example, https://b.example"`) in; None: no CORS."""
        self.ok("PUT", "/_config/httpd/enable_cors", "false" if origins is None else "true")
        if origins is not None:
            self.ok("PUT", "/_config/cors/origins", origins)

    def database_url(self, database: str, user: str | None = None, password: str | None = None) -> str:
        """The address the app is given: `http://user:password@127.0.0.1:PORT/database`."""
        who = "" if user is None else f"{quote(user, safe='')}:{quote(password or '', safe='')}@"
        return f"http://{who}127.0.0.1:{self.port}/{quote(database, safe='')}"

    def admin_url(self, database: str) -> str:
        return self.database_url(database, self.admin, self.password)
