"""Building the app over a storage backend: what the app needs of a backend is the storage port, and a
backend that lacks part of it is refused at start, in words (before, a backend without a `path` or a
`check_folder` silently got no sync, or no watch over its folder)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion import bootstrap
from companion.storage import Store


def backend(store: Store, without: str = "") -> SimpleNamespace:
    """A backend that is `store` in every part of the port but `without`."""
    return SimpleNamespace(**{name: getattr(store, name) for name in bootstrap._PORT if name != without})


@pytest.mark.parametrize("without", ["check_folder", "path", "clock", "read_only", "batch"])
def test_a_backend_missing_part_of_the_port_is_refused_at_start_saying_what_it_lacks(tmp_path, without):
    store = Store(tmp_path / "data")
    try:
        with pytest.raises(TypeError, match=f"SimpleNamespace is not a MatchStorage: it has no {without}$"):
            bootstrap.build(backend(store, without))
    finally:
        store.close()


def test_a_backend_with_the_whole_port_gets_sync_and_the_folder_watch(tmp_path):
    store = Store(tmp_path / "data")
    with bootstrap.build(backend(store)) as parts:
        assert parts.services.sync is not None and parts.runner is not None
        assert parts.services.sync.replica.folder == tmp_path / "data" / "sync"   # beside the matches
    assert store.closed


def test_an_export_reads_only_and_joins_no_group(tmp_path):
    Store(tmp_path / "data").close()
    with bootstrap.build(Store(tmp_path / "data", read_only=True)) as parts:
        assert parts.services.sync is None and parts.runner is None
