"""The sync package is an adapter beside storage: it serves the service's sync use case and imports none of
storage, the UI or the network layer; importing it loads no HTTP library (the browser build has none: it
uses `fetch`)."""

from __future__ import annotations

import subprocess
import sys

from tests.test_layering import offenders


def test_sync_imports_neither_storage_nor_the_ui():
    assert offenders("companion.sync", ("companion.storage", "companion.ui", "companion.net",
                                        "companion.history", "flet", "tinydb")) == []


def test_the_layering_check_sees_what_sync_imports():
    assert "companion.sync.errors imports companion.engine.messages" in offenders("companion.sync", ("companion.engine",))


def test_importing_sync_loads_no_http_library_flet_or_tinydb():
    code = ("import sys, companion.sync, companion.sync.couch;"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('httpx', 'httpcore', 'flet', 'tinydb', 'pyodide', 'js'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
