"""A phone that went away hears no more of the table: its session stops listening when it disconnects (Flet
keeps the session for an hour in case it comes back), so a tap on another phone schedules nothing on its
dead page; and it hears again when it comes back."""

from __future__ import annotations

import asyncio

from tests.loop import run
from tests.seed import seed_match
from tests.net.flet_client import Phone


async def _play(base: str) -> None:
    gone = await Phone.open(base)
    await gone.tap("continue-match")
    await gone.read_until(b"end-hand")
    await gone.close()                               # the tab closed: the server notices the socket gone
    await asyncio.sleep(1.0)                          # nothing to wait on in the page: the server's own handling
    here = await Phone.open(base)
    await here.tap("continue-match")
    await here.read_until(b"end-hand")
    for n in range(1, 4):
        await here.tap("xeri-0")
        await here.read_until(b"now %d" % n)
    await here.close()


def test_a_closed_phone_is_not_sent_the_table_s_news(start_app, tmp_path):
    data = tmp_path / "data"
    seed_match(data)
    app = start_app(data=data, host="127.0.0.1")
    run(_play(app.url()))
    app.stop()
    said = app.log.read_text()
    assert "never awaited" not in said and "Traceback" not in said, said[-2000:]
