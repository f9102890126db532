"""Translations: `t(key, lang, **values)` over the JSON catalogs in `data/i18n/`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from ..resources import DATA_DIR

CATALOG_DIR = DATA_DIR / "i18n"
LANGUAGES = {"en": "English", "el": "Ελληνικά"}
"""The languages the app speaks, by code, each named in itself."""
DEFAULT_LANGUAGE = "en"


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The catalog of `lang` (key → template)."""
    path = CATALOG_DIR / f"{lang}.json"
    if lang not in LANGUAGES or not path.is_file():
        raise KeyError(f"no catalog for language {lang!r}; known: {', '.join(LANGUAGES)}")
    return json.loads(path.read_text(encoding="utf-8"))


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
    """`t` for a count: `key.one` when n is 1, else `key.other` (English and Greek plural rules)."""
    return t(f"{key}.{'one' if n == 1 else 'other'}", lang, n=n, **values)


@dataclass(frozen=True)
class Translator:
    """`t` and `tn` bound to one language."""

    lang: str = DEFAULT_LANGUAGE

    def __call__(self, key: str, **values: object) -> str:
        return t(key, self.lang, **values)

    def n(self, key: str, n: int, **values: object) -> str:
        return tn(key, n, self.lang, **values)


ENGLISH = Translator("en")
