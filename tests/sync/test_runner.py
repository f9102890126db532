"""The runner beside the screens: after a failed round it waits longer each time (up to a minute), but a
change saved here meanwhile tries at once (#23: a save during the back-off waited it out, and the other
device saw the hand 14-29 s after the network came back)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from companion.sync.runner import BACKOFF_SECONDS, SyncRunner


def test_a_change_saved_during_the_back_off_ends_the_wait_at_once():
    writes = [0]
    runner = SyncRunner(SimpleNamespace(), SimpleNamespace(), lambda: writes[0])

    async def evening() -> float:
        async def save_soon() -> None:
            await asyncio.sleep(0.3)
            writes[0] += 1                            # a hand saved on this device

        started = time.monotonic()
        await asyncio.gather(runner._pause(BACKOFF_SECONDS[-1]), save_soon())
        return time.monotonic() - started

    took = asyncio.run(evening())
    assert took < 2, took


def test_without_a_change_the_back_off_is_waited_out_or_ended_by_sync_now():
    runner = SyncRunner(SimpleNamespace(), SimpleNamespace(), lambda: 0)

    async def evening() -> tuple[float, float]:
        started = time.monotonic()
        await runner._pause(0.5)
        waited = time.monotonic() - started

        async def press_soon() -> None:
            await asyncio.sleep(0.3)
            runner.poke()                             # Sync now

        started = time.monotonic()
        await asyncio.gather(runner._pause(60), press_soon())
        return waited, time.monotonic() - started

    waited, pressed = asyncio.run(evening())
    assert waited >= 0.5 and pressed < 2
