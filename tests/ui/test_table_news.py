"""Many phones at one table (#27): the phone that tapped sees its tap first, and the other phones are redrawn one at
a time, each sent its page before the next is drawn.

Real Flet sessions of the app (`ui.app.make_main`, the page adapter, Flet's pub/sub) on this test's event loop,
over connections that record what the server sends, in the order it sends it: what is proved is the order, which
no timing on a real network could show for sure."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (Message, MessageAction, RegisterClientResponseBody,
                                     configure_encode_object_for_msgpack)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion import bootstrap
from companion.ui.app import make_main, served_session
from companion.ui.page import PageOptions
from companion.ui.viewmodel.scoreboard import ScoreboardModel
from tests.loop import run
from tests.seed import seed_match

ENCODE = configure_encode_object_for_msgpack(BaseControl)


class Recorded(Connection):
    """A phone's connection as the server sees it: what is sent to it goes into one list shared by every phone
    (who, the message as bytes), in the order sent; the browser's answers to the page's questions (where the
    phone was) are nothing, at once."""

    def __init__(self, name: str, sent: list[tuple[str, bytes]], hub: PubSubHub):
        super().__init__()
        self.name, self.sent = name, sent
        self.loop = asyncio.get_running_loop()
        self.executor = ThreadPoolExecutor(2)
        self.pubsubhub = hub
        self.page_url = "http://127.0.0.1:8550/"
        self.session: Session | None = None

    def send_message(self, message: Any) -> None:
        self.sent.append((self.name, msgpack.packb([message.action, message.body], default=ENCODE)))
        if message.action == MessageAction.INVOKE_METHOD and self.session is not None:
            body = message.body
            self.loop.call_soon(self.session.handle_invoke_method_results, body.control_id, body.call_id, None, None)


async def open_phone(name: str, main: Any, sent: list[tuple[str, bytes]], hub: PubSubHub) -> Session:
    conn = Recorded(name, sent, hub)
    session = conn.session = Session(conn)
    _context_page.set(session.page)
    # As Flet's server registers a browser: the page as the browser says it is, then the whole page sent to it.
    session.apply_page_patch({"route": "/", "width": 390, "height": 844, "web": True})
    session.page.client_ip = "127.0.0.1"
    conn.send_message(Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody(
        session_id=session.id, page_patch=session.get_page_patch(), error="")))
    await main(session.page)
    await wait_for(lambda: seen(sent, name, b"app-seen"), "the first screen")
    return session


def seen(sent: list[tuple[str, bytes]], name: str, text: bytes) -> bool:
    return any(who == name and text in raw for who, raw in sent)


async def wait_for(check: Any, what: str, seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def tap(session: Session, ident: str) -> None:
    """Tap the button under the Semantics of this identifier, as Flutter would send it."""
    control = next(c for c in list(session.index.values()) if getattr(c, "identifier", None) == ident)
    while "Button" not in type(control).__name__:
        control = control.content if not isinstance(getattr(control, "controls", None), list) else control.controls[0]
    await session.dispatch_event(control._i, "click", None)


def who_first(sent: list[tuple[str, bytes]], text: bytes) -> list[str]:
    """The phones in the order they were first sent `text`."""
    order: list[str] = []
    for who, raw in sent:
        if text in raw and who not in order:
            order.append(who)
    return order


NAMES = ("tapper", "a", "b", "c")


def play_a_table(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[str, bytes]]]:
    """Four phones on the scoreboard of one match; the first taps two xeris, each once every phone showed the
    one before. For each tap, what was sent from the tap on, and when each phone began its refresh (`refresh`)."""
    seed_match(folder)
    sent: list[tuple[str, bytes]] = []
    real = ScoreboardModel.refresh

    def refresh(self: ScoreboardModel, *args: Any) -> None:
        sent.append((_context_page.get().session.connection.name, b"refresh"))   # the page being refreshed
        real(self, *args)

    monkeypatch.setattr(ScoreboardModel, "refresh", refresh)

    async def play() -> list[list[tuple[str, bytes]]]:
        # Messages handed to each subscriber as they are sent (no executor between): the other phones would be
        # drawn first if they were told from the tap itself, in the writer's thread, before the tapping phone's
        # own redraw.
        hub = PubSubHub(asyncio.get_running_loop())
        with bootstrap.build(bootstrap.open_folder(folder)) as parts:
            parts.writer = ThreadPoolExecutor(1, thread_name_prefix="xeri-writes")
            main = make_main(parts, PageOptions(test_hooks=True), served_session(parts))
            phones = {name: await open_phone(name, main, sent, hub) for name in NAMES}
            for name, phone in phones.items():
                await tap(phone, "continue-match")
                await wait_for(lambda n=name: seen(sent, n, b"Xeri for Anna (now 0)"), "the scoreboard")
            taps = []
            for n in (1, 2):
                start = len(sent)
                await tap(phones["tapper"], "xeri-0")
                marker = b"Xeri for Anna (now %d)" % n
                await wait_for(lambda m=marker, s=start: len(who_first(sent[s:], m)) == len(NAMES), f"tap {n} everywhere")
                await asyncio.sleep(0.1)
                taps.append(sent[start:])
            parts.writer.shutdown(wait=True)
            return taps

    return run(play())


def test_the_phone_that_tapped_is_sent_its_tap_before_any_other_phone_is_drawn(tmp_path, monkeypatch):
    for n, after in enumerate(play_a_table(tmp_path / "data", monkeypatch), 1):
        marker = b"Xeri for Anna (now %d)" % n
        assert who_first(after, marker)[0] == "tapper", who_first(after, marker)
        refreshed = [i for i, (_, raw) in enumerate(after) if raw == b"refresh"]
        shown = next(i for i, (who, raw) in enumerate(after) if who == "tapper" and marker in raw)
        assert len(refreshed) == 3 and shown < min(refreshed)      # before any other phone even read the match


def test_the_other_phones_are_drawn_one_at_a_time_each_sent_its_page_before_the_next_is_refreshed(tmp_path,
                                                                                                  monkeypatch):
    for n, after in enumerate(play_a_table(tmp_path / "data", monkeypatch), 1):
        marker = b"Xeri for Anna (now %d)" % n
        events = [(who, "refresh" if raw == b"refresh" else "shown") for who, raw in after
                  if raw == b"refresh" or marker in raw]
        watchers = [who for who, what in events if what == "refresh"]
        assert sorted(watchers) == ["a", "b", "c"], events
        assert events[1:] == [(who, what) for who in watchers for what in ("refresh", "shown")], events


class Pubsub:
    """Flet's pub/sub as the adapter uses it: what it sent to the other phones."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def subscribe(self, handler: Any) -> None:
        pass

    def unsubscribe(self) -> None:
        pass

    def send_others(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


class LoopPage:
    """A page whose tasks run on this test's loop, as Flet's `run_task` runs them (bound to the page)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pubsub = Pubsub()

    def run_task(self, handler: Any, *args: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(handler(*args), self.loop)


def test_what_a_phone_changed_is_told_after_its_own_redraw_and_still_told_when_it_goes_away(services):
    from companion.ui.page import PageAdapter
    from companion.ui.viewmodel import AppModel

    page = LoopPage(asyncio.new_event_loop())
    adapter = PageAdapter(page, AppModel(services), PageOptions())  # type: ignore[arg-type]
    adapter.subscribe()
    adapter.session.announce({"match": "m1", "replaces": None})     # an intent changed the match
    adapter.session.announce({"match": "m2", "replaces": "m1"})
    assert page.pubsub.sent == []                                     # not before this page's redraw went out
    adapter.tell_others()                                             # after it
    assert page.pubsub.sent == [{"match": "m1", "replaces": None}, {"match": "m2", "replaces": "m1"}]
    adapter.tell_others()
    assert len(page.pubsub.sent) == 2                                 # told once
    adapter.session.announce({"match": "m2", "replaces": None})
    adapter.disconnected()                                            # gone before its page was drawn again
    assert page.pubsub.sent[-1] == {"match": "m2", "replaces": None}
    # A write of this phone's that ends after it went (the writer's thread was still at it): told at once, as
    # no redraw of this page will come to tell it.
    adapter.session.announce({"match": "m3", "replaces": None})
    assert page.pubsub.sent[-1] == {"match": "m3", "replaces": None} and not adapter.own_news
    adapter.subscribe()                                               # back: held again until its redraw
    adapter.session.announce({"match": "m4", "replaces": None})
    assert page.pubsub.sent[-1] == {"match": "m3", "replaces": None}
    page.loop.close()


def test_a_page_waiting_for_news_is_refreshed_once_and_a_page_gone_wrong_keeps_it_from_no_other(services):
    from companion.ui.page import PageAdapter, news_queue
    from companion.ui.viewmodel import AppModel

    async def main() -> list[tuple[str, str]]:
        loop = asyncio.get_running_loop()
        refreshed: list[tuple[str, str]] = []

        def phone(name: str, fails: bool = False) -> PageAdapter:
            adapter = PageAdapter(LoopPage(loop), AppModel(services), PageOptions())  # type: ignore[arg-type]
            adapter.loop = loop                                      # what `attach` keeps, on the loop
            adapter.subscribe()

            async def refresh(message: dict[str, Any]) -> None:
                refreshed.append((name, message["match"]))
                if fails:
                    raise RuntimeError("its connection is gone")

            adapter._refresh = refresh                               # type: ignore[method-assign]
            return adapter

        a, broken, b = phone("a"), phone("broken", fails=True), phone("b")
        for message in ({"match": "m1"}, {"match": "m1"}, {"match": "m2"}):   # two taps on m1, one on m2
            for adapter in (a, broken, b):
                adapter.on_message(message)
        await asyncio.sleep(0.2)
        assert news_queue(loop).task is not None
        await news_queue(loop).task
        return refreshed

    refreshed = run(main())
    assert refreshed == [("a", "m1"), ("broken", "m1"), ("b", "m1"), ("a", "m2"), ("broken", "m2"), ("b", "m2")]
