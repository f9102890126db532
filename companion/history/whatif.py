"""What if: a stored match rescored under other rules, side by side with the result as played."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.entry import HandError, InvalidHand
from ..engine.match import Match, MatchError, Standing, standing, with_rules
from ..engine.messages import Says
from ..engine.rules import Goal, RuleSet
from ..engine.scoring import score_hand
from ..i18n.explain import HandProblems


class WhatIfSays(Says):
    """Why a match cannot be rescored under other rules."""

    __prefix__ = "error.whatif"
    TABLE = "the match cannot be played under {rules} rules: {reason}"
    TWO = "the hands say who took the {played}, not the {other} that {rules} rules score"
    HAND = "hand {n} cannot be scored under {rules} rules: {reason}"


class WhatIfError(HandError):
    """A match that cannot be rescored under the other rules: the message says which hand and why."""


@dataclass(frozen=True)
class WhatIf:
    """A match as it was scored beside the same hands under other rules; the stored match is unchanged."""

    stored_rules: RuleSet
    """The rules the match was played under."""
    rules: RuleSet
    """The rules it is rescored under."""
    goal: Goal
    """The goal of the rescored match (the stored goal unless another was asked for)."""
    stored: Standing
    """The standing as played."""
    rescored: Standing
    """The standing under the other rules; it may end at an earlier hand, or not at all."""
    stored_points: tuple[tuple[int, ...], ...]
    """Each stored hand's points per side, as played."""
    rescored_points: tuple[tuple[int, ...], ...]
    """Each stored hand's points per side under the other rules, hands after the new end included."""

    @property
    def hands_after_end(self) -> int:
        """Stored hands that fall after the hand deciding the rescored match."""
        return self.rescored.hands_after_end

    @property
    def totals(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Final points per side: as played, and rescored (up to the new end)."""
        return self.stored.totals, self.rescored.totals

    @property
    def winners(self) -> tuple[int | None, int | None]:
        """The winning side as played and rescored (None: drawn or undecided)."""
        return self.stored.winner, self.rescored.winner

    @property
    def winner_changed(self) -> bool:
        """True when the other rules give another result (winner, draw or no result yet)."""
        return (self.stored.status, self.stored.winner) != (self.rescored.status, self.rescored.winner)


def what_if(match: Match, rules: RuleSet, goal: Goal | None = None) -> WhatIf:
    """The match rescored under `rules` (and `goal`, if given) beside the stored result.

    Raise `WhatIfError` when the hands cannot be read under those rules: another table shape, another
    counting deck (the counts were taken for the played rules), or a hand the rules make impossible.
    """
    sides = len(match.sides)
    try:
        other = with_rules(match, rules)
        if goal is not None:
            other = replace(other, goal=goal)
    except MatchError as exc:
        raise WhatIfError(WhatIfSays.TABLE, rules=rules.title, reason=exc.message) from None
    if rules.two != match.rules.two and any(not h.is_exact for h in match.hands):
        # A counted hand only says which side took the played rules' two, not who took the other two.
        raise WhatIfError(WhatIfSays.TWO, played=match.rules.two.label, other=rules.two.label, rules=rules.title)
    rescored_points = []
    for index, entry in enumerate(match.hands):
        try:
            rescored_points.append(score_hand(entry, rules, sides).points)
        except InvalidHand as exc:
            names = tuple(side.name for side in match.sides)
            raise WhatIfError(WhatIfSays.HAND, hand=index, problems=exc.problems, n=index + 1, rules=rules.title,
                              reason=HandProblems(exc.problems, names)) from None
    stored = standing(match, strict=False)
    return WhatIf(
        stored_rules=match.rules, rules=rules, goal=other.goal,
        stored=stored, rescored=standing(other, strict=False),
        stored_points=tuple(score.points for score in stored.scores),
        rescored_points=tuple(rescored_points),
    )




def why_not(match: Match, rules: RuleSet) -> str | None:
    """Why the match's hands cannot be rescored under `rules` without scoring them (a cheap check for
    offering the choice), as a key: `deck` (another set of counting cards, counted by number), `two`
    (another special two), `table` (another table shape); None when they may be."""
    counted = [h for h in match.hands if not h.is_exact]
    if counted and (rules.counting_cards_in_deck != match.rules.counting_cards_in_deck
                    or rules.counting_point is None):
        return "deck"
    if counted and rules.two != match.rules.two:
        return "two"
    if rules.partnerships != match.rules.partnerships and len(match.sides) not in rules.sides_allowed:
        return "table"
    return None
