"""How wide a line of text is drawn: the screens choose a size at which a name fits its button, or give it
more room, before they draw it (a name must never wrap mid-word or be cut at the table's sizes).

Widths come from Roboto's own advances (`metrics_data`, made from flet-web's font by
tools/make_text_metrics.py); the bundled fallbacks (Hangul, emoji, suits) by their fonts' em. Kerning is
left out, and bold is allowed for with a margin: an estimate on the wide side, so a name said to fit does.
"""

from __future__ import annotations

import unicodedata

from .metrics_data import RUNS

EM = 2048
WIDTHS: dict[int, int] = {first + i: w for first, widths in RUNS.items() for i, w in enumerate(widths)}
BOLD = 1.03
"""Bold text is drawn from the regular face made bolder (the client ships one Roboto): its advances stay
the regular ones (measured: 103 px for a 12-letter Greek name the table says is 104); a margin all the same."""
HANGUL = 1925
"""XeriHangul's syllables: 0.94 em."""
EMOJI = 2600
"""XeriEmoji (Noto Emoji): 1.27 em."""
SUITS = 1836
"""XeriSuits (DejaVu Sans): ♠ ♣ ♥ ♦ and the few signs in it."""
OTHER = 1300
"""Anything else, on the wide side."""


def _advance(char: str) -> int:
    cp = ord(char)
    known = WIDTHS.get(cp)
    if known is not None:
        return known
    if 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F or 0xAC00 <= cp <= 0xD7A3:
        return HANGUL
    if cp in (0x200C, 0x200D) or 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F \
            or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0           # joiners, variation selectors, skin tones, tags, combining marks: part of the glyph before
    if 0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF or cp in (0x2B50, 0x2B55, 0x2764):
        return EMOJI if not 0x2660 <= cp <= 0x2667 else SUITS
    return OTHER


def text_width(text: str, size: float, bold: bool = True) -> float:
    """The width in logical pixels of `text` on one line at `size` (an estimate on the wide side)."""
    return sum(_advance(c) for c in text) / EM * size * (BOLD if bold else 1.0)


def fitting_size(text: str, width: float, size: float, least: float, bold: bool = True) -> float:
    """The largest size up to `size` at which `text` fits `width` on one line, but never below `least` (where it
    does not fit even then, it is cut with an ellipsis, and the control's label says it whole)."""
    drawn = text_width(text, size, bold)
    if drawn <= width or drawn == 0:
        return size
    return max(least, int(size * width / drawn * 2) / 2)


def fits(text: str, width: float, size: float, bold: bool = True) -> bool:
    """True when `text` fits `width` on one line at `size`."""
    return text_width(text, size, bold) <= width


def wrapped(text: str, width: float, size: float, bold: bool = True) -> list[str] | None:
    """`text` broken into lines no wider than `width` at `size` where a person would break it: at spaces, and
    after a hyphen (as Flutter's line breaker does); None when a single word is wider than `width` (it would be
    broken mid-word)."""
    words: list[str] = []
    for word in text.split():
        parts = word.split("-")
        words += [p + "-" for p in parts[:-1]] + [parts[-1]]
    lines: list[str] = []
    for word in filter(None, words):
        if not fits(word, width, size, bold):
            return None
        if lines and fits(lines[-1] + ("" if lines[-1].endswith("-") else " ") + word, width, size, bold):
            lines[-1] += ("" if lines[-1].endswith("-") else " ") + word
        else:
            lines.append(word)
    return lines


def row_size(texts: list[str], width: float, size: float, least: float, lines: int = 2,
             bold: bool = True) -> tuple[float, int]:
    """One size for every name in a row (`texts`, each in a box `width` wide), and the lines each may take: the
    largest size up to `size` at which all fit on one line; where that is below `size` and two lines (broken at
    word boundaries) let them be drawn larger, two lines at that size. Never below `least` (what does not fit
    then is cut with an ellipsis; the control's label says it whole)."""
    one = min((fitting_size(t, width, size, least, bold) for t in texts), default=size)
    if one >= size or lines < 2:
        return one, 1
    two = least
    step = size
    while step > one:
        if all((w := wrapped(t, width, step, bold)) is not None and len(w) <= lines for t in texts):
            two = step
            break
        step -= 0.5
    return (two, lines) if two > one else (one, 1)
