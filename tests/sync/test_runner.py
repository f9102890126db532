"""The runner beside the screens sleeps until there is something to do: this device wrote a file (in any
thread), a person pressed Sync now, or the group's database changed. It never polls (#23: it woke every
0.2 s forever), and after a failed round it waits longer each time (up to a minute), but a change saved here
meanwhile tries at once (#23: a save during the back-off waited it out, and the other device saw the hand
14-29 s after the network came back). What a round writes itself is not news for the next round."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from companion.storage import files
from companion.sync.runner import _IN_ROUND, BACKOFF_SECONDS, SyncRunner


def runner() -> SyncRunner:
    return SyncRunner(SimpleNamespace(), SimpleNamespace(), files.on_change)


def counting(r: SyncRunner) -> list[int]:
    """How often the runner looked whether there was news (each wake-up looks once)."""
    looks = [0]
    news = r._news

    def counted() -> bool:
        looks[0] += 1
        return news()
    r._news = counted  # type: ignore[method-assign]
    return looks


def test_a_file_written_in_another_thread_during_the_back_off_ends_the_wait_at_once(tmp_path: Path):
    r = runner()

    async def evening() -> float:
        def save() -> None:                       # the writer's thread saves a hand
            time.sleep(0.3)
            files.write_atomic(tmp_path / "hand.json", b"{}")

        async with r.awake():
            started = time.monotonic()
            writer = threading.Thread(target=save)
            writer.start()
            await r._pause(BACKOFF_SECONDS[-1])
            writer.join()
            return time.monotonic() - started

    took = asyncio.run(evening())
    assert took < 2, took


def test_without_news_the_back_off_is_waited_out_without_polling_or_ended_by_sync_now():
    r = runner()
    looks = counting(r)

    async def evening() -> tuple[float, float]:
        async with r.awake():
            started = time.monotonic()
            await r._pause(1.0)
            waited = time.monotonic() - started

            async def press_soon() -> None:
                await asyncio.sleep(0.3)
                r.poke()                          # Sync now

            started = time.monotonic()
            await asyncio.gather(r._pause(60), press_soon())
            return waited, time.monotonic() - started

    waited, pressed = asyncio.run(evening())
    assert waited >= 1.0 and pressed < 2
    assert looks[0] <= 4, f"the runner looked {looks[0]} times in 1.3 s with nothing to do: it polls"


def test_what_a_round_writes_itself_does_not_wake_the_runner(tmp_path: Path):
    r = runner()

    async def evening() -> float:
        async def round_writes() -> None:
            await asyncio.sleep(0.1)
            token = _IN_ROUND.set(True)           # as in `SyncRunner._round`: the checkpoint, what it received
            try:
                files.write_atomic(tmp_path / "checkpoint.json", b"{}")
            finally:
                _IN_ROUND.reset(token)

        async with r.awake():
            started = time.monotonic()
            await asyncio.gather(r._pause(0.8), round_writes())
            return time.monotonic() - started

    assert asyncio.run(evening()) >= 0.8


def test_a_runner_that_stopped_listens_no_more(tmp_path: Path):
    r = runner()
    heard = []
    r._written = lambda: heard.append(1)  # type: ignore[method-assign]

    async def evening() -> None:
        async with r.awake():
            files.write_atomic(tmp_path / "a.json", b"{}")

    asyncio.run(evening())
    files.write_atomic(tmp_path / "b.json", b"{}")
    assert heard == [1]


def test_a_device_in_no_group_sleeps_through_its_writes_and_never_holds_the_loop(tmp_path: Path):
    """In no group the loop pauses for an hour; a write wakes it, it finds no group and sleeps again. Before, the
    write's news was never taken, so the loop went round without awaiting: the browser build's page froze."""
    r = SyncRunner(SimpleNamespace(), SimpleNamespace(address=lambda: None), files.on_change)
    looks = counting(r)

    async def evening() -> int:
        loop = asyncio.create_task(r.run())
        ticks = 0
        for k in range(10):
            await asyncio.sleep(0.05)
            ticks += 1
            if k == 2:
                files.write_atomic(tmp_path / "hand.json", b"{}")
        r.stop(0)
        await asyncio.wait_for(loop, 5)
        return ticks

    assert asyncio.run(evening()) == 10
    assert looks[0] <= 6, looks[0]


@contextlib.contextmanager
def running(folder: Path, url: str) -> Iterator[tuple[SyncRunner, Any, list[float]]]:
    """The runner of the device on `folder` started in its thread with the group at `url`: the runner, the
    device's parts, and when each round ended (time.monotonic())."""
    from companion.sync.address import CouchAddress
    from tests.sync.devices import open_device, wait_for

    address = CouchAddress.from_url(url)
    with open_device(folder) as parts:
        assert parts.services.sync is not None
        rounds: list[float] = []
        r = SyncRunner(parts.services.sync, SimpleNamespace(address=lambda: address), files.on_change,
                       lambda report: rounds.append(time.monotonic()))
        r.start_thread()
        try:
            wait_for(lambda: rounds, 20, what="a first round")
            yield r, parts, rounds
        finally:
            r.stop()


def test_against_a_real_server_an_idle_runner_holds_still_and_a_save_starts_a_round_at_once(couch, tmp_path: Path):
    """The round writes (its checkpoint, what it received) and must not wake itself: idle, the runner waits on
    its longpoll; a hand saved on the device is a round within a second or two."""
    from tests.storage.builders import hand_for
    from tests.sync.devices import seed_match, wait_for

    couch.create_database(couch.db)
    match_id = seed_match(tmp_path / "laptop", hands=1)
    with running(tmp_path / "laptop", couch.url_for()) as (_, parts, rounds):
        time.sleep(3)
        assert len(rounds) == 1, f"{len(rounds)} rounds with nothing to do: a round woke the next"
        before = len(rounds)
        saved = time.monotonic()
        parts.services.table.record_hand(match_id, hand_for(3))
        wait_for(lambda: len(rounds) > before, 10, what="a round after the save")
        assert rounds[before] - saved < 2


def test_when_the_server_can_be_reached_again_the_runner_syncs_within_seconds_not_after_its_back_off(
        couch, tmp_path: Path, monkeypatch):
    """Before (#23), after a long cut the other device's hands came 14–29 s after the network returned (the
    back-off, up to 60 s). Here every back-off is 60 s: only noticing the server again can be quicker."""
    import companion.sync.runner as runner_module
    from tests.sync.devices import seed_match, through, wait_for
    from tests.sync.proxy import Proxy

    monkeypatch.setattr(runner_module, "BACKOFF_SECONDS", (60,))
    couch.create_database(couch.db)
    seed_match(tmp_path / "laptop", hands=1)
    with Proxy(couch.port) as proxy, running(tmp_path / "laptop", through(proxy, couch)) as (r, _, rounds):
        proxy.cut()                                          # the longpoll breaks, new connections refused
        wait_for(lambda: r.status.state == "failing", 30, what="the round failing")
        assert r.status.problem.reason in runner_module.NETWORK, r.status.problem
        time.sleep(3)                                        # into the minute's back-off
        before, back = len(rounds), time.monotonic()
        proxy.restore()
        wait_for(lambda: len(rounds) > before, 15, what="a round after the network came back")
        assert rounds[before] - back < 2 * runner_module.REACH_SECONDS + 1


def test_a_server_that_takes_connections_is_not_knocked_on_again_unless_it_was_seen_down(monkeypatch):
    """A server that accepts connections and answers wrongly (a broken answer, not a network cut) is waited
    out; one that was unreachable is tried as soon as it takes a connection again."""
    import socket

    import companion.sync.runner as runner_module
    from companion.sync.address import CouchAddress

    monkeypatch.setattr(runner_module, "REACH_SECONDS", 0.05)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = CouchAddress.from_url(f"http://127.0.0.1:{listening.getsockname()[1]}/club")

        def waited(down: bool) -> float:
            started = time.monotonic()
            asyncio.run(runner_module._until_reachable(address, 1.0, down))
            return time.monotonic() - started

        assert waited(down=True) < 0.5                 # it was down, and takes a connection: at once
        assert waited(down=False) >= 0.95              # it never was: the back-off is waited out
