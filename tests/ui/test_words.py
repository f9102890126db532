"""Words as people say them: counts in the plural forms of each language (CLDR's categories, from the catalogs,
never `if n == 1`), and sentences that read right whatever a side is called."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.core import Locale

from companion.engine.live import TapKind
from companion.i18n import LANGUAGES
from companion.ui.viewmodel import AppModel

from .vm import start

CATALOGS = Path(__file__).resolve().parents[2] / "data" / "i18n"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_counted_phrase_has_every_plural_category_of_its_language(lang):
    catalog = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    english = json.loads((CATALOGS / "en.json").read_text("utf-8"))
    counted = {k[:-4] for k in english if k.endswith(".one") and k[:-4] + ".other" in english}
    wanted = Locale.parse(lang).plural_form.tags | {"other"}
    missing = sorted(f"{base}.{tag}" for base in counted for tag in wanted if f"{base}.{tag}" not in catalog)
    assert missing == []


def test_the_xeris_of_a_side_are_counted_in_the_languages_plurals_and_a_zero_is_not_said(app: AppModel):
    start(app)
    for _ in range(2):
        app.scoreboard.tap(0, TapKind.XERI)
    app.scoreboard.tap(1, TapKind.JACK_XERI)
    app.scoreboard.end_hand()
    assert app.entry.xeris_summary() == "Anna: 2 xeris · Ben: 1 jack xeri"     # it said "Anna: 2 xeri, 0 jack"
    app.settings.set_language("el")
    assert app.entry.xeris_summary() == "Anna: 2 ξερές · Ben: 1 ξερή με βαλέ"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_sentence_guesses_a_names_gender_or_number(lang):
    # "Αναιρέθηκε μια ξερή του/της Οι Αετοί", "Το κέρδισε Οι Αετοί": a side's name may be a team's, in the
    # plural, with its own article; a sentence puts the name where no article or agreement depends on it.
    catalog = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    guesses = ("του/της", "Το κέρδισε {", "μοιράζει πρώτος {")
    assert [k for k, v in catalog.items() if any(g in v for g in guesses)] == []


def test_news_stays_over_the_screens_status_until_that_moves_on_and_a_problem_until_it_is_put_right(app: AppModel):
    from companion.ui.viewmodel import Tone

    s = app.session
    s.say("notice.undone", n=4)
    assert s.notice_holds("0 taps this hand") and s.notice_holds("0 taps this hand")   # drawn again: still news
    assert not s.notice_holds("1 tap this hand")                                       # the status moved on
    assert not s.notice_holds("0 taps this hand")                                      # and it stays gone
    s.say("notice.undone", n=5)                                                        # new news shows
    assert s.notice_holds("1 tap this hand")
    s.say("notice.read_only", Tone.PROBLEM)
    assert s.notice_holds("a") and s.notice_holds("b")                                 # a problem stays


def test_a_draw_for_deal_is_said_with_who_it_chose(app: AppModel):
    # "Draw for deal" started the match with no sign that a draw happened.
    app.setup.open()
    for i, name in enumerate(("Anna", "Ben")):
        app.setup.set_name(i, name)
    app.setup.set_first_dealer(None)
    app.setup.start()
    dealer = app.scoreboard.match.seats[app.scoreboard.match.dealer_of(0)].player
    assert app.session.notice.text == f"Match started: the draw for deal chose {dealer}, who deals first."
