"""The history list: finished and abandoned matches, filters by player and rules, import and export."""

from __future__ import annotations

import time
from datetime import datetime

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...formats.presets import preset_names
from ...service import ImportReport, MatchSummary, Player, StorageError, history_file_name
from .session import Screen, Session, Tone, ViewModel, intent
from .sheet import target_in_force

PAGE = 50
"""Matches the history list shows at first, and adds with each "show more": a club's 5,000 matches are not
5,000 rows to build and draw."""


@dataclass(frozen=True)
class HistoryRow:
    """One line of the history list, in words."""

    id: str
    title: str
    score: str
    detail: str
    """Date, rules, goal and result."""


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    selected: bool


class HistoryModel(ViewModel):
    """The history list and its filters; deleting with an undo bin; import and export."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.player: str | None = None
        """The player the list is filtered by (an id), or None."""
        self.rules: str | None = None
        """The preset the list is filtered by, or None."""
        self.deleted: tuple[str, ...] = ()
        """Matches deleted this session, newest last: the undo bin."""
        self.busy: str | None = None
        """What slow work is under way (`import`, `export`), shown instead of its button."""
        self.show_empty = False
        """Whether matches stopped before their first hand are listed (they are hidden by default)."""
        self.download: tuple[str, bytes] | None = None
        """An export for the page to hand to the browser as a download (name, bytes); the page clears it."""
        self.progress: tuple[int, int] | None = None
        """While an import runs: (match files done, match files in all), for the screen to show."""
        self.shown = PAGE
        """How many matches the list shows (a page more with each "show more")."""

    # --- what the screen shows -------------------------------------------------------------------------
    def _filters(self) -> dict[str, Any]:
        return {"player": self.player, "rules": self.rules}

    def summaries(self) -> list[MatchSummary]:
        """The finished and abandoned matches the list shows now, newest first, filtered by player and rule set
        (matches stopped before their first hand only when asked for): the first `shown`."""
        return self.services.library.history(**self._filters(), empty=self.show_empty, limit=self.shown)

    def more_count(self) -> int:
        """How many more matches "show more" adds (a page, or what is left)."""
        total = self.services.library.history_count(**self._filters(), empty=self.show_empty)
        return max(0, min(PAGE, total - self.shown))

    def hidden_count(self) -> int:
        """Matches stopped before their first hand that the list leaves out."""
        if self.show_empty:
            return 0
        library = self.services.library
        return library.history_count(**self._filters()) - library.history_count(**self._filters(), empty=False)

    def rows(self) -> list[HistoryRow]:
        return [self.row(s) for s in self.summaries()]

    def recent(self, limit: int = 3) -> list[HistoryRow]:
        return [] if (self.player or self.rules) else [self.row(s) for s in self.services.library.history(
            empty=False, limit=limit)]

    def in_play(self, leave_out: str | None = None) -> list[HistoryRow]:
        """Every match in play (not over, not stopped), here or on another device of the group, the one changed
        last first (`leave_out`: the one this phone follows, shown on its own): each table's match, to pick."""
        playing = [s for s in self.services.library.playing() if s.id != leave_out]
        return [self.playing_row(s) for s in sorted(playing, key=lambda s: (s.updated, s.id), reverse=True)]

    def playing_row(self, s: MatchSummary) -> HistoryRow:
        tr = self.tr
        ago = self.changed_ago(s.updated)
        last = self.services.sync.last_change(s.id) if self.services.sync is not None else None
        if last is not None:   # in a group: where it changed last ("Anna's phone", this device, another)
            name, here = last
            ago = f"{name or tr('home.by_here' if here else 'home.by_other')}, {ago}"
        detail = f"{tr('match.title', n=s.hands + 1)} · {ago}"
        return HistoryRow(s.id, " · ".join(s.sides), " : ".join(str(t) for t in s.totals), detail)

    def changed_ago(self, when: str) -> str:
        """How long ago a match last changed on this device, in words ("changed 3 minutes ago")."""
        try:
            seconds = max(0, int(time.time() - datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()))
        except ValueError:
            return ""
        if seconds < 60:
            return self.tr("home.changed_now")
        if seconds < 3600:
            return self.tr.n("home.changed_minutes", seconds // 60)
        if seconds < 48 * 3600:
            return self.tr.n("home.changed_hours", seconds // 3600)
        return self.tr.n("home.changed_days", seconds // 86400)

    def row(self, s: MatchSummary) -> HistoryRow:
        tr = self.tr
        if s.is_stopped:
            result = tr("history.abandoned")
        elif s.winner is not None:
            result = tr("history.winner", side=s.sides[s.winner])
        else:
            result = tr("history.drawn")
        goal = (tr.n("history.goal_hands", s.goal["hands"]) if s.goal.get("hands")
                else tr("history.goal_race", target=target_in_force(s.goal, s.totals) or "?"))
        detail = f"{s.when[:10]} · {tr(f'rules.{s.rules}.title')} · {goal} · {result}"
        return HistoryRow(s.id, " · ".join(s.sides), " : ".join(str(t) for t in s.totals), detail)

    def players(self) -> list[Player]:
        """Known players who appear in the history, for the filter and the player pages."""
        seen = self.services.library.seen_players()
        return [p for p in self.services.library.players() if p.id in seen]

    def player_choices(self) -> list[Choice]:
        return [Choice(p.id, p.name, self.player == p.id) for p in self.players()]

    def rules_choices(self) -> list[Choice]:
        return [Choice(n, self.tr(f"rules.{n}.title"), self.rules == n) for n in preset_names(self.session.lang)]

    # --- intents -------------------------------------------------------------------------------------
    @intent
    def open(self) -> None:
        self.session.go(Screen.HISTORY)

    @intent
    def toggle_empty(self) -> None:
        self.show_empty = not self.show_empty

    @intent
    def show_more(self) -> None:
        """The next page of the list under the rows shown (the rows shown stay where they are)."""
        self.shown += PAGE

    @intent
    def filter_player(self, player_id: str) -> None:
        self.player = None if player_id == self.player else player_id
        self.shown = PAGE

    @intent
    def filter_rules(self, name: str) -> None:
        self.rules = None if name == self.rules else name
        self.shown = PAGE

    def deleted_one(self, match_id: str) -> None:
        """A match was deleted (from its page): keep it in the undo bin, back to the list."""
        self.deleted = self.deleted + (match_id,)
        s = self.session
        s.screen = Screen.HISTORY
        s.trail = [h for h in s.trail if h not in (Screen.RECORD, Screen.HISTORY)]
        s.say("notice.deleted")

    @intent(writes=True)
    def undo_delete(self) -> None:
        if self.deleted:
            match_id = self.deleted[-1]
            self.deleted = self.deleted[:-1]
            self.services.library.restore(match_id)
            self.session.say("notice.restored")

    # --- slow work: off the page's event loop ------------------------------------------------------------
    def progress_fraction(self) -> float | None:
        """How far an import has gone (0 to 1), or None when it cannot tell."""
        if not self.progress or not self.progress[1]:
            return None
        return self.progress[0] / self.progress[1]

    def progress_text(self) -> str | None:
        """How far an import has gone, in words, while it runs."""
        if self.busy != "import" or not self.progress or not self.progress[1]:
            return None
        done, total = self.progress
        return self.tr("history.import_progress", done=done, total=total)

    @intent(writes=True)
    def import_files(self, files: list[tuple[str, bytes]]) -> None:
        """Match files or history zips picked on this device: store the new ones, then say what happened."""
        self.busy, self.progress = "import", (0, 0)
        backups = self.services.backups
        shown = [-1]

        def progress(done: int, total: int) -> None:
            # Told from the import's thread after every match: the page hears of it at each whole percent.
            percent = 100 * done // max(total, 1)
            if percent != shown[0]:
                shown[0] = percent
                self.session.post(lambda: self._progressed(done, total))

        self.slow(lambda: backups.import_files(files, progress), self._imported, self._not_busy)

    @intent(person=False)
    def _progressed(self, done: int, total: int) -> None:
        if self.busy == "import":
            self.progress = (done, total)

    @intent(person=False)
    def _imported(self, report: ImportReport) -> None:
        self.busy, self.progress = None, None
        tr = self.tr
        parts = [tr.n("notice.imported", len(report.imported))]
        if report.differed:
            parts.append(tr.n("notice.import_differed", len(report.differed)))
        if report.skipped:
            parts.append(tr.n("notice.import_skipped", len(report.skipped)))
        if report.failed:
            name, why = report.failed[0]
            parts.append(tr.n("notice.import_failed", len(report.failed), name=name, reason=tr.say(why)))
        if report.stopped is not None:
            # A full disk stopped it: say so in words (what came before is stored), as for any other write.
            if not self.recover(report.stopped):
                raise report.stopped
            parts.append(self.session.notice.text)
        self.session.say("notice.plain", Tone.PROBLEM if report.stopped else Tone.INFO, text=" ".join(parts))

    @intent(writes=True)
    def export_all(self) -> None:
        """All history as one zip: into the data folder where there is one, and as a download."""
        self.busy = "export"
        folder = self.services.library.folder
        self.slow(lambda: self._export(folder), self._exported, self._not_busy)

    def _not_busy(self) -> None:
        self.busy, self.progress = None, None

    def _export(self, folder: Path | None) -> tuple[Path | None, str, bytes] | Exception:
        try:
            backups = self.services.backups
            data = backups.archive(self.tr)
            path = backups.export(folder / "exports", data=data) if folder is not None else None
        except (OSError, StorageError) as exc:  # told on the page's loop, in `_exported`
            return exc
        name = path.name if path is not None else history_file_name()
        return path, name, data

    @intent(person=False)
    def _exported(self, result: tuple[Any, str, bytes] | Exception) -> None:
        self.busy = None
        if isinstance(result, Exception):
            raise result  # a full disk or a damaged match: `recover` says it in words
        path, name, data = result
        self.download = (name, data)
        if path is not None and self.session.local:
            self.session.say("notice.exported", path=str(path))    # the folder is on this very device
        else:
            self.session.say("notice.exported_download")
