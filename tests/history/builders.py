"""Hand-worked stored matches for the history tests: Anna and Ben over three evenings, and small builders."""

from __future__ import annotations

from hypothesis import strategies as st

from companion.engine import Goal, HandEntry, Match, Side, validate_hand
from companion.formats.presets import preset
from companion.records import MatchRecord

CLASSIC = preset("classic")
PARTNERSHIP = preset("partnership")
GREEK = preset("greek-online")


def hand(cards=(27, 25), counting=(10, 10), ten=0, two=0, xeris=(0, 0), jack_xeris=(0, 0)) -> HandEntry:
    """A classic count-mode hand; points per side = 3 for most cards + counting + 10♦ extra + 2♣ + xeris."""
    return HandEntry(cards=cards, counting=counting, ten_of_diamonds=ten, two=two,
                     xeris=xeris, jack_xeris=jack_xeris)


# Hands worked out under classic rules (side 0, side 1):
FIRST_WINS = hand()                                                  # 3+10+1+1 = 15, 10
SECOND_WINS = hand(cards=(25, 27), ten=1, two=1)                     # 10, 15
TIED = hand(cards=(26, 26), two=1)                                   # 10+1 = 11, 10+1 = 11: nobody wins
FIRST_XERI = hand(cards=(30, 22), counting=(12, 8), two=1, xeris=(1, 0))        # 3+12+1+10 = 26, 8+1 = 9
FIRST_JACK_XERI = hand(cards=(30, 22), counting=(12, 8), two=1, jack_xeris=(1, 0))  # 3+12+1+20 = 36, 9



def single(*names: str) -> tuple[Side, ...]:
    return tuple(Side(n) for n in names)


def record(id: str, sides, ids, hands, *, rules=CLASSIC, goal=Goal(hands=3), day="2025-01-10",
           finished=True, abandoned=False) -> MatchRecord:
    """A stored match started at 20:00 UTC on `day` and, when `finished`, finished at 22:00."""
    match = Match(rules=rules, sides=tuple(sides), goal=goal, hands=tuple(hands))
    return MatchRecord(id=id, match=match, created=f"{day}T20:00:00+00:00",
                       finished=f"{day}T22:00:00+00:00" if finished else None,
                       abandoned=abandoned, player_ids=tuple(tuple(i) for i in ids))


def duel(id: str, hands, *, day="2025-01-10", goal=Goal(hands=3), first="anna", second="ben", **kw) -> MatchRecord:
    """Two single players; the side names are the ids, capitalised."""
    return record(id, single(first.capitalize(), second.capitalize()), [[first], [second]], hands,
                  goal=goal, day=day, **kw)


def evenings() -> list[MatchRecord]:
    """Anna and Ben over three evenings, plus a match still in play that must count nowhere."""
    return [
        # Anna wins by hands won 2-0: points 15+11+26 = 52 to 10+11+9 = 30.
        duel("r1", [FIRST_WINS, TIED, FIRST_XERI], day="2025-01-10"),
        # Ben (side 0) races to 30 in two hands, 15+36 = 51 to Anna's 10+9 = 19.
        duel("r2", [FIRST_WINS, FIRST_JACK_XERI], day="2025-02-05", goal=Goal(target=30, extension=50),
             first="ben", second="anna"),
        # Abandoned after one hand that Anna won 15-10.
        duel("r3", [FIRST_WINS], day="2025-02-20", finished=False, abandoned=True),
        # Still in play: its 26 points must not reach any figure.
        duel("r4", [FIRST_XERI], day="2025-03-01", finished=False),
    ]


def race_to_50() -> Match:
    # Classic: 36-9, 10-15, 15-10 → 61-34, the first side reaches 50 at hand 3.
    return Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(target=50, extension=100),
                 hands=(FIRST_JACK_XERI, SECOND_WINS, FIRST_WINS))


@st.composite
def classic_hands(draw) -> HandEntry:
    """Any valid classic count-mode hand of two sides."""
    first_cards = draw(st.integers(14, 38))
    first_counting = draw(st.integers(max(0, 20 - (52 - first_cards) + 1), min(20, first_cards - 1)))
    counting = (first_counting, 20 - first_counting)
    ten = draw(st.sampled_from([s for s in (0, 1) if counting[s] > 0]))
    entry = HandEntry(cards=(first_cards, 52 - first_cards), counting=counting, ten_of_diamonds=ten,
                      two=draw(st.integers(0, 1)), xeris=(draw(st.integers(0, 3)), draw(st.integers(0, 3))),
                      jack_xeris=(draw(st.integers(0, 1)), draw(st.integers(0, 1))))
    if validate_hand(entry, CLASSIC, 2):
        entry = HandEntry(cards=entry.cards, counting=counting, ten_of_diamonds=ten, two=entry.two,
                          xeris=(0, 0), jack_xeris=(0, 0))
    return entry
