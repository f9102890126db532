"""Cards of the 52-card deck: ranks, suits, and their codes (`10D`, `2C`, `JS`, or `10♦`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .limits import shown
from .messages import SaidError, Says


class Suit(enum.Enum):
    """A suit, valued by its one-letter code."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Speed: members are singletons compared by identity, so identity hashing is consistent with
    # equality; Enum's own __hash__ (hash of the name) is a Python call on every card lookup.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(enum.Enum):
    """A rank, valued by its code as people write it: A K Q J 10 9 … 2."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"

    __hash__ = object.__hash__  # speed: see Suit


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {v: k for k, v in _SUIT_SYMBOLS.items()}
_SUIT_BY_TEXT |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
_RANK_BY_TEXT = {r.value: r for r in Rank} | {"T": Rank.TEN, "1": Rank.ACE}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}

DECK_SIZE = 52
"""Cards in the deck: every hand's captured cards add up to this."""


class CardSays(Says):
    """Why a text names no card."""

    __prefix__ = "error.card"
    NOT_A_CARD = "{value} is not a card: write a rank ({ranks}) and a suit ({letters} or {symbols})"
    NOT_A_RANK = "{value} is not a rank: use {ranks}"


class CardError(SaidError):
    """A card code that names no card of the deck."""


@dataclass(frozen=True)
class Card:
    """One card of the deck."""

    rank: Rank
    """The card's rank."""
    suit: Suit
    """The card's suit."""

    @classmethod
    def from_code(cls, text: str) -> Card:
        """Parse `10D`, `2c`, `JS` or `10♦` into a card."""
        return parse_card(text)

    @property
    def sort_key(self) -> tuple[int, int]:
        """Order of the deck: by rank (A K Q J 10 … 2), then suit (♣ ♦ ♥ ♠)."""
        return (_RANK_ORDER[self.rank], _SUIT_ORDER[self.suit])

    @property
    def code(self) -> str:
        """The card's ASCII code, as in match files: `10D`."""
        return self.rank.value + self.suit.value

    @property
    def label(self) -> str:
        """The card as people write it: `10♦`."""
        return self.rank.value + self.suit.symbol

    def __str__(self) -> str:
        return self.code


def parse_card(text: str) -> Card:
    """Parse a card code such as `10D`, `2C`, `JS`, `10♦` (case and spaces ignored)."""
    s = text.strip().upper() if isinstance(text, str) and len(text) <= 8 else ""
    if len(s) < 2 or s[-1] not in _SUIT_BY_TEXT or s[:-1] not in _RANK_BY_TEXT:
        raise CardError(CardSays.NOT_A_CARD, value=shown(text), ranks="A K Q J 10 9 … 2", letters="C D H S",
                        symbols="♣ ♦ ♥ ♠")
    # The deck's own card: equal cards that are also identical compare without a call.
    return _DECK_CARDS[_RANK_BY_TEXT[s[:-1]], _SUIT_BY_TEXT[s[-1]]]


def parse_rank(text: str) -> Rank:
    """Parse a rank code such as `A`, `10`, `J`."""
    s = text.strip().upper() if isinstance(text, str) and len(text) <= 8 else ""
    if s not in _RANK_BY_TEXT:
        raise CardError(CardSays.NOT_A_RANK, value=shown(text), ranks="A K Q J 10 9 8 7 6 5 4 3 2")
    return _RANK_BY_TEXT[s]


DECK: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
"""The 52 cards, suit by suit."""
_DECK_CARDS = {(c.rank, c.suit): c for c in DECK}

TEN_OF_DIAMONDS = _DECK_CARDS[Rank.TEN, Suit.DIAMONDS]
"""The 10♦: worth more than a plain ten in every rule set."""
