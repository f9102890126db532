"""Hypothesis strategies: hand entries a real deal could produce, ways to break them, and whole matches."""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from companion.engine import DECK, TEN_OF_DIAMONDS, Card, Goal, HandEntry, Match, Rank, RuleSet, Side, standing
from companion.engine.names import is_plain_text, name_key

from .builders import rules

RULE_SETS: tuple[RuleSet, ...] = (
    rules("classic"),
    rules("classic", jack_xeri_points=25, dealer_last_card_no_xeri=True),
    rules("plain"),
    rules("greek-online"),
    rules("greek-online", two="2C"),
    rules("partnership"),
    rules("partnership", goal={"target": 151, "extension": 251}, direction="anticlockwise"),
    rules("pisti"),
)
"""Every preset and a few of the variants the seed texts name."""


def rule_sets() -> st.SearchStrategy[RuleSet]:
    return st.sampled_from(RULE_SETS)


@st.composite
def rules_and_sides(draw) -> tuple[RuleSet, int]:
    """A rule set and a number of sides it allows."""
    ruleset = draw(rule_sets())
    return ruleset, draw(st.sampled_from(ruleset.sides_allowed))


@st.composite
def splits(draw, sides: int) -> tuple[int, ...]:
    """Captured cards per side, adding up to 52; often with a tie for most."""
    if draw(st.booleans()):
        cuts = sorted(draw(st.lists(st.integers(0, 52), min_size=sides - 1, max_size=sides - 1)))
        bounds = [0, *cuts, 52]
        return tuple(b - a for a, b in zip(bounds, bounds[1:]))
    # Two sides tie for most with x cards each; the others share the rest, each with fewer than x.
    others = sides - 2
    x = draw(st.integers(-(-(52 + others) // (others + 2)), 26))
    rest, counts = 52 - 2 * x, [x, x]
    for left in range(others - 1, -1, -1):
        share = rest if left == 0 else draw(st.integers(max(0, rest - left * (x - 1)), min(rest, x - 1)))
        counts.append(share)
        rest -= share
    return tuple(draw(st.permutations(counts)))


@st.composite
def deals(draw, sides: int) -> tuple[tuple[Card, ...], ...]:
    """The capture piles of one hand: the shuffled deck split among the sides."""
    counts = draw(splits(sides))
    deck = draw(st.permutations(DECK))
    piles, start = [], 0
    for n in counts:
        piles.append(tuple(deck[start:start + n]))
        start += n
    return tuple(piles)


@st.composite
def xeris_for(draw, piles, ruleset: RuleSet) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Xeris and jack xeris per side that the piles allow: two cards each, and the jacks a jack xeri takes."""
    jack_left = ruleset.max_jack_xeris
    xeris, jacks = [], []
    for pile in piles:
        jacks_held = sum(1 for c in pile if c.rank is Rank.JACK)
        jx = draw(st.integers(0, min(jack_left, jacks_held // ruleset.jacks_per_jack_xeri, len(pile) // 2)))
        jack_left -= jx
        jacks.append(jx)
        xeris.append(draw(st.integers(0, len(pile) // 2 - jx)))
    return tuple(xeris), tuple(jacks)


def majority_of(counts) -> int | None:
    top = max(counts)
    leaders = [s for s, n in enumerate(counts) if n == top]
    return leaders[0] if len(leaders) == 1 else None


def entry_from(piles, ruleset: RuleSet, xeris, jack_xeris, counted: bool = True, exact: bool = False) -> HandEntry:
    """The entry a table would tap in for these piles: cards counted or only who had most; counts or cards held."""
    counts = tuple(len(p) for p in piles)
    holder = {c: s for s, pile in enumerate(piles) for c in pile}
    common = dict(xeris=tuple(xeris), jack_xeris=tuple(jack_xeris))
    if counted:
        common["cards"] = counts
    else:
        common["most_cards"] = majority_of(counts)
    if exact:
        return HandEntry(held=tuple(tuple(c for c in p if ruleset.is_scoring(c)) for p in piles), **common)
    return HandEntry(counting=tuple(sum(1 for c in p if ruleset.is_counting(c)) for p in piles),
                     ten_of_diamonds=holder[TEN_OF_DIAMONDS], two=holder[ruleset.two], **common)


@st.composite
def valid_entries(draw, ruleset: RuleSet, sides: int, counted: bool | None = None, exact: bool | None = None):
    """A hand entry a real deal under these rules could produce, in any mode of entry."""
    piles = draw(deals(sides))
    xeris, jack_xeris = draw(xeris_for(piles, ruleset))
    counted = draw(st.booleans()) if counted is None else counted
    exact = draw(st.booleans()) if exact is None else exact
    return entry_from(piles, ruleset, xeris, jack_xeris, counted=counted, exact=exact)


# --- breaking an entry --------------------------------------------------------------------------

def _set(values: tuple, side: int, value) -> tuple:
    return values[:side] + (value,) + values[side + 1:]


def _per_side_fields(entry: HandEntry) -> list[str]:
    names = ["xeris", "jack_xeris"]
    if entry.cards is not None:
        names.append("cards")
    if entry.counting is not None and entry.held is None:
        names.append("counting")
    return names


BREAKS = {
    # way of breaking an entry: (cards counted?, exact mode?) it needs; None for either
    "negative": (None, None), "not_whole": (None, None), "wrong_side_count": (None, None),
    "too_many_xeris": (None, None), "too_many_jack_xeris": (None, None), "jack_xeris_need_jacks": (None, None),
    "no_such_side": (None, False), "cards_total": (True, None), "too_few_cards": (True, None),
    "counting_total": (None, False), "ten_missing": (None, False), "two_missing": (None, False),
    "counting_missing": (None, False), "card_missing": (None, True), "card_twice": (None, True),
    "not_scoring_card": (None, True),
}
"""Every way `broken_entries` knows to make a valid entry impossible: (cards counted?, exact mode?), None for either."""


@st.composite
def broken_entries(draw, ruleset: RuleSet, sides: int, way: str) -> HandEntry:
    """A valid entry with one thing made impossible, the `way` named (one of `BREAKS`)."""
    counted, exact = BREAKS[way]
    entry = draw(valid_entries(ruleset, sides, counted=counted, exact=exact))
    side = draw(st.integers(0, sides - 1))
    field = draw(st.sampled_from(_per_side_fields(entry)))
    r = dataclasses.replace

    if way == "negative":
        return r(entry, **{field: _set(getattr(entry, field), side, -draw(st.integers(1, 60)))})
    if way == "not_whole":
        bad = draw(st.sampled_from([0.5, 2.25, 13.0, "3", True, None, [1]]))
        return r(entry, **{field: _set(getattr(entry, field), side, bad)})
    if way == "wrong_side_count":
        if entry.held is not None and draw(st.booleans()):
            return r(entry, held=entry.held[:-1])
        values = getattr(entry, field)
        return r(entry, **{field: values[:-1] if draw(st.booleans()) else values + (0,)})
    if way == "too_many_xeris":
        if entry.cards is not None:
            return r(entry, xeris=_set(entry.xeris, side, entry.cards[side] // 2 + draw(st.integers(1, 5))))
        return r(entry, xeris=_set(entry.xeris, side, 27 + draw(st.integers(0, 5))))
    if way == "too_many_jack_xeris":
        return r(entry, jack_xeris=_set(entry.jack_xeris, side, ruleset.max_jack_xeris + draw(st.integers(1, 3))))
    if way == "jack_xeris_need_jacks":
        if entry.held is None:
            jacks = entry.counting[side]
        else:
            jacks = sum(1 for c in entry.held[side] if c.rank is Rank.JACK)
        return r(entry, jack_xeris=_set(entry.jack_xeris, side, jacks // ruleset.jacks_per_jack_xeri + 1))
    if way == "no_such_side":
        outside = draw(st.one_of(st.integers(sides, 9), st.integers(-9, -1)))
        choices = ["ten_of_diamonds", "two"] + (["most_cards"] if entry.cards is None else [])
        return r(entry, **{draw(st.sampled_from(choices)): outside})
    if way == "cards_total":
        k = draw(st.integers(-52, 52).filter(bool))
        return r(entry, cards=_set(entry.cards, side, entry.cards[side] + k))
    if way == "too_few_cards":
        # Move cards away from a side holding scoring cards until it has fewer than it holds.
        side = draw(st.sampled_from([s for s in range(sides) if _needed(entry, ruleset, s)]))
        other = (side + 1) % sides
        needed = _needed(entry, ruleset, side)
        d = entry.cards[side] - needed + draw(st.integers(1, needed))
        cards = _set(entry.cards, side, entry.cards[side] - d)
        return r(entry, cards=_set(cards, other, cards[other] + d))
    if way == "counting_total":
        k = draw(st.integers(-20, 20).filter(bool))
        return r(entry, counting=_set(entry.counting, side, entry.counting[side] + k))
    if way == "ten_missing":
        return r(entry, ten_of_diamonds=None)
    if way == "two_missing":
        return r(entry, two=None)
    if way == "counting_missing":
        return r(entry, counting=None)
    scoring = [c for c in DECK if ruleset.is_scoring(c)]
    if way == "card_missing":
        gone = draw(st.sampled_from(scoring))
        return r(entry, held=tuple(tuple(c for c in pile if c != gone) for pile in entry.held))
    if way == "card_twice":
        again = draw(st.sampled_from(scoring))
        to = draw(st.integers(0, sides - 1))
        return r(entry, held=_set(entry.held, to, entry.held[to] + (again,)))
    assert way == "not_scoring_card", way
    plain = draw(st.sampled_from([c for c in DECK if not ruleset.is_scoring(c)]))
    return r(entry, held=_set(entry.held, side, entry.held[side] + (plain,)))


def _needed(entry: HandEntry, ruleset: RuleSet, side: int) -> int:
    """Counting and special cards the side holds."""
    if entry.held is not None:
        return len(entry.held[side])
    needed = entry.counting[side]
    if entry.ten_of_diamonds == side and not ruleset.is_counting(TEN_OF_DIAMONDS):
        needed += 1
    if entry.two == side and not ruleset.is_counting(ruleset.two):
        needed += 1
    return needed


# --- matches ------------------------------------------------------------------------------------

names = st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=10).filter(str.strip).filter(is_plain_text)


def distinct_names(n: int):
    """`n` names no two of which are the same player (case and spaces aside)."""
    return st.lists(names, min_size=n, max_size=n, unique_by=name_key)


@st.composite
def goals(draw) -> Goal:
    if draw(st.booleans()):
        target = draw(st.integers(20, 400))
        extension = draw(st.one_of(st.none(), st.integers(target + 1, target + 300)))
        return Goal(target=target, extension=extension)
    return Goal(hands=draw(st.integers(1, 12)))


@st.composite
def matches(draw, max_hands: int = 8, playing: bool = False) -> Match:
    """A match under any rule set, with valid hands; never hands after its end (and not over, if `playing`)."""
    ruleset, n = draw(rules_and_sides())
    # Names differ (as the form and the match file insist): two sides of one name would be one player.
    if ruleset.partnerships:
        teams, players = draw(distinct_names(n)), draw(distinct_names(2 * n))
        sides = tuple(Side(teams[i], (players[2 * i], players[2 * i + 1])) for i in range(n))
    else:
        sides = tuple(Side(name) for name in draw(distinct_names(n)))
    seats = 4 if ruleset.partnerships else n
    m = Match(rules=ruleset, sides=sides, goal=draw(goals()), first_dealer=draw(st.integers(0, seats - 1)))
    hands = draw(st.lists(valid_entries(ruleset, n), max_size=max_hands))
    m = dataclasses.replace(m, hands=tuple(hands))
    decided = standing(m, strict=False).decided_at
    if decided is not None:
        m = dataclasses.replace(m, hands=m.hands[:decided if playing else decided + 1])
    return m


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)
metas = st.one_of(st.none(), st.dictionaries(st.text(min_size=1, max_size=8), json_values, min_size=1, max_size=4))
"""What a match file's optional `meta` object may hold."""
