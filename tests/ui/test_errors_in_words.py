"""An error shown on a phone is told in the phone's language: why a file was not imported, why a what-if cannot
be worked out, why the table refused a change."""

from __future__ import annotations

import json

from companion.ui.viewmodel import AppModel, Session

from .vm import enter, start


def speaking(services, lang: str) -> AppModel:
    return AppModel(services, session=Session(services, lang=lang))


def test_a_broken_file_imported_on_a_korean_phone_is_said_to_be_broken_in_korean(services):
    app = speaking(services, "ko")
    app.history.open()
    app.history.import_files([("bad.json", b'{"format": "xeri-match",\n "version": }')])
    said = app.session.notice.text
    assert said.startswith("게임 0개를 가져왔습니다. 파일 1개를 읽을 수 없습니다(bad.json: 올바른 JSON이 아닙니다(줄 2, 열 13")
    assert "not valid" not in said and "line" not in said


def test_a_file_of_an_impossible_hand_imported_in_turkish_names_the_hand_and_the_side_in_turkish(services):
    app = speaking(services, "tr")
    hand = {"cards": [43, 9], "counting": [11, 9], "xeris": [0, 0], "jack_xeris": [0, 0], "ten_of_diamonds": 0, "two": 1}
    text = json.dumps({"format": "xeri-match", "version": 1, "rules": "classic", "hands": [hand],
                       "sides": [{"name": "Anna"}, {"name": "Ben"}]})
    app.history.import_files([("ben.json", text.encode())])
    assert ("1 dosya okunamadı (ben.json: 1. el: Ben: 9 kağıt toplamış, ama sahip olduğu puanlı ve özel kağıtlar "
            "10 tane.") in app.session.notice.text


def test_a_what_if_that_cannot_be_worked_out_says_why_in_greek(services):
    app = speaking(services, "el")
    start(app, goal={"goal_kind": "hands", "hands": 1})
    enter(app)
    record_id = app.scoreboard.record.id
    app.record.open(record_id)
    app.record.run_what_if("greek-online")            # counted hands say who took the 2♣, not the 2♠
    said = app.session.notice.text
    assert said == ("Αυτά τα χέρια δεν ξαναμετριούνται με κανόνες «Ελληνική online». "
                    "τα χέρια λένε ποιος πήρε το 2♣, όχι το 2♠ που μετρούν οι κανόνες «Ελληνική online»")


def test_a_change_the_table_refuses_is_told_in_the_phones_language(services):
    app = speaking(services, "ko")
    start(app, preset="classic")                      # two players: seats 0 and 1
    app.scoreboard.tap(7)
    assert app.session.notice.text == "이 테이블에는 7번 자리가 없습니다. 자리 번호는 0~1입니다"
