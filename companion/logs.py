"""What the app logs, one setting for every front door: warnings only, or with `XERI_DEBUG=1` the app's own
debug lines and what its parts say at INFO.

The loggers of the page's wire are never let below WARNING, debug mode included: at DEBUG Flet prints every
value a page sends (a password typed on the Sync screen) and every control the app draws (the join QR, whose
picture holds the password), and an HTTP/2 stack would print the headers (the password again).
"""

from __future__ import annotations

import logging
import os

FORMAT = "%(levelname)s %(name)s: %(message)s"
WIRE = ("flet_transport", "flet_object_patch", "flet_controls", "flet_components", "hpack", "httpcore")
"""Loggers that print what crosses a wire, message by message."""


def debugging() -> bool:
    return bool(os.environ.get("XERI_DEBUG"))


def configure(command: bool = False) -> None:
    """Set the log up for the served app (warnings to stderr) or, `command`, for a CLI command (whose
    failures are said in one sentence, so the storage's notes stay out of its output); both log more under
    `XERI_DEBUG=1`. A log already set up (by a test, or a host program) is left as it is, but the wire
    loggers are held at WARNING whatever was set up."""
    for name in WIRE:
        logging.getLogger(name).setLevel(logging.WARNING)
    own = logging.getLogger("companion")
    if debugging():
        logging.basicConfig(level=logging.INFO, format=FORMAT)
        own.setLevel(logging.DEBUG)
    elif command:
        if not any(isinstance(h, logging.NullHandler) for h in own.handlers):
            own.addHandler(logging.NullHandler())
    else:
        logging.basicConfig(level=logging.WARNING, format=FORMAT)
