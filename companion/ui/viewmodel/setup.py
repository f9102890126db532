"""The new-match form: who plays, the rules and their variants, the goal and the first dealer."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ...engine.limits import MAX_NAME, MAX_TARGET
from ...engine.match import Match, MatchError, Side
from ...engine.names import NameProblem, name_key, problem_of, tidy
from ...engine.rules import SWITCHES, Goal, RuleSet, RulesError
from ...formats.presets import preset, preset_names
from ...i18n.explain import goal_text
from ...service import MatchRecord, Revision, StaleWrite
from .session import Screen, Session, Tone, ViewModel, intent

LAYOUTS = ("two", "partners", "three", "four")
"""Who plays: 2 players, 4 in two partnerships, 3 or 4 individual players."""
LAYOUT_SEATS = {"two": 2, "partners": 4, "three": 3, "four": 4}
def usual_preset(layout: str, lang: str) -> str:
    """The rules a table of this size usually plays, in this language: a new table size starts from them
    (the table may change them). The first preset offered that fits: classic for two players, the
    partnership game for two teams, the Greek online rules for three or four; Pişti for two in Turkish."""
    seats, partners = LAYOUT_SEATS[layout], layout == "partners"
    return next(name for name in preset_names(lang)
                if seats in preset(name).players and preset(name).partnerships == partners)
GOAL_KINDS = ("race", "custom", "hands")
"""The preset's race (151, played on to 251), a target of the table's own, or an agreed number of hands."""
MAX_HANDS_GOAL = 99
"""The longest agreed number of hands the form offers."""
KEPT_TYPING = 4 * MAX_NAME
"""What the form keeps of a name being typed: enough to say it is too long, never a pasted book."""


@dataclass
class MatchForm:
    """What the new-match form holds between taps."""

    layout: str = "two"
    names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    team_names: list[str] = field(default_factory=lambda: ["", ""])
    preset: str = "classic"
    variants: dict[str, Any] = field(default_factory=dict)
    """The switched variants: rule field name → value in match-file form (see `engine.rules.SWITCHES`)."""
    goal_kind: str = "race"
    target: int = 151
    hands: int = 7
    first_dealer: int | None = 0
    """The seat that deals first, or None to draw for deal."""
    chosen: dict[str, tuple] = field(default_factory=dict)
    """What was chosen for each table size in this form (rules, variants, goal), so going back to a size
    gives back its choice."""

    def rules_choice(self) -> tuple:
        """The rules, variants and goal chosen, as `chosen` keeps them."""
        return self.preset, dict(self.variants), self.goal_kind, self.target, self.hands

    def restore(self, choice: tuple) -> None:
        self.preset, variants, self.goal_kind, self.target, self.hands = choice
        self.variants = dict(variants)

    def load_preset(self, name: str) -> None:
        rules = preset(name)
        self.preset = name
        self.variants = {}
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

    def base(self) -> RuleSet:
        return preset(self.preset)

    def is_on(self, name: str) -> bool:
        """Whether the variant switch of rule field `name` is on."""
        rule_field = next(f for f in SWITCHES if f.name == name)
        return self.rules().to_dict()[name] == rule_field.switch.on

    def rules(self) -> RuleSet:
        """The rule set: the preset with the switched variants and the table's layout on top."""
        base = self.base()
        current = base.to_dict()
        changes: dict[str, Any] = {**self.variants, "players": [self.seats], "partnerships": self.layout == "partners"}
        changes = {k: v for k, v in changes.items() if current[k] != v}
        return base.with_overrides(**changes) if changes else base

    def goal(self, rules: RuleSet) -> Goal:
        if self.goal_kind == "hands":
            return Goal(hands=self.hands)
        if self.goal_kind == "custom":
            return Goal(target=self.target, extension=self.target + (rules.goal.step or 100))
        return rules.goal if rules.goal.is_race else Goal(target=151, extension=251)

    def player_names(self) -> list[str]:
        return [tidy(n) for n in self.names[: self.seats]]

    def sides(self) -> list[Side]:
        names = self.player_names()
        if self.layout == "partners":
            out = []
            for team in range(2):
                a, b = names[2 * team], names[2 * team + 1]
                out.append(Side(tidy(self.team_names[team]), (a, b)))   # unnamed: called after its players
            return out
        return [Side(n) for n in names]

    def seat_order(self) -> list[int]:
        """The name index of each seat: partners sit opposite, so the teams alternate (0, 2, 1, 3)."""
        return [0, 2, 1, 3] if self.layout == "partners" else list(range(self.seats))

    def team_titles(self) -> list[str]:
        """The team names typed (partnerships), as they will be used."""
        return [tidy(t) for t in self.team_names] if self.layout == "partners" else []

    def too_long(self) -> tuple[str, int] | None:
        """The first field whose name is too long: ("player", its index) or ("team", its index); else None."""
        for i, name in enumerate(self.player_names()):
            if problem_of(name) is NameProblem.TOO_LONG:
                return "player", i
        for t, title in enumerate(self.team_titles()):
            if title and problem_of(title) is NameProblem.TOO_LONG:
                return "team", t
        return None

    def missing(self) -> list[str]:
        """i18n keys of what is still needed before the match can start (each takes `max`: `MAX_NAME`)."""
        names = self.player_names()
        teams = [t for t in self.team_titles() if t]
        problems = {problem_of(n) for n in names} | {problem_of(t) for t in teams}
        out = []
        if NameProblem.EMPTY in problems:
            out.append("setup.missing.names")
        elif NameProblem.TOO_LONG in problems:
            out.append("setup.missing.name_long")
        elif NameProblem.NOT_TEXT in problems:
            out.append("setup.missing.name_text")
        elif len({name_key(n) for n in names}) < len(names) or len({name_key(t) for t in teams}) < len(teams):
            out.append("setup.missing.distinct")
        if self.goal_kind == "hands" and not 1 <= self.hands <= MAX_HANDS_GOAL:
            out.append("setup.missing.hands")
        if self.goal_kind == "custom" and not 10 <= self.target <= MAX_TARGET:
            out.append("setup.missing.target")
        return out


@dataclass(frozen=True)
class PresetChoice:
    name: str
    title: str
    description: str
    selected: bool


@dataclass(frozen=True)
class VariantSwitch:
    field: str
    """The rule field it sets."""
    key: str
    """Its identifier and words (`setup.variant.<key>`)."""
    label: str
    on: bool


@dataclass(frozen=True)
class DealerChoice:
    seat: int | None
    """The seat, or None to draw for deal."""
    label: str
    selected: bool


class SetupModel(ViewModel):
    """The new-match form."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.form = MatchForm()
        self.form.load_preset(self._last_rules())
        self.replacing: tuple[str, Revision] | None = None
        """The match in play (and its revision) the person agreed to stop for the new one, if any."""
        self.keeping: str | None = None
        """This phone's match in play that the person chose to keep in play beside the new one."""

    def _last_rules(self, layout: str | None = None) -> str:
        """The rules last started at this table size (`layout`) here; a size never played here, its usual
        rules in this phone's language. Without a size: the rules of the last match started."""
        settings = self.services.library.settings()
        if layout is None:
            last = settings.get("last_rules")
            return last if last in preset_names() else preset_names(self.session.lang)[0]
        by_table = settings.get("rules_by_table")
        last = by_table.get(layout) if isinstance(by_table, dict) else None
        if last in preset_names() and self._fits(last, layout):
            return last
        return usual_preset(layout, self.session.lang)

    @staticmethod
    def _fits(name: str, layout: str) -> bool:
        rules = preset(name)
        return LAYOUT_SEATS[layout] in rules.players and rules.partnerships == (layout == "partners")

    # --- what the screen shows -------------------------------------------------------------------------
    def presets(self) -> list[PresetChoice]:
        """The rule sets for this table's layout (and the chosen one, whatever it is)."""
        f, tr = self.form, self.tr
        out = []
        for name in preset_names(self.session.lang):
            rules = preset(name)
            fits = f.seats in rules.players and (f.layout == "partners") == rules.partnerships
            if fits or name == f.preset:
                out.append(PresetChoice(name, tr(f"rules.{name}.title"), tr(f"rules.{name}.description"),
                                        name == f.preset))
        return out

    def switches(self) -> list[VariantSwitch]:
        f, tr = self.form, self.tr
        return [VariantSwitch(rf.name, rf.switch.key, tr(f"setup.variant.{rf.switch.key}"), f.is_on(rf.name))
                for rf in SWITCHES if f.seats >= rf.switch.min_seats
                and (not rf.switch.hands_goal or f.goal_kind == "hands")]

    def goal_line(self) -> str:
        return goal_text(self.form.goal(self.form.rules()), self.tr)

    def dealers(self) -> list[DealerChoice]:
        f, tr = self.form, self.tr
        names = f.player_names()
        order = f.seat_order()
        out = [DealerChoice(seat, names[order[seat]] or tr("setup.player", n=order[seat] + 1), f.first_dealer == seat)
               for seat in range(f.seats)]
        out.append(DealerChoice(None, tr("setup.draw"), f.first_dealer is None))
        return out

    def seating_note(self) -> str | None:
        f, tr = self.form, self.tr
        direction = tr(f"direction.{f.rules().direction.value}")
        if f.layout == "partners":
            return tr("setup.partners_note") + " " + tr("setup.seating_note_partners", direction=direction)
        return tr("setup.seating_note", direction=direction) if f.seats > 2 else None

    def name_suggestions(self, index: int) -> list[str]:
        """Known player names starting with what was typed in field `index`, not already at the table."""
        f = self.form
        typed = f.names[index].strip()
        if len(typed) >= 12:
            return []
        taken = {n.strip().casefold() for n in f.names[: f.seats]}
        found = [p.name for p in self.services.library.players()
                 if p.name.casefold().startswith(typed.casefold()) and p.name.casefold() not in taken][:6]
        return [] if typed and any(h.casefold() == typed.casefold() for h in found) else found

    def rules_line(self) -> str:
        """The rules and goal the match will be played under (and any variant switched), shown beside Start."""
        f, tr = self.form, self.tr
        goal = f.goal(f.rules())
        short = (tr("goal.race_short", target=goal.target, extension=goal.extension) if goal.is_race
                 else tr.n("goal.hands", goal.hands))
        parts = [tr(f"rules.{f.preset}.title"), short]
        parts += [sw.label for sw in self.switches() if sw.field in f.variants]
        return " · ".join(parts)

    def missing_text(self) -> str | None:
        missing = self.form.missing()
        if missing and missing[0] == "setup.missing.name_long":
            return self.tr(missing[0], field=self.long_field_label(), max=MAX_NAME)   # which field, in words
        return self.tr(missing[0], max=MAX_NAME) if missing else None

    def long_field_label(self) -> str:
        """The field holding a name that is too long, as the form labels it ("Player 3", "Team 1")."""
        found = self.form.too_long()
        if found is None:
            return ""
        kind, index = found
        return self.tr("setup.player", n=index + 1) if kind == "player" else self.tr("setup.team", n=index + 1)

    def field_problem(self, kind: str, index: int) -> str | None:
        """Said under a field whose name is too long."""
        return self.tr("setup.name_too_long", max=MAX_NAME) if self.form.too_long() == (kind, index) else None

    # --- intents -------------------------------------------------------------------------------------
    @intent(writes=True)
    def open(self) -> None:
        """A new match. While this phone's own match is in play, ask first: continue it, or stop it and start anew
        (it is stopped only when the new one starts, and only if it is still as it was when the question was
        asked). Another table's match in play is never asked about, nor stopped."""
        record = self.app.scoreboard.own()
        if record is None:
            self._open_form(None)
            return
        self.ask_replace(record, self._open_form)

    def ask_replace(self, record: MatchRecord, then, key: str = "confirm.replace",
                    answers: tuple[str, str] = ("confirm.replace_yes", "confirm.replace_no"),
                    go_on: bool = True) -> None:
        """Ask whether to stop this phone's match in play (`record`) for another; `then(shown)` on yes, with the
        match and revision the person agreed to stop, `then(None)` for "Keep both in play" (nothing is stopped:
        another table may be playing it). The other answer goes on with the match in play (`go_on`), or only
        closes the question."""
        shown = (record.id, record.revision)
        self.session.ask(key, lambda: then(shown), ident="confirm-replace",
                         no=self.app.scoreboard.go_on if go_on else None, answers=answers,
                         other=("confirm.keep_both", lambda: then(None)), **self.app.scoreboard.described(record))

    def _open_form(self, replacing: tuple[str, Revision] | None) -> None:
        table_record = self.app.scoreboard.record
        members = [p for s in table_record.match.sides for p in s.members][:4] if table_record else []
        layout = self._layout_of(table_record) if table_record else self._last_layout()
        self.form = MatchForm(layout=layout)
        self.form.load_preset(self._last_rules(layout))
        self.form.layout = layout
        for i, name in enumerate(members):
            self.form.names[i] = name
        self.replacing = replacing
        self.keeping = None if replacing is not None or table_record is None else table_record.id
        self.session.go(Screen.SETUP)

    @staticmethod
    def _layout_of(record: MatchRecord) -> str:
        rules, seats = record.match.rules, len(record.match.seats)
        if rules.partnerships:
            return "partners"
        return {2: "two", 3: "three", 4: "four"}.get(seats, "two")

    def _last_layout(self) -> str:
        """The table size of the last match started here (before sizes were kept: the one its rules imply;
        before any match, the one of this language's own game)."""
        last = self.services.library.settings().get("last_table")
        if last in LAYOUTS:
            return last
        return "partners" if preset(self._last_rules()).partnerships else "two"

    @intent
    def set_layout(self, layout: str) -> None:
        """Who plays. Each table size keeps its own rules: what was chosen for it in this form, else what it
        was last played with here, else its usual rules in this language. So a 2-player match is never
        scored with the rules of the 3-player match before it without anyone noticing."""
        f = self.form
        if layout != f.layout and layout in LAYOUTS:
            f.chosen[f.layout] = f.rules_choice()
            if layout in f.chosen:
                f.restore(f.chosen[layout])
            else:
                f.load_preset(self._last_rules(layout))
        f.layout = layout
        if f.first_dealer is not None and f.first_dealer >= f.seats:
            f.first_dealer = 0

    @intent
    def set_name(self, index: int, name: str) -> None:
        self.form.names[index] = str(name)[:KEPT_TYPING]

    @intent
    def set_team_name(self, index: int, name: str) -> None:
        self.form.team_names[index] = str(name)[:KEPT_TYPING]

    @intent
    def set_preset(self, name: str) -> None:
        layout = self.form.layout
        self.form.load_preset(name)
        rules = preset(name)
        if not rules.partnerships and layout != "partners" and LAYOUT_SEATS[layout] in rules.players:
            self.form.layout = layout

    @intent
    def switch(self, field_name: str, on: bool) -> None:
        """Turn a variant on or off; off gives back the preset's own value."""
        rule_field = next(f for f in SWITCHES if f.name == field_name)
        base = self.form.base().to_dict()[field_name]
        value = rule_field.switch.value(bool(on), base)
        if value == base:
            self.form.variants.pop(field_name, None)
        else:
            self.form.variants[field_name] = value

    @intent
    def set_goal_kind(self, kind: str) -> None:
        if kind in GOAL_KINDS:
            self.form.goal_kind = kind

    @intent
    def step_target(self, delta: int) -> None:
        self.form.target = min(MAX_TARGET, max(10, self.form.target + delta))

    @intent
    def step_hands(self, delta: int) -> None:
        self.form.hands = min(MAX_HANDS_GOAL, max(1, self.form.hands + delta))

    @intent
    def set_first_dealer(self, seat: int | None) -> None:
        self.form.first_dealer = seat

    @intent(writes=True)
    def start(self) -> None:
        f, tr = self.form, self.tr
        missing = f.missing()
        if missing:
            self.session.say(missing[0], Tone.PROBLEM, max=MAX_NAME, field=self.long_field_label())
            return
        try:
            rules = f.rules()
            first = f.first_dealer if f.first_dealer is not None else random.randrange(f.seats)
            match = Match.new(rules, f.sides(), f.goal(rules), first_dealer=first)
        except (RulesError, MatchError) as exc:
            self.session.notice = None
            self.session.say("notice.plain", Tone.PROBLEM, text=tr.say(exc))
            return
        table = self.app.scoreboard
        current = self.app.scoreboard.own()
        if current is not None and current.id == self.keeping and self.replacing is None:
            current = None   # the person chose to keep it in play beside the new one: nothing is stopped
        if current is not None and (current.id, current.revision) != self.replacing:
            # A match in play that the person did not agree to stop (started, or changed, on another phone
            # since the form opened): ask again, naming it as it is now.
            table.record = current
            self.ask_replace(current, self._start_replacing, key="confirm.replace_changed")
            return
        try:
            record = self.services.table.start(match, stop=current.id if current else None,
                                               expected=current.revision if current else None)
        except StaleWrite as exc:   # changed between the check above and the write: ask again
            table.record = exc.current
            self.ask_replace(exc.current, self._start_replacing, key="confirm.replace_changed")
            return
        settings = self.services.library.settings()
        by_table = settings.get("rules_by_table")
        by_table = {**(by_table if isinstance(by_table, dict) else {}), f.layout: f.preset}
        self.services.library.update_settings(last_rules=f.preset, last_table=f.layout, rules_by_table=by_table)
        self.replacing = None
        table.started(record, replaces=current.id if current else None)
        drawn = f.first_dealer is None   # the draw is said: the table sees who the app drew, not just who deals
        self.session.say("notice.started_drawn" if drawn else "notice.started", dealer=match.seats[first].player)

    def _start_replacing(self, shown: tuple[str, Revision] | None) -> None:
        if shown is None:   # "Keep both in play": the match in play stays, whatever it became meanwhile
            current = self.app.scoreboard.own()
            self.keeping = current.id if current is not None else None
        self.replacing = shown
        self.start()
