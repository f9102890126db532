"""Import and export: the match file round trip, no duplicates, and the CSV score sheet."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Goal, Match, Side, standing
from companion.matchfile import MatchFileError, loads
from companion.paths import DATA_DIR
from companion.storage import Store

from .builders import CLASSIC, hand_for, new_match, partnership_match


def play(store: Store, match: Match, hands: int):
    record = store.create_match(match)
    for n in range(hands):
        record = store.record_hand(record.id, hand_for(n))
    return record


def test_an_exported_match_imports_into_another_store_unchanged(store, tmp_path):
    record = play(store, new_match(goal=Goal(hands=4)), 4)
    text = store.export_match(record.id)
    assert loads(text) == record.match
    meta = json.loads(text)["meta"]
    assert meta == {"id": record.id, "created": record.created, "finished": record.finished,
                    "abandoned": record.abandoned}
    with Store(tmp_path / "elsewhere") as other:
        imported = other.import_match(text)
        assert (imported.id, imported.created, imported.finished) == (record.id, record.created, record.finished)
        assert imported.match == record.match
        assert other.export_match(imported.id) == text


def test_a_match_imported_twice_is_stored_once(store):
    record = play(store, new_match(), 3)
    text = store.export_match(record.id)
    assert store.import_match(text) == record
    assert len(store.list_matches()) == 1


def test_the_same_content_without_meta_is_stored_once(store, again):
    record = play(store, new_match(), 3)
    doc = json.loads(store.export_match(record.id))
    del doc["meta"]
    store = again(store)
    assert store.import_match(json.dumps(doc)).id == record.id
    assert len(store.list_matches()) == 1


def test_an_imported_match_gets_known_players_and_the_same_ids_as_before(store, again):
    mine = store.create_match(new_match("Anna", "Ben"))
    text = (DATA_DIR / "examples" / "classic-151.json").read_text(encoding="utf-8")
    store = again(store)
    imported = store.import_match(text)
    assert imported.id != mine.id
    assert imported.player_ids == mine.player_ids
    assert imported.match == loads(text)
    assert imported.finished is None and imported.created.endswith("Z")
    assert len(store.players()) == 2
    store = again(store)
    assert store.get(imported.id) == imported


def test_a_finished_match_imported_without_times_is_marked_finished(store):
    match = new_match(goal=Goal(hands=2), hands=2)
    from companion.matchfile import dumps

    imported = store.import_match(dumps(match))
    assert imported.finished is not None
    assert store.list_matches()[0].finished == imported.finished


def test_an_unknown_meta_id_is_replaced_by_a_new_one(store):
    from companion.matchfile import dumps

    imported = store.import_match(dumps(new_match(), meta={"id": "../../etc/passwd", "created": "yesterday"}))
    assert len(imported.id) == 32 and imported.created.endswith("Z")


@pytest.mark.parametrize("text", [
    "", "not json", "[]", '{"format": "xeri-match", "version": 9}',
    '{"format": "xeri-match", "version": 1, "sides": [{"name": "A"}, {"name": "B"}],'
    ' "hands": [{"cards": [30, 30], "counting": [10, 10], "xeris": [0, 0], "jack_xeris": [0, 0],'
    ' "ten_of_diamonds": 0, "two": 1}]}',
])
def test_a_bad_match_file_is_refused_and_nothing_is_stored(store, text):
    with pytest.raises(MatchFileError):
        store.import_match(text)
    assert store.list_matches() == [] and store.players() == []


def test_a_partnership_match_round_trips(store, tmp_path):
    record = store.create_match(partnership_match())
    with Store(tmp_path / "elsewhere") as other:
        assert other.import_match(store.export_match(record.id)).match == record.match
        assert [p.name for p in other.players()] == ["Anna", "Ben", "Chris", "Dora"]


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(str.strip)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=names, b=names, picks=st.lists(st.integers(0, 200), max_size=12), first=st.integers(0, 1))
def test_any_stored_match_round_trips_through_its_match_file(a, b, picks, first):
    match = Match.new(CLASSIC, [Side(" ".join(a.split())), Side(" ".join(b.split()))], Goal(hands=50),
                      first_dealer=first)
    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "one") as one, Store(Path(tmp) / "two") as two:
            record = one.create_match(match)
            for n in picks:
                record = one.record_hand(record.id, hand_for(n))
            imported = two.import_match(one.export_match(record.id))
            assert imported.match == record.match
            assert two.export_match(imported.id) == one.export_match(record.id)


def read_csv(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline="")))


def test_the_csv_sheet_has_one_row_per_hand_with_points_and_running_totals(store):
    record = play(store, new_match("Anna", "Ben"), 5)
    rows = read_csv(store.export_csv(record.id))
    assert rows[0] == ["Hand", "Dealer", "Anna points", "Ben points", "Anna total", "Ben total"]
    st_ = standing(record.match)
    assert len(rows) == 1 + 5
    for n, row in enumerate(rows[1:]):
        assert row[0] == str(n + 1)
        assert row[1] == record.match.seats[record.match.dealer_of(n)].player
        assert [int(x) for x in row[2:4]] == list(st_.scores[n].points)
        assert [int(x) for x in row[4:6]] == list(st_.running[n])
    assert [int(x) for x in rows[-1][4:6]] == list(st_.totals)


def test_the_csv_sheet_quotes_names_and_keeps_formulas_as_text(store):
    record = play(store, new_match('Ann, "the Ace"', "=1+1"), 1)
    text = store.export_csv(record.id)
    assert "\r\n" in text
    header = read_csv(text)[0]
    assert header[2] == 'Ann, "the Ace" points'
    assert header[3] == "'=1+1 points"


def test_an_empty_match_has_a_csv_sheet_of_headers_only(store):
    record = store.create_match(new_match("Άννα", "Βασίλης"))
    assert read_csv(store.export_csv(record.id)) == [
        ["Hand", "Dealer", "Άννα points", "Βασίλης points", "Άννα total", "Βασίλης total"]]


def test_an_abandoned_match_stays_abandoned_through_export_and_import(store, tmp_path):
    record = store.create_match(Match.new(CLASSIC, [Side("Anna"), Side("Ben")], Goal(hands=5)))
    record = store.record_hand(record.id, hand_for(3))
    store.abandon(record.id)
    with Store(tmp_path / "elsewhere") as other:
        imported = other.import_match(store.export_match(record.id))
        assert imported.abandoned and other.unfinished() is None
