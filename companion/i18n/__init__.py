"""Translations: `t(key, lang, **values)` over the JSON catalogs in `data/i18n/`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from ..engine.messages import Message, english, fill, said
from ..resources import read_shipped, shipped
from . import fmt
from .fmt import plural_category

LANGUAGES = {"en": "English", "el": "Ελληνικά", "ko": "한국어", "tr": "Türkçe"}
"""The languages the app speaks, by code, each named in itself."""
DEFAULT_LANGUAGE = "en"


def system_language() -> str | None:
    """The language of this machine's locale (`ko_KR.UTF-8` → `ko`), or None (the C locale, or none set).

    The environment is read as gettext reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); Python's own
    `getlocale` only where none is set (Windows), since it reports the C locale as English.
    """
    import locale
    import os

    names = [os.environ.get(name) for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    name = next((n for n in names if n), None)
    if name is None:
        name = locale.getlocale()[0]
    code = (name or "").split(":")[0].split("_")[0].split(".")[0].split("-")[0].lower()
    return code if code.isascii() and code.isalpha() and code not in ("c", "posix") else None


def first_spoken(wanted, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The first of the language codes `wanted` the app speaks, else `fallback`."""
    return next((code for code in wanted if code in LANGUAGES), fallback)


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of `lang` (key → template)."""
    if lang not in LANGUAGES or lang not in shipped("i18n"):
        raise KeyError(f"no catalog for language {lang!r}; known: {', '.join(LANGUAGES)}")
    return json.loads(read_shipped("i18n", lang))


def t(key: str, lang: str = DEFAULT_LANGUAGE, **values: object) -> str:
    """The text of `key` in `lang`, formatted with `values`; English when `lang` lacks it.

    A key missing everywhere is returned as it is, so a missing string is visible, never a crash.
    """
    template = catalog(lang).get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key, key)
    try:
        return template.format(**values) if values else template
    except (KeyError, IndexError, ValueError):
        return template


def tn(key: str, n: int, lang: str = DEFAULT_LANGUAGE, **values: object) -> str:
    """`t` for a count: `key.<CLDR plural category of n in lang>` (`one`, `other`, …), falling back to `other`."""
    category = plural_category(n, lang)
    key_n = f"{key}.{category}"
    if category != "other" and key_n not in catalog(lang):
        key_n = f"{key}.other"
    return t(key_n, lang, n=n, **values)


@dataclass(frozen=True)
class Translator:
    """`t` and `tn` bound to one language."""

    lang: str = DEFAULT_LANGUAGE

    def __call__(self, key: str, **values: object) -> str:
        return t(key, self.lang, **values)

    def n(self, key: str, n: int, **values: object) -> str:
        return tn(key, n, self.lang, **values)

    def say(self, value: object) -> str:
        """What an error or a message says, in this language: a `Message` (or a `SaidError`, which carries
        one) is its key's template with each value said in turn; a value that words itself (`words(tr)`)
        does; a whole number is written as the language writes it (`10.000`); anything else as it is."""
        value = said(value)
        if isinstance(value, Message):
            template = catalog(self.lang).get(value.key) or catalog(DEFAULT_LANGUAGE).get(value.key)
            if template is None:
                return english(value)   # a name no catalog knows (a rule set's): the English says it as it is
            # Filled here, not through `t`: a value may be called anything, `key` and `lang` too.
            return fill(template, {name: self.say(v) for name, v in value.values.items()})
        words = getattr(value, "words", None)
        if callable(words):
            return words(self)
        if isinstance(value, int) and not isinstance(value, bool):
            return fmt.integer(value, self.lang) if abs(value) >= 1000 else str(value)
        return str(value)

    def decimal(self, x: float, digits: int = 2) -> str:
        """`23.77`, or `23,77` where the language writes a decimal comma."""
        return fmt.decimal(x, self.lang, digits)

    def percent(self, fraction: float) -> str:
        return fmt.percent(fraction, self.lang)

    def month(self, day) -> str:
        """An abbreviated month and year, as the language writes them."""
        return fmt.month_year(day, self.lang)

    def day(self, when) -> str:
        """A day, its month abbreviated, as the language writes it."""
        return fmt.day(when, self.lang)


ENGLISH = Translator("en")
