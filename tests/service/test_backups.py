"""Importing zips: one entry at a time with a size cap, so a zip bomb costs neither memory nor time, and
the entry refused is named; progress is told as the import goes."""

from __future__ import annotations

import io
import json
import time
import tracemalloc
import zipfile
from pathlib import Path


import companion.formats.archive as archive
from companion.formats.archive import MAX_ENTRY_BYTES
from companion.service import ImportReport
from companion.resources import CHECKOUT_DATA as DATA_DIR

from tests.play import backups, books

EXAMPLE = (DATA_DIR / "examples" / "classic-151.json").read_bytes()


def failed(report: ImportReport) -> list[tuple[str, str]]:
    """The files not imported, each with why in English (the report keeps the error, to be said in any language)."""
    return [(name, str(why)) for name, why in report.failed]


def bomb(path: Path, size: int) -> None:
    """A small zip holding one match file of `size` bytes of spaces (JSON allows them), written in chunks."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("matches/a-good-one.json", EXAMPLE)
        with zf.open("matches/bomb.json", "w") as entry:
            chunk = b" " * (1024 * 1024)
            for _ in range(size // len(chunk)):
                entry.write(chunk)
        zf.writestr("matches/z-after-it.json", EXAMPLE.replace(b'"Ben"', b'"Chris"'))


def test_a_zip_bomb_is_refused_by_entry_name_in_bounded_memory_and_time(store, tmp_path):
    path = tmp_path / "bomb.zip"
    bomb(path, 256 * 1024 * 1024)
    assert path.stat().st_size < 2 * 1024 * 1024
    tracemalloc.start()
    started = time.perf_counter()
    report = backups(store).import_paths([path])
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert failed(report) == [("bomb.zip:matches/bomb.json",
                              "matches/bomb.json is larger than 4 MB; no match file is that big, so it was not read")]
    assert report.imported == ["bomb.zip:matches/a-good-one.json", "bomb.zip:matches/z-after-it.json"]
    assert peak < 6 * MAX_ENTRY_BYTES and elapsed < 20


def test_a_zip_listing_more_entries_than_any_history_is_refused_whole(store, monkeypatch):
    monkeypatch.setattr(archive, "MAX_ENTRIES", 10)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for k in range(11):
            zf.writestr(f"matches/{k}.json", EXAMPLE)
    report = backups(store).import_files([("many.zip", buffer.getvalue())])
    assert failed(report) == [("many.zip", "the zip lists 11 entries; a history zip holds at most 10")]
    assert store.list_matches() == []


def test_a_zip_that_unpacks_to_more_than_any_history_stops_there(store, monkeypatch):
    monkeypatch.setattr(archive, "MAX_ARCHIVE_BYTES", 2 * len(EXAMPLE) + 100)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name in ("Ben", "Chris", "Dora"):
            zf.writestr(f"matches/{name}.json", EXAMPLE.replace(b'"Ben"', json.dumps(name).encode()))
    report = backups(store).import_files([("big.zip", buffer.getvalue())])
    assert len(report.imported) == 2
    assert failed(report)[0][0] == "big.zip:matches/Dora.json" and "unpacks to more than" in failed(report)[0][1]


def test_a_broken_entry_is_named_and_the_others_are_imported(store):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("matches/a.json", EXAMPLE)
        zf.writestr("matches/b.json", b"\xff\xfe not text")
        zf.writestr("matches/c.json", '{"format": "xeri-match", "version": 1, "version": 1}')
    report = backups(store).import_files([("mixed.zip", buffer.getvalue())])
    assert report.imported == ["mixed.zip:matches/a.json"]
    assert failed(report) == [("mixed.zip:matches/b.json", "the file is not UTF-8 text"),
                             ("mixed.zip:matches/c.json", "the key 'version' is given twice in one object; "
                                                          "give each key once")]


def test_progress_is_told_after_every_match_file(store):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name in ("Ben", "Chris", "Dora"):
            zf.writestr(f"matches/{name}.json", EXAMPLE.replace(b'"Ben"', json.dumps(name).encode()))
        zf.writestr("history.csv", "not a match file")
    told: list[tuple[int, int]] = []
    backups(store).import_files([("three.zip", buffer.getvalue()), ("one.json", EXAMPLE)],
                 lambda done, total: told.append((done, total)))
    assert told == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_storage_fault_stops_the_import_and_keeps_what_came_before(store, monkeypatch):
    import errno

    import companion.storage.files as files
    from companion.service import DiskFault

    real, calls = files.write_atomic, []

    def fills_up(path, data):
        calls.append(path)
        if len([p for p in calls if p.parent.name == "matches"]) > 1 and path.parent.name == "matches":
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(files, "write_atomic", fills_up)
    texts = [("m%d.json" % k, EXAMPLE.replace(b'"Ben"', json.dumps(f"Ben {k}").encode())) for k in range(4)]
    report = backups(store).import_files(texts)
    monkeypatch.undo()
    assert report.imported == ["m0.json"] and isinstance(report.stopped, DiskFault)
    assert [m.sides for m in store.list_matches()] == [("Anna", "Ben 0")]
