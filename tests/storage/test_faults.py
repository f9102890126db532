"""Disk faults: a full disk, a folder that cannot be written, a data folder deleted while the app runs.
Each is a `DiskFault` saying what failed in words; nothing saved before is lost; the folder comes back."""

from __future__ import annotations

import errno
import os
import shutil

import pytest

import companion.storage.files as files
from companion.service import DiskFault, Fault, StoreLocked
from companion.storage import Store

from .builders import hand_for, new_match, stored_matches
from tests.play import books, play


def refuse(monkeypatch, code: int, where: str = "") -> None:
    """Make every write (under `where`, if given) fail as the disk would."""
    real = files.write_atomic

    def failing(path, data):
        if where in path.as_posix():
            raise OSError(code, errno.errorcode[code])
        real(path, data)

    monkeypatch.setattr(files, "write_atomic", failing)


@pytest.mark.parametrize("code, fault, said", [
    (errno.ENOSPC, Fault.FULL, "the disk is full; free some space, then try again"),
    (errno.EACCES, Fault.DENIED, "the data folder cannot be written (read-only, or no permission)"),
    (errno.EROFS, Fault.DENIED, "the data folder cannot be written (read-only, or no permission)"),
    (errno.EIO, Fault.OTHER, "the disk reported an error"),
])
def test_a_refused_save_is_a_disk_fault_in_words_and_the_match_is_as_it_was(store, monkeypatch, code, fault, said):
    record = play(store).start(new_match())
    refuse(monkeypatch, code)
    with pytest.raises(DiskFault) as error:
        play(store).record_hand(record.id, hand_for(0))
    assert error.value.fault is fault
    assert str(error.value).startswith(f"could not save the match: {said}")
    assert str(error.value).endswith("Nothing saved before is lost.")
    monkeypatch.undo()
    assert store.get(record.id) == record
    play(store).record_hand(record.id, hand_for(0))            # the disk has room again: the same save works


def test_a_new_player_refused_by_the_disk_is_not_kept_half(store, monkeypatch):
    refuse(monkeypatch, errno.ENOSPC)
    with pytest.raises(DiskFault, match="could not save the new player: the disk is full"):
        play(store).start(new_match("Anna", "Ben"))
    monkeypatch.undo()
    assert store.players() == [] and store.list_matches() == []


def test_the_app_opens_on_a_full_disk_with_every_match_readable(folder, monkeypatch):
    ids = stored_matches(folder, 5)                              # no index yet: opening would write it
    refuse(monkeypatch, errno.ENOSPC)
    with Store(folder) as store:
        assert sorted(m.id for m in store.list_matches()) == sorted(ids)
        assert store.get(ids[0]).match.hands
    monkeypatch.undo()
    with Store(folder) as store:
        assert store.damaged == [] and len(store.list_matches()) == 5


def test_opening_where_no_folder_can_be_made_is_a_disk_fault_not_a_traceback(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(DiskFault, match="could not open the data folder: the data folder is not there any more") as error:
        Store(tmp_path / "a-file" / "data")
    assert error.value.fault is Fault.GONE


def test_a_data_folder_deleted_while_the_app_runs_is_made_again_with_what_memory_holds(folder):
    with Store(folder) as store:
        store.update_settings(language="el")
        record = play(store).start(new_match())
        record = play(store).record_hand(record.id, hand_for(0))
        shutil.rmtree(folder)
        record = play(store).record_hand(record.id, hand_for(1))  # the next save notices, and the folder is back
        assert store.remade == 1
        assert (folder / "matches" / f"{record.id}.json").exists()
    with Store(folder) as store:
        assert store.damaged == []
        assert store.get(record.id).match.hands == (hand_for(0), hand_for(1))
        assert store.settings()["language"] == "el"
        assert {p.name for p in store.players()} == {"Anna", "Ben"}


def test_a_second_app_cannot_open_a_data_folder_deleted_under_the_first(folder):
    with Store(folder) as store:
        shutil.rmtree(folder)
        assert store.check_folder() is True                      # the app checks every few seconds, and at every write
        with pytest.raises(StoreLocked):
            Store(folder)
        assert store.check_folder() is False


def test_a_match_never_opened_goes_with_its_deleted_folder_and_is_no_longer_listed(folder):
    with Store(folder) as store:
        kept = play(store).start(new_match("Anna", "Ben"))
    with Store(folder) as store:
        play(store).start(new_match("Chris", "Dora"))
        shutil.rmtree(folder)
        store.check_folder()
        assert kept.id not in {m.id for m in store.list_matches()}
        assert len(books(store).matches()) == 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="permissions do not stop root")
def test_opening_a_read_only_data_folder_is_a_disk_fault_in_words(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(DiskFault, match="could not open the data folder: the data folder cannot be written"):
            Store(folder)
    finally:
        folder.chmod(0o755)


def test_a_lock_the_system_refuses_is_a_disk_fault_not_a_traceback(folder, monkeypatch):
    import filelock

    def refused(self, *args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(filelock.FileLock, "acquire", refused)
    with pytest.raises(DiskFault) as error:
        Store(folder)
    assert error.value.fault is Fault.DENIED
