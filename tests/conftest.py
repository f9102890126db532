"""Every test runs in a temporary data folder: never the repository, never the user's own."""

from __future__ import annotations

from pathlib import Path
from collections.abc import Callable, Iterator

import pytest

from companion.storage import Store

from tests.app_server import AppServer
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


@pytest.fixture(scope="module")
def lan_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app serving every address, with a table code (tests/app_server.py), shared by a module's tests:
    starting takes seconds."""
    app = AppServer(tmp_path_factory.mktemp("lan") / "data", host="0.0.0.0").start()
    yield app
    app.stop()


@pytest.fixture
def start_app(tmp_path: Path) -> Iterator[Callable[..., AppServer]]:
    """`start_app(data=None, host="0.0.0.0", env=None)`: the app started on the test's folder; stopped at the end."""
    started: list[AppServer] = []

    def start(data: Path | None = None, host: str = "0.0.0.0", env: dict[str, str] | None = None) -> AppServer:
        app = AppServer(data or tmp_path / "data", host=host, env=env)
        started.append(app)
        return app.start()

    yield start
    for app in started:
        app.stop()
