"""Starting and stopping the app as a service manager does: SIGTERM always stops it (and closes the data
folder), a port in use or a data folder that cannot be used is said in words with exit status 2."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from companion.storage import Store

from tests.ports import free_port

from tests.app_server import ROOT, AppServer
from ..loop import run
from .flet_client import Phone, connect

pytestmark = pytest.mark.slow


def run_app(data, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "XERI_DATA_DIR": str(data)}
    return subprocess.run([sys.executable, "-m", "companion", "--no-browser", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_sigterm_stops_the_app_after_a_bare_websocket_client_came_and_went(start_app, tmp_path):
    app = start_app(host="127.0.0.1")

    async def come_and_go():
        ws = await connect(app.url)     # connects, never registers, leaves: Flet waited for it forever
        await ws.close()
        phone = await Phone.open(app.url)  # and a real session, still open when the app is stopped
        return phone

    run(come_and_go())
    started = time.monotonic()
    assert app.stop(timeout=15) == 0
    assert time.monotonic() - started < 10
    with Store(tmp_path / "data"):        # the data folder was closed: its lock is free again
        pass


def test_a_port_in_use_is_said_in_words_with_exit_status_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_app(tmp_path / "data", "--port", str(port))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"port {port} is in use; try --port {port + 1}\n"


def test_a_data_folder_that_cannot_be_made_is_said_in_words_with_exit_status_2(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    done = run_app(tmp_path / "a-file" / "data", "--port", str(free_port()))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("could not open the data folder: the data folder is not there any more")


def test_a_data_folder_deleted_under_the_running_app_is_made_again_and_a_second_app_is_refused(start_app, tmp_path):
    app = start_app(host="127.0.0.1")
    shutil.rmtree(tmp_path / "data")
    deadline = time.monotonic() + 15
    while not (tmp_path / "data" / ".lock").exists() and time.monotonic() < deadline:
        time.sleep(0.2)                   # the running app looks every two seconds
    second = run_app(tmp_path / "data", "--port", str(free_port()))
    assert second.returncode == 2
    assert second.stderr.startswith("Xeri Companion is already open with this data folder")
    assert app.proc.poll() is None


def test_the_same_data_folder_cannot_be_served_twice(start_app, tmp_path):
    start_app(host="127.0.0.1")
    second = run_app(tmp_path / "data", "--port", str(free_port()))
    assert second.returncode == 2 and "already open with this data folder" in second.stderr


def test_a_served_app_says_where_phones_join_and_with_which_code(tmp_path):
    app = AppServer(tmp_path / "data", host="0.0.0.0").start()
    try:
        said = app.log.read_text()
        assert f"?code={app.code}" in said and "without the code they can only watch" in said
        assert len(app.code) == 6
    finally:
        assert app.stop() == 0


@pytest.mark.parametrize("locale, ready, join", [
    ("el_GR.UTF-8", "Η «Ξερή — Σημειωματάριο» είναι στο", "Τα κινητά σε αυτό το δίκτυο μπαίνουν στο"),
    ("ko_KR.UTF-8", "Xeri Companion이", "이 네트워크의 휴대폰은"),
])
def test_the_console_says_where_the_app_is_and_how_phones_join_in_the_machines_language(start_app, locale, ready,
                                                                                        join):
    app = start_app(env={"LANG": locale})
    said = app.said()
    assert ready in said and "Ctrl+C" in said
    assert join in said and f"?code={app.code}" in said and app.code is not None
    assert "press Ctrl+C to stop" not in said and "Phones on this network" not in said
