"""Translations: English and Greek are both complete, and every key the code uses exists."""

import re
import string
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, catalog, t, tn

ROOT = Path(__file__).resolve().parent.parent


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_language_has_every_english_key_and_no_other(lang):
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_translations_use_the_same_placeholders_as_english(lang):
    english, other = catalog("en"), catalog(lang)
    wrong = {k: (placeholders(english[k]), placeholders(v)) for k, v in other.items()
             if placeholders(v) - placeholders(english[k])}
    assert wrong == {}


def test_greek_catalog_is_actually_greek():
    greek = catalog("el")
    untranslated = [k for k, v in greek.items() if v == catalog("en")[k] and re.search("[a-z]{4,}", re.sub(r"{[^}]*}", "", v))]
    assert untranslated == []


def keys_used_in_code() -> set[str]:
    """Literal keys passed to t/tr/tn in the source (dynamic ones are checked by their prefixes below)."""
    used = set()
    pattern = re.compile(r"""\btr?(?:\.n)?\(\s*["']([a-z_][a-z0-9_.\-]+)["']""")
    for path in (ROOT / "companion").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_literal_key_in_the_code_is_in_the_english_catalog():
    english = catalog("en")
    missing = sorted(k for k in keys_used_in_code()
                     if k not in english and f"{k}.one" not in english and not k.endswith("."))
    assert missing == []


def test_a_missing_key_shows_itself_rather_than_crashing():
    assert t("no.such.key", "el") == "no.such.key"


def test_plural_forms_pick_one_and_other():
    assert tn("goal.hands", 1, "en") == "1 hand, most hands won"
    assert tn("goal.hands", 7, "el").startswith("7 χέρια")
