"""The browser build's inputs agree with the app (pwa/build.py, pwa/requirements.txt), checked without
building: the site itself is tested in Chromium by tests/e2e/test_pwa.py."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from pwa import build

from .imports import import_without

ROOT = Path(__file__).resolve().parents[2]
SERVER_ONLY = {"flet-web", "uvicorn", "httpx", "filelock", "platformdirs"}
"""What only the served app (and the CLI) needs: the web client and its server, the CouchDB client's CPython
transport (the browser build's is `fetch`: companion/sync/transport.py), the data folder's lock file and its
place on the disk (a browser's store is in IndexedDB, whose own lock keeps a second tab out: `Store.HOLDS_LOCK`).
filelock alone was 0.28 MB of a first visit (brotli). Not segno: the Sync screen draws a group's join QR code in
the browser build too."""


def project_dependencies() -> dict[str, str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    return {re.split(r"[<>=! ]", d, maxsplit=1)[0].lower(): d for d in deps}


def test_the_browser_build_pins_the_flet_its_web_client_speaks():
    pinned = build.pinned()
    assert pinned["flet"] == pinned["flet-charts"] == version("flet-web") == version("flet")


def test_every_package_the_app_needs_in_the_browser_is_pinned_with_a_hash():
    pinned = build.pinned()
    missing = set(project_dependencies()) - SERVER_ONLY - set(pinned)
    assert not missing, f"add to pwa/requirements.txt (a version and its hash): {sorted(missing)}"
    lines = [line for line in build.REQUIREMENTS.read_text().splitlines() if line and not line.startswith("#")]
    assert all("--hash=sha256:" in line for line in lines)


def test_the_browser_builds_app_starts_without_the_server_only_packages():
    # What the browser build imports at its start (companion.ui.browser_build, and every screen's view model
    # and view through it), with the packages it does not ship made impossible to import: a module that needs
    # one at import time would stop the app in the browser before its first screen.
    blocked = sorted(name.replace("-", "_") for name in SERVER_ONLY)
    done = import_without(blocked, "not in the browser build",
                          "companion.ui.browser_build, companion.ui.views, companion.sync.runner")
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_build_is_named_by_its_inputs_and_options(tmp_path, monkeypatch):
    # `--if-stale` (and the browser tests) rebuild exactly when this changes.
    source = tmp_path / "app.py"
    source.write_text("x = 1\n")
    monkeypatch.setattr(build, "ROOT", tmp_path)
    monkeypatch.setattr(build, "input_files", lambda: [source])
    first = build.inputs_digest(True, "/")
    assert build.inputs_digest(True, "/") == first
    assert build.inputs_digest(False, "/") != first and build.inputs_digest(True, "/xeri/") != first
    source.write_text("x = 2\n")
    assert build.inputs_digest(True, "/") != first


def test_the_build_reads_every_shipped_catalog_and_rule_set():
    inputs = {p.relative_to(ROOT).as_posix() for p in build.input_files()}
    for folder in build.SHIPPED_DATA:
        for path in (ROOT / "data" / folder).glob("*.json"):
            assert f"data/{folder}/{path.name}" in inputs
