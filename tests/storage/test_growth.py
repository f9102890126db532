"""Saving a hand rewrites two small files, however many matches are stored (timings: benchmarks/bench_storage.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.storage.files as files
from companion.engine import LiveHand
from companion.storage import Store
from companion.engine.live import TapKind

from .builders import hand_for, new_match, stored_matches
from tests.play import play, keep_live


def writes_per_save(folder: Path, background: int, monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[str, int]]]:
    stored_matches(folder, background)
    with Store(folder) as store:
        assert len(store.list_matches()) == background
        record = play(store).start(new_match())
        for n in range(3):
            record = play(store).record_hand(record.id, hand_for(n))
        saves = []
        real = files.write_atomic

        def counting(path: Path, data: bytes) -> None:
            saves[-1].append((path.relative_to(folder).as_posix(), len(data)))
            real(path, data)

        monkeypatch.setattr(files, "write_atomic", counting)
        for n in range(3, 8):
            saves.append([])
            play(store).record_hand(record.id, hand_for(n))
        saves.append([])
        keep_live(store, record.id, LiveHand().tap(0, TapKind.XERI))
        monkeypatch.setattr(files, "write_atomic", real)
        return saves, record.id


def test_saving_a_hand_rewrites_the_match_file_and_one_index_bucket_whatever_is_stored(tmp_path, monkeypatch):
    few, few_id = writes_per_save(tmp_path / "one", 0, monkeypatch)
    many, many_id = writes_per_save(tmp_path / "many", 300, monkeypatch)
    index_bytes = sum(p.stat().st_size for p in (tmp_path / "many" / "index").glob("*.json"))
    for saves, match_id in ((few, few_id), (many, many_id)):
        *hands, live = saves
        for written in hands:
            assert [p for p, _ in written] == [f"matches/{match_id}.json", f"index/{match_id[:2]}.json"]
        assert [p for p, _ in live] == [f"matches/{match_id}.json"]  # a live tap leaves the index alone
    # The match file is the same size in both stores; the bucket is a small slice of the index.
    assert [w[0][1] for w in few] == [w[0][1] for w in many]
    for written in many[:-1]:
        assert written[1][1] < index_bytes / 20
