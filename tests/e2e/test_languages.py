"""Korean and Turkish tables in a real browser: each phone first speaks its browser's language, the
language's own game is offered first, and Hangul names are drawn as letters (the offline web client
cannot fetch a fallback font: the app sends its own, and only to a page that needs it)."""

from __future__ import annotations

import re
import time

import pytest

from companion.i18n import t, tn

from .pixels import label_shape, unlike
from tests.flows import enter_hand, total

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KOREAN = ["민준", "서연", "지훈", "하은"]
TURKISH = ["Çağrı", "Işıl", "Gülşen", "Ömer"]
HANGUL_FONT = "fonts/XeriHangul"


def watching_fonts(got: list[str]):
    """A page hook: note every Hangul font file the page receives, with its status."""
    def hook(page) -> None:
        page.on("response", lambda r: got.append(f"{r.status} {r.url}") if HANGUL_FONT in r.url else None)
    return hook


def shape_of(app, ident: str) -> frozenset:
    """The ink of a control's label, scrolled wholly on screen."""
    return label_shape(app.page.screenshot(clip=app.scroll_to(ident)))


def settled_shape(app, ident: str, timeout: float = 10) -> frozenset:
    """The ink of a control's label once it holds still (the same in two looks 0.2 s apart): on a busy machine a
    look taken while the screen still slid in caught the screen before it (the fresh-clone run of 580bf1b)."""
    deadline = time.monotonic() + timeout
    last = shape_of(app, ident)
    while True:
        time.sleep(0.2)
        now = shape_of(app, ident)
        if now == last or time.monotonic() > deadline:
            return now
        last = now


def drawn(app, first: str, second: str, timeout: float = 15) -> bool:
    """True once two controls whose labels differ only in their Hangul show differently shaped ink. As
    empty boxes (no font), two names of as many syllables look alike; drawn as letters, they do not."""
    deadline = time.monotonic() + timeout
    while True:
        a, b = shape_of(app, first), shape_of(app, second)
        if a and b and unlike(a, b):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def test_a_korean_partnership_match_in_korean_with_korean_names(phones):
    def ko(key, **values):
        return t(key, "ko", **values)

    fonts: list[str] = []
    app = phones("ko-KR", before_open=watching_fonts(fonts))
    app.see(ko("home.new_match"))                   # the browser's language: nobody chose one yet
    app.tap("new-match")
    app.see(ko("rules.partnership.title"))          # the Korean game is offered first: two teams of two
    for i, name in enumerate(KOREAN):
        app.type(f"name-{i}", name)
    # The first dealer's choices name the players: seats 1 and 2, both not chosen, look alike but for the name.
    assert drawn(app, "dealer-1", "dealer-2"), "the Hangul names are drawn as empty boxes"
    assert [f for f in fonts if f.startswith("200 ") and f.endswith(".woff2")], fonts
    app.tap("goal-hands")
    for _ in range(5):
        app.tap("hands-minus")                      # 7 → 2 hands
    app.see(tn("goal.hands", 2, "ko"))
    app.tap("start-match")
    app.wait_id("end-hand")
    app.see("민준 & 서연")
    app.see(ko("match.deals", dealer="민준", leader="지훈"))
    app.tap("xeri-1")                               # 지훈 (team 2) sits second
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1)
    app.see(ko("match.deals", dealer="지훈", leader="서연"))
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1, then="winner")
    app.see(ko("over.winner.team", side="지훈 & 하은"))
    assert (total(app, 0), total(app, 1)) == (18, 42)


def test_without_the_bundled_fonts_hangul_would_not_be_drawn(phones):
    """The checks here can fail: the same page, with the font files refused, draws the names alike and
    names no language in the picker's Korean."""
    app = phones("ko-KR", before_open=lambda page: page.route(re.compile(r"/fonts/Xeri(Hangul|Names)"),
                                                                    lambda route: route.abort()))
    app.tap("new-match")
    for i, name in enumerate(KOREAN):
        app.type(f"name-{i}", name)
    assert not drawn(app, "dealer-1", "dealer-2", timeout=3)
    app.tap("back")
    app.tap("open-settings")
    app.wait_id("lang-ko")
    assert settled_shape(app, "lang-ko") == frozenset()


def test_pisti_matches_in_turkish_with_turkish_names_and_no_hangul_font(phones):
    def tr(key, **values):
        return t(key, "tr", **values)

    fonts: list[str] = []
    app = phones("tr-TR", before_open=watching_fonts(fonts))
    app.see(tr("home.new_match"))
    for first, second, winner in ((TURKISH[0], TURKISH[1], 0), (TURKISH[2], TURKISH[3], 1)):
        app.tap("new-match")
        app.see(tr("rules.pisti.title"))            # Pişti, the Turkish game, offered first
        app.type("name-0", first)
        app.type("name-1", second)
        app.see(tr("goal.race", target=151, extension=251))
        app.tap("goal-hands")
        for _ in range(6):
            app.tap("hands-minus")                  # 7 → 1 hand
        app.tap("start-match")
        app.wait_id("end-hand")
        app.see(tr("match.deals", dealer=first, leader=second))
        app.tap(f"xeri-{winner}")                   # a pişti, 10
        # Pişti: aces and jacks 1 each (8 in all), most cards 3, the 10♦ 3, the 2♣ 2.
        enter_hand(app, most=winner, counting=(winner, 5), ten=winner, two=1 - winner, then="winner")
        points = (3 + 5 + 3 + 10, 3 + 2)
        assert (total(app, winner), total(app, 1 - winner)) == points
        app.see(tr("over.winner", side=(first, second)[winner]))
        app.tap("back")
    # The picker names Korean in Korean on a Turkish phone too, from the few glyphs every page gets.
    app.tap("open-settings")
    app.wait_id("lang-ko")
    assert len(shape_of(app, "lang-ko")) > 50, "한국어 is not drawn"
    assert fonts == []                              # a Turkish table never downloads the Korean glyphs
