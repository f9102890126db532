"""A long history in a real browser: its list ends with a way back to the filters above it."""

from __future__ import annotations

import time

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.storage import Store

from tests.app_server import AppServer
from tests.play import play
from tests.seed import hand

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def server(tmp_path):
    """The app over 30 finished matches (overrides conftest's `server`, which starts on an empty one)."""
    store = Store(tmp_path / "data")
    try:
        for n in range(30):
            play(store).start(Match(rules=preset("classic"), sides=(Side("Anna"), Side(f"Guest {n}")),
                                    goal=Goal(hands=1), hands=(hand(12, 0, 1),)))
    finally:
        store.close()
    srv = AppServer(tmp_path / "data").start()
    yield srv
    srv.stop()


def test_a_long_history_list_ends_with_a_way_back_to_its_filters(app):
    app.tap("open-history")
    app.wait_id("filter-rules-classic")
    app.scroll_to("to-top")
    assert app.box_if_visible("filter-rules-classic") is None, "the list was not long enough to hide the filters"
    app.tap("to-top", wait=False)   # only the view scrolls: no intent of the app's, so no tap it counts
    deadline = time.monotonic() + 10
    while app.box_if_visible("filter-rules-classic") is None:
        assert time.monotonic() < deadline, "Back to the top did not bring the filters back on screen"
        app.page.wait_for_timeout(100)
    assert app.text_of("to-top") == "Back to the top"
