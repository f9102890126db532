"""Disk faults on screen: told in words (what failed, that nothing saved is lost, what to do), and the
screen stays as it was so the person can try again; only a match that is gone sends the page home."""

from __future__ import annotations

import errno
import io
import zipfile

import pytest

import companion.storage.files as files
from companion.resources import CHECKOUT_DATA as DATA_DIR
from companion.ui.viewmodel import Screen, Tone
from companion.engine.live import TapKind

from .vm import start

FULL = "The disk is full, so nothing was changed. Everything saved before is safe: free some space, then try again."


@pytest.fixture
def disk(monkeypatch):
    """`disk.fill()` makes every write fail as a full disk does; `disk.free()` makes room again."""
    real = files.write_atomic

    class Disk:
        def fill(self, code=errno.ENOSPC):
            def refuse(path, data):
                raise OSError(code, "refused")
            monkeypatch.setattr(files, "write_atomic", refuse)

        def free(self):
            monkeypatch.setattr(files, "write_atomic", real)

    return Disk()


def fill_in_hand(app):
    app.scoreboard.end_hand()
    app.entry.set_most(0)
    app.entry.set_counting(0, 12)
    app.entry.set_ten(0)
    app.entry.set_two(1)


def test_a_hand_saved_on_a_full_disk_keeps_the_entry_on_screen_to_try_again(app, disk):
    start(app)
    fill_in_hand(app)
    disk.fill()
    app.entry.save()
    assert app.screen is Screen.ENTRY
    assert (app.session.notice.text, app.session.notice.tone) == (FULL, Tone.PROBLEM)
    assert app.entry.draft.most == 0 and app.entry.save_reason() is None
    assert app.scoreboard.record.match.hands == ()
    disk.free()
    app.entry.save()
    assert app.screen is Screen.SCOREBOARD and len(app.scoreboard.record.match.hands) == 1


def test_a_live_tap_on_a_full_disk_is_told_not_silently_lost(app, disk):
    start(app)
    disk.fill()
    app.scoreboard.tap(0, TapKind.XERI)
    assert app.session.notice.text == FULL and app.scoreboard.seat_count(0, TapKind.XERI) == 0
    assert app.screen is Screen.SCOREBOARD


def test_a_folder_that_cannot_be_written_is_named_in_the_message(app, disk, store):
    start(app)
    disk.fill(errno.EACCES)
    app.scoreboard.tap(0, TapKind.XERI)
    assert app.session.notice.text == (f"The data folder ({store.folder}) cannot be written, so nothing was changed. "
                                       "Everything saved before is safe: check the folder's permissions, then try again.")


def test_a_setting_the_disk_refuses_is_not_shown_as_changed(app, disk, services):
    app.settings.open()
    disk.fill()
    app.settings.set_language("el")
    assert app.session.lang == "en" and app.session.notice.text == FULL
    assert app.screen is Screen.SETTINGS


def test_an_export_on_a_full_disk_is_told_and_the_button_comes_back(app, disk, monkeypatch):
    import companion.formats.archive as archive

    start(app, goal={"goal_kind": "hands", "hands": 1})
    app.history.open()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(archive.Path, "write_bytes", full)
    app.history.export_all()
    assert app.history.busy is None and app.history.download is None
    assert app.session.notice.text == FULL


def test_an_import_stopped_by_a_full_disk_says_what_came_in_and_why_it_stopped(app, disk):
    example = (DATA_DIR / "examples" / "classic-151.json").read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name in ("Ben", "Chris"):
            zf.writestr(f"matches/{name}.json", example.replace(b'"Ben"', f'"{name}"'.encode()))
    app.history.open()
    disk.fill()
    app.history.import_files([("history.zip", buffer.getvalue())])
    assert app.history.busy is None and app.history.progress is None
    assert app.session.notice.text == "0 matches imported. " + FULL


def test_an_import_tells_its_progress_as_it_goes(app):
    example = (DATA_DIR / "examples" / "classic-151.json").read_bytes()
    seen = []
    app.session.post = lambda call: (call(), seen.append(app.history.progress_text()))
    files_ = [(f"m{k}.json", example.replace(b'"Ben"', f'"Ben {k}"'.encode())) for k in range(3)]
    app.history.open()
    app.history.import_files(files_)
    assert seen == ["Importing: 1 of 3 match files…", "Importing: 2 of 3 match files…",
                    "Importing: 3 of 3 match files…"]
    assert app.history.progress is None and app.session.notice.text == "3 matches imported."


def test_a_match_deleted_elsewhere_still_sends_the_page_home(app, services):
    start(app)
    services.library.delete(app.scoreboard.record.id)
    app.scoreboard.tap(0, TapKind.XERI)
    assert app.screen is Screen.HOME and "could not be opened any more" in app.session.notice.text
