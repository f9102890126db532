"""The Sync screen follows the runner by itself (#23): before, its status was drawn once, so it said "In step
with the group (5 seconds ago)" through a 45 s outage, and "Not in step" long after the network was back,
until the page was left and opened again."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import companion.ui.page as page_module
from companion.sync.errors import SyncError, SyncSays
from companion.sync.runner import Status
from companion.ui.page import PageAdapter, PageOptions
from companion.ui.viewmodel import Screen


def test_an_open_sync_screen_is_drawn_again_when_the_runners_status_changes(app, monkeypatch):
    monkeypatch.setattr(page_module, "SYNC_FOLLOW_SECONDS", 0.01)
    runner = SimpleNamespace(status=Status("ok", 1_000.0))
    adapter = PageAdapter(SimpleNamespace(), app, PageOptions())
    adapter.subscribed = True
    app.session.screen = Screen.SYNC

    async def evening() -> list:
        seen = []
        follow = asyncio.ensure_future(adapter._follow_sync(runner))
        await asyncio.sleep(0.05)
        seen.append(app.session.sync_seen)
        runner.status = Status("failing", 1_000.0, SyncError(SyncSays.UNREACHABLE, server="https://couch.example"))
        await asyncio.sleep(0.05)
        seen.append(app.session.sync_seen)
        app.session.screen = Screen.HOME               # not on the Sync screen: nothing is redrawn for it
        runner.status = Status("ok", 2_000.0)
        await asyncio.sleep(0.05)
        seen.append(app.session.sync_seen)
        adapter.gone = True
        await asyncio.wait_for(follow, 1)
        return seen

    first, failing, elsewhere = asyncio.run(evening())
    assert first is not None and first[0].state == "ok"
    assert failing[0].state == "failing"              # drawn again, by itself
    assert elsewhere == failing                       # the home screen is left alone
