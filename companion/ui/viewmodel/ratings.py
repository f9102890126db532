"""The group's table of honour: the leaderboard of a season (skill ratings, `history.ratings`), its filters, and
the group's records. Worked out off the page's event loop, as a player's page is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from ...history.evening import latest_evening
from ...history.honours import Honour, honours
from ...history.ratings import PROVISIONAL_MATCHES, TABLES, Filter, Leaderboard, Move, Season, table_of
from ...history.stats import player_names
from ...i18n.explain import join_names
from .history import Choice
from .session import Screen, Session, ViewModel, intent

SEASONS = ("month", "quarter", "year", "all", "dates")
"""The seasons a person picks from, shortest first; then dates of the group's choosing."""


@dataclass(frozen=True)
class RatingRow:
    """One player's line on the leaderboard, in words."""

    player_id: str
    place: int
    name: str
    rating: str
    """The shown rating, a whole number as the language writes it."""
    detail: str
    """"12 matches · 7 wins", and "provisional" when it is."""
    change: str | None
    """"+12 this week"; None when there is nothing to compare with or nothing changed."""
    rising: bool
    provisional: bool
    form: tuple[str, ...]
    """The last five results (`won`, `lost`, `drawn`), oldest first."""

    @property
    def label(self) -> str:
        """What a screen reader says of the row."""
        return f"{self.place}. {self.name}, {self.rating}, {self.detail}" + (f", {self.change}" if self.change else "")


@dataclass(frozen=True)
class HonourRow:
    """One of the group's records, in words, and the match it was set in."""

    key: str
    title: str
    value: str
    who: str
    match_id: str


@dataclass(frozen=True)
class EveningCard:
    """Home's card after a session: the evening's matches and who won each, and how the ratings moved."""

    title: str
    lines: tuple[str, ...]
    changes: str | None
    """"Anna +24 · Ben −12", once the history is scored (None while it is warming up)."""

    @property
    def text(self) -> str:
        """What Share sends to the group's chat."""
        return "\n".join((self.title, *self.lines, *((self.changes,) if self.changes else ())))


@dataclass(frozen=True)
class RatingsPage:
    rows: tuple[RatingRow, ...]
    counted: str
    """"34 matches rated", or why none is."""
    note: str | None
    """Why some ratings are provisional, when some are."""
    rules: tuple[str, ...]
    """The rule sets of the history (for the filter)."""
    tables: tuple[str, ...]
    """The table sizes of the history (for the filter)."""
    honours: tuple[HonourRow, ...] = ()
    """The group's records over the same matches."""


@dataclass(frozen=True)
class MoveRow:
    """Why a rating moved: one match, in words ("beat Anna (rated higher)", "+3.1"), and the match to open."""

    match_id: str
    text: str
    change: str
    rising: bool


def move_row(tr, move: Move, names: dict[str, str]) -> MoveRow:
    """A move in words: who was beaten or lost to, whether they were rated higher, and by how much."""
    who = join_names([names.get(p, "?") for p in move.opponents], tr)
    text = tr(f"ratings.move.{move.result}", names=who)
    if move.opponents_rated != "level":
        text = tr(f"ratings.move.rated_{move.opponents_rated}", move=text)
    return MoveRow(move.match_id, text, signed(tr, move.change), move.change >= 0)


def signed(tr, x: float, digits: int = 1) -> str:
    """"+3.1", "−2.4" (or "+24" with no `digits`): the language's decimal mark, a real minus sign."""
    return ("+" if x >= 0 else "−") + tr.decimal(abs(x), digits)


class RatingsModel(ViewModel):
    """The table of honour on screen: its season and filters, and the page worked out for them."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.season = "all"
        self.rules: str | None = None
        self.table: str | None = None
        self.page: RatingsPage | None = None
        """None while it is being worked out."""
        self.typed_dates = ["", ""]
        """The first and the last day being typed (the "dates" season), as ISO dates."""
        self.dates: tuple[date, date] | None = None
        """The days chosen, both counted; None until a person chose them."""
        self.dates_problem: str | None = None
        """Why the dates typed cannot be used, in words."""

    def filter(self, now: datetime) -> Filter:
        if self.season == "dates":
            first, last = self.dates or (now.date(), now.date())
            season = Season(first, last + timedelta(days=1))
        else:
            season = Season() if self.season == "all" else getattr(Season, self.season)(now.date())
        return Filter(season, self.rules, self.table)

    # --- intents -------------------------------------------------------------------------------------
    @intent
    def open(self) -> None:
        self.session.go(Screen.RATINGS)
        self._work_out()

    @intent
    def choose_season(self, key: str) -> None:
        if key in SEASONS and key != self.season:
            self.season = key
            if key == "dates" and not any(self.typed_dates):   # this month's first day to today, to change
                today = datetime.now(UTC).date()
                self.typed_dates = [today.replace(day=1).isoformat(), today.isoformat()]
            self._work_out()

    @intent
    def type_date(self, which: int, text: str) -> None:
        if which in (0, 1):
            self.typed_dates[which] = str(text)[:20]
            self.dates_problem = None

    @intent
    def show_dates(self) -> None:
        """The leaderboard of the days typed (the first and the last both counted), or why they cannot be."""
        try:
            first, last = (date.fromisoformat(t.strip()) for t in self.typed_dates)
        except ValueError:
            self.dates_problem = self.tr("ratings.dates.unreadable", example=datetime.now(UTC).date().isoformat())
            return
        if first > last:
            self.dates_problem = self.tr("ratings.dates.order")
            return
        self.dates, self.dates_problem = (first, last), None
        self._work_out()

    @intent
    def choose_rules(self, name: str) -> None:
        self.rules = None if name == self.rules else name
        self._work_out()

    @intent
    def choose_table(self, table: str) -> None:
        self.table = None if table == self.table or table not in TABLES else table
        self._work_out()

    def _work_out(self) -> None:
        self.page = None
        wanted = (self.season, self.rules, self.table)
        self.slow(lambda: (wanted, self._work(datetime.now(UTC))), self._shown, lambda: self._gave_up(wanted))

    def _gave_up(self, wanted: tuple) -> None:
        """The leaderboard could not be worked out: not left on its spinner (what went wrong is said)."""
        shown = self.page is None and self.session.screen is Screen.RATINGS
        if shown and wanted == (self.season, self.rules, self.table):
            self.session.back()

    @intent(person=False)
    def _shown(self, result) -> None:
        wanted, page = result
        if wanted == (self.season, self.rules, self.table):
            self.page = page

    def evening_card(self, now: datetime | None = None) -> EveningCard | None:
        """The evening on Home (`history.evening`): the matches from the index, at once; the rating changes
        once the history is scored (a screen never waits for the warm-up)."""
        tr, library = self.tr, self.services.library
        run = latest_evening(lambda n: library.history(limit=n), now or datetime.now(UTC))
        if not run:
            return None
        lines = []
        for s in run:
            if s.winner is None:
                score = " : ".join(tr.say(t) for t in s.totals)
                lines.append(tr("ratings.evening.drawn", sides=join_names(s.sides, tr), score=score))
            else:   # the winner's score first, as the line names the winner first
                order = [s.winner, *(i for i in range(len(s.sides)) if i != s.winner)]
                lines.append(tr("ratings.evening.won", winner=s.sides[s.winner],
                                others=join_names([s.sides[i] for i in order[1:]], tr),
                                score=" : ".join(tr.say(s.totals[i]) for i in order)))
        moved = self.session.history_cache.changes_if_warm(library, [s.id for s in run])
        changes = None
        if moved:
            names = {pid: name for s in run for ids, members in zip(s.player_ids, s.members)
                     for pid, name in zip(ids, members)}
            ordered = sorted(moved.items(), key=lambda kv: (-kv[1], names.get(kv[0], "")))
            changes = tr("ratings.evening.changes", changes=" · ".join(
                f"{names.get(pid, '?')} {signed(tr, x, 0)}" for pid, x in ordered))
        return EveningCard(tr.n("ratings.evening.title", len(run)), tuple(lines), changes)

    # --- what the screen shows -----------------------------------------------------------------------
    def season_choices(self) -> list[Choice]:
        return [Choice(k, self.tr(f"ratings.season.{k}"), k == self.season) for k in SEASONS]

    def rules_choices(self) -> list[Choice]:
        names = self.page.rules if self.page else ()
        return [Choice(n, self.tr(f"rules.{n}.title"), n == self.rules) for n in names]

    def table_choices(self) -> list[Choice]:
        tables = self.page.tables if self.page else ()
        return [Choice(t, self.tr(f"ratings.table.{t}"), t == self.table) for t in tables]

    def _work(self, now: datetime) -> RatingsPage:
        tr, library = self.tr, self.services.library
        history = self.session.history_cache.scored(library)
        board: Leaderboard = self.session.history_cache.leaderboard(library, self.filter(now), now)
        names = {**player_names(history), **{p.id: p.name for p in library.players()}}
        rows = []
        for place, p in enumerate(board.ranked(names), start=1):
            detail = f"{tr.n('ratings.matches', p.matches)} · {tr.n('ratings.wins', p.wins)}"
            if p.provisional:
                detail += f" · {tr('ratings.provisional')}"
            change = None
            if p.week_change is not None and round(p.week_change):
                change = tr("ratings.week", change=signed(tr, p.week_change, 0))
            rows.append(RatingRow(p.player_id, place, names.get(p.player_id, "?"), tr.say(round(p.rating)), detail,
                                  change, (p.week_change or 0) > 0, p.provisional, p.form))
        chosen = self.filter(now)
        found = honours([m for m in history if chosen.covers(m)])
        rows_of_honour = tuple(self._honour_row(h, names) for h in found.items())
        decided = [m for m in history if m.is_decided]
        by_rules = {frozenset(m.id for m in decided if m.rules == r) for r in {m.rules for m in decided}}
        counted = tr.n("ratings.counted", board.matches) if board.matches else tr("ratings.none")
        note = tr.n("ratings.provisional_note", PROVISIONAL_MATCHES) if any(r.provisional for r in rows) else None
        return RatingsPage(tuple(rows), counted, note,
                           tuple(sorted({m.rules for m in decided})),
                           tuple(t for t in TABLES if any(table_of(m) == t for m in decided)   # a table size that
                                 and frozenset(m.id for m in decided if table_of(m) == t) not in by_rules),
                           rows_of_honour)    # picks the same matches as a rule set is not offered twice

    def _honour_row(self, h: Honour, names: dict[str, str]) -> HonourRow:
        tr = self.tr
        who = join_names([names.get(p, "?") for p in h.player_ids], tr)
        try:
            when = tr.month(datetime.fromisoformat(h.date.replace("Z", "+00:00")).date())
        except ValueError:
            when = ""
        where = tr("ratings.honour.hand", n=h.hand) if h.hand is not None and h.kind.value != "biggest_comeback" else ""
        return HonourRow(h.kind.value, tr(f"ratings.honour.{h.kind.value}"),
                         tr.n(f"ratings.honour.{h.kind.value}.value", h.value),
                         " · ".join(part for part in (who, where, when) if part), h.match_id)
