"""A match: sides, rule set, goal and its hands; its standing is derived from the hands alone."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from .entry import HandEntry
from .limits import MAX_HANDS, shown
from .messages import Message, SaidError, Says, either
from .rules import Direction, Goal, RuleSet
from .scoring import HandScore, score_hand
from .tally import unique_leader


class MatchSays(Says):
    """Why a match cannot be set up or changed."""

    __prefix__ = "error.match"
    SIDES = "{rules} rules are played by {allowed} sides, not {sides}"
    SIDE_NAME = "every side needs a name"
    PARTNERSHIP_PLAYERS = "the partnership {name} needs two players"
    SINGLE_PLAYER = "{name} is a single player in {rules} rules, not a partnership"
    TOO_MANY_HANDS = "a match holds at most {max} hands, not {hands}"
    NO_SEAT = "there is no seat {seat} to deal first; seats are 0 to {last}"
    DECIDED = "the match was decided at hand {hand}, but {hands} hands are recorded"
    OVER = "the match is over: no more hands can be recorded"
    NOTHING_TO_UNDO = "there is no hand to undo"
    NO_HAND_TO_EDIT = "there is no hand {hand} to edit"
    NOT_DECIDED = "the match is not decided yet: it can be finished only once a side is sure to win"


class MatchError(SaidError):
    """A match that cannot be set up: wrong number of sides, a partnership without two players, …"""


class MatchOver(MatchError):
    """A change that would put hands after the hand that decided the match."""

    def __init__(self, says: Says | Message, /, decided_at: int | None, **values):
        super().__init__(says, **values)
        self.decided_at = decided_at
        """The index of the hand that decided the match (None only for a match that was never played)."""


class Status(enum.Enum):
    """Where a match stands."""

    PLAYING = "playing"
    WON = "won"
    DRAWN = "drawn"


@dataclass(frozen=True)
class Side:
    """One side of the table: a single player, or a partnership of two sharing one capture pile."""

    title: str
    """The player's name, or the name the partnership was given: "" for a partnership left unnamed, which is
    called after its players (`name`)."""
    players: tuple[str, ...] = ()
    """A partnership's two players; empty for a single player, who is the side."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))

    @property
    def name(self) -> str:
        """What the score sheet calls the side: its title, or for a partnership left unnamed its two players in
        full ("Νίκος & Χαραλάμπης"; never cut: a screen short of room shortens it for display only, and a rename
        of either player renames the team). "&" reads the same in every language the app speaks."""
        return self.title or " & ".join(self.players)

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
    finished_early: bool = False
    """Over an agreed number of hands: the table finished the match once a side was sure to win, before its last
    agreed hand (`finish_now`). It counts only while that side is sure after the last hand recorded."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", tuple(self.sides))
        object.__setattr__(self, "hands", tuple(self.hands))
        n = len(self.sides)
        if n not in self.rules.sides_allowed:
            raise MatchError(MatchSays.SIDES, rules=self.rules.title, allowed=either(self.rules.sides_allowed), sides=n)
        for side in self.sides:
            if not side.name.strip():
                raise MatchError(MatchSays.SIDE_NAME)
            if self.rules.partnerships and len(side.players) != 2:
                raise MatchError(MatchSays.PARTNERSHIP_PLAYERS, name=repr(side.name))
            if not self.rules.partnerships and side.players:
                raise MatchError(MatchSays.SINGLE_PLAYER, name=repr(side.name), rules=self.rules.title)
        if len(self.hands) > MAX_HANDS:
            raise MatchError(MatchSays.TOO_MANY_HANDS, max=MAX_HANDS, hands=len(self.hands))
        if not 0 <= self.first_dealer < len(self.seats):
            raise MatchError(MatchSays.NO_SEAT, seat=shown(self.first_dealer), last=len(self.seats) - 1)

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
    sure_winner: int | None = None
    """Over an agreed number of hands: the side no other can catch in the hands left (2–0 with one hand of three
    to play), from the hand that made it so. The match is still in play until its last hand, unless the table
    finishes it now (`Match.finished_early`); the hands played on count, and cannot change the winner."""
    deciding_hand: bool = False
    """Drawn under a rule set that lets the table agree on a deciding hand: one more hand may be recorded. The
    draw stands unless one is; a hand after it with a single side ahead in hands won decides the match, and
    after one that leaves them level another may follow."""

    @property
    def is_over(self) -> bool:
        """True once the match is won or drawn."""
        return self.status is not Status.PLAYING

    @property
    def takes_hand(self) -> bool:
        """True while one more hand may be recorded: the match is in play, or drawn with a deciding hand allowed."""
        return not self.is_over or self.deciding_hand

    @property
    def may_finish_now(self) -> bool:
        """In play, but decided: the table may finish the match now (`finish_now`) or play the hands left on."""
        return self.status is Status.PLAYING and self.sure_winner is not None


class _Tally:
    """The running figures of a standing while its hands are added up, one hand at a time."""

    __slots__ = ("totals", "won", "target", "extensions", "status", "winner", "decided_at", "sure")

    def __init__(self, sides: int, target: int | None):
        self.totals, self.won = [0] * sides, [0] * sides
        self.target, self.extensions = target, 0
        self.status = Status.PLAYING
        self.winner: int | None = None
        self.decided_at: int | None = None
        self.sure: int | None = None

    @classmethod
    def of(cls, st: Standing) -> _Tally:
        tally = cls(len(st.totals), st.target)
        tally.totals, tally.won = list(st.totals), list(st.hands_won)
        tally.extensions, tally.status = st.extensions, st.status
        tally.winner, tally.decided_at, tally.sure = st.winner, st.decided_at, st.sure_winner
        return tally

    def takes(self, match: Match, index: int) -> bool:
        """True when hand `index` may be counted: the match is in play, or drawn and the rule set allows a
        deciding hand."""
        if self.status is Status.PLAYING:
            return True
        return self.status is Status.DRAWN and match.rules.deciding_hand and index < MAX_HANDS

    def add(self, goal: Goal, index: int, score: HandScore) -> None:
        """Count hand `index`: its points, who won it, and whether it decides the match."""
        totals = self.totals
        for side, points in enumerate(score.points):
            totals[side] += points
        if score.winner is not None:
            self.won[score.winner] += 1
        target = self.target
        if target is not None:  # a race: the tally's target is the goal's
            reached = [s for s in range(len(totals)) if totals[s] >= target]
            if len(reached) > 1:
                # Two or more sides reached the target in the same hand: it moves up by the step until at
                # most one side has reached it, i.e. past the second-best total. Worked out in one go, so
                # no work grows with the size of a number (a target of 10**100 costs what 151 does).
                second = sorted(totals, reverse=True)[1]
                steps = (second - target) // goal.step + 1
                target += steps * goal.step
                self.target = target
                self.extensions += steps
                reached = [s for s in range(len(totals)) if totals[s] >= target]
            if reached:
                self.status, self.winner, self.decided_at = Status.WON, reached[0], index
        elif goal.hands is not None:
            # Most hands won, after the last agreed hand (or a deciding hand after a draw: level again is a draw
            # again). Before it, a side no other can catch in the hands left is sure to win: said, but the match
            # is played on unless the table finishes it now.
            left = max(0, goal.hands - index - 1)
            leader = unique_leader(self.won)
            if not left:
                self.decided_at = index
                self.status, self.winner = (Status.WON, leader) if leader is not None else (Status.DRAWN, None)
            elif self.sure is None and leader is not None and all(
                    won + left < self.won[leader] for side, won in enumerate(self.won) if side != leader):
                self.sure = leader

    def standing(self, match: Match, scores: tuple[HandScore, ...], running: tuple[tuple[int, ...], ...]) -> Standing:
        goal, counted = match.goal, len(scores)
        if match.finished_early and self.status is Status.PLAYING and self.sure is not None \
                and counted == len(match.hands):
            # The table finished the match once it was decided: won at its last hand played.
            self.status, self.winner, self.decided_at = Status.WON, self.sure, counted - 1
        return Standing(
            scores=scores, running=running, totals=tuple(self.totals), hands_won=tuple(self.won),
            status=self.status, winner=self.winner, target=self.target, extensions=self.extensions,
            needs=tuple(max(0, target - t) for t in self.totals) if (target := self.target) is not None else None,
            hands_left=max(0, goal.hands - counted) if goal.hands is not None else None,
            next_dealer=match.dealer_of(counted), next_leader=match.leader_of(counted),
            decided_at=self.decided_at, hands_after_end=len(match.hands) - counted,
            sure_winner=self.sure, deciding_hand=self.status is Status.DRAWN and self.takes(match, counted),
        )


_STRICT, _LENIENT = "_standing", "_standing_lenient"
"""Where a match keeps its standing once worked out: a match is a frozen value, so its standing never changes."""


def standing(match: Match, strict: bool = True) -> Standing:
    """The standing of the match after its hands (worked out once per match value, then kept).

    Hands after the deciding hand raise `MatchOver` (but for a deciding hand after a draw, where the rule set
    allows one: see `Standing.takes_hand`); with `strict=False` (rescoring under other rules) they are left out of
    the standing and counted in `hands_after_end`.
    """
    cache = match.__dict__
    found = cache.get(_STRICT) or (None if strict else cache.get(_LENIENT))
    if found is not None:
        return found
    tally = _Tally(len(match.sides), match.goal.target)
    scores, running = [], []
    for index, entry in enumerate(match.hands):
        if not tally.takes(match, index):
            if not strict:
                break
            decided = tally.decided_at if tally.decided_at is not None else index - 1   # over: some hand decided it
            raise MatchOver(MatchSays.DECIDED, decided, hand=decided + 1, hands=len(match.hands))
        score = score_hand(entry, match.rules, len(match.sides))
        scores.append(score)
        tally.add(match.goal, index, score)
        running.append(tuple(tally.totals))
    result = tally.standing(match, tuple(scores), tuple(running))
    # A frozen dataclass refuses attributes, but its __dict__ may hold a cache that no field shows.
    cache[_STRICT if not result.hands_after_end else _LENIENT] = result
    return result


def record_hand(match: Match, entry: HandEntry) -> Match:
    """The match with one more hand; raise `InvalidHand` for an impossible entry, `MatchOver` after the end.

    Only the new hand is scored: the standing of the longer match is the known one plus that hand.
    """
    now = standing(match)
    if not now.takes_hand:
        raise MatchOver(MatchSays.OVER, now.decided_at)
    score = score_hand(entry, match.rules, len(match.sides))
    longer = replace(match, hands=match.hands + (entry,))
    tally = _Tally.of(now)
    tally.add(match.goal, len(match.hands), score)
    longer.__dict__[_STRICT] = tally.standing(longer, now.scores + (score,), now.running + (tuple(tally.totals),))
    return longer


def undo_hand(match: Match) -> Match:
    """The match without its last hand (the inverse of `record_hand`); a match finished early is in play again."""
    if not match.hands:
        raise MatchError(MatchSays.NOTHING_TO_UNDO)
    return replace(match, hands=match.hands[:-1], finished_early=False)


def finish_now(match: Match) -> Match:
    """The match finished now, before its last agreed hand: won by the side no other can catch in the hands
    left. `MatchError` while no side is sure to win, `MatchOver` once the match is over."""
    now = standing(match)
    if now.is_over:
        raise MatchOver(MatchSays.OVER, now.decided_at)
    if now.sure_winner is None:
        raise MatchError(MatchSays.NOT_DECIDED)
    return replace(match, finished_early=True)


def edit_hand(match: Match, index: int, entry: HandEntry) -> Match:
    """The match with hand `index` replaced; refused if the entry is impossible or ends the match early."""
    if not 0 <= index < len(match.hands):
        raise MatchError(MatchSays.NO_HAND_TO_EDIT, hand=index + 1)
    score_hand(entry, match.rules, len(match.sides))
    edited = replace(match, hands=match.hands[:index] + (entry,) + match.hands[index + 1:])
    st = standing(edited)  # raises MatchOver when the edit would decide the match before its last hand
    if edited.finished_early and not st.is_over:   # finished once decided, and the edit leaves it undecided
        edited = replace(edited, finished_early=False)
    return edited


def with_rules(match: Match, rules: RuleSet) -> Match:
    """The same hands under another rule set (a what-if); the match may then end at another hand."""
    return replace(match, rules=rules)
