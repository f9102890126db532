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


LOST_EVENT = "Control with ID %s not found."
"""What Flet says, at DEBUG, of an event for a control it no longer has, and then drops: a tap that reached the
app after its control left the page (flet.messaging.session.dispatch_event)."""


class _LostEvents(logging.Filter):
    """Flet's own log as it was (`threshold` and up), and the one thing it says lower that is worth a warning:
    an event it dropped. A person's tap that did nothing is said in the log, never silent."""

    def __init__(self, threshold: int):
        super().__init__()
        self.threshold = threshold

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == LOST_EVENT:
            record.msg = "an event for control %s came after the control left the page; Flet dropped it"
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            return True
        return record.levelno >= self.threshold


def configure(command: bool = False) -> None:
    """Set the log up for the served app (warnings to stderr) or, `command`, for a CLI command (whose
    failures are said in one sentence, so the storage's notes stay out of its output); both log more under
    `XERI_DEBUG=1`. A log already set up (by a test, or a host program) is left as it is, but the wire
    loggers are held at WARNING whatever was set up."""
    for name in WIRE:
        logging.getLogger(name).setLevel(logging.WARNING)
    flet = logging.getLogger("flet")
    flet.filters = [f for f in flet.filters if not isinstance(f, _LostEvents)]
    flet.addFilter(_LostEvents(logging.INFO if debugging() else logging.WARNING))
    flet.setLevel(logging.DEBUG)   # for the dropped event's line; the filter keeps the rest at the level before
    own = logging.getLogger("companion")
    if debugging():
        logging.basicConfig(level=logging.INFO, format=FORMAT)
        own.setLevel(logging.DEBUG)
    elif command:
        if not any(isinstance(h, logging.NullHandler) for h in own.handlers):
            own.addHandler(logging.NullHandler())
    else:
        logging.basicConfig(level=logging.WARNING, format=FORMAT)
