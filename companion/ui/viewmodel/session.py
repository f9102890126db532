"""What one browser session (one phone) shares between its screens: navigation, the words, the notice
on screen, a pending question, what the session may do, and `intent`, which every view model's actions
go through."""

from __future__ import annotations

import asyncio
import enum
import functools
import logging
import threading
from dataclasses import dataclass
from typing import Any, TypeVar
from collections.abc import Callable

from ...engine.entry import InvalidHand
from ...engine.match import MatchError, MatchOver
from ...engine.messages import SaidError
from ...engine.names import PlayerError
from ...history.cache import HistoryCache
from ...i18n import LANGUAGES, Translator, first_spoken
from ...net.access import Access, TableInfo
from ...service import DamagedMatch, DiskFault, NoSuchMatch, Services, StaleWrite, StorageError, StoreLocked

log = logging.getLogger(__name__)
T = TypeVar("T")


class Screen(enum.StrEnum):
    """Every screen of the app; an unknown name is an error, never a silent home."""

    HOME = "home"
    SETUP = "setup"
    SCOREBOARD = "scoreboard"
    ENTRY = "entry"
    RULES = "rules"
    SETTINGS = "settings"
    HISTORY = "history"
    RECORD = "record"
    PLAYER = "player"
    RATINGS = "ratings"
    SYNC = "sync"
    CONFLICT = "conflict"


class Tone(enum.StrEnum):
    """How a notice looks: news, or something that went wrong."""

    INFO = "info"
    PROBLEM = "problem"


@dataclass(frozen=True)
class Place:
    """Where a phone is: the match it follows (its id, or "") and whether it is at that match's table (the
    scoreboard or the hand's entry). Kept in the phone's own browser (`ui.app`), so a reload, or the laptop's
    app started again, brings that phone back there, and each phone its own."""

    following: str = ""
    at_table: bool = False
    deciding: int = 0
    """At the table playing a drawn match's deciding hand, chosen when it had this many hands (0: none). A reload
    comes back to that hand while the match still has that many: not to one saved elsewhere since, drawn again."""


@dataclass(frozen=True)
class Notice:
    """A sentence for the person holding the phone."""

    text: str
    tone: Tone = Tone.INFO


@dataclass(frozen=True)
class Question:
    """A question asked before something that cannot simply be taken back; `yes` does it."""

    text: str
    yes: Callable[[], Any]
    ident: str = "confirm"
    no: Callable[[], Any] | None = None
    """What the other answer does, when it does more than close the question (\"Continue it\")."""
    yes_label: str | None = None
    """The words of the two answers, when they are more than Yes and Cancel."""
    no_label: str | None = None
    other: Callable[[], Any] | None = None
    """A third answer, when there is one ("Keep both in play"), and its words."""
    other_label: str | None = None


@dataclass(frozen=True)
class Detail:
    """Something shown over the screen until dismissed: a notice in full, or a hand's breakdown."""

    title: str
    text: str | None = None
    sides: tuple = ()
    """A hand's breakdown (`sheet.BreakdownSide` values), when it is one."""
    ident: str = "detail"
    image: str | None = None
    """A picture to show (a QR code, as SVG text or a base64 PNG), when it is one."""


THEMES = ("system", "light", "dark")


class _InWriter(threading.local):
    here = False
    """True in the writer's thread while it runs an intent handed to `Session.write_later`: what it calls
    runs there at once."""


_WRITER = _InWriter()


def _inline(work: Callable[[], Any], done: Callable[[Any], None]) -> None:
    done(work())


def _now(call: Callable[[], Any]) -> None:
    call()


def _run_async(work: Callable[[], Any], done: Callable[[Any], None]) -> None:
    """Without a page: run the coroutine now, on a loop of its own (in a thread of its own if this thread runs a
    loop already, where `asyncio.run` is refused), and hand `done` the result or the exception."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(asyncio.run(work()))
        except Exception as exc:  # noqa: BLE001 - handed to `done`, which says it in words
            outcome.append(exc)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        run()
    else:
        thread = threading.Thread(target=run, name="xeri-request")
        thread.start()
        thread.join()
    done(outcome[0])


class Session:
    """One browser session's shared state. The UI observes it: `revision` moves on after every intent."""

    def __init__(self, services: Services, history_cache: HistoryCache | None = None, lang: str | None = None,
                 access: Access = Access.OWNER, table: TableInfo | None = None, wanted: tuple[str, ...] = ()):
        self.services = services
        self.history_cache = history_cache or HistoryCache()
        settings = services.library.settings()
        if lang not in LANGUAGES:
            # Each phone speaks its own browser's language; the device running the app, once someone chose
            # a language on it, the one chosen (the stored setting is also every phone's second choice).
            stored = settings.get("language", "en")
            chosen = settings.get("language_chosen") and Access(access) is Access.OWNER
            lang = stored if chosen else first_spoken(wanted, stored)
        self.lang: str = lang
        self.theme: str = settings.get("theme", "system")
        self.keep_awake: bool = bool(settings.get("keep_awake", True))
        self.screen: Screen = Screen.HOME
        self.trail: list[Screen] = []
        """The screens to go back to, oldest first."""
        self.notice: Notice | None = None
        self.question: Question | None = None
        self.detail: Detail | None = None
        """What is shown over the screen (a dialog), if anything."""
        self.platform_dark = False
        """Whether the device asks for a dark theme (the page sets it)."""
        self.viewport: tuple[float, float] = (390, 844)
        """The page's size in logical pixels (the page sets it): the screens choose their layout by it."""
        self.local = True
        """Whether this phone is the device the app runs on (a loopback client): only it is shown file paths."""
        self.revision = 0
        """Moves on after every intent (see `intent`): the page redraws."""
        self.taps = 0
        """Intents a person made (not another phone's news, not a timer)."""
        self.page_actions: dict[str, Callable[[], Any]] = {}
        """What only the page can do (share, pick files on the device), set by the page; the screens'
        buttons call them."""
        self.announce: Callable[[dict[str, Any]], None] | None = None
        """Set by the page: tells the other sessions (phones) that a match changed (its id)."""
        self.problems_at_open: list[str] = [self._damaged_text(d) for d in services.library.damaged()]
        self.on_home: list[Callable[[], None]] = []
        """What to forget when the session goes home (set by the view models)."""
        self.background: Callable[[Callable[[], Any], Callable[[Any], None]], None] = _inline
        """How slow work runs: `background(work, done)` calls `work()` and hands its result to `done`.
        The page runs `work` in a thread and `done` back on its event loop (so other phones are not kept
        waiting); without threads (tests, the browser build) both run at once."""
        self.write_later: Callable[[Callable[[], Any], Callable[[], None]], None] | None = None
        """Set by the page where writes go off its event loop (the served app, whose one loop serves every
        phone): `write_later(work, done)` runs `work` after every write handed over before it, from any
        phone, in one thread, then `done` back on the loop. None: every intent runs at once (the tests,
        the browser build, which has no threads)."""
        self.waiting = 0
        """This phone's intents handed to `write_later` and not done yet: while there are any, its other
        intents wait behind them, so the view model is only ever changed in one place, in order."""
        self._steady = threading.RLock()
        """Held by the writer's thread while it runs one of this phone's intents, and by the page while it
        draws this phone's screen (`steady`): a screen is never drawn from a view model half-way through
        a change."""
        self.background_async: Callable[[Callable[[], Any], Callable[[Any], None]], None] = _run_async
        """`background(work, done)` for work that is a coroutine (a request to the group's server): the page runs
        it in a thread of its own, or on its loop in a browser tab; without a page, at once. `done` gets the
        result, or the exception that ended it."""
        self.sync_status: Callable[[], Any] | None = None
        """How syncing goes (`sync.runner.Status`), when the page has a runner to ask."""
        self.sync_seen: Any = None
        """The runner's status the Sync screen last drew (set by the page as it changes: a redraw)."""
        self.place: Place | None = None
        """Where this phone was when it was last used, read from its browser as the page opened (None: a phone
        that keeps no place, or said nothing in time). The scoreboard starts there (`ScoreboardModel`)."""
        self.keep_place: Callable[[Place], None] | None = None
        """How the phone keeps where it is now, in its own browser (set by the page; None without one). Called
        at the end of an intent that moved it (`AppModel.keep_place`)."""
        self.after_intent: Callable[[], None] | None = None
        """Run at the end of each outermost intent, before the page is told (the place kept, in the same flush)."""
        self.copy_text: Callable[[str, str, str], None] | None = None
        """`copy_text(text, done, failed)`: the text to the device's clipboard, then the catalog notice `done` (or
        `failed`, when the browser refuses). Set by the page; None without one."""
        self.app_address = ""
        """The app's own address (`https://app.example/`), where a join link sends another phone."""
        self.post: Callable[[Callable[[], None]], None] = _now
        """How slow work tells the page something while it runs (an import's progress): `post(call)` runs
        `call` on the page's event loop. Set by the page; without one, at once."""
        self.access: Access = Access(access)
        """What this session may do: the server says (the table code, or the device running the app).
        The page sets it again when a browser tab comes back with other rights (it gave the code)."""
        self._table = table
        self.join_code = ""
        """A table code being typed on a watching phone."""

    # --- what this session may do -----------------------------------------------------------------------
    @property
    def can_write(self) -> bool:
        """True when this phone may tap, save, delete, import and change settings; False: it only watches."""
        return self.access.can_write

    @property
    def is_owner(self) -> bool:
        """True on the device that runs the app (or anywhere, when the app serves this device only)."""
        return self.access is Access.OWNER

    @property
    def table_info(self) -> TableInfo | None:
        """How other phones join (address, code, QR code): for a session that may keep score, when the app
        serves the network; None otherwise. A watching phone is never shown the code."""
        return self._table if self.can_write else None

    @property
    def dark(self) -> bool:
        """Whether the screens are drawn in the dark theme."""
        return self.theme == "dark" or (self.theme == "system" and self.platform_dark)

    @property
    def short(self) -> bool:
        """A phone held sideways: too little height for a strip and a button row each."""
        return self.viewport[1] < 500

    @property
    def wide(self) -> bool:
        """A tablet, a laptop, or a phone held sideways: room for two columns."""
        width, height = self.viewport
        return width >= 720 or (width > height and width >= 560)

    # --- words ---------------------------------------------------------------------------------------
    @property
    def tr(self) -> Translator:
        return Translator(self.lang)

    def say(self, key: str, tone: Tone = Tone.INFO, /, **values: Any) -> None:
        """Show the catalog sentence `key`."""
        self.notice = Notice(self.tr(key, **values), tone)

    def _damaged_text(self, damaged: Any) -> str:
        name = damaged.match_name or damaged.path.name
        if damaged.new_path is None:
            return self.tr("notice.damaged_newer", name=name)
        return self.tr("notice.damaged", name=name, moved=str(damaged.new_path))

    def notice_holds(self, status: str) -> bool:
        """Whether the notice is still news over the screen's own status line: news stays until the next change,
        a new notice or the status moving on ("Hand 4 was undone…" while the scoreboard waits; "Joined…" until
        the Sync screen says it is in step); a problem stays until it is put right or another notice comes. The
        status it was first drawn over is remembered here, not in an observed field (no redraw for it)."""
        notice = self.notice
        if notice is None:
            return False
        if notice.tone is Tone.PROBLEM:
            return True
        seen = self.__dict__.get("_notice_over")
        if seen is None or seen[0] is not notice:
            self.__dict__["_notice_over"] = (notice, status)
            return True
        if seen[1] is not None and seen[1] != status:
            self.__dict__["_notice_over"] = (notice, None)    # gone for good: a status back as it was is no news
        return self.__dict__["_notice_over"][1] is not None

    # --- navigation ----------------------------------------------------------------------------------
    def go(self, screen: Screen | str) -> None:
        """Open `screen`, remembering where to go back to."""
        screen = Screen(screen)
        if screen != self.screen:
            self.trail.append(self.screen)
            self.screen = screen
        self.question = self.detail = None
        self.notice = None

    def back(self) -> Screen:
        """Go back one screen; returns the screen left."""
        left = self.screen
        self.question = self.detail = None
        self.notice = None
        self.screen = self.trail.pop() if self.trail else Screen.HOME
        return left

    def home(self) -> None:
        self.trail = []
        self.screen = Screen.HOME
        self.notice = None
        self.question = self.detail = None
        for forget in self.on_home:
            forget()

    def ask(self, key: str, yes: Callable[[], Any], ident: str = "confirm", no: Callable[[], Any] | None = None,
            answers: tuple[str, str] | None = None, other: tuple[str, Callable[[], Any]] | None = None,
            **values: Any) -> None:
        """Ask the catalog question `key` before doing `yes`; `no` is what the other answer does (else it only
        closes the question), `answers` the catalog keys of the two answers' words (else Yes and Cancel), `other`
        a third answer (its words' key, what it does)."""
        yes_label, no_label = (self.tr(answers[0]), self.tr(answers[1])) if answers else (None, None)
        self.question = Question(self.tr(key, **values), yes, ident, no, yes_label, no_label,
                                 other[1] if other else None, self.tr(other[0]) if other else None)

    # --- around each intent: for the page ----------------------------------------------------------
    def steady(self) -> threading.RLock:
        """`with session.steady():` the view model stands still: no intent of this phone runs in the writer's
        thread meanwhile (one that is running is waited for; it is one write of this phone's, and it comes
        only when a redraw was already due as the write began). The page draws the screen inside it.

        Found under load: a redraw due as Save was tapped drew the hand entry while the writer's thread
        closed it (its draft gone, the screen not yet the scoreboard); the drawing failed, which ends Flet's
        drawing of that page for good, so the phone kept showing the filled form although the hand was saved."""
        return self._steady

    def hold_redraws(self) -> None:
        """Draw nothing of this session until `let_go_redraws` (nothing here; the page's session holds them)."""

    def let_go_redraws(self) -> None:
        """Draw what changed since `hold_redraws` (nothing here; see `hold_redraws`)."""

    def written(self) -> None:
        """An intent handed to `write_later` is done (called on the page's loop): once this phone has none
        waiting, the page shows what they did, saved and kept."""
        self.waiting -= 1
        if self.waiting == 0:
            self.let_go_redraws()

    def intent_began(self) -> None:
        """Called before an outermost intent runs. Nothing here; the browser build's page holds its
        redraws from here (see `companion.ui.browser`)."""

    def intent_ended(self) -> None:
        """Called after an outermost intent, once `revision` moved on. Nothing here; the browser build's
        page shows the intent's result only once what it saved is kept (see `companion.ui.browser`)."""


def intent(method: Callable | None = None, *, person: bool = True, writes: bool = False):
    """Mark a view-model method as something a person does (or, `person=False`, the app by itself).

    Afterwards the session's `revision` moves on, so the page redraws; `taps` counts the outermost
    intents of a person, so a test can count what the app saw. An error the person can do something
    about becomes a notice instead of ending the page: a stale screen (another phone changed the
    match), a match that is over, an impossible hand, or storage that failed.

    `writes=True` marks an intent that changes what is stored, opens a form only for that, or shows a
    secret of the group's (the join QR, which holds its password): a watching session
    (`Session.can_write` False) is told so in words and nothing runs. The server
    decides the access; hiding a button is only a courtesy.
    """
    if method is None:
        return functools.partial(intent, person=person, writes=writes)

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        session: Session = self.session
        later = session.write_later
        outermost = session.__dict__.get("_depth", 0) == 0
        if later is not None and not _WRITER.here and (session.waiting or (writes and outermost)):
            # A write waits for the disk (two fsyncs): off the loop that serves every phone, in order with
            # every other write. While one of this phone's is waiting, its other intents wait behind it, so
            # its view model changes in one place at a time. The page shows nothing of it until it is done.
            session.hold_redraws()      # first: `waiting` is observed, and its change must not redraw
            session.waiting += 1

            def work() -> None:
                _WRITER.here = True
                try:
                    with session.steady():
                        perform(self, *args, **kwargs)
                finally:
                    _WRITER.here = False

            later(work, session.written)
            return None
        return perform(self, *args, **kwargs)

    def perform(self, *args, **kwargs):
        session: Session = self.session
        depth = session.__dict__.get("_depth", 0)
        if depth == 0:
            session.intent_began()
        session.__dict__["_depth"] = depth + 1  # not an observed field: no redraw for it
        try:
            if writes and not session.can_write:
                session.question = None
                session.say("notice.read_only", Tone.PROBLEM)
                return None
            return method(self, *args, **kwargs)
        except Exception as exc:
            if not self.recover(exc):
                raise
        finally:
            session.__dict__["_depth"] = depth
            if depth == 0 and person:
                session.taps += 1
            session.revision += 1
            if depth == 0:
                if session.after_intent is not None:
                    session.after_intent()
                session.intent_ended()

    run.writes = writes  # type: ignore[attr-defined]  # read by the tests that list every intent that writes
    return run


class ViewModel:
    """What every screen's view model has: the session, the services, and how it recovers from errors."""

    def __init__(self, session: Session):
        self.session = session

    @property
    def services(self) -> Services:
        return self.session.services

    @property
    def tr(self) -> Translator:
        return self.session.tr

    def slow(self, work: Callable[[], T], done: Callable[[T], None], undo: Callable[[], None]) -> None:
        """Slow work off the page's loop (`Session.background`), its result handed to `done` (an intent). When
        `work` raises, `undo()` puts the screen back as it was before the work began (no spinner left waiting for
        a result that will never come, no button left disabled), and what went wrong is said in words."""
        def guarded() -> Any:
            try:
                return work()
            except Exception as exc:  # noqa: BLE001 - said in words, on the page's loop
                return _Failed(exc)

        def finish(result: Any) -> None:
            if isinstance(result, _Failed):
                self._slow_failed(result.exc, undo)
            else:
                done(result)

        self.session.background(guarded, finish)

    @intent(person=False)
    def _slow_failed(self, exc: Exception, undo: Callable[[], None]) -> None:
        undo()
        if not self.recover(exc):   # a bug: logged with its traceback, and said
            log.error("slow work failed", exc_info=exc)
            self.session.say("notice.slow_failed", Tone.PROBLEM, reason=str(exc) or type(exc).__name__)

    def recover(self, exc: Exception) -> bool:
        """Tell the person what went wrong; False for an error that is a bug (it then propagates)."""
        s = self.session
        if isinstance(exc, StaleWrite):
            s.say("notice.stale", Tone.PROBLEM)
            return True
        if isinstance(exc, (NoSuchMatch, DamagedMatch)):
            # The match itself is gone or damaged: there is nothing left on this screen to show.
            s.home()
            s.say("notice.storage_error", Tone.PROBLEM, reason=str(exc))
            return True
        if isinstance(exc, OSError):  # a disk error no storage call wrapped (an export's own file)
            exc = DiskFault("write the file", self.services.library.folder, exc)
        if isinstance(exc, DiskFault):
            # The screen stays as it is (a hand being entered keeps its numbers): try again once the disk allows.
            s.say(f"notice.disk.{exc.fault.value}", Tone.PROBLEM, folder=str(exc.folder or ""), detail=exc.detail)
            return True
        if isinstance(exc, StoreLocked):
            s.say("notice.store_locked", Tone.PROBLEM, folder=str(exc.folder))
            return True
        if isinstance(exc, StorageError):
            s.say("notice.storage_failed", Tone.PROBLEM, reason=str(exc))
            return True
        if isinstance(exc, MatchOver):
            s.say("notice.match_over", Tone.PROBLEM)
            return True
        if isinstance(exc, (MatchError, InvalidHand, PlayerError, SaidError)):
            # Every SaidError is a sentence for a person (a name, a hand, a group's address or server).
            s.notice = Notice(self.tr.say(exc), Tone.PROBLEM)
            return True
        return False


@dataclass(frozen=True)
class _Failed:
    """What `ViewModel.slow`'s work raised, carried back to the page's loop."""

    exc: Exception
