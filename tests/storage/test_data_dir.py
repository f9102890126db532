"""Where the data folder is: the packaged app's folder, else XERI_DATA_DIR, else the user data folder."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from companion.storage import data_dir

REPO = Path(__file__).resolve().parents[2]


def test_a_packaged_app_uses_flets_storage_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "flet"))
    monkeypatch.setenv("XERI_DATA_DIR", str(tmp_path / "xeri"))
    assert data_dir() == tmp_path / "flet"


def test_xeri_data_dir_is_used_when_not_packaged(monkeypatch, tmp_path):
    monkeypatch.setenv("XERI_DATA_DIR", str(tmp_path / "xeri"))
    assert data_dir() == tmp_path / "xeri"
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", "  ")  # set but empty counts as unset
    assert data_dir() == tmp_path / "xeri"


def test_otherwise_the_platforms_user_data_folder_outside_the_repository(monkeypatch):
    monkeypatch.delenv("XERI_DATA_DIR")
    folder = data_dir()
    assert folder == Path(platformdirs.user_data_dir("xeri-companion", appauthor=False))
    assert folder.name == "xeri-companion"
    assert REPO not in folder.parents and folder != REPO
    assert "cache" not in str(folder).lower() and "tmp" not in folder.parts
