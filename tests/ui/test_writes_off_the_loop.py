"""Writes off the event loop (the served app): an intent that writes is handed to the writer and runs there,
in order with every phone's writes; the phone shows nothing of it until it is done; the phone's later
intents wait behind it; another phone's taps that write nothing run at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from companion.engine.live import TapKind
from companion.ui.viewmodel import AppModel, Screen, Session

from .vm import start


class Writer:
    """The page's writer, run by hand: what was handed over waits until `run_next`."""

    def __init__(self) -> None:
        self.queue: list[tuple[Callable[[], object], Callable[[], None]]] = []

    def __call__(self, work: Callable[[], object], done: Callable[[], None]) -> None:
        self.queue.append((work, done))

    def run_next(self) -> None:
        work, done = self.queue.pop(0)
        work()
        done()  # the page calls it back on its loop


class Page(Session):
    """A session that records what the page would draw (held while a write is under way)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.holding = False
        self.drawn: list[int] = []

    def hold_redraws(self) -> None:
        self.holding = True

    def let_go_redraws(self) -> None:
        self.holding = False
        self.drawn.append(self.revision)


def phone(services, writer: Writer, started: bool = False) -> AppModel:
    """A phone whose writes go to `writer`; `started`: it starts a match first (at once, as a test can)."""
    app = AppModel(services, session=Page(services))
    if started:
        start(app)
    app.session.write_later = writer
    return app


def test_a_write_runs_in_the_writer_and_the_phone_shows_it_only_once_done(services):
    writer = Writer()
    a = phone(services, writer, started=True)
    a.scoreboard.tap(0, TapKind.XERI)
    assert a.session.holding and len(writer.queue) == 1 and a.session.drawn == []
    assert services.table.get(a.scoreboard.record.id).live.taps == ()    # nothing stored yet
    writer.run_next()
    assert len(services.table.get(a.scoreboard.record.id).live.taps) == 1
    assert not a.session.holding and a.session.drawn == [a.session.revision]
    assert a.session.notice.text.startswith("Xeri for Anna")


def test_a_phones_later_intents_wait_behind_its_write_and_run_in_order(services):
    writer = Writer()
    a = phone(services, writer, started=True)
    a.scoreboard.tap(0, TapKind.XERI)
    a.rules.open()                                  # writes nothing, but must not change the view model meanwhile
    a.scoreboard.tap(1, TapKind.JACK_XERI)
    assert a.screen is Screen.SCOREBOARD and len(writer.queue) == 3 and a.session.waiting == 3
    writer.run_next()
    writer.run_next()
    assert a.screen is Screen.RULES and a.session.holding   # one still waiting: nothing drawn yet
    writer.run_next()
    assert not a.session.holding and a.session.waiting == 0
    kinds = [t.kind for t in services.table.get(a.scoreboard.record.id).live.taps]
    assert kinds == [TapKind.XERI, TapKind.JACK_XERI]


def test_another_phones_taps_that_write_nothing_run_at_once_while_a_write_waits(services):
    writer = Writer()
    a = phone(services, writer, started=True)
    b = phone(services, writer)
    b.scoreboard.open()
    a.scoreboard.tap(0, TapKind.XERI)               # A's write is under way
    b.rules.open()
    assert b.screen is Screen.RULES and not b.session.holding and len(writer.queue) == 1
    b.back()
    b.scoreboard.tap(1, TapKind.XERI)               # B's write waits behind A's
    writer.run_next()
    writer.run_next()
    assert [t.seat for t in services.table.get(a.scoreboard.record.id).live.taps] == [0, 1]


def test_a_write_that_fails_is_told_and_lets_the_page_go(services, monkeypatch):
    writer = Writer()
    a = phone(services, writer, started=True)
    monkeypatch.setattr(services.table, "tap", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "No space")))
    a.scoreboard.tap(0, TapKind.XERI)
    writer.run_next()
    assert not a.session.holding and a.session.notice.text.startswith("The disk is full")


def test_while_a_write_runs_in_the_writers_thread_the_phones_next_intent_waits_behind_it(services, monkeypatch):
    # Found by the writes benchmark: the writer's thread marks the phone as inside an intent; a timer's
    # intent on the loop must still queue behind the write, not run beside it.
    pool = ThreadPoolExecutor(max_workers=1)
    inside, go_on = threading.Event(), threading.Event()
    finished: list[Callable[[], None]] = []
    a = phone(services, Writer(), started=True)

    def later(work, done):
        pool.submit(lambda: (work(), finished.append(done)))

    a.session.write_later = later
    real_tap = services.table.tap

    def slow_tap(*args, **kwargs):
        inside.set()
        go_on.wait(10)
        return real_tap(*args, **kwargs)

    monkeypatch.setattr(services.table, "tap", slow_tap)
    a.scoreboard.tap(0, TapKind.XERI)
    assert inside.wait(10)                          # the write is under way in the writer's thread
    a.rules.open()
    assert a.screen is Screen.SCOREBOARD and a.session.waiting == 2
    go_on.set()
    pool.shutdown(wait=True)
    for done in finished:                           # what the page's loop does once each is done
        done()
    assert a.screen is Screen.RULES and a.session.waiting == 0 and not a.session.holding


# --- drawing while a write runs (the untaken tap on Save, docs/decisions.md) -------------------------------

class Redraws(list):
    """Every redraw a session asks Flet for (the field that changed; None for all that was held)."""

    __hash__ = object.__hash__   # a listener: kept in Flet's weak set by identity

    def __call__(self, _sender, field: str | None) -> None:
        self.append(field)


def observed_phone(services, writer) -> tuple[AppModel, Redraws]:
    """A phone on the session the served page observes (`ui.app.ObservableSession`), with every redraw it
    asks Flet for recorded (Flet keeps its listeners weakly: the caller keeps the list)."""
    from companion.ui.app import ObservableSession

    session = ObservableSession(services)
    redraws = Redraws()
    session.subscribe(redraws)
    app = AppModel(services, session=session)
    start(app)
    app.session.write_later = writer
    return app, redraws


def test_a_write_handed_to_the_writer_asks_for_no_redraw_until_it_is_done(services):
    # The old code counted the write as waiting before holding the redraws: `waiting` is observed, so the
    # page was asked for a redraw that then ran beside the write in the writer's thread.
    writer = Writer()
    app, redraws = observed_phone(services, writer)
    redraws.clear()
    app.scoreboard.tap(0, TapKind.XERI)
    assert redraws == [] and len(writer.queue) == 1
    writer.run_next()
    assert redraws == [None]                        # one redraw, once it is done, of all it changed


def test_a_screen_is_not_drawn_while_the_writers_thread_is_half_way_through_saving_a_hand(services, monkeypatch):
    # Seen under load in the browser (3 of 3 runs with CPU hogs): a redraw due as Save was tapped drew the
    # hand entry while the writer's thread had closed the form but not yet shown the scoreboard. The drawing
    # failed, Flet drew that page no more, and the phone showed the filled form although the hand was saved.
    from companion.ui.app import draw
    from companion.ui.viewmodel.entry import EntryModel

    pool = ThreadPoolExecutor(max_workers=1)
    finished: list[Callable[[], None]] = []
    app, _redraws = observed_phone(services, None)
    app.scoreboard.end_hand()
    for tap in (lambda: app.entry.set_most(0), lambda: app.entry.set_counting(0, 12), lambda: app.entry.set_ten(0),
                lambda: app.entry.set_two(1)):
        tap()
    app.session.write_later = lambda work, done: pool.submit(lambda: (work(), finished.append(done)))
    closed, go_on = threading.Event(), threading.Event()
    real_close = EntryModel._close

    def close_then_wait(self):
        real_close(self)
        closed.set()                                # the form is gone, the scoreboard not yet on show
        go_on.wait(10)

    monkeypatch.setattr(EntryModel, "_close", close_then_wait)
    app.entry.save()
    assert closed.wait(10)
    drawn: list[object] = []

    def page_draws() -> None:                       # the page's loop, drawing the phone's screen
        with app.session.steady():
            drawn.append(draw(app, False))

    drawing = threading.Thread(target=page_draws)
    drawing.start()
    drawing.join(0.5)
    assert drawn == [], "the screen was drawn from a view model half-way through saving the hand"
    go_on.set()
    drawing.join(10)
    pool.shutdown(wait=True)
    for done in finished:
        done()
    dialog, frame = drawn[0]  # type: ignore[misc]
    assert app.screen is Screen.SCOREBOARD and "screen-broken-frame" not in identifiers(frame)
    assert "end-hand" in identifiers(frame)         # the scoreboard, with the hand saved


def identifiers(control) -> set[str]:
    from tests.screens import walk

    found = set()
    for c, _disabled in walk(control):
        ident = getattr(c, "identifier", None)
        if ident:
            found.add(ident)
    return found


def test_a_screen_that_fails_to_draw_is_said_in_words_with_the_way_home_and_logged(services, monkeypatch, caplog):
    # Let through, a drawing error ends Flet's drawing of that page for good: the phone shows its last screen
    # as if nothing happened, and takes taps it never shows.
    from companion.ui import views
    from companion.ui.app import draw

    app = AppModel(services)
    start(app)

    def broken(_vm):
        raise KeyError("a bug")

    monkeypatch.setitem(views.SCREENS, Screen.SCOREBOARD, broken)
    dialog, frame = draw(app, True)
    assert dialog is None
    assert {"screen-broken", "broken-home", "app-seen"} <= identifiers(frame)
    assert "scoreboard screen could not be drawn" in caplog.text and "KeyError" in caplog.text
    monkeypatch.undo()
    app.home()                                      # what "Back to the start" does
    assert app.screen is Screen.HOME and "screen-broken" not in identifiers(draw(app, False)[1])
