"""Which Chromium the browser tests drive, and how (Debian's, never one Playwright downloads)."""

from __future__ import annotations

import os
import shutil

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
HOW_TO = ("browser tests need Debian's Chromium: `sudo apt-get install chromium` "
          "(CI's .ci/run installs it), or set CHROMIUM=/path/to/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--lang=en-US",
                 "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"]
"""`--lang`: a browser asks for its own language and the app answers in it; the tests' browser speaks
English unless a test gives its page another `locale`, whatever this machine's locale is.

`--disable-features=WebUIOmnibox…`: Chromium 156 loads its address bar's popup (a WebUI page of the desktop
browser's own window, in a renderer of its own) at every launch, headless too: 0.3-0.4 s of CPU beside the page's
start on these 2 cores, which no phone spends (a phone's browser draws its address bar natively). Seen in a
Chrome trace of a start, 2026-12-05; a first visit in a fresh browser was 3995 ms with it and 3685 without (medians
of 6, taking turns; an installed start 1799 and 1766 ms): docs/pwa.md."""
PHONE = {"width": 390, "height": 844}
