"""The history CSV: one row per hand, for a spreadsheet."""

from __future__ import annotations

import csv
import io

from companion.engine import Goal, HandEntry
from companion.history.csv import CSV_HEADER, history_csv

from tests.history.builders import GREEK, evenings, record, single


def test_history_csv_has_one_row_per_hand_with_points_running_totals_and_the_hand_winner():
    rows = list(csv.reader(io.StringIO(history_csv(evenings()))))
    assert tuple(rows[0]) == CSV_HEADER
    body = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert [(r["match"], r["hand"]) for r in body] == [("r1", "1"), ("r1", "2"), ("r1", "3"), ("r2", "1"),
                                                        ("r2", "2"), ("r3", "1")]
    first = body[0]
    assert (first["date"], first["rules"], first["side_1"], first["side_2"], first["side_3"]) == (
        "2025-01-10T22:00:00+00:00", "classic", "Anna", "Ben", "")
    assert [(r["points_1"], r["points_2"], r["total_1"], r["total_2"], r["hand_winner"]) for r in body[:3]] == [
        ("15", "10", "15", "10", "Anna"), ("11", "11", "26", "21", ""), ("26", "9", "52", "30", "Anna")]
    assert (body[4]["side_1"], body[4]["total_1"], body[4]["hand_winner"]) == ("Ben", "51", "Ben")


def test_history_csv_keeps_partnerships_four_sides_and_formula_like_names_as_text():
    entry = HandEntry(cards=(20, 16, 10, 6), counting=(7, 4, 3, 2), ten_of_diamonds=0, two=1,
                      xeris=(0, 0, 0, 0), jack_xeris=(0, 0, 0, 0))
    records = [record("four", single("=Anna", "Ben", "Chris", "Dora"), [["a"], ["b"], ["c"], ["d"]], [entry],
                      rules=GREEK, goal=Goal(hands=1))]
    rows = list(csv.reader(io.StringIO(history_csv(records))))
    row = dict(zip(rows[0], rows[1]))
    assert [row[f"side_{n}"] for n in range(1, 5)] == ["'=Anna", "Ben", "Chris", "Dora"]
    assert [row[f"points_{n}"] for n in range(1, 5)] == ["10", "5", "3", "2"]
    assert row["hand_winner"] == "'=Anna"
    assert history_csv([]) == ",".join(CSV_HEADER) + "\n"


def test_the_header_is_in_the_language_asked_for_and_the_cells_are_the_same():
    from companion.i18n import Translator

    english = list(csv.reader(io.StringIO(history_csv(evenings()))))
    korean = list(csv.reader(io.StringIO(history_csv(evenings(), Translator("ko")))))
    turkish = list(csv.reader(io.StringIO(history_csv(evenings(), Translator("tr")))))
    assert korean[0][:5] == ["경기", "날짜", "규칙", "라운드", "편_1"] and korean[0][-1] == "라운드_승자"
    assert turkish[0][:5] == ["maç", "tarih", "kurallar", "el", "taraf_1"] and turkish[0][-1] == "eli_kazanan"
    assert len(set(korean[0])) == len(CSV_HEADER) == len(set(turkish[0]))
    assert korean[1:] == english[1:] == turkish[1:]
