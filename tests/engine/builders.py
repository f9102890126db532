"""Small builders for the engine tests: rule sets by name, hand entries and matches in one line each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.engine import DECK, Card, Goal, HandEntry, Match, RuleSet, Side, parse_card
from companion.formats.presets import preset

NAMES = ("Anna", "Ben", "Chris", "Dora")
"""Side names used throughout; none is a substring of another, so a message naming one can be checked."""


def rules(name: str = "classic", **overrides) -> RuleSet:
    """A preset, with some fields changed (given in their match-file form)."""
    return preset(name).with_overrides(**overrides) if overrides else preset(name)


def hand(cards=(30, 22), counting=(12, 8), xeris=(0, 0), jack_xeris=(0, 0), ten=0, two=1) -> HandEntry:
    """A count-mode hand; by default Anna has most cards, 12 counting cards and the 10♦, Ben the 2♣."""
    return HandEntry(cards=cards, counting=counting, xeris=xeris, jack_xeris=jack_xeris,
                     ten_of_diamonds=ten, two=two)


def most_cards_hand(most: int | None, counting=(12, 8), xeris=(0, 0), jack_xeris=(0, 0), ten=0, two=1) -> HandEntry:
    """A hand whose piles were not counted: only who had most cards (None for a tie)."""
    return HandEntry(most_cards=most, counting=counting, xeris=xeris, jack_xeris=jack_xeris,
                     ten_of_diamonds=ten, two=two)


def scoring_cards(ruleset: RuleSet) -> list[Card]:
    """Every counting and special card of the rule set, in deck order."""
    return [c for c in DECK if ruleset.is_scoring(c)]


def held(ruleset: RuleSet, sides: int = 2, **given: Iterable[str]) -> tuple[tuple[Card, ...], ...]:
    """Exact-mode holdings: the cards listed per side name (`Ben=["JC", "JS"]`), the rest to Anna."""
    listed = {NAMES.index(name): [parse_card(c) for c in codes] for name, codes in given.items()}
    taken = {c for cards in listed.values() for c in cards}
    rest = [c for c in scoring_cards(ruleset) if c not in taken]
    return tuple(tuple(listed.get(s, []) + (rest if s == 0 else [])) for s in range(sides))


def exact_hand(holdings, cards=(30, 22), xeris=(0, 0), jack_xeris=(0, 0), most=None) -> HandEntry:
    """An exact-mode hand: the scoring cards each side holds, card by card."""
    if most is not None or cards is None:
        return HandEntry(most_cards=most, xeris=xeris, jack_xeris=jack_xeris, held=holdings)
    return HandEntry(cards=cards, xeris=xeris, jack_xeris=jack_xeris, held=holdings)


def even_hand(xeris=(0, 0), jack_xeris=(0, 0)) -> HandEntry:
    """A classic 26–26 hand worth 11 to each side before xeris (10 counting cards each; Anna the 10♦, Ben the 2♣)."""
    return hand(cards=(26, 26), counting=(10, 10), xeris=xeris, jack_xeris=jack_xeris, ten=0, two=1)


def won_by(side: int) -> HandEntry:
    """A two-sided hand the given side wins by a xeri."""
    return even_hand(xeris=(1, 0) if side == 0 else (0, 1))


def tied_hand() -> HandEntry:
    """A two-sided hand with equal top scores: nobody wins it."""
    return even_hand()


def sides(n: int = 2) -> tuple[Side, ...]:
    """`n` single players."""
    return tuple(Side(name) for name in NAMES[:n])


def teams() -> tuple[Side, ...]:
    """Two partnerships: Anna and Chris against Ben and Dora."""
    return (Side("Anna & Chris", ("Anna", "Chris")), Side("Ben & Dora", ("Ben", "Dora")))


def match(ruleset: RuleSet | str = "classic", n: int = 2, goal: Goal | None = None, first_dealer: int = 0,
          hands: Sequence[HandEntry] = ()) -> Match:
    """A match of single players; the goal defaults from the rule set."""
    ruleset = rules(ruleset) if isinstance(ruleset, str) else ruleset
    return Match(rules=ruleset, sides=sides(n), goal=goal or ruleset.goal, first_dealer=first_dealer,
                 hands=tuple(hands))


def partnership_match(goal: Goal | None = None, first_dealer: int = 0, hands: Sequence[HandEntry] = (),
                      **overrides) -> Match:
    """A match of two partnerships under the partnership preset."""
    ruleset = rules("partnership", **overrides)
    return Match(rules=ruleset, sides=teams(), goal=goal or ruleset.goal, first_dealer=first_dealer,
                 hands=tuple(hands))


def race(target: int = 151, extension: int | None = 251) -> Goal:
    """A race to `target`."""
    return Goal(target=target, extension=extension)


def over(hands: int) -> Goal:
    """An agreed number of hands."""
    return Goal(hands=hands)
