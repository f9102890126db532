"""Every test runs in a temporary data folder: never the repository, never the user's own."""

from __future__ import annotations

from pathlib import Path
from collections.abc import Callable, Iterator

import pytest

from companion.storage import Store

from tests.storage.builders import Clock


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Store() without a folder lands in the test's temporary folder."""
    home = tmp_path / "default-data"
    monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
    monkeypatch.setenv("XERI_DATA_DIR", str(home))
    return home


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def open_store(folder: Path, clock: Clock) -> Iterator[Callable[[], Store]]:
    """Opens the store on the test's folder; every store it opened is closed at the end."""
    opened: list[Store] = []

    def opener() -> Store:
        store = Store(folder, clock=clock)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    return open_store()


@pytest.fixture(params=["same store", "reopened"])
def again(request: pytest.FixtureRequest, open_store: Callable[[], Store]) -> Callable[[Store], Store]:
    """Run a test twice: reading back from the same store, and from a store reopened from disk."""
    if request.param == "same store":
        return lambda store: store

    def reopen(store: Store) -> Store:
        store.close()
        return open_store()

    return reopen
