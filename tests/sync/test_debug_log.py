"""Debug mode tells no secrets (#23): the served app under `XERI_DEBUG=1`, joined to a group by a phone that
pastes the address with its password and opens the join QR, logs neither the password nor the QR's picture
(which holds it), while it does log more than warnings. And a command's debug log neither."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest

from tests.app_server import ROOT
from tests.net.flet_client import Phone, find
from tests.sync.devices import ServedDevice, run

pytestmark = [pytest.mark.slow]


def secrets_in(log: str, password: str, picture: bytes | None = None) -> list[str]:
    found = [what for what, text in (("the password", password),
                                     ("the Basic header", base64.b64encode(f"admin:{password}".encode()).decode()))
             if text in log]
    if picture:
        encoded = base64.b64encode(picture).decode()
        if any(encoded[i:i + 40] in log for i in range(0, len(encoded) - 40, 40)) or repr(picture[:40])[2:-1] in log:
            found.append("the join QR")
    return found


def test_the_served_apps_debug_log_has_no_password_and_no_join_qr(couch, tmp_path):
    couch.create_database(couch.db)
    url = couch.url_for()
    password = couch.server.password
    assert password in url
    device = ServedDevice(tmp_path / "data")
    device.env = {"XERI_DEBUG": "1"}
    device.start()
    try:
        async def scenario() -> bytes:
            phone = await Phone.open(device.url)
            await phone.tap("open-settings")
            await phone.read_until(b"open-sync")
            await phone.tap("open-sync")
            await phone.read_until(b"sync-paste")
            await phone.type("sync-paste", url)
            await phone.read_until(password.encode())       # the fields are filled from it (the page has it)
            await phone.tap("sync-join")
            await phone.read_until(b"sync-show-qr", seconds=40)
            await phone.tap("sync-show-qr")
            await phone.read_until(b"qr-code")
            wrapper = find(phone.messages[::-1], lambda c: c.get("identifier") == "qr-code")
            image = find(wrapper, lambda c: c["_c"] == "Image") if wrapper else None
            assert image is not None, "the join QR is not on the page"
            src = image.get("src")
            await phone.close()
            return src if isinstance(src, bytes) else base64.b64decode(src) if isinstance(src, str) else b""

        picture = run(scenario())
    finally:
        device.stop()
    assert picture[:8] == b"\x89PNG\r\n\x1a\n", "the join QR is not a PNG"
    log = device.log.read_text(errors="replace")
    assert "INFO " in log, f"XERI_DEBUG=1 logs no more than warnings: {log[-2000:]}"
    assert secrets_in(log, password, picture) == [], f"the debug log tells {secrets_in(log, password, picture)}"


def test_a_commands_debug_log_has_no_password(couch, tmp_path):
    couch.create_database(couch.db)
    url = couch.url_for()
    env = {**os.environ, "XERI_DATA_DIR": str(tmp_path / "data"), "XERI_DEBUG": "1"}
    done = subprocess.run([sys.executable, "-m", "companion", "sync", "--server", url], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "DEBUG companion" in said or "INFO " in said, f"XERI_DEBUG=1 logs nothing: {said[-2000:]}"
    assert secrets_in(said, couch.server.password) == []
