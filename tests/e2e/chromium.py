"""Which Chromium the browser tests drive, and how (Debian's, never one Playwright downloads)."""

from __future__ import annotations

import os
import shutil

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
HOW_TO = ("browser tests need Debian's Chromium: `sudo apt-get install chromium` "
          "(CI's .ci/run installs it), or set CHROMIUM=/path/to/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--lang=en-US"]
"""`--lang`: a browser asks for its own language and the app answers in it; the tests' browser speaks
English unless a test gives its page another `locale`, whatever this machine's locale is.

No `--disable-features` here: Playwright passes its own list, and Chromium keeps only the last of them (docs/pwa.md,
on the address bar's popup)."""
PHONE = {"width": 390, "height": 844}
