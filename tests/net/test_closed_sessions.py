"""A phone that went away hears no more of the table: its session stops listening when it disconnects (Flet
keeps the session for an hour in case it comes back), so a tap on another phone schedules nothing on its
dead page; and it hears again when it comes back. Over the real server: a tab closed mid-game leaves no
error behind while the table plays on; the page's own part, hearing and not hearing: below."""

from __future__ import annotations

import asyncio

from tests.loop import run
from tests.seed import seed_match
from tests.net.flet_client import Phone


async def _play(base: str) -> None:
    gone = await Phone.open(base, answers=False)       # closed with the page's calls to its services unanswered
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


def test_a_tab_closed_mid_game_leaves_no_error_behind_while_the_table_plays_on(start_app, tmp_path):
    data = tmp_path / "data"
    seed_match(data)
    app = start_app(data=data, host="127.0.0.1")
    run(_play(app.url))
    app.stop()
    said = app.log.read_text()
    assert "never awaited" not in said and "Traceback" not in said, said[-2000:]


async def _tap_what_left(base: str) -> None:
    phone = await Phone.open(base)
    old = phone.button("new-match")
    await phone.tap("new-match")
    await phone.read_until(b"start-match")           # home has left the page, and its New match with it
    await phone.click(old)
    await phone.tap("back")                           # one more tap, answered: the one before it was handled
    await phone.read_until(b"new-match")
    await phone.close()


def test_a_tap_that_comes_after_its_control_left_the_page_is_said_in_the_log(start_app, tmp_path):
    # Flet drops an event for a control it no longer has, and says so only at DEBUG (ui.app.say_lost_events).
    app = start_app(data=tmp_path / "data", host="127.0.0.1")
    run(_tap_what_left(app.url))
    app.stop()
    assert "came after the control left the page; Flet dropped it" in app.log.read_text()


class Hub:
    """What the adapter asks of Flet's pub/sub and of the group's news: who listens."""

    def __init__(self) -> None:
        self.listening: list = []

    def subscribe(self, handler) -> None:
        self.listening.append(handler)

    def unsubscribe(self) -> None:
        self.listening.clear()

    def send_others(self, message) -> None:
        for handler in list(self.listening):
            handler(message)

    listen = subscribe

    def unlisten(self, handler) -> None:
        self.listening.remove(handler)


class ClosedTab:
    """A page whose tab may close: what it was asked to run on its loop is counted."""

    def __init__(self) -> None:
        self.pubsub = Hub()
        self.ran: list = []

    def run_task(self, handler, *args) -> None:
        self.ran.append(args)


def test_a_closed_phone_is_not_sent_the_table_s_news_and_hears_it_again_once_back(store):
    from companion.service import Services
    from companion.ui.page import PageAdapter, PageOptions
    from companion.ui.viewmodel import AppModel

    services = Services.over(store)
    page, news = ClosedTab(), Hub()
    adapter = PageAdapter(page, AppModel(services), PageOptions(), news=news)  # type: ignore[arg-type]
    adapter.subscribe()
    page.pubsub.send_others({"match": "m1"})            # another phone's tap
    news.send_others("m2")                              # another device's hand, through sync
    assert page.ran == [({"match": "m1"},), ({"match": "m2"},)]
    adapter.disconnected()                              # the tab closed
    page.pubsub.send_others({"match": "m1"})
    news.send_others("m2")
    adapter.on_message({"match": "m1"})                 # a message already on its way when it closed
    assert page.ran == [({"match": "m1"},), ({"match": "m2"},)]
    # Its own news still goes to the others (a write of its that ends after it closed): tests/ui/test_table_news.py.
    assert adapter.vm.session.announce == adapter.announce
    adapter.subscribe()                                 # back (`connected`)
    page.pubsub.send_others({"match": "m3"})
    assert page.ran[-1] == ({"match": "m3"},) and len(page.pubsub.listening) == len(news.listening) == 1
