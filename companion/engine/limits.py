"""The bounds on every number and name a match can carry, and how a value out of bounds is told.

A match file or a form can hold any number; the game never produces more than these. Keeping every
value inside them keeps every piece of work small, whatever a file says: no loop, no column width and
no message grows with the size of a number or a name.
"""

from __future__ import annotations

from typing import Any

from .messages import Message, Says

MAX_POINTS = 100
"""The most one scoring item may be worth (a card's rank, the 10♦, the two, most cards, a xeri, a jack
xeri). Real rule sets give at most 25."""
MAX_TARGET = 10_000
"""The highest target a race may have (151 is usual)."""
MAX_STEP = 10_000
"""How far above the target its extension may be (100 is usual)."""
MAX_HANDS = 1_000
"""The most hands a match may hold, and the longest agreed number of hands. A race to 151 takes about
ten; a race to 10,000 at 25 points a hand about 400 for each of four sides."""
MAX_NAME = 40
"""The longest name of a player or a team, in characters."""

_SHOWN_DIGITS = 15
"""A number longer than this is described by its length in a message, not written out."""
_COUNTED_DIGITS = 4_300
"""A number longer than this (Python writes none out) is described by its length read from its bits alone,
give or take one ("about"): counting them exactly would take time growing with the number."""
_LOG10_2 = 0.30102999566398120


class ValueSays(Says):
    """How a message tells a value too long to write out."""

    __prefix__ = "error.value"
    ABOUT_DIGITS = "a number of about {digits} digits"
    DIGITS = "a number of {digits} digits"


class LongNumber:
    """A number in a file too long to be anything a match holds, kept as its length only: turning it
    into an int takes time growing with its digits (Python refuses past 4,300). It is no whole number,
    so the check of the field that holds it refuses it, naming the field."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return str(ValueSays.DIGITS.of(digits=self.digits))


def shown(value: Any) -> str | Message:
    """A value as a message shows it: as written (a string in quotes), cut to 60 characters; a number too
    long to read is told by its length (a `Message`, said in the reader's language), never written out.

    Writing a huge number out takes time that grows with its size, and Python refuses past 4,300 digits.
    """
    if is_whole(value) and abs(value) >= 10**_SHOWN_DIGITS:
        bits = value.bit_length()
        # A number of b bits has one of two lengths: the shorter, or one digit more when it reaches 10 to that.
        digits = int((bits - 1) * _LOG10_2) + 1
        if digits > _COUNTED_DIGITS:
            return ValueSays.ABOUT_DIGITS.of(digits=int(bits * _LOG10_2) + 1)
        return ValueSays.DIGITS.of(digits=digits + (abs(value) >= 10**digits))
    if isinstance(value, LongNumber):
        return ValueSays.DIGITS.of(digits=value.digits)
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def cut(name: str, width: int = MAX_NAME) -> str:
    """`name` in at most `width` characters, a cut one ending in "…": a match stored before names were
    limited may hold longer ones, and a sentence or a column must not grow with them."""
    return name if len(name) <= width else name[: width - 1] + "…"


def is_whole(value: Any) -> bool:
    """True for an int that is not a bool (JSON's true is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def within(value: Any, low: int, high: int) -> bool:
    """True for a whole number from `low` to `high`."""
    return is_whole(value) and low <= value <= high
