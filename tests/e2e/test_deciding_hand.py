"""Most hands won at 360×640: a drawn match offers a deciding hand (it fits the screen, light and dark, in every
language whose words changed), and the hand played decides the match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app_server import AppServer
from tests.flows import enter_hand, new_match

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SMALL = {"width": 360, "height": 640}
CATALOGS = Path(__file__).resolve().parents[2] / "data" / "i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = AppServer(tmp_path_factory.mktemp("deciding") / "data").start()
    yield srv
    srv.stop()


def words(lang: str, key: str) -> str:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))[key]


def drawn_over_two_hands(app) -> None:
    """A two-hand match: Anna wins the first hand, Ben the second."""
    new_match(app)
    app.type("name-0", "Anna")
    app.type("name-1", "Ben")
    app.tap("goal-hands")
    for _ in range(5):
        app.tap("hands-minus")                     # 7 → 2 hands
    app.tap("start-match")
    app.wait_id("end-hand")
    enter_hand(app)                                # Anna: most cards, 12 counting cards, the 10♦
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0, then="winner")


def test_the_drawn_hands_won_match_offers_a_deciding_hand_and_the_hand_decides_it(phones):
    app = phones(viewport=SMALL)
    drawn_over_two_hands(app)
    assert app.text_of("winner") == "A draw!"
    box = app.visible_box("deciding-hand")         # on screen, uncovered, without a scroll, big enough
    assert box["height"] >= 48 and box["width"] >= 48
    app.visible_box("deciding-offer")
    app.tap("deciding-hand")
    app.wait_id("end-hand")
    app.see("Deciding hand")
    app.tap("xeri-1")                              # the hand is played as any other: live taps count
    app.see("Xeri for Ben (now 1)")
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0, then="winner")
    assert app.text_of("winner") == "Ben wins!"
    assert not app.has_text(words("en", "over.deciding_hand"))


def test_keeping_the_draw_leaves_the_offer_and_the_draw(phones):
    app = phones(viewport=SMALL)
    drawn_over_two_hands(app)
    app.tap("deciding-hand")
    app.wait_id("keep-draw")
    app.tap("keep-draw")
    app.wait_id("deciding-hand")
    assert app.text_of("winner") == "A draw!"


@pytest.mark.parametrize("locale, scheme", [("el-GR", "dark"), ("ko-KR", "light"), ("tr-TR", "dark"),
                                            ("en-US", "dark")])
def test_the_offer_fits_360_by_640_in_every_language_light_and_dark(phones, locale, scheme):
    app = phones(viewport=SMALL, locale=locale, color_scheme=scheme)
    drawn_over_two_hands(app)
    lang = locale[:2]
    box = app.visible_box("deciding-hand")
    assert box["height"] >= 48 and box["width"] >= 48
    assert words(lang, "over.deciding_hand") in app.text_of("deciding-hand")
    assert words(lang, "over.deciding_offer") in app.text_of("deciding-offer")
    app.visible_box("deciding-offer")
