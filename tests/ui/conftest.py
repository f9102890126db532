import pytest


@pytest.fixture
def store(tmp_path, monkeypatch):
    from companion.storage import Store

    monkeypatch.setenv("XERI_DATA_DIR", str(tmp_path / "data"))
    s = Store(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def state(store):
    from companion.ui.state import AppState

    return AppState(store)
