"""A match: sides, rule set, goal and its hands; its standing is derived from the hands alone."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from .entry import HandEntry
from .rules import Direction, Goal, RuleSet
from .scoring import HandScore, score_hand


class MatchError(ValueError):
    """A match that cannot be set up: wrong number of sides, a partnership without two players, …"""


class MatchOver(MatchError):
    """A change that would put hands after the hand that decided the match."""

    def __init__(self, message: str, decided_at: int):
        super().__init__(message)
        self.decided_at = decided_at
        """The index of the hand that decided the match."""


class Status(enum.Enum):
    """Where a match stands."""

    PLAYING = "playing"
    WON = "won"
    DRAWN = "drawn"


@dataclass(frozen=True)
class Side:
    """One side of the table: a single player, or a partnership of two sharing one capture pile."""

    name: str
    """What the score sheet calls the side: the player's name, or the partnership's."""
    players: tuple[str, ...] = ()
    """A partnership's two players; empty for a single player, who is the side."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))

    @property
    def members(self) -> tuple[str, ...]:
        """The players of this side: the partners, or the one player."""
        return self.players or (self.name,)


@dataclass(frozen=True)
class Seat:
    """A place at the table, in the order the deal passes."""

    side: int
    """The side the player plays for."""
    player: str
    """The player's name."""


@dataclass(frozen=True)
class Match:
    """A match under one rule set; the hands are the source of truth for everything else."""

    rules: RuleSet
    """The rule set the table chose."""
    sides: tuple[Side, ...]
    """The sides, in score-sheet order."""
    goal: Goal
    """The target race or the agreed number of hands."""
    first_dealer: int = 0
    """The seat (see `seats`) that dealt the first hand."""
    hands: tuple[HandEntry, ...] = ()
    """The hands played, in order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", tuple(self.sides))
        object.__setattr__(self, "hands", tuple(self.hands))
        n = len(self.sides)
        if n not in self.rules.sides_allowed:
            allowed = " or ".join(str(k) for k in self.rules.sides_allowed)
            raise MatchError(f"{self.rules.name} rules are played by {allowed} sides, not {n}")
        for side in self.sides:
            if not side.name.strip():
                raise MatchError("every side needs a name")
            if self.rules.partnerships and len(side.players) != 2:
                raise MatchError(f"the partnership {side.name!r} needs two players")
            if not self.rules.partnerships and side.players:
                raise MatchError(f"{side.name!r} is a single player in {self.rules.name} rules, not a partnership")
        if not 0 <= self.first_dealer < len(self.seats):
            raise MatchError(f"there is no seat {self.first_dealer} to deal first; seats are 0 to {len(self.seats) - 1}")

    @classmethod
    def new(cls, rules: RuleSet, sides: list[Side] | tuple[Side, ...], goal: Goal | None = None,
            first_dealer: int = 0) -> Match:
        """A match with no hands yet; the goal defaults from the rule set."""
        return cls(rules=rules, sides=tuple(sides), goal=goal or rules.goal, first_dealer=first_dealer)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The players in seating order: partners sit opposite, so sides alternate round the table."""
        if self.rules.partnerships:
            return tuple(Seat(s, self.sides[s].players[p]) for p in range(2) for s in range(2))
        return tuple(Seat(s, side.name) for s, side in enumerate(self.sides))

    def dealer_of(self, hand: int) -> int:
        """The seat that deals hand number `hand` (0-based): the deal passes in the rule set's direction."""
        step = -1 if self.rules.direction is Direction.ANTICLOCKWISE else 1
        return (self.first_dealer + step * hand) % len(self.seats)

    def leader_of(self, hand: int) -> int:
        """The seat that leads hand `hand`: the player after the dealer."""
        step = -1 if self.rules.direction is Direction.ANTICLOCKWISE else 1
        return (self.dealer_of(hand) + step) % len(self.seats)


@dataclass(frozen=True)
class Standing:
    """Where a match stands after its hands: totals, hands won, status, and who deals next."""

    scores: tuple[HandScore, ...]
    """Each hand's score, in order."""
    running: tuple[tuple[int, ...], ...]
    """Each side's total after each hand."""
    totals: tuple[int, ...]
    """Points per side over the match."""
    hands_won: tuple[int, ...]
    """Hands won per side (a hand with equal top scores is won by nobody)."""
    status: Status
    """Playing, won or drawn."""
    winner: int | None
    """The winning side, once won."""
    target: int | None
    """The target in force (151, or 251 once two sides reached 151 together); None for a hands goal."""
    extensions: int
    """How many times the target was raised."""
    needs: tuple[int, ...] | None
    """Points each side still needs to reach the target; None for a hands goal."""
    hands_left: int | None
    """Hands still to play under a hands goal; None for a race."""
    next_dealer: int
    """The seat that deals the next hand."""
    next_leader: int
    """The seat that leads the next hand."""
    decided_at: int | None
    """The index of the hand that decided the match, or None while playing."""
    hands_after_end: int = 0
    """Hands recorded after the deciding hand (only when asked for with `strict=False`, as in a what-if)."""

    @property
    def is_over(self) -> bool:
        """True once the match is won or drawn."""
        return self.status is not Status.PLAYING


def standing(match: Match, strict: bool = True) -> Standing:
    """The standing of the match after its hands.

    Hands after the deciding hand raise `MatchOver`; with `strict=False` (rescoring under other
    rules) they are left out of the standing and counted in `hands_after_end`.
    """
    sides = len(match.sides)
    goal = match.goal
    totals = [0] * sides
    won = [0] * sides
    target = goal.target
    extensions = 0
    status, winner, decided_at = Status.PLAYING, None, None
    scores, running = [], []
    for index, entry in enumerate(match.hands):
        if decided_at is not None:
            if not strict:
                break
            raise MatchOver(f"the match was decided at hand {decided_at + 1}, "
                            f"but {len(match.hands)} hands are recorded", decided_at)
        score = score_hand(entry, match.rules, sides)
        scores.append(score)
        for side, points in enumerate(score.points):
            totals[side] += points
        if score.winner is not None:
            won[score.winner] += 1
        running.append(tuple(totals))
        if goal.is_race:
            reached = [s for s in range(sides) if totals[s] >= target]
            while len(reached) > 1:
                target += goal.step
                extensions += 1
                reached = [s for s in range(sides) if totals[s] >= target]
            if reached:
                status, winner, decided_at = Status.WON, reached[0], index
        elif index + 1 == goal.hands:
            decided_at = index
            best = max(won)
            leaders = [s for s in range(sides) if won[s] == best]
            status, winner = (Status.WON, leaders[0]) if len(leaders) == 1 else (Status.DRAWN, None)
    played = len(match.hands)
    counted = len(scores)
    return Standing(
        scores=tuple(scores),
        running=tuple(running),
        totals=tuple(totals),
        hands_won=tuple(won),
        status=status,
        winner=winner,
        target=target,
        extensions=extensions,
        needs=tuple(max(0, target - t) for t in totals) if goal.is_race else None,
        hands_left=max(0, goal.hands - counted) if goal.hands is not None else None,
        next_dealer=match.dealer_of(counted),
        next_leader=match.leader_of(counted),
        decided_at=decided_at,
        hands_after_end=played - counted,
    )


def record_hand(match: Match, entry: HandEntry) -> Match:
    """The match with one more hand; raise `InvalidHand` for an impossible entry, `MatchOver` after the end."""
    now = standing(match)
    if now.is_over:
        raise MatchOver("the match is over: no more hands can be recorded", now.decided_at)
    score_hand(entry, match.rules, len(match.sides))
    return replace(match, hands=match.hands + (entry,))


def undo_hand(match: Match) -> Match:
    """The match without its last hand (the inverse of `record_hand`)."""
    if not match.hands:
        raise MatchError("there is no hand to undo")
    return replace(match, hands=match.hands[:-1])


def edit_hand(match: Match, index: int, entry: HandEntry) -> Match:
    """The match with hand `index` replaced; refused if the entry is impossible or ends the match early."""
    if not 0 <= index < len(match.hands):
        raise MatchError(f"there is no hand {index + 1} to edit")
    score_hand(entry, match.rules, len(match.sides))
    edited = replace(match, hands=match.hands[:index] + (entry,) + match.hands[index + 1:])
    standing(edited)  # raises MatchOver when the edit would decide the match before its last hand
    return edited


def with_rules(match: Match, rules: RuleSet) -> Match:
    """The same hands under another rule set (a what-if); the match may then end at another hand."""
    return replace(match, rules=rules)
