"""The real app, served as `python -m companion` serves it (our uvicorn, real sockets), for the network tests.

A phone is played by connecting to the machine's LAN address: the app then sees a client that is not this
machine, as it would a phone. Without a LAN address those tests skip, saying so.
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

ROOT = Path(__file__).resolve().parents[2]
LAN = (lan_addresses() or [None])[0]
needs_lan = pytest.mark.skipif(LAN is None, reason="these tests play a phone through this machine's LAN address, "
                                                   "and it has none")


class Served:
    """`python -m companion --host HOST --port N --no-browser` with its own data folder."""

    def __init__(self, data: Path, host: str = "0.0.0.0", port: int | None = None):
        self.data, self.host, self.port = data, host, port or free_port("")
        self.log = data.parent / f"app-{self.port}.log"
        env = {**os.environ, "XERI_DATA_DIR": str(data), "XERI_TEST_HOOKS": "1", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "--host", host, "--port", str(self.port),
                                      "--no-browser"], cwd=ROOT, env=env, stdout=self.log.open("w"),
                                     stderr=subprocess.STDOUT)
        self.code = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app exited: {self.log.read_text()}")
            said = self.log.read_text()
            if "press Ctrl+C to stop" in said and (host == "127.0.0.1" or "table code" in said):
                found = re.search(r"table code ([A-Z0-9]+)", said)
                self.code = found.group(1) if found else None
                return
            time.sleep(0.1)
        raise RuntimeError(f"the app did not start: {self.log.read_text()}")

    def url(self, address: str = "127.0.0.1") -> str:
        return f"http://{address}:{self.port}"

    def stop(self, timeout: float = 15) -> int | None:
        """SIGTERM, as a service manager stops it; the exit status, or None if it did not stop in time."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


@pytest.fixture(scope="module")
def lan_app(tmp_path_factory):
    """The app serving every address, with a table code (shared by a module's tests: starting takes seconds)."""
    app = Served(tmp_path_factory.mktemp("lan") / "data")
    yield app
    app.stop()


@pytest.fixture
def start_app(tmp_path):
    started: list[Served] = []

    def start(**kwargs) -> Served:
        app = Served(kwargs.pop("data", tmp_path / "data"), **kwargs)
        started.append(app)
        return app

    yield start
    for app in started:
        app.stop()
