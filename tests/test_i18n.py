"""Translations: every language is complete, says everything in its own words, and every key the code uses exists."""

import json
import re
import string
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, catalog, t, tn
from companion.i18n.fmt import _plural_form, plural_category

ROOT = Path(__file__).resolve().parent.parent
ALLOW = json.loads((Path(__file__).resolve().parent / "i18n_allowlist.json").read_text(encoding="utf-8"))
OTHERS = [code for code in LANGUAGES if code != "en"]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_every_english_key_and_no_other(lang):
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_translations_use_the_same_placeholders_as_english_and_none_is_empty(lang):
    english, other = catalog("en"), catalog(lang)
    wrong = {k: (placeholders(english[k]), placeholders(v)) for k, v in other.items()
             if placeholders(v) != placeholders(english[k])}
    assert wrong == {}
    assert [k for k, v in other.items() if not v.strip()] == []


def english_left(lang: str, english: dict, other: dict) -> list[str]:
    """Values still in English: identical to English (unless reviewed and allow-listed), or, in Korean, any
    Latin word but card codes and allow-listed tokens; in Greek and Turkish, an English word of the key's text."""
    identical_ok = set(ALLOW["identical"].get(lang, []))
    tokens = set(ALLOW["latin_tokens"].get(lang, []))
    out = []
    for key, value in other.items():
        if value == english[key]:
            if key not in identical_ok:
                out.append(f"{key}: identical to English")
            continue
        bare = re.sub(r"\{[^}]*\}", " ", value)
        if lang == "ko":
            for token in sorted(tokens, key=len, reverse=True):
                bare = bare.replace(token, " ")
            words = [w for w in re.findall(r"[A-Za-z]+", bare) if w not in {"A", "K", "Q", "J"}]
            if words:
                out.append(f"{key}: Latin words {words}")
        else:
            en_words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{[^}]*\}", " ", english[key]))}
            same = {w for w in re.findall(r"[A-Za-z]{4,}", bare) if w.lower() in en_words} - tokens
            if same:
                out.append(f"{key}: English words {sorted(same)}")
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_is_left_in_another_language(lang):
    assert english_left(lang, catalog("en"), catalog(lang)) == []


def test_the_english_check_can_fail():
    english = catalog("en")
    assert english_left("ko", english, {**catalog("ko"), "nav.back": "Back"}) == ["nav.back: identical to English"]
    assert english_left("tr", english, {**catalog("tr"), "nav.rules": "Kurallar (Rules)"}) == [
        "nav.rules: English words ['Rules']"]


@pytest.mark.parametrize("lang", ["ko"])
def test_korean_has_one_plural_form(lang):
    other = catalog(lang)
    assert [k for k, v in other.items() if k.endswith(".one") and other[k[:-4] + ".other"] != v] == []


def test_plural_categories_match_cldr_for_every_language():
    assert [(lang, n) for lang in LANGUAGES for n in range(202)
            if plural_category(n, lang) != _plural_form(lang)(n)] == []


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


def test_plural_forms_follow_each_language():
    assert tn("goal.hands", 1, "en") == "1 hand, most hands won"
    assert tn("goal.hands", 7, "el").startswith("7 χέρια")
    assert tn("player.wins", 1, "el") == "1 νίκη" and tn("player.wins", 2, "el") == "2 νίκες"
    assert tn("share.hands", 1, "tr") == tn("share.hands", 3, "tr").replace("3", "1")   # "3 el": the noun stays singular
    assert tn("goal.hands", 1, "ko") == tn("goal.hands", 2, "ko").replace("2", "1")     # Korean has no plural form


@pytest.mark.parametrize("header, expected", [
    ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", ("ko", "en")),
    ("en;q=0.5, tr", ("tr", "en")),                  # by weight, not by place
    ("el;q=0, fr", ("fr",)),                         # q=0 is "not this one"
    ("*, x-klingon, 12, " + "a" * 20, ()),           # nothing a language code looks like
    ("", ()), (None, ()),
])
def test_a_browsers_accept_language_is_read_best_first(header, expected):
    from companion.net.access import wanted_languages

    assert wanted_languages(header) == expected


def test_the_first_language_the_app_speaks_is_chosen_else_the_fallback():
    from companion.i18n import first_spoken

    assert first_spoken(("fr", "tr", "ko")) == "tr"
    assert first_spoken(("fr",), "el") == "el"
    assert first_spoken(()) == "en"


@pytest.mark.parametrize("env, expected", [({"LANG": "ko_KR.UTF-8"}, "ko"), ({"LANG": "C.UTF-8"}, None),
                                           ({"LC_ALL": "tr_TR.UTF-8", "LANG": "en_US.UTF-8"}, "tr"),
                                           ({"LANGUAGE": "el:en", "LANG": "en_US.UTF-8"}, "el"), ({}, None)])
def test_the_systems_language_is_read_from_its_locale(monkeypatch, env, expected):
    import locale

    from companion.i18n import system_language

    monkeypatch.setattr(locale, "getlocale", lambda *a: (None, None))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert system_language() == expected
