"""Rule sets: every scoring rule and variant of Xeri as plain data."""

from __future__ import annotations

import enum
from functools import cached_property
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from collections.abc import Callable, Mapping

from .cards import DECK, Card, Rank, TEN_OF_DIAMONDS, parse_card, parse_rank
from .limits import MAX_HANDS, MAX_POINTS, MAX_STEP, MAX_TARGET, is_whole, shown, within
from .messages import Message, SaidError, Says, said


class Direction(enum.Enum):
    """The way the deal (and play) passes round a table of four."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class RulesSays(Says):
    """Why a rule set or a goal cannot be played. A file's own words (field names, `true`) are values, so no
    translation can change them."""

    __prefix__ = "error.rules"
    GOAL_KIND = "a goal is either a target (with its extension) or a number of hands"
    GOAL_NOT_WHOLE = "the goal's {field} must be a whole number, not {value}"
    HANDS_TOO_FEW = "a match of {hands} hands cannot be played: agree on 1 or more"
    HANDS_TOO_MANY = "a match of {hands} hands cannot be played: agree on at most {max}"
    TARGET_TOO_LOW = "a target of {target} points cannot be played"
    TARGET_TOO_HIGH = "a target of {target} points is more than a match is played to (at most {max})"
    EXTENSION_NOT_ABOVE = "the extension ({extension}) must be above the target ({target})"
    EXTENSION_TOO_FAR = "the extension ({extension}) may be at most {max} above the target ({target})"
    GOAL_NOT_OBJECT = "a goal is an object such as {race} or {hands}"
    GOAL_NO_FIELD = "a goal has no field {field}"
    POINTS = "{field} must be a whole number of points from 0 to {max}, not {value}"
    NOT_A_RANK = "rank points are given for ranks (A K Q J 10 … 2), not {value}"
    RANK_POINTS = "rank points must be whole numbers from 0 to {max}, not {value} for {rank}"
    TWO_NOT_A_TWO = "the special two must be a two, not {value}"
    PLAYERS = "Xeri is played by 2, 3 or 4 players, each listed once, not {value}"
    PARTNERSHIPS_FOUR = "partnerships are played by exactly four players"
    NOT_AN_OBJECT = "a rule set is a JSON object"
    NO_SETTING = "rule sets have no setting {field}"
    NOT_VALID = "the rule set is not valid: {reason}"
    FLAG = "{field} is {true} or {false}, not {value}"
    PLAYERS_NOT_A_LIST = "{field} is a list of table sizes such as {one} or {many}, not {value}"
    RANK_POINTS_NOT_AN_OBJECT = "{field} is an object such as {example}, not {value}"
    DIRECTION = "{field} is {clockwise} or {anticlockwise}, not {value}"


class RulesError(SaidError):
    """A rule set that cannot be played: an unknown field or an impossible value."""


@dataclass(frozen=True)
class Goal:
    """How a match is won: a race to `target` points, or most hands won over `hands` hands."""

    target: int | None = None
    """Points to reach at the end of a hand (151); None for a hands goal."""
    extension: int | None = None
    """The next target when two sides reach `target` in the same hand (251); the step repeats."""
    hands: int | None = None
    """The agreed number of hands; None for a race."""

    def __post_init__(self) -> None:
        if (self.target is None) == (self.hands is None):
            raise RulesError(RulesSays.GOAL_KIND)
        for key in ("target", "extension", "hands"):
            value = getattr(self, key)
            if value is not None and not is_whole(value):
                raise RulesError(RulesSays.GOAL_NOT_WHOLE, field=key, value=shown(value))
        if self.hands is not None:
            if self.hands < 1:
                raise RulesError(RulesSays.HANDS_TOO_FEW, hands=shown(self.hands))
            if self.hands > MAX_HANDS:
                raise RulesError(RulesSays.HANDS_TOO_MANY, hands=shown(self.hands), max=MAX_HANDS)
        if self.target is not None:
            if self.target < 1:
                raise RulesError(RulesSays.TARGET_TOO_LOW, target=shown(self.target))
            if self.target > MAX_TARGET:
                raise RulesError(RulesSays.TARGET_TOO_HIGH, target=shown(self.target), max=MAX_TARGET)
            extension = self.target + 100 if self.extension is None else self.extension
            object.__setattr__(self, "extension", extension)
            if extension <= self.target:
                raise RulesError(RulesSays.EXTENSION_NOT_ABOVE, extension=shown(extension), target=self.target)
            if extension - self.target > MAX_STEP:
                raise RulesError(RulesSays.EXTENSION_TOO_FAR, extension=shown(extension), max=MAX_STEP,
                                 target=self.target)

    @property
    def is_race(self) -> bool:
        """True for a race to a target, False for an agreed number of hands."""
        return self.target is not None

    @property
    def step(self) -> int:
        """How far the target moves each time two sides reach it in the same hand."""
        return (self.extension or 0) - (self.target or 0)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Goal:
        """A goal from its match-file form: `{"target": 151, "extension": 251}` or `{"hands": 11}`."""
        if not isinstance(data, Mapping):
            raise RulesError(RulesSays.GOAL_NOT_OBJECT, race='{"target": 151, "extension": 251}', hands='{"hands": 11}')
        unknown = set(data) - {"target", "extension", "hands"}
        if unknown:
            raise RulesError(RulesSays.GOAL_NO_FIELD, field=shown(sorted(unknown)[0]))
        for key, value in data.items():
            if value is not None and not is_whole(value):
                raise RulesError(RulesSays.GOAL_NOT_WHOLE, field=key, value=shown(value))
        return cls(target=data.get("target"), extension=data.get("extension"), hands=data.get("hands"))

    def to_dict(self) -> dict[str, int | None]:
        """The match-file form of the goal."""
        if self.hands is not None:
            return {"hands": self.hands}
        return {"target": self.target, "extension": self.extension}


def _frozen(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    """A rule set: the value of every scoring item and the shape of the table."""

    name: str
    """The preset this rule set is (or starts from): `classic`, `plain`, `greek-online`, …"""
    rank_points: Mapping[Rank, int]
    """Points for each card of a counting rank (A K Q J 10 → 1 each in classic)."""
    ten_of_diamonds_points: int
    """What the 10♦ is worth in all; it replaces its rank value (classic: 2, greek-online: 1)."""
    two: Card
    """The special two: 2♣ in most rules, 2♠ in the online room's text."""
    two_points: int
    """What the special two is worth in all."""
    majority_points: int = 3
    """Points for most cards; a tie for most gives them to nobody."""
    xeri_points: int = 10
    """Points for a xeri: a lone card captured with a card of its rank."""
    jack_xeri_points: int = 20
    """Points for a jack xeri (25 in a common variant; 10 in the plain rules)."""
    jack_xeri_on_any: bool = False
    """True when a jack taking ANY lone card is a jack xeri, not only a jack on a lone jack."""
    players: tuple[int, ...] = (2,)
    """How many players may sit at the table."""
    partnerships: bool = False
    """True when four players play as two partnerships, partners opposite, one capture pile."""
    direction: Direction = Direction.CLOCKWISE
    """The way the deal passes round a table of more than two."""
    goal: Goal = field(default_factory=lambda: Goal(target=151, extension=251))
    """The goal a new match takes unless the table agrees another."""
    dealer_last_card_no_xeri: bool = False
    """A reminder: the dealer's very last card of the hand cannot make a xeri."""
    deciding_hand: bool = True
    """Over an agreed number of hands, a draw may be settled by a deciding hand if the table agrees (the rules'
    own words: "equal: drawn (players may agree on a deciding hand)"); False: a draw is final."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rank_points", _frozen(self.rank_points))
        object.__setattr__(self, "players", tuple(self.players))
        # Bounded, so that no sum, line or message of the scoring grows with what a file says.
        for what, value in (("ten_of_diamonds_points", self.ten_of_diamonds_points),
                            ("two_points", self.two_points), ("majority_points", self.majority_points),
                            ("xeri_points", self.xeri_points), ("jack_xeri_points", self.jack_xeri_points)):
            if not within(value, 0, MAX_POINTS):
                raise RulesError(RulesSays.POINTS, field=what, max=MAX_POINTS, value=shown(value))
        for rank, value in self.rank_points.items():
            if not isinstance(rank, Rank):
                raise RulesError(RulesSays.NOT_A_RANK, value=shown(rank))
            if not within(value, 0, MAX_POINTS):
                raise RulesError(RulesSays.RANK_POINTS, max=MAX_POINTS, value=shown(value), rank=rank.value)
        if not isinstance(self.two, Card) or self.two.rank is not Rank.TWO:
            raise RulesError(RulesSays.TWO_NOT_A_TWO, value=getattr(self.two, "code", None) or shown(self.two))
        if (not self.players or any(not is_whole(n) or n not in (2, 3, 4) for n in self.players)
                or len(set(self.players)) != len(self.players)):
            raise RulesError(RulesSays.PLAYERS, value=shown(list(self.players)))
        if self.partnerships and self.players != (4,):
            raise RulesError(RulesSays.PARTNERSHIPS_FOUR)

    # --- questions the scoring asks -------------------------------------------------------------
    @cached_property
    def counting_ranks(self) -> tuple[Rank, ...]:
        """The ranks whose cards are counting cards, in the usual order A K Q J 10."""
        return tuple(r for r in Rank if self.rank_points.get(r, 0) > 0)

    @cached_property
    def counting_cards_in_deck(self) -> int:
        """How many counting cards the deck holds: 20 for A K Q J 10, 16 for K Q J 10."""
        return 4 * len(self.counting_ranks)

    @cached_property
    def counting_point(self) -> int | None:
        """Points for each counting card when every counting rank is worth the same, else None."""
        values = {self.rank_points[r] for r in self.counting_ranks}
        return values.pop() if len(values) == 1 else None

    def rank_value(self, card: Card) -> int:
        """The card's value by its rank alone."""
        return self.rank_points.get(card.rank, 0)

    def card_value(self, card: Card) -> int:
        """The card's value in all: the special value replaces the rank value."""
        if card == TEN_OF_DIAMONDS:
            return self.ten_of_diamonds_points
        if card == self.two:
            return self.two_points
        return self.rank_value(card)

    def is_counting(self, card: Card) -> bool:
        """True for a card of a counting rank."""
        return self.rank_value(card) > 0

    def is_scoring(self, card: Card) -> bool:
        """True for a card people pick out of their pile: a counting card or a special card."""
        return self.is_counting(card) or card in (TEN_OF_DIAMONDS, self.two)

    @cached_property
    def ten_of_diamonds_extra(self) -> int:
        """What the 10♦ adds beyond its rank value (classic: 1)."""
        return self.ten_of_diamonds_points - self.rank_value(TEN_OF_DIAMONDS)

    @cached_property
    def two_extra(self) -> int:
        """What the special two adds beyond its rank value."""
        return self.two_points - self.rank_value(self.two)

    @cached_property
    def card_points(self) -> int:
        """Card points handed out in a hand with a clear majority (classic: 25)."""
        counting = sum(4 * self.rank_points[r] for r in self.counting_ranks)
        return counting + self.ten_of_diamonds_extra + self.two_extra + self.majority_points

    # --- figures the checks and the scoring read for every hand -----------------------------------
    # Speed: worked out once per rule set, so checking a hand need not walk the deck asking
    # `is_scoring` card by card, nor ask `is_counting` of the special cards.
    @cached_property
    def scoring_cards(self) -> tuple[Card, ...]:
        """Every counting and special card, in deck order: what an exact entry lists, each once."""
        return tuple(c for c in DECK if self.is_scoring(c))

    @cached_property
    def _scoring_card_set(self) -> frozenset[Card]:
        return frozenset(self.scoring_cards)

    @cached_property
    def ten_of_diamonds_counts(self) -> bool:
        """True when the 10♦ is also a counting card (its rank counts)."""
        return self.is_counting(TEN_OF_DIAMONDS)

    @cached_property
    def two_counts(self) -> bool:
        """True when the special two is also a counting card (its rank counts)."""
        return self.is_counting(self.two)

    @property
    def max_jack_xeris(self) -> int:
        """Jack xeris one hand can hold: 2 when only a jack on a lone jack counts, 4 under jack-on-any."""
        return 4 if self.jack_xeri_on_any else 2

    @property
    def jacks_per_jack_xeri(self) -> int:
        """Jacks each jack xeri puts in the capturer's pile."""
        return 1 if self.jack_xeri_on_any else 2

    @property
    def sides_allowed(self) -> tuple[int, ...]:
        """How many sides may keep score: 2 for partnerships, else one per player."""
        return (2,) if self.partnerships else self.players

    @property
    def title(self) -> Message:
        """The rule set's name as a message says it: its title in the catalogs (`rules.classic.title`), its
        name as it is (`classic`) in plain English."""
        return Message(f"rules.{self.name}.title", self.name)

    # --- building and overriding ----------------------------------------------------------------
    def with_overrides(self, **changes: Any) -> RuleSet:
        """This rule set with some fields changed, given in their match-file form."""
        return RuleSet.from_dict({**self.to_dict(), **changes})

    def overrides_from(self, base: RuleSet) -> dict[str, Any]:
        """The fields (in match-file form) where this rule set differs from `base`."""
        mine, theirs = self.to_dict(), base.to_dict()
        return {k: v for k, v in mine.items() if k != "name" and theirs.get(k) != v}

    def to_dict(self) -> dict[str, Any]:
        """The rule set as a JSON-ready dict, as in `data/rules/*.json` (every field of `FIELDS`)."""
        return {f.name: f.dump(getattr(self, f.name)) for f in FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """A rule set from its JSON form; every field but `name`, `rank_points` and `two` has a default."""
        if not isinstance(data, Mapping):
            raise RulesError(RulesSays.NOT_AN_OBJECT)
        unknown = set(data) - set(FIELD_BY_NAME)
        if unknown:
            raise RulesError(RulesSays.NO_SETTING, field=shown(sorted(unknown, key=str)[0]))
        try:
            return cls(**{key: FIELD_BY_NAME[key].load(value) for key, value in data.items()})
        except RulesError:
            raise
        except (ValueError, TypeError) as exc:
            # A card error says its own sentence; Python's own (a TypeError) is kept as it is.
            raise RulesError(RulesSays.NOT_VALID, reason=said(exc)) from None


# --- the fields of a rule set, described once ---------------------------------------------------------

def _flag(name: str) -> Callable[[Any], bool]:
    def load(value: Any) -> bool:
        if not isinstance(value, bool):
            raise RulesError(RulesSays.FLAG, field=name, true="true", false="false", value=shown(value))
        return value
    return load


def _same(value: Any) -> Any:
    return value


def _players(value: Any) -> tuple:
    if not isinstance(value, (list, tuple)):
        raise RulesError(RulesSays.PLAYERS_NOT_A_LIST, field="players", one="[2]", many="[2, 3, 4]", value=shown(value))
    return tuple(value)


def _direction(value: Any) -> Direction:
    try:
        return Direction(value)
    except (ValueError, TypeError):
        raise RulesError(RulesSays.DIRECTION, field="direction", clockwise=repr(Direction.CLOCKWISE.value),
                         anticlockwise=repr(Direction.ANTICLOCKWISE.value), value=shown(value)) from None


def _rank_points(value: Any) -> dict[Rank, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(RulesSays.RANK_POINTS_NOT_AN_OBJECT, field="rank_points", example='{"A": 1, "K": 1}',
                         value=shown(value))
    return {parse_rank(k): n for k, n in value.items()}


@dataclass(frozen=True)
class Switch:
    """A variant the new-match form offers as one switch: on sets the field to `on`, off gives it back."""

    key: str
    """Its words: `setup.variant.<key>` in the catalogs."""
    on: Any
    """The field's value (match-file form) when the switch is on."""
    off: Any
    """The value when off, used when the preset's own value is `on` (otherwise off means the preset's)."""
    min_seats: int = 2
    """Offered only at tables of at least this many seats."""
    hands_goal: bool = False
    """Offered only for a match over an agreed number of hands (the only goal it changes)."""

    def value(self, on: bool, preset_value: Any) -> Any:
        """The field's value for the switch's position over a preset whose own value is `preset_value`."""
        if on:
            return self.on
        return self.off if preset_value == self.on else preset_value


@dataclass(frozen=True)
class RuleField:
    """One field of a rule set: its name in the match file and in `data/rules/*.json`, and how it is read
    and written. A new variant is one more `RuleField` (with its `Switch`) plus its words."""

    name: str
    """The `RuleSet` attribute and the match-file key."""
    dump: Callable[[Any], Any] = _same
    """The value in match-file form."""
    load: Callable[[Any], Any] = _same
    """The value from its match-file form; raises `RulesError` or `ValueError` when it is not one."""
    switch: Switch | None = None
    """The new-match form's switch for this field, if it is a variant people choose at the table."""


FIELDS: tuple[RuleField, ...] = (
    RuleField("name"),
    RuleField("rank_points", dump=lambda v: {r.value: v[r] for r in Rank if r in v}, load=_rank_points),
    RuleField("ten_of_diamonds_points"),
    RuleField("two", dump=lambda c: c.code, load=parse_card, switch=Switch("two_spades", on="2S", off="2C")),
    RuleField("two_points"),
    RuleField("majority_points"),
    RuleField("xeri_points"),
    RuleField("jack_xeri_points", switch=Switch("jack25", on=25, off=20)),
    RuleField("jack_xeri_on_any", load=_flag("jack_xeri_on_any"), switch=Switch("jack_any", on=True, off=False)),
    RuleField("players", dump=list, load=_players),
    RuleField("partnerships", load=_flag("partnerships")),
    RuleField("direction", dump=lambda d: d.value, load=_direction,
              switch=Switch("anticlockwise", on="anticlockwise", off="clockwise", min_seats=3)),
    RuleField("goal", dump=lambda g: g.to_dict(), load=Goal.from_dict),
    RuleField("dealer_last_card_no_xeri", load=_flag("dealer_last_card_no_xeri"),
              switch=Switch("dealer_last", on=True, off=False)),
    RuleField("deciding_hand", load=_flag("deciding_hand"),
              switch=Switch("draw_final", on=False, off=True, hands_goal=True)),
)
"""Every field of a rule set, in file order: `to_dict`, `from_dict`, the match file and the new-match form
all read this one list."""

FIELD_BY_NAME = {f.name: f for f in FIELDS}
SWITCHES: tuple[RuleField, ...] = tuple(f for f in FIELDS if f.switch is not None)
"""The fields the new-match form shows as variant switches, in order."""
