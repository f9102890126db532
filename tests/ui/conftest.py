import pytest


@pytest.fixture
def store(tmp_path, monkeypatch):
    from companion.storage import Store

    monkeypatch.setenv("XERI_DATA_DIR", str(tmp_path / "data"))
    s = Store(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def services(store):
    from companion.service import Services

    return Services.over(store)


@pytest.fixture
def app(services):
    from companion.ui.viewmodel import AppModel

    return AppModel(services)
