"""The real app, served as `python -m companion` serves it (our uvicorn, real sockets): the one helper every
test that starts the app uses (browser tests, network tests, sync devices).

The app is ready when it says so on its console ("… Ctrl+C …", and its join link with the code when phones on
the network may join), not when its port first answers: that line is printed once the app is built.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.net.hosts import lan_addresses
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
LAN = (lan_addresses() or [None])[0]
"""This machine's LAN address: a test plays a phone by connecting to it, and the app then sees a client that
is not this machine, as it would a phone."""
needs_lan = pytest.mark.skipif(LAN is None, reason="these tests play a phone through this machine's LAN address, "
                                                   "and it has none")
FLASH_SECONDS = 2
"""How long the app under test shows a saved hand's breakdown (10 s for people)."""
START_SECONDS = 60


class AppServer:
    """`python -m companion --host HOST --port N --no-browser` with its own data folder, in English
    (`LANG=C.UTF-8`, whatever this machine's locale), with the test hooks on."""

    def __init__(self, data: Path, host: str = "127.0.0.1", port: int | None = None,
                 env: dict[str, str] | None = None):
        self.data, self.host = data, host
        self.port = port or self._free_port()
        self.log = data.parent / f"app-{self.port}.log"
        self.env: dict[str, str] = dict(env or {})
        """More of the app's environment (`XERI_DEBUG`)."""
        self.proc: subprocess.Popen | None = None
        self.code: str | None = None
        """The table code phones on the network join with (None when served on loopback only)."""

    @property
    def url(self) -> str:
        """Where this machine's own browser finds it."""
        return self.at("127.0.0.1")

    def at(self, address: str) -> str:
        return f"http://{address}:{self.port}"

    def start(self) -> AppServer:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"},
               "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", "XERI_DATA_DIR": str(self.data),
               "XERI_TEST_HOOKS": "1", "XERI_FLASH_SECONDS": str(FLASH_SECONDS), **self.env}
        env.pop("FLET_FORCE_WEB_SERVER", None)
        self.data.parent.mkdir(parents=True, exist_ok=True)
        said_from = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("a") as out:   # the app has its own copy of the file; this one is closed
            self.proc = subprocess.Popen([sys.executable, "-m", "companion", "--host", self.host, "--port",
                                          str(self.port), "--no-browser"], cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app exited: {self.said()}")
            with self.log.open("rb") as log:
                log.seek(said_from)
                said = log.read().decode("utf-8", "replace")
            # Ready: "… press Ctrl+C to stop" in the console's language, and the join link with its code.
            if "Ctrl+C" in said and (self.host == "127.0.0.1" or "?code=" in said):
                found = re.search(r"\?code=([A-Z0-9]+)", said)
                self.code = found.group(1) if found else None
                return self
            time.sleep(0.1)
        raise RuntimeError(f"the app did not start within {START_SECONDS} s: {self.said()}")

    def stop(self, timeout: float = 15) -> int | None:
        """SIGTERM, as a service manager stops it; the exit status, or None if it had to be killed."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self) -> None:
        """As a crash would: SIGKILL, nothing flushed, no lock let go politely."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def restart(self, same_port: bool = False) -> AppServer:
        """Killed as a crash would, and started again on the same data folder: on a new port, or on the same
        (the laptop's app started again where its phones knew it: the same origin, so their browsers' storage)."""
        self.kill()
        if not same_port:
            self.port = self._free_port()
        return self.start()

    def _free_port(self) -> int:
        return free_port("127.0.0.1" if self.host == "127.0.0.1" else "")   # "": every address, as the app binds

    def said(self) -> str:
        """The end of what it printed."""
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""
