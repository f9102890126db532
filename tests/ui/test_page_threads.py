"""The page adapter's hand-overs between threads (served mode): slow work asked for from the writer's thread
(an import, Join and Test on the Sync screen are writing intents, so they run there) still hands its result
back on the page's loop: without it the import never ended and the Sync screen said "Joining…" for ever."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from companion.ui.page import PageAdapter, PageOptions
from companion.ui.viewmodel import AppModel
from tests.loop import run


class LoopPage:
    """What the adapter asks of a Flet page here: run a coroutine function on the page's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop

    def run_task(self, handler, *args):
        return asyncio.run_coroutine_threadsafe(handler(*args), self.loop)


def test_slow_work_asked_for_from_the_writers_thread_hands_its_result_back_on_the_pages_loop(services):
    async def main() -> tuple[str, str, str, str]:
        loop = asyncio.get_running_loop()
        adapter = PageAdapter(LoopPage(loop), AppModel(services), PageOptions(), ThreadPoolExecutor(1))  # type: ignore[arg-type]
        adapter.loop = loop                                   # what `attach` keeps, on the loop
        finished: asyncio.Future[tuple[str, str]] = loop.create_future()

        def done(result: str) -> None:
            finished.set_result((result, threading.current_thread().name))

        def in_the_writer() -> str:                           # an intent that the writer runs
            adapter.background(lambda: threading.current_thread().name, done)
            return threading.current_thread().name

        writer_thread = await loop.run_in_executor(adapter.writer, in_the_writer)
        worked_in, done_in = await asyncio.wait_for(finished, 10)
        return threading.current_thread().name, writer_thread, worked_in, done_in

    loop_thread, writer_thread, worked_in, done_in = run(main())
    assert worked_in == "xeri-slow-work" and writer_thread != loop_thread
    assert done_in == loop_thread                             # back on the page's loop, which redraws
