"""Player and side names: what a name may hold, when two names are one player, and how a typed name is tidied.

The one definition of a name's rules: the new-match form, the match file, known players and renaming all
ask here, so a name one of them takes another never refuses.
"""

from __future__ import annotations

import enum
import unicodedata

from .limits import MAX_NAME, shown
from .messages import SaidError, Says

JOINERS = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners: invisible, but they shape emoji sequences (👩‍👩‍👧) and some scripts' words."""
TAGS = range(0xE0020, 0xE0080)
"""Tag characters: invisible, but they spell the subdivision flags (🏴 of Scotland, Wales, England): kept only
there, after the black flag (U+1F3F4)."""
FLAG = "\U0001F3F4"
"""The black flag that a subdivision flag's tags follow."""
BLANKS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"})
"""Letters and marks that draw nothing though they are not format characters: the Hangul fillers (a name of
them looks empty; written Korean never needs them), the braille blank and the combining grapheme joiner."""


class NameSays(Says):
    """Why a name cannot be used."""

    __prefix__ = "error.name"
    EMPTY = "a player needs a name"
    TOO_LONG = "the name {name} has {length} characters; a name has at most {max}"
    NOT_TEXT = ("the name {name} holds a control character, an invisible or direction-changing character, or "
                "broken text; type it again as plain text")
    TAKEN = "there is already a player called {name}"


class NameProblem(enum.StrEnum):
    """What is wrong with a name, for a form to say in its own words."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    NOT_TEXT = "not_text"


class PlayerError(SaidError):
    """A name that cannot be a player's: empty, too long, not plain text, or already another player's."""


def _refused(char: str, before: str) -> bool:
    category = unicodedata.category(char)
    if category in ("Cc", "Cs"):
        return True  # line breaks, escapes, broken text (a lone surrogate)
    if ord(char) in TAGS:
        return before != FLAG and ord(before) not in TAGS
    # Format characters draw nothing: a right-to-left override (U+202E) turns the name around on screen and
    # in a score sheet, a zero-width space (U+200B) makes two names that look the same. Joiners are kept:
    # emoji sequences and some scripts' words are made of them.
    return (category == "Cf" and char not in JOINERS) or char in BLANKS


def is_plain_text(name: str) -> bool:
    """False for a name holding a control character, a lone surrogate, an invisible format character
    (direction overrides and marks, zero-width spaces, soft hyphens, byte-order marks), a character that draws
    nothing (`BLANKS`), or tag characters outside a flag."""
    return not any(_refused(char, before) for before, char in zip(" " + name, name))


def tidy(name: str) -> str:
    """A typed name as it is kept: runs of spaces (of any kind, line breaks among them) made one, none at
    either end."""
    return " ".join(str(name).split())


def name_key(name: str) -> str:
    """What makes two names the same player: case and runs of spaces do not count."""
    return tidy(name).casefold()


def problem_of(name: str) -> NameProblem | None:
    """What is wrong with `name` as typed (before `tidy`), or None when it can be used."""
    clean = tidy(name)
    if not clean:
        return NameProblem.EMPTY
    if len(clean) > MAX_NAME:
        return NameProblem.TOO_LONG
    if not is_plain_text(clean):
        return NameProblem.NOT_TEXT
    return None


def check_name(name: str) -> str:
    """`name` tidied (see `tidy`); `PlayerError` saying why when it cannot be a name."""
    clean = tidy(name)
    problem = problem_of(clean)
    if problem is NameProblem.EMPTY:
        raise PlayerError(NameSays.EMPTY)
    if problem is NameProblem.TOO_LONG:
        raise PlayerError(NameSays.TOO_LONG, name=shown(clean), length=len(clean), max=MAX_NAME)
    if problem is NameProblem.NOT_TEXT:
        raise PlayerError(NameSays.NOT_TEXT, name=shown(clean))
    return clean


def shown_player(name: str, room: int = 16) -> str:
    """A player's name in a sentence on a phone ("Χαραλάμπης-Κωνσταντίνος deals"): whole up to `room` characters,
    else the first name. For display only (labels and what is stored say it whole)."""
    words = name.split()
    return name if len(name) <= room or not words else words[0]


def shown_side(title: str, players: tuple[str, ...], room: int = MAX_NAME) -> str:
    """A side's name for a screen with `room` characters for it. A partnership left unnamed (`title` "") is
    called after its players: in full when it fits, else by each player's first name ("Χαραλάμπης-Κωνσταντίνος
    & Νίκος"), else each cut to its half: both players always appear. For display only: what is stored is
    never cut."""
    if title or len(players) != 2:
        return title
    full = " & ".join(players)
    if len(full) <= room:
        return full
    first = [p.split()[0] if p.split() else p for p in players]
    if len(" & ".join(first)) <= room:
        return " & ".join(first)
    half = max(2, (room - 3) // 2)
    return " & ".join(f if len(f) <= half else f[: half - 1].rstrip() + "…" for f in first)
