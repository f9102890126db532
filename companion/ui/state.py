"""The app's view model: plain Python that alone calls the engine and storage; screens render it.

Every method is an intent a person can have (`tap_xeri`, `save_hand`, `undo_last_hand`, …). It never
imports flet, so it is tested without a page; the UI wraps it with `ft.observable`.
"""

from __future__ import annotations

import functools
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from ..engine.entry import InvalidHand, Problem
from ..engine.match import Match, MatchError, Side, Standing, standing
from ..engine.rules import Direction, Goal, RuleSet, RulesError
from ..explain import goal_text, problem_text
from ..i18n import LANGUAGES, Translator
from ..presets import preset, preset_names
from ..records import MatchRecord
from ..storage import StorageError
from ..sheet import sheet_text
from .draft import EntryDraft

def intent(method=None, *, person: bool = True):
    """Mark a method as something a person does: afterwards `revision` moves on.

    The UI observes the view model's attributes; an intent that only changes a nested value (a name in
    the new-match form, a number in the hand being entered) would otherwise not be seen. `taps` counts
    the outermost intents a person made (`person=False` for what the app does by itself: another
    phone's change, a timer), so a test can count what the app saw.
    """
    if method is None:
        return functools.partial(intent, person=person)

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        depth = self.__dict__.get("_depth", 0)
        self._depth = depth + 1
        try:
            return method(self, *args, **kwargs)
        except StorageError as exc:
            # The match went away under this session (another session deleted it, or its file was
            # damaged): an escaping exception would end the whole page, so go home and say why.
            self.record = self.store.unfinished() if not self.store.closed else None
            self.viewing = None
            self._reset_match_view()
            self.history, self.screen = [], "home"
            self.notice = self.tr("notice.storage_error", reason=str(exc))
        finally:
            self._depth = depth
            if depth == 0 and person:
                self.taps = getattr(self, "taps", 0) + 1
            self.revision = getattr(self, "revision", 0) + 1

    return run


LAYOUTS = ("two", "partners", "three", "four")
"""Who plays: 2 players, 4 in two partnerships, 3 or 4 individual players."""
LAYOUT_SEATS = {"two": 2, "partners": 4, "three": 3, "four": 4}
THEMES = ("system", "light", "dark")


@dataclass
class SetupDraft:
    """The new-match form."""

    layout: str = "two"
    names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    team_names: list[str] = field(default_factory=lambda: ["", ""])
    preset: str = "classic"
    jack_xeri_points: int = 20
    jack_xeri_on_any: bool = False
    two: str = "2C"
    dealer_last_card_no_xeri: bool = False
    direction: str = "anticlockwise"
    goal_kind: str = "race"
    """`race` (the preset's target and extension), `custom` (a target of your own) or `hands`."""
    target: int = 151
    hands: int = 7
    first_dealer: int | None = 0
    """The seat that deals first, or None to draw for deal."""

    def load_preset(self, name: str) -> None:
        rules = preset(name)
        self.preset = name
        self.jack_xeri_points = rules.jack_xeri_points
        self.jack_xeri_on_any = rules.jack_xeri_on_any
        self.two = rules.two.code
        self.dealer_last_card_no_xeri = rules.dealer_last_card_no_xeri
        self.direction = rules.direction.value
        if rules.goal.hands is not None:
            self.goal_kind, self.hands = "hands", rules.goal.hands
        else:
            self.goal_kind, self.target = "race", rules.goal.target
        if rules.partnerships:
            self.layout = "partners"
        elif self.layout != "two" and 4 not in rules.players and 3 not in rules.players:
            self.layout = "two"

    @property
    def seats(self) -> int:
        return LAYOUT_SEATS[self.layout]

    def rules(self) -> RuleSet:
        """The rule set: the preset with the switches and the table's layout on top."""
        base = preset(self.preset)
        changes: dict[str, Any] = {
            "jack_xeri_points": self.jack_xeri_points, "jack_xeri_on_any": self.jack_xeri_on_any,
            "two": self.two, "dealer_last_card_no_xeri": self.dealer_last_card_no_xeri,
            "direction": self.direction,
            "players": [self.seats], "partnerships": self.layout == "partners",
        }
        changes = {k: v for k, v in changes.items() if base.to_dict()[k] != v}
        return base.with_overrides(**changes) if changes else base

    def goal(self, rules: RuleSet) -> Goal:
        if self.goal_kind == "hands":
            return Goal(hands=self.hands)
        if self.goal_kind == "custom":
            return Goal(target=self.target, extension=self.target + (rules.goal.step or 100))
        return rules.goal if rules.goal.is_race else Goal(target=151, extension=251)

    def player_names(self) -> list[str]:
        return [n.strip() for n in self.names[: self.seats]]

    def sides(self, tr: Translator) -> list[Side]:
        names = self.player_names()
        if self.layout == "partners":
            out = []
            for team in range(2):
                a, b = names[2 * team], names[2 * team + 1]
                title = self.team_names[team].strip() or tr("setup.team_default", a=a, b=b)
                out.append(Side(title, (a, b)))
            return out
        return [Side(n) for n in names]

    def missing(self) -> list[str]:
        """i18n keys of what is still needed before the match can start."""
        names = self.player_names()
        out = []
        if any(not n for n in names):
            out.append("setup.missing.names")
        elif len({n.casefold() for n in names}) < len(names):
            out.append("setup.missing.distinct")
        if self.goal_kind == "hands" and not 1 <= self.hands <= 99:
            out.append("setup.missing.hands")
        if self.goal_kind == "custom" and not 10 <= self.target <= 10000:
            out.append("setup.missing.target")
        return out


def seat_sides(match: Match) -> list[int]:
    """The side of each seat."""
    return [seat.side for seat in match.seats]


class HistoryCache:
    """The scored history, kept for the whole app: each stored match is read and scored once per
    version (id, last change), whichever browser session asks, so a player page costs adding up
    figures, not reading a thousand files. `warm` fills it in the background when the app starts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scored: dict[str, tuple[str, Any]] = {}
        self._key: tuple = ()
        self._result: tuple = ()

    def scored(self, store: Any) -> tuple:
        from ..stats import score_history, score_record

        wanted = [s for s in store.list_matches() if not (s.is_playing and not s.abandoned)]
        key = tuple((s.id, s.updated) for s in wanted)
        with self._lock:
            if key == self._key:
                return self._result
            have = dict(self._scored)
        fresh = {}
        for s in wanted:
            known = have.get(s.id)
            fresh[s.id] = (s.updated, known[1] if known and known[0] == s.updated else score_record(store.get(s.id)))
        result = score_history(scored for _, scored in fresh.values())
        with self._lock:
            self._scored, self._key, self._result = fresh, key, result
        return result

    def warm(self, store: Any) -> None:
        try:
            self.scored(store)
        except Exception:  # a warm-up is only a head start: the page will read what it needs itself
            pass


@dataclass(frozen=True)
class HistoryItem:
    """One line of the history list, read from the storage index only."""

    id: str
    date: str
    side_names: tuple[str, ...]
    rules: str
    totals: tuple[int, ...]
    winner: int | None
    abandoned: bool
    player_ids: tuple[tuple[str, ...], ...]
    when: str = ""
    """The full timestamp the list is sorted by (finished, else last changed)."""
    goal: Any = None
    """The goal in match-file form."""


class HistoryIntents:
    """The history, player pages, what-if and export: mixed into `AppState`."""

    history_player: str | None = None
    history_rules: str | None = None
    player_shown: str | None = None
    what_if_result: Any = None
    what_if_choice: tuple[str, bool] | None = None
    deleted: tuple[str, ...] = ()

    @intent
    def open_history(self) -> None:
        self.go("history")

    def history_items(self) -> list[HistoryItem]:
        """Finished and abandoned matches, newest first, filtered by player and rule set."""
        items = []
        for s in self.store.list_matches():
            if s.is_playing and not s.abandoned:
                continue
            if self.history_player and not any(self.history_player in ids for ids in s.player_ids):
                continue
            if self.history_rules and s.rules != self.history_rules:
                continue
            when = s.finished or s.updated or s.created
            items.append(HistoryItem(s.id, when[:10], tuple(s.sides), s.rules, tuple(s.totals), s.winner,
                                     bool(s.abandoned and s.is_playing), tuple(s.player_ids), when, dict(s.goal)))
        return sorted(items, key=lambda i: (i.when, i.id), reverse=True)

    def recent_matches(self, limit: int = 3) -> list[HistoryItem]:
        return self.history_items()[:limit] if not (self.history_player or self.history_rules) else []

    @intent
    def set_history_filter(self, player: str | None = ..., rules: str | None = ...) -> None:
        if player is not ...:
            self.history_player = None if player == self.history_player else player
        if rules is not ...:
            self.history_rules = None if rules == self.history_rules else rules

    def history_players(self) -> list[Any]:
        """Known players who appear in the history, for the filter."""
        seen = {pid for s in self.store.list_matches() for ids in s.player_ids for pid in ids}
        return [p for p in self.store.players() if p.id in seen]

    @intent
    def open_record(self, match_id: str) -> None:
        self.viewing = self.store.get(match_id)
        self.what_if_result = None
        self.what_if_choice = None
        self.breakdown = None
        self.go("record")

    @intent
    def continue_viewing(self) -> None:
        """Continue an abandoned match where it stopped."""
        if not self.viewing:
            return
        if self.record and self.record.id != self.viewing.id and not standing(self.record.match).is_over:
            self.store.abandon(self.record.id)
        self.record = self.store.resume(self.viewing.id)
        self.viewing = None
        self._reset_match_view()
        self.history = ["home"]
        self.screen = "match"

    @intent
    def delete_match(self, match_id: str) -> None:
        self.store.delete(match_id)
        self.deleted = self.deleted + (match_id,)
        if self.record and self.record.id == match_id:
            self.record = None
        self.viewing = None
        self.screen = "history"
        self.history = [h for h in self.history if h not in ("record", "history")]
        self.notice = self.tr("notice.deleted")

    @intent
    def undo_delete(self) -> None:
        if self.deleted:
            match_id = self.deleted[-1]
            self.deleted = self.deleted[:-1]
            self.store.restore(match_id)
            self.notice = self.tr("notice.restored")

    def scored_history(self):
        """Every finished and abandoned match, scored once per version and shared by all sessions."""
        return self.history_cache.scored(self.store)

    @intent
    def open_player(self, player_id: str) -> None:
        self.player_shown = player_id
        self.go("player")

    def player_page(self) -> dict[str, Any]:
        """Everything the player page shows, computed once from the scored history."""
        from ..stats import head_to_head, partnerships, player_names, player_stats, points_per_hand_series, wins_per_month

        scored = self.scored_history()
        pid = self.player_shown
        names = {p.id: p.name for p in self.store.players()} | {}
        names = {**player_names(scored), **names}
        return {
            "name": names.get(pid, "?"),
            "names": names,
            "stats": player_stats(scored, pid),
            "head_to_head": head_to_head(scored, pid),
            "partners": partnerships(scored, pid),
            "points": points_per_hand_series(scored, pid),
            "months": wins_per_month(scored, pid),
        }

    @intent
    def run_what_if(self, preset_name: str, jack25: bool = False) -> None:
        """Rescore the match on screen under another preset (and the 25-point jack xeri), side by side."""
        from ..stats import WhatIfError, what_if

        if not self.viewing:
            return
        match = self.viewing.match
        rules = preset(preset_name)
        if rules.partnerships != match.rules.partnerships or len(match.sides) not in rules.sides_allowed:
            rules = rules.with_overrides(players=list(match.rules.players), partnerships=match.rules.partnerships)
        if jack25:
            rules = rules.with_overrides(jack_xeri_points=25)
        self.what_if_choice = (preset_name, jack25)
        self.notice = None
        try:
            self.what_if_result = what_if(match, rules)
        except WhatIfError as exc:
            self.what_if_result = None
            names = [side.name for side in match.sides]
            reason = problem_text(exc.problems[0], names, self.tr) if exc.problems else str(exc)
            where = self.tr("match.hand_n", n=exc.hand + 1) + ": " if exc.hand is not None else ""
            self.notice = self.tr("whatif.cannot", rules=self.tr(f"rules.{preset_name}.title"), reason=where + reason)
        except (RulesError, MatchError) as exc:
            self.what_if_result = None
            self.notice = self.tr("whatif.cannot", rules=self.tr(f"rules.{preset_name}.title"), reason=str(exc))

    @intent
    def import_files(self, files: list[tuple[str, bytes]]) -> None:
        """Match files or history zips picked on this device: store the new ones, say what happened."""
        from ..archive import import_files

        report = import_files(self.store, files)
        parts = [self.tr.n("notice.imported", len(report.imported))]
        if report.skipped:
            parts.append(self.tr.n("notice.import_skipped", len(report.skipped)))
        if report.failed:
            name, why = report.failed[0]
            parts.append(self.tr.n("notice.import_failed", len(report.failed), name=name, reason=why))
        self.notice = " ".join(parts)

    @intent
    def export_all(self) -> Any:
        """Write all history into one zip in the data folder; return its path (the page also offers
        it as a download, so a phone using a laptop's app gets its own copy)."""
        from ..archive import export_archive

        path = export_archive(self.store)
        self.notice = self.tr("notice.exported", path=str(path))
        return path


class AppState(HistoryIntents):
    """Everything the screens show, and every intent they send."""

    def __init__(self, store: Any, lang: str | None = None, history_cache: HistoryCache | None = None):
        self.store = store
        self.history_cache = history_cache or HistoryCache()
        self.revision = 0
        """Moves on after every intent (see `intent`)."""
        self.taps = 0
        """Intents a person made (see `intent`)."""
        settings = store.settings()
        self.lang: str = lang or settings.get("language", "en")
        self.theme: str = settings.get("theme", "system")
        self.keep_awake: bool = bool(settings.get("keep_awake", True))
        self.screen: str = "home"
        self.history: list[str] = []
        self.record: MatchRecord | None = store.unfinished()
        self.viewing: MatchRecord | None = None
        """A past match opened read-only from the history."""
        self.setup = SetupDraft()
        self.setup.load_preset(settings.get("last_rules", "classic") if settings.get("last_rules") in preset_names() else "classic")
        self.draft: EntryDraft | None = None
        self.editing: int | None = None
        self.breakdown: int | None = None
        self.flash: int | None = None
        """The hand just saved, whose breakdown the scoreboard shows for a moment."""
        self.confirm: tuple | None = None
        self.notice: str | None = None
        self.rules_shown: str = self.record.match.rules.name if self.record else self.setup.preset
        self.problems_at_open: list[str] = [self._damaged_text(d) for d in getattr(store, "damaged", [])]
        self.share_action: Any = None
        """An async callable the page sets to share (or copy) the score sheet."""
        self.import_action: Any = None
        """An async callable the page sets to pick match files on this device and import them."""
        self.export_action: Any = None
        """An async callable the page sets to export all history and download it on this device."""
        self.announce: Any = None
        """A callable the page sets to tell the other browser sessions that a match changed (its id)."""

    # --- words ----------------------------------------------------------------------------------
    @property
    def tr(self) -> Translator:
        return Translator(self.lang)

    def _damaged_text(self, damaged: Any) -> str:
        name = damaged.match_name or damaged.path.name
        if damaged.new_path is None:
            return self.tr("notice.damaged_newer", name=name)
        return self.tr("notice.damaged", name=name, moved=str(damaged.new_path))

    # --- navigation -----------------------------------------------------------------------------
    @intent
    def go(self, screen: str) -> None:
        if screen != self.screen:
            self.history.append(self.screen)
            self.screen = screen
        self.confirm = None
        self.notice = None

    @intent
    def back(self) -> None:
        self.confirm = None
        self.notice = None
        if self.screen == "entry":
            self.draft, self.editing = None, None
        self.screen = self.history.pop() if self.history else "home"
        if self.screen == "entry" and self.draft is None:
            self.screen = "match"

    def _reset_match_view(self) -> None:
        """Forget what belonged to the match on screen: a pending question, a form, an opened hand."""
        self.confirm = None
        self.draft, self.editing, self.breakdown, self.flash = None, None, None, None

    def _changed(self) -> None:
        """Tell the other sessions (phones at the same table) that the match in play changed."""
        if self.announce is not None and self.record is not None:
            self.announce(self.record.id)

    @intent(person=False)
    def refresh(self, match_id: str) -> None:
        """Another session changed match `match_id`: show it as stored now."""
        if self.record is not None and self.record.id != match_id:
            return
        if self.record is None and self.screen != "home":
            return
        record = self.store.get(match_id)
        if record.abandoned:
            if self.record is not None:
                self.record = None
                if self.screen in ("match", "entry"):
                    self.home()
            return
        self.record = record
        if self.screen == "entry":
            self.notice = self.tr("notice.changed_elsewhere")

    def _fresh(self) -> None:
        """Read the match in play again: another session (web mode serves several) may have changed it."""
        if self.record is not None:
            self.record = self.store.get(self.record.id)

    @intent
    def home(self) -> None:
        self.history = []
        self.screen = "home"
        self.notice = None
        self._reset_match_view()

    # --- the match in play ----------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        return self.record.match if self.record else None

    @property
    def standing(self) -> Standing | None:
        return standing(self.record.match) if self.record else None

    @property
    def side_names(self) -> list[str]:
        return [s.name for s in self.match.sides] if self.match else []

    @intent
    def continue_match(self) -> None:
        self._fresh()
        if self.record:
            self.go("match")

    @intent
    def new_match(self) -> None:
        self.setup = SetupDraft()
        last = self.store.settings().get("last_rules", "classic")
        self.setup.load_preset(last if last in preset_names() else "classic")
        names = self._last_names()
        for i, n in enumerate(names[:4]):
            self.setup.names[i] = n
        self.go("setup")

    def _last_names(self) -> list[str]:
        if self.record:
            return [p for s in self.record.match.sides for p in s.members]
        return []

    # setup taps
    @intent
    def setup_layout(self, layout: str) -> None:
        d = self.setup
        d.layout = layout
        rules = preset(d.preset)
        if layout == "partners" and not rules.partnerships:
            d.load_preset("partnership")
        elif layout != "partners" and (rules.partnerships or LAYOUT_SEATS[layout] not in rules.players):
            d.load_preset("classic" if layout == "two" else "greek-online")
        d.layout = layout
        if d.first_dealer is not None and d.first_dealer >= d.seats:
            d.first_dealer = 0

    @intent
    def setup_name(self, index: int, name: str) -> None:
        self.setup.names[index] = name

    @intent
    def pick_name(self, index: int, name: str) -> None:
        """A suggested name tapped: the app fills the field itself."""
        self.setup.names[index] = name

    @intent
    def setup_team_name(self, index: int, name: str) -> None:
        self.setup.team_names[index] = name

    @intent
    def setup_preset(self, name: str) -> None:
        layout = self.setup.layout
        self.setup.load_preset(name)
        rules = preset(name)
        if not rules.partnerships and layout != "partners" and LAYOUT_SEATS[layout] in rules.players:
            self.setup.layout = layout

    @intent
    def setup_option(self, key: str, value: Any) -> None:
        setattr(self.setup, key, value)

    def name_suggestions(self, typed: str) -> list[str]:
        """Known player names starting with what was typed (case-insensitive), not already at the table."""
        taken = {n.strip().casefold() for n in self.setup.names[: self.setup.seats]}
        typed = typed.strip().casefold()
        return [p.name for p in self.store.players()
                if p.name.casefold().startswith(typed) and p.name.casefold() not in taken][:6]

    @intent
    def start_match(self) -> None:
        if self.setup.missing():
            self.notice = self.tr(self.setup.missing()[0])
            return
        tr = self.tr
        try:
            rules = self.setup.rules()
            goal = self.setup.goal(rules)
            first = self.setup.first_dealer
            if first is None:
                first = random.randrange(self.setup.seats)
            match = Match.new(rules, self.setup.sides(tr), goal, first_dealer=first)
        except (RulesError, MatchError) as exc:
            self.notice = str(exc)
            return
        self._fresh()
        if self.record and not standing(self.record.match).is_over:
            self.store.abandon(self.record.id)
        self.record = self.store.create_match(match)
        self._changed()
        self.store.update_settings(last_rules=self.setup.preset)
        self._reset_match_view()
        self.history = ["home"]
        self.screen = "match"
        self.notice = tr("notice.started", dealer=match.seats[first].player)

    # live taps
    def seat_count(self, seat: int, kind: str) -> int:
        return self.record.live.count(seat, kind) if self.record else 0

    @intent
    def tap_xeri(self, seat: int, kind: str = "xeri") -> None:
        self._fresh()
        if not self.record:
            return
        self.record = self.store.set_live(self.record.id, self.record.live.tap(seat, kind))
        self._changed()
        self.flash = None
        player = self.match.seats[seat].player
        self.notice = self.tr(f"notice.tap.{kind}", player=player)

    @intent
    def undo_tap(self) -> None:
        self._fresh()
        if self.record and self.record.live.taps:
            last = self.record.live.taps[-1]
            self.record = self.store.set_live(self.record.id, self.record.live.undo())
            self._changed()
            self.notice = self.tr(f"notice.untap.{last.kind}", player=self.match.seats[last.seat].player)

    # hand entry
    @intent
    def end_hand(self) -> None:
        self._fresh()
        if not self.record or standing(self.match).is_over:
            return
        n = len(self.match.sides)
        xeris, jacks = self.record.live.per_side(seat_sides(self.match), n)
        self.draft = EntryDraft(n, self.match.rules, xeris=list(xeris), jack_xeris=list(jacks))
        self.editing = None
        self.flash = None
        self.go("entry")

    @intent
    def edit_hand(self, index: int) -> None:
        self._fresh()
        if not self.record or not 0 <= index < len(self.record.match.hands):
            return
        self.draft = EntryDraft.from_entry(self.match.hands[index], self.match.rules)
        self.editing = index
        self.breakdown = None
        self.go("entry")

    def entry_problems(self) -> list[tuple[Problem, str]]:
        """The draft's problems with their sentences."""
        if not self.draft:
            return []
        return [(p, problem_text(p, self.side_names, self.tr)) for p in self.draft.problems()]

    def save_reason(self) -> str | None:
        """Why Save is disabled, in words; None when the hand can be saved."""
        if not self.draft:
            return None
        missing = self.draft.missing()
        if missing:
            return self.tr(missing[0], card=self.match.rules.two.label)
        problems = self.entry_problems()
        return problems[0][1] if problems else None

    @intent
    def draft_tap(self, method: str, *args: Any) -> None:
        """A tap on the hand-entry form (`set_most`, `set_counting`, `tap_card`, …)."""
        if self.draft is None:
            return
        getattr(self.draft, method)(*args)
        self.notice = None

    @intent
    def set_exact(self, exact: bool) -> None:
        if self.draft:
            self.draft.exact = exact

    @intent
    def toggle_counts(self) -> None:
        if self.draft:
            self.draft.show_counts = not self.draft.show_counts
            if not self.draft.show_counts:
                self.draft.cards.clear()

    @intent
    def save_hand(self) -> None:
        if not self.draft or not self.record:
            return
        entry = self.draft.entry()
        reason = self.save_reason()
        if entry is None or reason:
            self.notice = reason
            return
        try:
            if self.editing is None:
                self.record = self.store.record_hand(self.record.id, entry)
                index = len(self.record.match.hands) - 1
            else:
                index = self.editing
                self.record = self.store.edit_hand(self.record.id, index, entry)
        except InvalidHand as exc:
            self.notice = problem_text(exc.problems[0], self.side_names, self.tr)
            return
        except MatchError as exc:
            if self.editing is None:
                self.notice = self.tr("notice.match_over")
            else:
                self.notice = self.tr("notice.edit_ends_match", hand=(getattr(exc, "decided_at", None) or 0) + 1)
            return
        self._changed()
        self.draft, self.editing = None, None
        self.flash = index
        self.screen = "match"
        if self.history and self.history[-1] == "match":
            self.history.pop()
        self.notice = None

    # the scoreboard
    @intent
    def show_breakdown(self, index: int | None) -> None:
        self.breakdown = index
        self.flash = None

    @intent
    def dismiss_flash(self) -> None:
        self.flash = None

    @intent(person=False)
    def fade_flash(self, shown: int) -> None:
        """The saved hand's breakdown has been shown long enough: give the screen back to the next hand."""
        if self.flash == shown and self.screen == "match":
            self.flash = None

    @intent
    def ask(self, *what: Any) -> None:
        """Ask for confirmation before `what` (`("undo",)`, `("edit", 2)`, `("abandon",)`)."""
        self.confirm = tuple(what)

    @intent
    def cancel(self) -> None:
        self.confirm = None

    @intent
    def confirmed(self) -> None:
        what, self.confirm = self.confirm, None
        if not what:
            return
        if what[0] == "undo":
            self.undo_last_hand()
        elif what[0] == "edit":
            self.edit_hand(what[1])
        elif what[0] == "abandon":
            self.abandon_match()
        elif what[0] == "delete":
            self.delete_match(what[1])

    @intent
    def undo_last_hand(self) -> None:
        self._fresh()
        if self.record and self.record.match.hands:
            n = len(self.record.match.hands)
            self.record = self.store.undo_hand(self.record.id)
            self._changed()
            self.flash = self.breakdown = None
            self.notice = self.tr("notice.undone", n=n)

    @intent
    def abandon_match(self) -> None:
        if self.record:
            self.store.abandon(self.record.id)
            self._changed()
            self.record = None
            self.home()

    @intent
    def rematch(self) -> None:
        """Same sides and rules; the deal moves on from where the last match left it."""
        if not self.record:
            return
        old = self.record.match
        st = standing(old)
        match = Match.new(old.rules, old.sides, old.goal, first_dealer=st.next_dealer)
        self.record = self.store.create_match(match)
        self._reset_match_view()
        self.history = ["home"]
        self.screen = "match"
        self.notice = self.tr("notice.started", dealer=match.seats[match.first_dealer].player)

    def share_text(self) -> str:
        """A plain-text summary of the match for the share sheet or the clipboard."""
        if not self.record:
            return ""
        return sheet_text(self.record.match, self.tr)

    # --- rules and settings ---------------------------------------------------------------------
    @intent
    def show_rules(self, name: str | None = None) -> None:
        self.rules_shown = name or (self.match.rules.name if self.match else self.setup.preset)
        self.go("rules")

    @intent
    def show_rules_of(self, name: str) -> None:
        self.rules_shown = name

    def shown_rules(self) -> RuleSet:
        if self.match and self.rules_shown == "current":
            return self.match.rules
        return preset(self.rules_shown) if self.rules_shown in preset_names() else preset("classic")

    @intent
    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            self.store.update_settings(language=lang)

    @intent
    def set_theme(self, theme: str) -> None:
        if theme in THEMES:
            self.theme = theme
            self.store.update_settings(theme=theme)

    @intent
    def set_keep_awake(self, on: bool) -> None:
        self.keep_awake = bool(on)
        self.store.update_settings(keep_awake=self.keep_awake)

    @property
    def wants_wakelock(self) -> bool:
        """True while a match is on screen and the setting asks to keep the screen awake."""
        return self.keep_awake and self.screen in ("match", "entry") and self.record is not None

    # --- descriptions the screens use -----------------------------------------------------------
    def goal_line(self) -> str:
        """The goal in force, and under a hands goal how many hands are left."""
        st = self.standing
        text = goal_text(self.match.goal, self.tr, st.target if st else None)
        if st and st.hands_left is not None and not st.is_over:
            text += " · " + self.tr.n("status.hands_left", st.hands_left)
        return text

    @intent
    def dismiss_notice(self) -> None:
        self.notice = None
        self.problems_at_open = []

    @intent
    def set_direction(self, direction: str) -> None:
        self.setup.direction = Direction(direction).value
