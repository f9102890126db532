"""The atomic TinyDB storage: the same behaviour as TinyDB's own storages, and a file never half-written."""

from __future__ import annotations

import json
import os

import pytest
from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

from companion.storage import AtomicJSONStorage, CorruptFile
from companion.storage.files import clean_temp_files, write_atomic


@pytest.fixture(params=["memory", "atomic json"])
def db(request, tmp_path):
    """TinyDB over memory and over the atomic storage: every case must behave the same on both."""
    if request.param == "memory":
        database = TinyDB(storage=MemoryStorage)
    else:
        database = TinyDB(tmp_path / "db.json", storage=AtomicJSONStorage)
    yield database
    database.close()


def test_documents_inserted_are_found_updated_and_removed(db):
    table = db.table("players")
    ids = table.insert_multiple([{"name": "Anna"}, {"name": "Βασίλης"}])
    assert table.search(Query().name == "Βασίλης")[0].doc_id == ids[1]
    table.update({"name": "Ben"}, doc_ids=[ids[1]])
    assert sorted(d["name"] for d in table.all()) == ["Anna", "Ben"]
    table.remove(Query().name == "Anna")
    assert [d["name"] for d in table.all()] == ["Ben"]
    assert db.tables() == {"players"}


def test_a_new_file_reads_as_empty_and_is_not_created_by_reading(tmp_path):
    storage = AtomicJSONStorage(tmp_path / "none.json")
    assert storage.read() is None
    assert not (tmp_path / "none.json").exists()


def test_written_data_reads_back_and_names_stay_readable_in_the_file(tmp_path):
    path = tmp_path / "db.json"
    AtomicJSONStorage(path).write({"t": {"1": {"name": "Άννα"}}})
    assert AtomicJSONStorage(path).read() == {"t": {"1": {"name": "Άννα"}}}
    assert "Άννα" in path.read_text(encoding="utf-8")


def test_a_write_that_fails_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "db.json"
    write_atomic(path, b'{"old": {}}')

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    monkeypatch.setattr("companion.storage.files._FULLFSYNC", None)
    with pytest.raises(OSError):
        write_atomic(path, b'{"new": {}}')
    assert path.read_bytes() == b'{"old": {}}'
    assert list(tmp_path.iterdir()) == [path]


def test_data_that_cannot_be_serialised_leaves_the_file_alone(tmp_path):
    path = tmp_path / "db.json"
    write_atomic(path, b'{"old": {}}')
    with pytest.raises(TypeError):
        AtomicJSONStorage(path).write({"t": {"1": {"x": object()}}})
    assert path.read_bytes() == b'{"old": {}}'


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[]", b'{"t": []}', b'{"t": {"x": {}}}',
                                     b'{"t": {"1": 5}}', b"[" * 50_000])
def test_a_file_that_is_not_tables_of_documents_is_corrupt(tmp_path, content):
    path = tmp_path / "db.json"
    path.write_bytes(content)
    with pytest.raises(CorruptFile) as caught:
        AtomicJSONStorage(path).read()
    assert caught.value.path == path and caught.value.reason


def test_stray_temporary_files_are_removed_and_nothing_else(tmp_path):
    keep = [tmp_path / "a.json", tmp_path / "notes.tmp"]
    stray = [tmp_path / ".a.json.0badf00d.tmp"]
    for p in keep + stray:
        p.write_text("x")
    assert clean_temp_files(tmp_path) == stray
    assert sorted(tmp_path.iterdir()) == sorted(keep)


def test_each_write_replaces_the_file_so_an_open_reader_keeps_the_old_version(tmp_path):
    path = tmp_path / "db.json"
    write_atomic(path, b'{"v": {"1": {"n": 1}}}')
    with open(path, "rb") as reader:
        write_atomic(path, b'{"v": {"1": {"n": 2}}}')
        assert json.loads(reader.read()) == {"v": {"1": {"n": 1}}}
    assert json.loads(path.read_bytes()) == {"v": {"1": {"n": 2}}}


def test_many_files_written_together_are_all_new_or_all_old_when_a_sync_fails(tmp_path, monkeypatch):
    from companion.storage.files import write_many

    paths = [tmp_path / f"{n}.json" for n in range(5)]
    write_many([(p, b"old") for p in paths])
    assert [p.read_bytes() for p in paths] == [b"old"] * 5
    write_many([(p, b"new %d" % n) for n, p in enumerate(paths)])
    assert [p.read_bytes() for p in paths] == [b"new %d" % n for n in range(5)]

    calls = []

    def broken_fsync(fd):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    monkeypatch.setattr("companion.storage.files._FULLFSYNC", None)
    with pytest.raises(OSError):
        write_many([(p, b"newer") for p in paths])
    assert [p.read_bytes() for p in paths] == [b"new %d" % n for n in range(5)]   # none renamed before all synced
    assert sorted(tmp_path.iterdir()) == sorted(paths)                              # no temporary file left
