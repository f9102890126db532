"""Coroutines run from a test, on an event loop of their own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any
from collections.abc import Awaitable


def run(coroutine: Awaitable[Any]) -> Any:
    """`asyncio.run` in a thread of its own: the browser tests' Playwright keeps an event loop running in
    the main thread for the whole session, where `asyncio.run` is refused."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed back to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
