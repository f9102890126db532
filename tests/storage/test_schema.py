"""Schema versions: every past version's data folder still opens; older documents are migrated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.storage import SCHEMA, SchemaError, Store, TooNew
from companion.storage.schema import migrate

from .builders import hand_for, new_match
from .fixtures.make_fixture import expected as loaded
from tests.play import play

FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures").glob("schema-*"))
SETTINGS_SINCE = {"language_chosen": True}
"""Settings added after the fixtures were frozen, as an old folder reads them: its Greek was chosen there."""


def test_there_is_a_fixture_for_every_schema_version():
    assert [int(p.name.removeprefix("schema-")) for p in FIXTURES] == list(range(1, SCHEMA + 1))


@pytest.mark.parametrize("index", ["index kept", "index lost"])
@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_a_data_folder_of_every_schema_version_opens_with_everything_in_it(tmp_path, fixture, index):
    folder = tmp_path / "data"
    shutil.copytree(fixture / "data", folder)
    if index == "index lost":
        shutil.rmtree(folder / "index")
    expected = json.loads((fixture / "expected.json").read_text(encoding="utf-8"))
    expected["settings"] = {**expected["settings"], **SETTINGS_SINCE}
    with Store(folder) as store:
        assert store.damaged == []
        assert loaded(store) == expected
        playing = play(store).unfinished()
        assert playing is not None and playing.live.taps
        record = play(store).record_hand(playing.id, hand_for(5))
    with Store(folder) as store:
        assert store.get(record.id) == record
    saved = json.loads((folder / "matches" / f"{record.id}.json").read_text(encoding="utf-8"))
    assert saved["match"]["1"]["schema"] == SCHEMA


def test_migrate_applies_each_step_from_the_documents_version_up():
    steps = {"match": {1: lambda d: {**d, "two": True}, 2: lambda d: {**d, "three": d["two"]}}}
    doc = {"schema": 1, "id": "x"}
    assert migrate("match", doc, steps, current=3) == {"schema": 3, "id": "x", "two": True, "three": True}
    assert migrate("match", {"schema": 2, "two": 5}, steps, current=3) == {"schema": 3, "two": 5, "three": 5}
    assert doc == {"schema": 1, "id": "x"}
    assert migrate("match", {"schema": 3}, steps, current=3) == {"schema": 3}


@pytest.mark.parametrize("doc", [{}, {"schema": "1"}, {"schema": 0}, {"schema": True}, [], None])
def test_a_document_without_a_schema_version_is_refused(doc):
    with pytest.raises(SchemaError):
        migrate("match", doc)


def test_a_document_of_a_newer_schema_is_refused_with_a_message():
    with pytest.raises(TooNew, match=f"newer version of Xeri Companion \\(schema {SCHEMA + 1}\\)"):
        migrate("player", {"schema": SCHEMA + 1})


def test_a_match_of_a_newer_schema_is_left_in_place_and_reported(folder):
    with Store(folder) as store:
        newer = play(store).start(new_match("Anna", "Ben"))
        older = play(store).start(new_match("Chris", "Dora"))
    path = folder / "matches" / f"{newer.id}.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["match"]["1"]["schema"] = SCHEMA + 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    for _ in range(2):
        with Store(folder) as store:
            (report,) = store.damaged
            assert report.path == path and report.new_path is None and "newer version" in report.reason
            assert report.match_name == "Anna – Ben"
            assert [m.id for m in store.list_matches()] == [older.id]
        assert path.exists()
