"""The library through the service: the match file round trip, no duplicates, abandoned matches kept abandoned."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine import Goal, Match, Side
from companion.engine.names import is_plain_text, name_key
from companion.formats.matchfile import MatchFileError, loads
from companion.resources import CHECKOUT_DATA as DATA_DIR
from companion.storage import Store

from tests.storage.builders import CLASSIC, hand_for, new_match, partnership_match
from tests.play import backups, books, play


def played(store: Store, match: Match, hands: int):
    record = play(store).start(match)
    for n in range(hands):
        record = play(store).record_hand(record.id, hand_for(n))
    return record


def test_an_exported_match_imports_into_another_store_unchanged(store, tmp_path):
    record = played(store, new_match(goal=Goal(hands=4)), 4)
    text = books(store).export_match(record.id)
    assert loads(text) == record.match
    meta = json.loads(text)["meta"]
    assert meta == {"id": record.id, "created": record.created, "finished": record.finished,
                    "abandoned": record.abandoned}
    with Store(tmp_path / "elsewhere") as other:
        imported = books(other).import_match(text).record
        assert (imported.id, imported.created, imported.finished) == (record.id, record.created, record.finished)
        assert imported.match == record.match
        assert books(other).export_match(imported.id) == text


def test_a_match_imported_twice_is_stored_once(store):
    record = played(store, new_match(), 3)
    text = books(store).export_match(record.id)
    assert books(store).import_match(text).record == record
    assert len(store.list_matches()) == 1


def test_the_same_content_without_meta_is_stored_once(store, again):
    record = played(store, new_match(), 3)
    doc = json.loads(books(store).export_match(record.id))
    del doc["meta"]
    store = again(store)
    assert books(store).import_match(json.dumps(doc)).record.id == record.id
    assert len(store.list_matches()) == 1


def test_an_imported_match_gets_known_players_and_the_same_ids_as_before(store, again):
    mine = play(store).start(new_match("Anna", "Ben"))
    text = (DATA_DIR / "examples" / "classic-151.json").read_text(encoding="utf-8")
    store = again(store)
    imported = books(store).import_match(text).record
    assert imported.id != mine.id
    assert imported.player_ids == mine.player_ids
    assert imported.match == loads(text)
    assert imported.finished is None and imported.created.endswith("Z")
    assert len(store.players()) == 2
    store = again(store)
    assert store.get(imported.id) == imported


def test_a_finished_match_imported_without_times_is_marked_finished(store):
    match = new_match(goal=Goal(hands=2), hands=2)
    from companion.formats.matchfile import dumps

    imported = books(store).import_match(dumps(match)).record
    assert imported.finished is not None
    assert store.list_matches()[0].finished == imported.finished


def test_an_unknown_meta_id_is_replaced_by_a_new_one(store):
    from companion.formats.matchfile import dumps

    imported = books(store).import_match(dumps(new_match(), meta={"id": "../../etc/passwd", "created": "yesterday"})).record
    assert len(imported.id) == 32 and imported.created.endswith("Z")


@pytest.mark.parametrize("text", [
    "", "not json", "[]", '{"format": "xeri-match", "version": 9}',
    '{"format": "xeri-match", "version": 1, "sides": [{"name": "A"}, {"name": "B"}],'
    ' "hands": [{"cards": [30, 30], "counting": [10, 10], "xeris": [0, 0], "jack_xeris": [0, 0],'
    ' "ten_of_diamonds": 0, "two": 1}]}',
])
def test_a_bad_match_file_is_refused_and_nothing_is_stored(store, text):
    with pytest.raises(MatchFileError):
        books(store).import_match(text)
    assert store.list_matches() == [] and store.players() == []


def test_a_partnership_match_round_trips(store, tmp_path):
    record = play(store).start(partnership_match())
    with Store(tmp_path / "elsewhere") as other:
        assert books(other).import_match(books(store).export_match(record.id)).record.match == record.match
        assert [p.name for p in other.players()] == ["Anna", "Ben", "Chris", "Dora"]


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(str.strip).filter(is_plain_text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=names, b=names, picks=st.lists(st.integers(0, 200), max_size=12), first=st.integers(0, 1))
def test_any_stored_match_round_trips_through_its_match_file(a, b, picks, first):
    assume(name_key(a) != name_key(b))  # one name twice would be one player: the form and the file refuse it
    match = Match.new(CLASSIC, [Side(" ".join(a.split())), Side(" ".join(b.split()))], Goal(hands=50),
                      first_dealer=first)
    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "one") as one, Store(Path(tmp) / "two") as two:
            record = play(one).start(match)
            for n in picks:
                record = play(one).record_hand(record.id, hand_for(n))
            imported = books(two).import_match(books(one).export_match(record.id)).record
            assert imported.match == record.match
            assert books(two).export_match(imported.id) == books(one).export_match(record.id)


def test_an_abandoned_match_stays_abandoned_through_export_and_import(store, tmp_path):
    record = play(store).start(Match.new(CLASSIC, [Side("Anna"), Side("Ben")], Goal(hands=5)))
    record = play(store).record_hand(record.id, hand_for(3))
    play(store).abandon(record.id)
    with Store(tmp_path / "elsewhere") as other:
        imported = books(other).import_match(books(store).export_match(record.id)).record
        assert imported.abandoned and play(other).unfinished() is None


def test_a_file_whose_id_is_stored_with_other_hands_is_stored_beside_it_and_says_it_differed(store, tmp_path):
    from companion.service import Arrival

    record = played(store, new_match(), 3)
    doc = json.loads(books(store).export_match(record.id))
    doc["hands"] = doc["hands"][:2]                      # the same match id, one hand fewer: another match
    arrived = books(store).import_match(json.dumps(doc))
    assert arrived.arrival is Arrival.DIFFERED and arrived.record.id != record.id
    assert len(store.list_matches()) == 2
    again = books(store).import_match(json.dumps(doc))
    assert again.arrival is Arrival.KNOWN and again.record.id == arrived.record.id
    doc["hands"] = doc["hands"][:1]
    report = backups(store).import_files([("shorter.json", json.dumps(doc).encode())])
    assert (report.imported, report.differed, report.skipped) == (["shorter.json"], ["shorter.json"], [])


def test_a_match_file_with_a_byte_order_mark_imports(store):
    record = played(store, new_match(), 2)
    with Store(store.folder.parent / "other") as other:
        assert books(other).import_match("\ufeff" + books(store).export_match(record.id)).record.match == record.match
