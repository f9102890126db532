"""The index is a cache, never trusted: each entry carries a checksum, a changed byte makes the bucket be
rebuilt from the match files, and a folder where a data file should be is set aside, not a crash."""

from __future__ import annotations

import json

import pytest

from companion.storage import Store

from .builders import hand_for, new_match
from tests.play import play


def played(folder, hands: int = 4) -> tuple[str, tuple[int, ...]]:
    with Store(folder) as store:
        record = play(store).start(new_match())
        for n in range(hands):
            record = play(store).record_hand(record.id, hand_for(n))
        return record.id, store.list_matches()[0].totals


def test_a_flipped_byte_in_the_totals_of_an_index_entry_is_seen_and_the_bucket_rebuilt(folder):
    match_id, totals = played(folder)
    bucket = folder / "index" / f"{match_id[:2]}.json"
    text = bucket.read_text(encoding="utf-8")
    shown = f'"totals":[{totals[0]},{totals[1]}]'
    assert shown in text
    # One digit becomes a space: still valid JSON, with another total (39:31 becomes 39:3).
    bucket.write_text(text.replace(shown, f'"totals":[{totals[0]},{str(totals[1])[:-1]} ]'), encoding="utf-8")
    with Store(folder) as store:
        assert store.list_matches()[0].totals == totals
        assert [d.path for d in store.damaged] == [bucket]
        assert "does not match its checksum" in store.damaged[0].reason
    with Store(folder) as store:
        assert store.damaged == [] and store.list_matches()[0].totals == totals


def test_an_index_written_before_entries_had_checksums_is_checked_against_the_match_files(folder):
    match_id, totals = played(folder)
    bucket = folder / "index" / f"{match_id[:2]}.json"
    data = json.loads(bucket.read_text(encoding="utf-8"))
    for entry in data["matches"].values():
        del entry["check"]
        entry["totals"] = [0, 0]          # an old entry that was wrong: read again from the match file
    bucket.write_text(json.dumps(data), encoding="utf-8")
    with Store(folder) as store:
        assert store.damaged == [] and store.list_matches()[0].totals == totals
    assert all("check" in e for e in json.loads(bucket.read_text(encoding="utf-8"))["matches"].values())


@pytest.mark.parametrize("where", ["players.json", "settings.json", "index/ab.json", "matches/{id}.json"])
def test_a_folder_where_a_data_file_should_be_is_set_aside_and_the_app_starts(folder, where):
    match_id, totals = played(folder)
    path = folder / where.format(id="0" * 32)
    if path.exists():
        path.unlink()
    path.mkdir(parents=True)
    (path / "inside.txt").write_text("kept")
    with Store(folder) as store:
        assert [d.path for d in store.damaged] == [path]
        assert (store.damaged[0].new_path / "inside.txt").read_text() == "kept"
        assert store.list_matches()[0].totals == totals
        store.update_settings(theme="dark")
        store.player_id("Chris")


def test_a_file_where_a_data_folder_should_be_is_set_aside_and_the_folder_made(folder):
    match_id, _ = played(folder)
    for name in ("bin", "damaged"):
        path = folder / name
        path.rmdir() if path.is_dir() else None
        path.write_text("not a folder")
    with Store(folder) as store:
        assert (folder / "bin").is_dir() and (folder / "damaged").is_dir()
        assert sorted(d.reason for d in store.damaged) == ["a file is where a folder should be"] * 2
        play(store).record_hand(match_id, hand_for(9))
