"""The score sheet as a picture: what it says (`viewmodel.picture`), the sheet card that draws it
(`views.picture`), and the buttons that make it (the end of a match, a past match)."""

from __future__ import annotations

import flet as ft

from companion.engine import Goal, Match, Side
from companion.engine.match import standing
from companion.formats.presets import preset
from companion.i18n import Translator
from companion.records import MatchRecord
from companion.ui.viewmodel import Access, AppModel, Screen, Session
from companion.ui.viewmodel.picture import sheet_picture
from companion.ui.views import render
from companion.ui.views.palette import LIGHT
from companion.ui.views.picture import WIDTH, sheet_card
from tests.screens import walk, words
from tests.seed import hand
from tests.ui.vm import enter, start

EN, EL = Translator("en"), Translator("el")
ID = "0123456789abcdef0123456789abcdef"


def partners(hands: int = 3) -> Match:
    return Match(rules=preset("partnership"), sides=(Side("Reds", ("Anna", "Dora")), Side("Blues", ("Ben", "Chris"))),
                 goal=Goal(hands=hands), hands=tuple(hand(13 - k, k % 2, 1, xeris=(1, 0)) for k in range(hands)))


def record(match: Match, **values) -> MatchRecord:
    return MatchRecord(ID, match, created="2026-11-28T20:00:00.000Z", **values)


def test_the_picture_says_the_day_the_rules_every_hand_the_totals_and_who_won():
    match = partners()
    st = standing(match)
    pic = sheet_picture(record(match, finished="2026-11-29T00:10:00.000Z"), st, EN)
    assert pic.day == "Nov 29, 2026" and pic.file_name == "xeri-score-sheet-2026-11-29.png"   # the day it ended
    assert pic.rules == "Partnership · 3 hands, most hands won"
    assert pic.result == "Reds wins the match." and pic.won
    assert [(s.name, s.players, s.total, s.is_winner) for s in pic.sides] == [
        ("Reds", "Anna and Dora", st.totals[0], True), ("Blues", "Ben and Chris", st.totals[1], False)]
    assert [s.hands_won for s in pic.sides] == ["3 hands won", "0 hands won"]
    assert [h.number for h in pic.hands] == [1, 2, 3]                          # oldest first
    assert pic.hands[-1].running == st.totals and pic.hands[0].points == st.scores[0].points
    assert pic.caption == f"Reds win! Reds {st.totals[0]} – Blues {st.totals[1]}. 3 hands, most hands won, 3 hands."
    assert sheet_picture(record(match), st, EL).day == "28 Νοε 2026"          # never finished: the day it started


def test_a_hand_that_sent_the_match_on_to_a_higher_target_says_so_in_its_row():
    match = Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")), goal=Goal(target=20, extension=120),
                  hands=(hand(10, 0, 1), hand(10, 1, 0)))
    pic = sheet_picture(record(match), standing(match), EN)
    assert [h.event for h in pic.hands] == [None, EN("match.extension_event", first=20, target=120)]
    assert not pic.won and not any(s.is_winner for s in pic.sides)


def test_a_match_stopped_unfinished_is_said_so():
    match = partners(3)
    match = Match(rules=match.rules, sides=match.sides, goal=Goal(hands=7), hands=match.hands)
    pic = sheet_picture(record(match, abandoned=True), standing(match), EN)
    assert pic.result == "Stopped unfinished." and not pic.won and not any(s.is_winner for s in pic.sides)


def test_the_sheet_card_draws_every_word_and_number_in_the_light_palette_a_phones_width():
    match = partners(12)
    pic = sheet_picture(record(match), standing(match), EN)
    card = sheet_card(pic)
    assert card.width == WIDTH and card.theme_mode == ft.ThemeMode.LIGHT
    drawn = [c for c, _disabled in walk(card)]
    said = {w for c in drawn for w in words(c)}
    assert {pic.title, pic.day, pic.rules, pic.result, pic.hand_head, pic.total_head, pic.footer} <= said
    for side in pic.sides:
        assert {side.name, side.players, side.hands_won, str(side.total)} <= said
    for h in pic.hands:
        assert {str(h.number), *(str(t) for t in h.running), *(f"+{p}" for p in h.points)} <= said
    # A picture for a chat looks the same whatever the phone's theme: no text takes its colour from it.
    light = set(vars(LIGHT).values()) | set(LIGHT.sides) | set(LIGHT.side_tints)
    texts = [c for c in drawn if isinstance(c, ft.Text)]
    assert texts and all(t.color in light for t in texts)


def test_the_picture_is_of_the_past_match_open_else_of_the_match_at_the_table(app, services):
    past = services.table.start(partners(1))
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    assert [s.name for s in app.sheet_picture().sides] == ["Anna", "Ben"]
    app.record.open(past.id)
    assert app.screen is Screen.RECORD
    assert [s.name for s in app.sheet_picture().sides] == ["Reds", "Blues"]


def buttons(frame) -> dict[str, object]:
    """The on_click of each identified button of a frame's body."""
    found = {}
    for part in frame.body:
        for control, _disabled in walk(part):
            if isinstance(control, ft.Semantics) and control.identifier and control.content is not None:
                found[control.identifier] = getattr(control.content, "on_click", None)
    return found


def test_the_end_of_a_match_and_a_past_match_offer_the_picture_shared_or_saved(app, services):
    async def share_picture() -> None: ...

    async def save_picture() -> None: ...

    async def share_sheet() -> None: ...

    app.session.page_actions = {"share_picture": share_picture, "save_picture": save_picture,
                                "share_sheet": share_sheet}
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    over = buttons(render(app))
    assert (over["share"], over["save-picture"], over["share-sheet"]) == (share_picture, save_picture, share_sheet)
    past = services.table.start(partners(1))
    watcher = AppModel(services, session=Session(services, access=Access.WATCHER))   # the picture changes nothing
    watcher.session.page_actions = app.session.page_actions
    watcher.record.open(past.id)
    shown = buttons(render(watcher))
    assert (shown["share-past"], shown["save-picture-past"]) == (share_picture, save_picture)
