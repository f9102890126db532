"""A store opened to read only (an export): it needs no lock, writes nothing, and reads a folder another app is
writing without ever seeing half a file."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from companion.service import NoSuchMatch, StorageError
from companion.storage import Store

from .builders import hand_for, new_match, stored_matches
from tests.play import play


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under `folder` with its size and time of change: what a write would alter."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_a_read_only_store_reads_a_folder_another_store_holds_and_writes_nothing(folder, store):
    ids = {play(store).start(new_match("Anna", f"Ben {k}", hands=2)).id for k in range(3)}
    shutil.rmtree(folder / "index")                                   # what it rebuilds, it keeps in memory
    before = snapshot(folder)
    with Store(folder, read_only=True) as reader:
        assert {m.id for m in reader.list_matches()} == ids
        assert all(len(reader.get(m).match.hands) == 2 for m in ids)
        assert {p.name for p in reader.players()} == {"Anna", "Ben 0", "Ben 1", "Ben 2"}
    assert snapshot(folder) == before


@pytest.mark.parametrize("write", [lambda s, m: play(s).start(new_match()), lambda s, m: s.delete(m),
                                   lambda s, m: s.update_settings(language="el"), lambda s, m: s.player_id("Chris")])
def test_every_write_to_a_read_only_store_is_refused(folder, store, write):
    match_id = play(store).start(new_match()).id
    before = snapshot(folder)
    with Store(folder, read_only=True) as reader, pytest.raises(StorageError, match="opened to read only"):
        write(reader, match_id)
    assert snapshot(folder) == before


def test_a_damaged_match_file_is_reported_where_it_is_and_the_others_read(folder):
    ids = stored_matches(folder, 3, hands=2)
    (folder / "matches" / f"{ids[0]}.json").write_text("{not json", encoding="utf-8")
    before = snapshot(folder)
    with Store(folder, read_only=True) as reader:
        assert sorted(m.id for m in reader.list_matches()) == sorted(ids[1:])
        assert [(d.path.name, d.new_path) for d in reader.damaged] == [(f"{ids[0]}.json", None)]
    assert snapshot(folder) == before


def test_a_data_folder_that_is_not_there_reads_as_empty_and_is_not_made(tmp_path):
    with Store(tmp_path / "nothing", read_only=True) as reader:
        assert reader.list_matches() == [] and reader.players() == []
    assert not (tmp_path / "nothing").exists()


def test_reading_while_another_store_saves_and_deletes_never_gives_half_a_match(folder, store):
    ids = [play(store).start(new_match("Anna", f"Ben {k}")).id for k in range(4)]
    stop = threading.Event()

    def keep_writing() -> None:
        n = 0
        while not stop.is_set():
            for match_id in ids[:3]:
                play(store).record_hand(match_id, hand_for(n))
            store.delete(ids[3]) if n % 2 == 0 else store.restore(ids[3])
            n += 1

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        seen = {match_id: 0 for match_id in ids[:3]}
        reads, deadline = 0, time.monotonic() + 120
        # At least 30 reads, and on until each match was read with a hand the writer saved meanwhile (a
        # loaded machine may run the writer's thread late).
        while (reads < 30 or min(seen.values()) == 0) and time.monotonic() < deadline:
            reads += 1
            with Store(folder, read_only=True) as reader:
                assert reader.damaged == []                              # never a file caught halfway
                for summary in reader.list_matches():
                    try:
                        record = reader.get(summary.id)
                    except NoSuchMatch:
                        assert summary.id == ids[3]                      # deleted since the index was read
                        continue
                    if summary.id in seen:
                        hands = len(record.match.hands)
                        assert hands >= seen[summary.id]                 # whole, and never older than before
                        seen[summary.id] = hands
    finally:
        stop.set()
        writer.join()
    assert min(seen.values()) > 0
