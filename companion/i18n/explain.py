"""Engine values in words: problems, score lines, rules and goals, in any catalog language."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from ..engine.cards import TEN_OF_DIAMONDS, Rank
from ..engine.entry import Problem
from ..engine.limits import cut, shown
from ..engine.match import Match, Standing, Status
from ..engine.rules import Goal, RuleSet
from ..engine.scoring import Line
from . import ENGLISH, Translator


def join_names(names: Sequence[str], tr: Translator = ENGLISH) -> str:
    """`Anna`, `Anna and Ben`, `Anna, Ben and Chris`."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return tr("join.and", first=", ".join(names[:-1]), last=names[-1])


def field_name(field: str | None, tr: Translator = ENGLISH) -> str:
    """What the entry field is called in words."""
    return tr(f"field.{field}") if field else ""


def problem_text(problem: Problem, side_names: Sequence[str], tr: Translator = ENGLISH) -> str:
    """A problem as one sentence naming the side and the numbers."""
    values = dict(problem.values)
    if "value" in values:
        values["value"] = _as_said(values["value"], tr)
    side = side_names[problem.side] if problem.side is not None and problem.side < len(side_names) else ""
    if "other" in values and isinstance(values["other"], int) and values["other"] < len(side_names):
        values["other"] = side_names[values["other"]]
    key = f"problem.{problem.code}"
    if problem.code == "card_twice" and values.get("same_side"):
        key += ".same_side"
    if problem.code == "jack_xeris_need_jacks" and values.get("exact"):
        key += ".exact"
    elif problem.code == "jack_xeris_need_jacks" and values.get("with_ten"):
        key += ".with_ten"
    if problem.code == "too_many_xeris_for_majority" and values.get("tie"):
        key += ".tie"
    if problem.code == "too_many_jack_xeris" and values.get("on_any"):
        key += ".on_any"
    return tr(key, side=side, sides=join_names(side_names, tr), field=field_name(problem.field, tr), **values)


def _as_said(value: object, tr: Translator) -> str:
    """A value from a file as a sentence shows it: short values as they are, long ones cut (see `shown`)."""
    if isinstance(value, (str, int, float)) and not (isinstance(value, int) and value.bit_length() > 50):
        text = str(value)
        if len(text) <= 30:
            return text
    return tr.say(shown(value))


@dataclass(frozen=True)
class HandProblems:
    """Every problem of one hand, as sentences naming the sides: a value an error can carry, said in the
    language of whoever reads the error."""

    problems: tuple[Problem, ...]
    """The engine's problems with the hand."""
    side_names: tuple[str, ...]
    """The match's sides, in order."""

    def words(self, tr: Translator) -> str:
        return " ".join(problem_text(p, self.side_names, tr) for p in self.problems)  # each is a sentence

    def __str__(self) -> str:
        return self.words(ENGLISH)


def item_label(item: str, rules: RuleSet, tr: Translator = ENGLISH) -> str:
    """The name of a scoring item: `Most cards`, `Counting cards`, `10♦`, `2♣`, `Xeris`, `Jack xeris`."""
    return tr(f"item.{item}", two=rules.two.label, ten=TEN_OF_DIAMONDS.label)


def line_text(line: Line, rules: RuleSet, tr: Translator = ENGLISH) -> str:
    """Why a line gives the points it gives, with the rule it comes from."""
    two, ten = rules.two.label, TEN_OF_DIAMONDS.label
    if line.item == "majority":
        if line.note == "most":
            key = "line.majority.most_counted" if line.count is not None else "line.majority.most"
        else:
            key = f"line.majority.{line.note}"
        return tr(key, count=line.count, points=rules.majority_points)
    if line.item == "counting":
        ranks = " ".join(r.value for r in rules.counting_ranks)
        if line.each is None:
            return tr("line.counting.mixed", count=line.count, ranks=ranks, points=line.points)
        return tr("line.counting", count=line.count, each=line.each, ranks=ranks, points=line.points)
    if line.item == "ten_of_diamonds":
        if not line.count:
            return tr("line.special.not_taken", card=ten)
        if rules.is_counting(TEN_OF_DIAMONDS):
            if line.note == "already_counted":
                return tr("line.ten.already_counted", card=ten, total=rules.ten_of_diamonds_points)
            return tr("line.ten.extra", card=ten, total=rules.ten_of_diamonds_points, extra=line.points)
        return tr("line.special.taken", card=ten, points=line.points)
    if line.item == "two":
        if not line.count:
            return tr("line.special.not_taken", card=two)
        return tr("line.special.taken", card=two, points=line.points)
    if line.item == "xeris":
        return tr("line.xeris", count=line.count, each=line.each, points=line.points)
    if line.item == "jack_xeris":
        rule = tr("rule.jack_on_any_short") if rules.jack_xeri_on_any else tr("rule.jack_on_jack_short")
        return tr("line.jack_xeris", count=line.count, each=line.each, points=line.points, rule=rule)
    return ""


def goal_text(goal: Goal, tr: Translator = ENGLISH, target: int | None = None) -> str:
    """The goal in words: `first to 151 (251 if two sides reach it in the same hand)` or `7 hands`."""
    if goal.hands is not None:
        return tr.n("goal.hands", goal.hands)
    if target is not None and target != goal.target:
        return tr("goal.extended", target=target, first=goal.target)
    return tr("goal.race", target=goal.target, extension=goal.extension)


def rules_text(rules: RuleSet, tr: Translator = ENGLISH) -> list[str]:
    """The rules of a rule set in plain sentences, made from the rule set itself."""
    out = []
    by_value: dict[int, list[Rank]] = {}
    for rank in rules.counting_ranks:
        by_value.setdefault(rules.rank_points[rank], []).append(rank)
    for value, ranks in by_value.items():
        out.append(tr.n("rules.counting", value, ranks=" ".join(r.value for r in ranks)))
    ten = TEN_OF_DIAMONDS.label
    if rules.is_counting(TEN_OF_DIAMONDS):
        if rules.ten_of_diamonds_extra > 0:
            out.append(tr("rules.ten.extra", card=ten, total=rules.ten_of_diamonds_points,
                          rank=rules.rank_value(TEN_OF_DIAMONDS), extra=rules.ten_of_diamonds_extra))
        else:
            out.append(tr("rules.ten.plain", card=ten, total=rules.ten_of_diamonds_points))
    else:
        out.append(tr.n("rules.special", rules.ten_of_diamonds_points, card=ten))
    out.append(tr.n("rules.special", rules.two_points, card=rules.two.label))
    out.append(tr("rules.majority", points=rules.majority_points))
    out.append(tr("rules.xeri", points=rules.xeri_points))
    if rules.jack_xeri_on_any:
        out.append(tr("rules.jack_on_any", points=rules.jack_xeri_points))
    else:
        out.append(tr("rules.jack_on_jack", points=rules.jack_xeri_points))
    majority = rules.majority_points
    out.append(tr("rules.card_points", total=rules.card_points, tie=rules.card_points - majority))
    if rules.partnerships:
        out.append(tr("rules.partnerships"))
    else:
        out.append(tr("rules.players", players=" / ".join(str(n) for n in rules.players)))
    if max(rules.players) > 2:
        out.append(tr(f"rules.direction.{rules.direction.value}"))
    out.append(tr("rules.goal", goal=goal_text(rules.goal, tr)))
    out.append(tr("rules.deciding_hand" if rules.deciding_hand else "rules.draw_final"))
    if rules.dealer_last_card_no_xeri:
        out.append(tr("rules.dealer_last_card"))
    return out


def status_text(match: Match, st: Standing, tr: Translator = ENGLISH) -> str:
    """The match's result or state in one sentence."""
    names = [cut(s.name) for s in match.sides]
    if st.status is Status.WON and st.winner is not None:
        return tr("status.won", winner=names[st.winner])
    if st.status is Status.DRAWN:
        return tr("status.drawn")
    if st.needs is not None:
        return tr("status.needs", needs=join_names([tr("status.needs_one", side=n, points=p)
                                                    for n, p in zip(names, st.needs)], tr))
    return tr.n("status.hands_left", st.hands_left or 0)

