"""The app's view model: one per browser session, made of one view model per screen."""

from __future__ import annotations

import logging
from typing import cast

from ...history.cache import HistoryCache
from ...net.access import Access, normalise
from ...service import Services
from .entry import EntryModel
from .history import HistoryModel
from .player import PlayerModel
from .ratings import RatingsModel
from .picture import SheetPicture
from .record import RecordModel
from .session import Detail, Place, Screen, Session, ViewModel, intent
from .settings import RulesModel, SettingsModel
from .sync import SyncModel
from .setup import SetupModel
from .scoreboard import ScoreboardModel

log = logging.getLogger(__name__)


class AppModel(ViewModel):
    """Everything one phone's screens show and every intent they send, screen by screen.

    `session` is what the screens share (navigation, words, the notice, a pending question); the page
    observes it. Each screen has its view model: `setup` (new match), `table` (scoreboard and live
    taps), `entry` (hand entry), `history`, `record` (a past match), `player`, `settings`, `rules`.
    """

    def __init__(self, services: Services, history_cache: HistoryCache | None = None, lang: str | None = None,
                 session: Session | None = None):
        super().__init__(session or Session(services, history_cache, lang))
        self.scoreboard = ScoreboardModel(self.session, self)
        self.entry = EntryModel(self.session, self)
        self.setup = SetupModel(self.session, self)
        self.history = HistoryModel(self.session, self)
        self.record = RecordModel(self.session, self)
        self.player = PlayerModel(self.session, self)
        self.ratings = RatingsModel(self.session, self)
        self.settings = SettingsModel(self.session, self)
        self.rules = RulesModel(self.session, self)
        self.sync = SyncModel(self.session, self)
        self.session.after_intent = self.keep_place

    @property
    def screen(self) -> Screen:
        return self.session.screen

    def keep_place(self) -> None:
        """Where this phone is (the match it follows, whether at its table), kept in its own browser when it
        changed, so a reload or the app started again brings it back there (`ScoreboardModel._kept_place`)."""
        keep = self.session.keep_place
        if keep is None:
            return
        record = self.scoreboard.record
        at_table = self.screen in (Screen.SCOREBOARD, Screen.ENTRY)
        deciding = (len(record.match.hands) if at_table and record is not None
                    and self.scoreboard.deciding == (record.id, len(record.match.hands)) else 0)
        place = Place(record.id if record is not None else "", at_table, deciding)
        if place != (self.session.place or Place()):
            self.session.place = place
            keep(place)

    def names_shown(self):
        """Every name a screen of this phone may show: known players, the names being typed, the sides of
        the match in play and of the past match open. (For the fonts a name's script needs, `ui.fonts`.)"""
        yield from (p.name for p in self.services.library.players())
        yield from self.setup.form.names
        yield from self.setup.form.team_names
        for match in (self.scoreboard.match, self.record.record.match if self.record.record else None):
            if match is not None:
                for side in match.sides:
                    yield side.name
                    yield from side.members

    def sheet_picture(self) -> SheetPicture | None:
        """The picture of the match on show (`viewmodel.picture`): the past match open from the history, else
        the match at the table; None when there is none."""
        if self.screen is Screen.RECORD:
            return self.record.picture()
        return self.scoreboard.picture()

    # --- navigation the screens share ----------------------------------------------------------------
    @intent
    def back(self) -> None:
        if self.session.screen is Screen.ENTRY:
            self.entry.leave()
            return
        self.session.back()
        now = cast(Screen, self.session.screen)  # where back() went (not the screen tested above)
        if now is Screen.ENTRY and self.entry.draft is None:
            self.session.screen = Screen.SCOREBOARD

    @intent
    def home(self) -> None:
        self.session.home()

    @intent
    def dismiss_notice(self) -> None:
        self.session.notice = None
        self.session.problems_at_open = []

    @intent
    def confirm(self) -> None:
        question, self.session.question = self.session.question, None
        if question is not None:
            question.yes()

    @intent
    def cancel(self) -> None:
        """The other answer to the question: closes it, and does what that answer does (if anything)."""
        question, self.session.question = self.session.question, None
        if question is not None and question.no is not None:
            question.no()

    @intent(writes=True)
    def choose_other(self) -> None:
        """The question's third answer ("Keep both in play"): closes it and does what that answer does."""
        question, self.session.question = self.session.question, None
        if question is not None and question.other is not None:
            question.other()

    @intent
    def dismiss_question(self) -> None:
        """The question closed without an answer (a tap beside it): nothing is done."""
        self.session.question = None

    @intent
    def show_notice(self) -> None:
        """The notice in full, over the screen (the strip shows two lines of it)."""
        notice = self.session.notice
        if notice is not None:
            self.session.detail = Detail(self.tr("nav.notice"), notice.text, ident="notice-detail")

    @intent(person=False)
    def reconnected(self, access: Access | None = None) -> None:
        """The phone came back on a new connection (a reload, back from sleep): the match as stored now, and
        the new rights when the connection brought other ones (the tab opened the join link)."""
        if access is not None:
            self.session.access = Access(access)
        record = self.scoreboard.record
        if record is not None:
            self.scoreboard.refresh(record.id)

    @intent
    def set_join_code(self, text: str) -> None:
        """The table code, as a watching phone types it."""
        self.session.join_code = text[:32]

    def join_path(self) -> str | None:
        """Where a watching phone goes with the code it typed: the join link, which lets it keep score."""
        code = normalise(self.session.join_code)
        return f"/?code={code}" if code else None

    @intent
    def show_join_qr(self) -> None:
        """The QR code of the join link, big enough to scan from across the table."""
        info = self.session.table_info
        if info is not None:
            self.session.detail = Detail(self.tr("join.title"), self.tr("join.scan", url=info.url, code=info.code),
                                         ident="join-qr", image=info.qr_png)

    @intent
    def close_detail(self) -> None:
        self.session.detail = None

