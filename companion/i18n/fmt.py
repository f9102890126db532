"""Numbers, plurals and months by locale, from CLDR through Babel (imported on first use, not at start-up)."""

from __future__ import annotations

from datetime import date
from functools import cache

_ONE_IS_1 = frozenset({"en", "el", "tr"})
"""CLDR's cardinal rule for these languages' whole numbers: `one` for 1, `other` for the rest."""
_NO_PLURALS = frozenset({"ko"})
"""CLDR: every number is `other`."""


def plural_category(n: int, lang: str) -> str:
    """The CLDR plural category (`one`, `other`, …) of a whole count in `lang`.

    The app's languages are answered without loading Babel (a test checks these against CLDR); any other
    language asks Babel.
    """
    if lang in _NO_PLURALS:
        return "other"
    if lang in _ONE_IS_1:
        return "one" if n == 1 else "other"
    return _plural_form(lang)(n)


@cache
def _plural_form(lang: str):
    from babel.core import Locale

    return Locale.parse(lang).plural_form


def decimal(x: float, lang: str, digits: int = 2) -> str:
    """`23.77` in English, `23,77` in Greek and Turkish; thousands grouped as the locale groups them."""
    from babel.numbers import format_decimal

    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(round(x, digits), format=pattern, locale=lang)


def integer(n: int, lang: str) -> str:
    """`10,000` in English and Korean, `10.000` in Greek and Turkish."""
    from babel.numbers import format_decimal

    return format_decimal(n, locale=lang)


def percent(fraction: float, lang: str) -> str:
    """`40%`, or `%40` in Turkish."""
    from babel.numbers import format_percent

    return format_percent(fraction, locale=lang)


def month_year(day: date, lang: str) -> str:
    """An abbreviated month and year in the locale's own order: `Nov 2026`, `Νοε 2026`, `2026년 11월`, `Kas 2026`."""
    from babel.dates import format_skeleton

    return format_skeleton("yMMM", day, locale=lang)


def day(when: date, lang: str) -> str:
    """A day with its month abbreviated, in the locale's own order: `Dec 3, 2026`, `3 Δεκ 2026`, `2026년 12월 3일`,
    `3 Ara 2026`."""
    from babel.dates import format_skeleton

    return format_skeleton("yMMMd", when, locale=lang)
