"""A past match, read-only: its sheet, chart, edit trail and a what-if under other rules."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.match import MatchError, Standing, standing
from ...engine.rules import RulesError
from ...formats.presets import preset, preset_names
from ...history.stats import TotalsSeries, running_totals_series
from ...history.whatif import WhatIf, WhatIfError, what_if, why_not
from ...i18n.explain import goal_text, problem_text, status_text
from ...service import MatchRecord, StaleWrite
from .session import Screen, Session, Tone, ViewModel, intent
from ...formats.sheet import trail_text
from .picture import SheetPicture, sheet_picture
from .sheet import BreakdownSide, HandRow, breakdown, hand_rows


@dataclass(frozen=True)
class WhatIfView:
    """A what-if side by side: each side's total as played and rescored, and the verdict."""

    rows: tuple[tuple[str, int, int], ...]
    """(side, points as played, points rescored)."""
    verdict: str
    hands_after_end: str | None


class RecordModel(ViewModel):
    """The past match opened from the history."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.record: MatchRecord | None = None
        self.opened: int | None = None
        self.choice: tuple[str, bool] | None = None
        """The what-if asked for: (preset, jack xeri worth 25)."""
        self.result: WhatIf | None = None
        self.busy = False

    # --- what the screen shows -------------------------------------------------------------------------
    @property
    def standing(self) -> Standing:
        return standing(self.record.match, strict=False)

    @property
    def title(self) -> str:
        return " · ".join(side.name for side in self.record.match.sides)

    def totals(self) -> list[tuple[int, str, int]]:
        """(side, name, total) of each side."""
        st = self.standing
        return [(i, side.name, st.totals[i]) for i, side in enumerate(self.record.match.sides)]

    def summary_line(self) -> str:
        match, st, tr = self.record.match, self.standing, self.tr
        goal = goal_text(match.goal, tr, st.target)
        return f"{self.record.created[:10]} · {tr(f'rules.{match.rules.name}.title')} · {goal}"

    def status_line(self) -> str:
        st = self.standing
        if self.record.abandoned and not st.is_over:
            return self.tr("history.abandoned_long")
        return status_text(self.record.match, st, self.tr)

    @property
    def can_continue(self) -> bool:
        return self.record.abandoned and not self.standing.is_over

    def chart(self) -> TotalsSeries | None:
        return running_totals_series(self.record.match) if self.record.match.hands else None

    def hand_rows(self) -> list[HandRow]:
        return hand_rows(self.record.match, self.standing, self.tr)

    def breakdown(self, index: int) -> list[BreakdownSide]:
        return breakdown(self.record.match, self.standing.scores[index], self.tr)

    def picture(self) -> SheetPicture | None:
        """The match as a picture for the group's chat (`viewmodel.picture`)."""
        return sheet_picture(self.record, self.standing, self.tr) if self.record else None

    def trail_lines(self) -> list[str]:
        """Each change to a recorded hand, saying what changed (`formats.sheet.trail_text`)."""
        return [trail_text(t, self.record.match, self.tr) for t in self.record.trail]

    def _fitted(self, name: str):
        """The preset as this table would play it (its shape, if the preset is for another)."""
        match = self.record.match
        rules = preset(name)
        if rules.partnerships != match.rules.partnerships or len(match.sides) not in rules.sides_allowed:
            rules = rules.with_overrides(players=list(match.rules.players), partnerships=match.rules.partnerships)
        return rules

    def _why_not(self, name: str) -> str | None:
        try:
            return why_not(self.record.match, self._fitted(name))
        except (RulesError, MatchError):
            return "table"

    def what_if_choices(self) -> list[tuple[str, str, bool]]:
        """(preset, title, selected) of the presets these hands can be rescored under."""
        chosen = self.choice[0] if self.choice and self.result is not None else None
        return [(n, self.tr(f"rules.{n}.title"), n == chosen) for n in preset_names(self.session.lang)
                if self._why_not(n) is None]

    def unavailable_line(self) -> str | None:
        """Which presets are not offered, and why, in words (said in place, not as a notice)."""
        missing = [(n, self._why_not(n)) for n in preset_names()]
        missing = [(n, why) for n, why in missing if why is not None]
        if not missing:
            return None
        names = ", ".join(self.tr(f"rules.{n}.title") for n, _ in missing)
        return self.tr("whatif.not_offered", rules=names, why=self.tr(f"whatif.why.{missing[0][1]}"))

    @property
    def jack25(self) -> bool:
        return bool(self.choice and self.choice[1])

    def what_if_view(self) -> WhatIfView | None:
        result, tr = self.result, self.tr
        if result is None:
            return None
        names = [side.name for side in self.record.match.sides]
        rows = tuple((name, result.stored.totals[i], result.rescored.totals[i]) for i, name in enumerate(names))
        winner = result.rescored.winner
        verdict = tr("whatif.winner", side=names[winner]) if winner is not None else tr("whatif.no_winner")
        if result.winner_changed:
            verdict += " " + tr("whatif.changed")
        after = tr.n("whatif.after_end", result.hands_after_end) if result.hands_after_end else None
        return WhatIfView(rows, verdict, after)

    # --- intents -------------------------------------------------------------------------------------
    @intent
    def open(self, match_id: str) -> None:
        self.record = self.services.library.get(match_id)
        self.result, self.choice, self.opened = None, None, None
        self.session.go(Screen.RECORD)

    def reread(self) -> None:
        """The past match as stored now (another phone of the group changed it)."""
        if self.record is not None:
            self.record = self.services.library.get(self.record.id)

    @intent
    def show_breakdown(self, index: int | None) -> None:
        self.opened = None if index == self.opened else index

    @intent(writes=True)
    def continue_match(self) -> None:
        """Take an abandoned match up again, where it stopped. Another match in play is stopped for it only
        once the person said so, and only as it was when asked."""
        if not self.record:
            return
        current = self.app.scoreboard.own()
        if current is not None and current.id != self.record.id:
            self.app.setup.ask_replace(current, self._resume, key="confirm.resume_replace",
                                       answers=("confirm.resume_yes", "confirm.no"), go_on=False)
            return
        self._resume(None)

    def _resume(self, shown) -> None:
        table = self.app.scoreboard
        stop, expected = shown if shown is not None else (None, None)
        try:
            record = self.services.table.resume(self.record.id, stop=stop, expected=expected)
        except StaleWrite as exc:   # the match in play changed since the question: ask again, as it is now
            self.app.setup.ask_replace(exc.current, self._resume, key="confirm.resume_replace",
                                       answers=("confirm.resume_yes", "confirm.no"), go_on=False)
            return
        self.record = None
        table.started(record, replaces=stop)

    @property
    def can_rematch(self) -> bool:
        """True for a match that was played to its end: the same table can play it again."""
        return self.record is not None and self.standing.is_over

    @intent(writes=True)
    def rematch(self) -> None:
        """The same sides, rules and goal again, the deal moved on; a match in play is stopped for it only once
        the person said so (as for a new match)."""
        if not self.can_rematch:
            return
        current = self.app.scoreboard.own()
        if current is not None:
            self.app.setup.ask_replace(current, self._rematch, key="confirm.rematch_replace",
                                       answers=("confirm.replace_yes", "confirm.no"), go_on=False)
            return
        self._rematch(None)

    def _rematch(self, shown) -> None:
        table = self.app.scoreboard
        stop, expected = shown if shown is not None else (None, None)
        try:
            if stop is not None:
                self.services.table.abandon(stop, expected=expected)
        except StaleWrite as exc:
            self.app.setup.ask_replace(exc.current, self._rematch, key="confirm.rematch_replace",
                                       answers=("confirm.replace_yes", "confirm.no"), go_on=False)
            return
        record = self.services.table.rematch(self.record.id)
        self.record = None
        table.started(record, replaces=stop)
        self.session.say("notice.started", dealer=record.match.seats[record.match.first_dealer].player)

    @intent(writes=True)
    def ask_delete(self) -> None:
        self.session.ask("confirm.delete", self.delete)

    @intent(writes=True)
    def delete(self) -> None:
        match_id = self.record.id
        self.services.library.delete(match_id)
        if self.app.scoreboard.record and self.app.scoreboard.record.id == match_id:
            self.app.scoreboard.record = None
        self.record = None
        self.app.history.deleted_one(match_id)

    @intent
    def run_what_if(self, preset_name: str, jack25: bool = False) -> None:
        """Rescore the match under another preset (and the 25-point jack xeri), side by side."""
        if not self.record:
            return
        match = self.record.match
        self.choice = (preset_name, jack25)
        self.session.notice = None
        try:
            rules = self._fitted(preset_name)
            if jack25:
                rules = rules.with_overrides(jack_xeri_points=25)
        except (RulesError, MatchError) as exc:
            self._cannot(preset_name, self.tr.say(exc))
            return
        self.busy = True
        self.slow(lambda: self._rescore(match, rules), self._rescored, lambda: setattr(self, "busy", False))

    @staticmethod
    def _rescore(match, rules) -> WhatIf | WhatIfError | RulesError | MatchError:
        try:
            return what_if(match, rules)
        except (WhatIfError, RulesError, MatchError) as exc:
            return exc

    @intent(person=False)
    def _rescored(self, outcome) -> None:
        self.busy = False
        if self.record is None or self.choice is None:
            return
        if isinstance(outcome, WhatIf):
            self.result = outcome
            return
        names = [side.name for side in self.record.match.sides]
        if isinstance(outcome, WhatIfError) and outcome.problems:
            reason = problem_text(outcome.problems[0], names, self.tr)
        else:
            reason = self.tr.say(outcome)
        where = self.tr("match.hand_n", n=outcome.hand + 1) + ": " if getattr(outcome, "hand", None) is not None else ""
        self._cannot(self.choice[0], where + reason)

    def _cannot(self, preset_name: str, reason: str) -> None:
        self.result = None
        self.session.say("whatif.cannot", Tone.PROBLEM, rules=self.tr(f"rules.{preset_name}.title"), reason=reason)
