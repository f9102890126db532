"""The app run in place, in the process that shows it, not as a web server: a packaged phone app
(`flet build apk` / `flet build ipa`, whose entry is the repository's main.py) or the browser build
(pwa/, Python in the browser tab). Kept light: it imports the app only when it runs it."""

from __future__ import annotations

import sys

IN_BROWSER = sys.platform == "emscripten"
"""True in a browser tab (Pyodide)."""


def main() -> int:
    """Run the app until it is closed; returns the exit status (2, with a message, when it cannot start).

    Packaged, the data folder is `FLET_APP_STORAGE_DATA` (see `companion.storage.folder.data_dir`). In a
    browser the app starts and this returns at once: the page drives it from then on.
    """
    if IN_BROWSER:
        from .browser_build import run

        run()
        return 0
    from .served import serve

    return serve(desktop=True, open_browser=False)
