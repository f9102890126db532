"""The browser build's page session (`companion.ui.browser_build.BrowserSession`): a redraw that would show a
save waits until the browser has kept it; taps that save nothing redraw at once; a browser that keeps
nothing is said, and does not slow the taps down."""

from __future__ import annotations

import asyncio

from companion.i18n import t
from companion.service import Services
from companion.storage.browser import open_in_browser
from companion.ui.browser_build import BrowserSession
from companion.ui.viewmodel import AppModel, Screen

from ..loop import run
from ..storage.fake_browser import FakeBrowser
from .vm import start


class SlowBrowser(FakeBrowser):
    """A flush waits until the test lets it finish."""

    def __init__(self):
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()

    async def flush(self):
        await self.gate.wait()
        await super().flush()


async def open_app(tmp_path, fake):
    """An app model on a browser session whose redraws are recorded (what the page would draw)."""
    _, store = await open_in_browser(fake, str(tmp_path / "memory"))
    session = BrowserSession(store, Services.over(store))
    redraws: list[int] = []

    def redraw(sender, field):
        redraws.append(sender.revision)

    session.subscribe(redraw)
    session._test_listener = redraw  # listeners are held weakly, as the page's are by its components
    return AppModel(Services.over(store), session=session), store, redraws


async def until(condition, seconds=2.0):
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


def test_the_page_shows_a_saved_hand_only_once_the_browser_has_kept_it(tmp_path):
    async def scenario():
        fake = SlowBrowser()
        app, store, redraws = await open_app(tmp_path, fake)
        start(app)
        await until(lambda: not store.unsettled() and redraws)
        app.scoreboard.end_hand()
        for step in (lambda: app.entry.set_most(0), lambda: app.entry.set_counting(0, 12),
                     lambda: app.entry.set_ten(0), lambda: app.entry.set_two(1)):
            step()
        redraws.clear()
        fake.gate.clear()                     # IndexedDB is slow to answer
        app.entry.save()
        assert app.screen is Screen.SCOREBOARD     # saved in memory ...
        await asyncio.sleep(0.1)
        assert redraws == []                  # ... but not shown: not kept yet
        app.session.viewport = (400, 800)     # a redraw for another reason waits too
        await asyncio.sleep(0.05)
        assert redraws == []
        fake.gate.set()
        await until(lambda: redraws)
        assert not store.unsettled()
        assert redraws == [app.session.revision]   # one redraw, showing everything at once
        store.close()

    run(scenario())


def test_a_tap_that_saves_nothing_redraws_at_once(tmp_path):
    async def scenario():
        fake = SlowBrowser()
        app, store, redraws = await open_app(tmp_path, fake)
        await until(lambda: not store.unsettled())
        fake.gate.clear()
        app.settings.open()
        assert redraws and app.screen is Screen.SETTINGS
        store.close()

    run(scenario())


def test_a_change_the_browser_refuses_to_keep_is_said_and_the_page_goes_on(tmp_path):
    async def scenario():
        fake = SlowBrowser()
        app, store, redraws = await open_app(tmp_path, fake)
        fake.refuse = RuntimeError("QuotaExceededError: no room")
        start(app)
        said = t("notice.browser.unkept", reason="QuotaExceededError: no room")
        await until(lambda: app.session.notice is not None and app.session.notice.text == said)
        assert app.screen is Screen.SCOREBOARD and redraws   # shown, with the words
        # Known to refuse now: the next taps are shown at once, and it is tried again quietly.
        redraws.clear()
        app.scoreboard.tap(0)
        assert redraws
        fake.refuse = None
        await until(lambda: not store.unsettled())
        assert store.refused is None
        store.close()

    run(scenario())


def test_a_browser_that_keeps_nothing_says_so_on_the_first_screen(tmp_path):
    async def scenario():
        fake = FakeBrowser()
        fake.mount_error = RuntimeError("InvalidStateError: no IndexedDB here")
        app, store, _ = await open_app(tmp_path, fake)
        said = t("notice.browser.refused", reason="InvalidStateError: no IndexedDB here")
        assert app.session.problems_at_open == [said]
        start(app)                             # and the app runs, in memory
        store.close()

    run(scenario())


def test_the_page_speaks_the_phones_own_language_as_the_browser_lists_them(monkeypatch):
    # In the browser build no request carries Accept-Language: the worker's navigator says it.
    import sys
    import types

    from companion.ui.browser_build import browser_language, browser_languages

    assert browser_languages() == () and browser_language() == "en"      # not in a browser
    navigator = types.SimpleNamespace(languages=["de-DE", "ko-KR", "ko", "en-US"], language="de-DE")
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(navigator=navigator))
    assert browser_languages() == ("de", "ko", "en")
    assert browser_language() == "ko"                  # German is not spoken: the next one is


def test_what_a_round_of_sync_stored_is_kept_in_the_browser_before_the_phone_is_told(tmp_path):
    from companion import bootstrap
    from companion.service.sync import Report
    from companion.ui.browser_build import start_sync

    from ..storage.builders import new_match

    class Page:
        """What `start_sync` needs of the page: a task on its loop."""

        def run_task(self, handler):
            self.started = handler

    async def scenario():
        fake = SlowBrowser()
        _, store = await open_in_browser(fake, str(tmp_path / "memory"))
        parts = bootstrap.build(store)
        told: list[tuple[str, bool]] = []
        parts.listen(lambda match_id: told.append((match_id, store.unsettled())))
        page = Page()
        start_sync(page, parts, store)
        assert page.started == parts.runner.run          # the runner runs as a task of the page's loop
        match_id = parts.services.table.start(new_match(hands=2)).id   # as a round stores what arrived
        fake.gate.clear()                                # IndexedDB is slow to answer
        round_ended = asyncio.ensure_future(parts.runner.after_round(Report(stored={match_id})))
        await asyncio.sleep(0.1)
        assert told == []                                # not told before it is kept
        fake.gate.set()
        await round_ended
        assert told == [(match_id, False)]               # told once kept
        store.close()

    run(scenario())


def test_a_refused_flush_of_kept_figures_leaves_the_next_unkept_save_said(tmp_path):
    """Figures kept in the background (#27) whose flush the browser refuses must not silence what the next save
    says: a full IndexedDB is told at the first save it refuses (the kept file, rewritten after each match, is
    likely the first write to meet a full quota)."""
    from .vm import enter

    async def scenario() -> None:
        fake = SlowBrowser()
        app, store, _redraws = await open_app(tmp_path, fake)
        start(app)
        enter(app)
        await until(lambda: not store.unsettled())
        fake.refuse = RuntimeError("QuotaExceededError: no room")     # IndexedDB is full from here on
        store.keep("player-pages", b"x" * 1000)                         # as HistoryCache keeps them, on the loop
        await asyncio.sleep(0.2)
        assert store.refused is None
        app.session.notice = None
        enter(app)                                                       # a save the browser does not keep
        await until(lambda: app.session.notice is not None)
        assert app.session.notice.text == t("notice.browser.unkept", reason="QuotaExceededError: no room")
        store.close()

    run(scenario())


def test_a_profiled_start_names_its_slowest_calls_and_an_unasked_one_profiles_nothing(monkeypatch, caplog):
    # `?profile=1`: the browser build's stdlib has no cProfile or pstats, so the report is made here.
    import logging

    from companion.ui import browser_build

    def slow_part():
        return sum(i * i for i in range(20000))

    caplog.set_level(logging.INFO, logger=browser_build.__name__)
    with browser_build.profiled():
        slow_part()
    assert not caplog.records
    monkeypatch.setattr(browser_build, "PROFILE", True)
    with browser_build.profiled():
        slow_part()
    said = caplog.records[-1].getMessage()
    assert said.startswith("Python until the first screen")
    assert "slow_part" in said.split("by the second:")[0]
    assert "by the second:" in said
