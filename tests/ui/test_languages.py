"""Each language's own game first: Pişti in Turkish, the four-player partnership game in Korean; the table
may change them, and the rules of the last match started win over the language's."""

from __future__ import annotations

import pytest

from companion.ui.fonts import fonts_needed
from companion.ui.viewmodel import AppModel, Session

from .vm import enter, start


def speaking(services, lang: str) -> AppModel:
    return AppModel(services, session=Session(services, lang=lang))


@pytest.mark.parametrize("lang, preset, layout, seats", [("tr", "pisti", "two", 2), ("ko", "partnership", "partners", 4),
                                                         ("en", "classic", "two", 2), ("el", "classic", "two", 2)])
def test_a_first_match_starts_from_the_languages_own_game(services, lang, preset, layout, seats):
    app = speaking(services, lang)
    app.setup.open()
    form = app.setup.form
    assert (form.preset, form.layout, form.seats) == (preset, layout, seats)
    offered = [choice.name for choice in app.setup.presets()]
    assert offered[0] == preset
    assert [name for name, _t, _s in app.rules.choices()][0] == preset


def test_in_turkish_two_players_play_pisti_and_the_table_may_choose_otherwise(services):
    app = speaking(services, "tr")
    app.setup.open()
    app.setup.set_layout("partners")
    assert app.setup.form.preset == "partnership"
    app.setup.set_layout("two")
    assert app.setup.form.preset == "pisti"           # back to two players: the Turkish game again
    app.setup.set_preset("classic")
    assert app.setup.form.preset == "classic"


def test_the_rules_of_the_last_match_started_win_over_the_languages(services):
    app = speaking(services, "tr")
    start(app, preset="classic")
    enter(app)
    again = speaking(services, "tr")
    again.setup.open()
    assert again.setup.form.preset == "classic"
    korean = speaking(services, "ko")
    korean.setup.open()
    assert korean.setup.form.preset == "classic"


def test_the_hangul_font_is_wanted_for_korean_or_for_a_hangul_name_only(services):
    def wanted(app):
        return [font.family for font in fonts_needed(app.session.lang, app.names_shown())]

    assert wanted(speaking(services, "ko")) == ["XeriHangul"]
    turkish = speaking(services, "tr")
    turkish.setup.open()
    turkish.setup.set_name(0, "Çağrı")
    assert wanted(turkish) == []
    turkish.setup.set_name(1, "민준")                  # typed: wanted before the name is drawn
    assert wanted(turkish) == ["XeriHangul"]
    greek = speaking(services, "el")
    start(greek, names=("Άννα", "서연"))
    assert wanted(speaking(services, "en")) == ["XeriHangul"]   # a known player: any screen may show her


def test_the_language_picker_names_each_language_in_itself_with_a_font_every_page_has():
    from pathlib import Path

    from companion.i18n import LANGUAGES
    from companion.ui.fonts import NAMES_FONT, SCRIPT_FONTS

    assert LANGUAGES == {"en": "English", "el": "Ελληνικά", "ko": "한국어", "tr": "Türkçe"}
    fonts = Path(__file__).resolve().parents[2] / "companion" / "ui" / "assets"
    held = (fonts / "fonts" / "XeriNames.txt").read_text(encoding="utf-8")
    needed = {ch for name in LANGUAGES.values() for ch in name if any(f.pattern.match(ch) for f in SCRIPT_FONTS)}
    assert needed and needed <= set(held), "run tools/make_hangul_font.py after adding a language"
    assert 0 < (fonts / NAMES_FONT[1]).stat().st_size < 10_000
