"""The browser build's storage (`companion.storage.browser`), with a fake browser: what is settled is
in IndexedDB for the next page, what the browser refuses is said, and a second tab gets no store.

The fake keeps "IndexedDB" as a dict of file contents. `mount` empties the folder (a new page's memory)
and copies that dict in; `flush` makes the dict exactly the folder, as Emscripten's IDBFS does. Like
IDBFS, it keeps each file's modification time (which the store's index compares).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.storage.browser as browser
from companion.service import DiskFault, Fault, Services
from companion.storage.browser import BrowserStore, open_in_browser

from ..loop import run
from .builders import hand, new_match
from .fake_browser import FakeBrowser


def open_page(tmp_path: Path, fake: FakeBrowser, page: int):
    """A new page load: a fresh folder in memory (its own path, as a new tab's memory is its own)."""
    return run(open_in_browser(fake, str(tmp_path / f"page-{page}")))


def add_match(store: BrowserStore) -> str:
    services = Services.over(store)
    record = services.table.start(new_match())
    services.table.record_hand(record.id, hand(), expected=record.revision)
    return record.id


def test_a_settled_save_is_there_for_the_next_page_and_an_unsettled_one_is_not(tmp_path):
    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    assert not store.unsettled()            # opening settled what it cleaned up
    kept = add_match(store)
    assert store.unsettled()
    run(store.settle())
    assert not store.unsettled()
    lost = add_match(store)                 # the tab dies before this one settles
    store.close()

    _, again = open_page(tmp_path, fake, 2)
    ids = {s.id for s in again.list_matches()}
    assert kept in ids and lost not in ids
    assert len(again.get(kept).match.hands) == 1
    again.close()


def test_a_browser_store_is_match_storage_without_a_folder_a_person_can_find(tmp_path):
    from companion.service import MatchStorage

    _, store = open_page(tmp_path, FakeBrowser(), 1)
    assert isinstance(store, MatchStorage)
    assert store.folder is None
    store.close()


def test_writing_nothing_needs_no_flush(tmp_path):
    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    before = fake.flushes
    store.list_matches()
    store.settings()
    run(store.settle())
    assert fake.flushes == before
    store.close()


def test_opening_kept_data_that_needs_no_repair_flushes_nothing(tmp_path):
    # A start pays for IndexedDB only when opening changed the folder (an index rebuilt, a file set aside).
    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    add_match(store)
    run(store.settle())
    store.close()
    before = fake.flushes
    _, again = open_page(tmp_path, fake, 2)
    assert fake.flushes == before and not again.unsettled()
    again.close()


def test_a_quota_the_browser_refuses_is_a_full_disk_said_in_its_words_and_tried_again_later(tmp_path):
    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    add_match(store)
    fake.refuse = RuntimeError("QuotaExceededError: The quota has been exceeded.")
    with pytest.raises(DiskFault) as caught:
        run(store.settle())
    assert caught.value.fault is Fault.FULL
    assert store.refused.startswith("QuotaExceededError")
    assert store.unsettled()                 # still to be kept
    fake.refuse = None
    run(store.settle())
    assert store.refused is None and not store.unsettled()
    store.close()


def test_a_flush_the_browser_never_answers_is_refused_after_a_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(browser, "FLUSH_TIMEOUT", 0.05)
    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    add_match(store)
    fake.hang = True
    with pytest.raises(DiskFault) as caught:
        run(store.settle())
    assert caught.value.fault is Fault.FULL
    assert "no answer" in store.refused
    store.close()


def test_a_browser_without_indexeddb_runs_the_app_in_memory_and_says_why(tmp_path):
    fake = FakeBrowser()
    fake.mount_error = RuntimeError("InvalidStateError: IndexedDB is not available in private mode")
    folder, store = open_page(tmp_path, fake, 1)
    assert not folder.kept
    assert store.refused.startswith("InvalidStateError")
    add_match(store)                          # works, in memory
    run(store.settle())               # nothing to keep it in: not an error each time
    store.close()


def test_a_second_tab_gets_no_store_while_the_first_holds_the_data(tmp_path):
    folder, store = open_page(tmp_path, FakeBrowser(lock=False), 1)
    assert folder.elsewhere and store is None


def test_figures_kept_on_the_page_are_flushed_for_the_next_page_without_a_write_after_them(tmp_path):
    """The player pages a tab keeps (#27) outlive it: kept on the page's loop, they are flushed beside it."""
    import asyncio

    from companion.history.cache import PAGES, HistoryCache
    from companion.history.pages import kept_key

    fake = FakeBrowser()
    _, store = open_page(tmp_path, fake, 1)
    add_match(store)
    run(store.settle())
    library = Services.over(store).library

    async def follow_once() -> None:
        cache = HistoryCache()
        await cache.warm_stepwise(library)
        for _ in range(100):          # the flush runs beside, as the page's other work would
            if not store.unsettled():
                return
            await asyncio.sleep(0.01)

    run(follow_once())
    key = library.history_key()
    assert not store.unsettled() and kept_key(store.read_kept(PAGES)) == key
    store.close()
    _, again = open_page(tmp_path, fake, 2)
    assert kept_key(again.read_kept(PAGES)) == key
    again.close()


def test_a_browser_store_holds_no_lock_file_and_never_imports_filelock(tmp_path):
    """The folder is the tab's own memory, and IndexedDB keeps a second tab out: a lock file there guarded
    nothing and cost every first visit filelock's import (36 ms in Pyodide, #27). A laptop's store still locks."""
    import subprocess
    import sys

    from companion.storage import Store
    from companion.service import StoreLocked

    code = ("import sys, asyncio; sys.path.insert(0, '.')\n"
            "from tests.storage.fake_browser import FakeBrowser\n"
            "from companion.storage.browser import open_in_browser\n"
            f"_, store = asyncio.run(open_in_browser(FakeBrowser(), {str(tmp_path / 'tab')!r}))\n"
            "print(store._file_lock is None, 'filelock' in sys.modules, store.check_folder())\n"
            "store.close()\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "False", "False"]), done.stderr
    with Store(tmp_path / "laptop"):
        with pytest.raises(StoreLocked):
            Store(tmp_path / "laptop")
