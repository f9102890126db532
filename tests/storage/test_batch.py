"""Many writes as one (an import): each index bucket and players.json written once, whatever the count,
and a crash inside a batch loses at most the batch in progress, never damaging a file."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import companion.storage.files as files
from companion.storage import Store

from .builders import match_file
from tests.play import books

ROOT = Path(__file__).resolve().parents[2]


def test_an_import_in_a_batch_writes_players_once_and_each_index_bucket_once(store, monkeypatch):
    texts = [match_file(k) for k in range(60)]
    written: Counter[str] = Counter()
    real, real_many = files.write_atomic, files.write_many

    def counting(path: Path, data: bytes) -> None:
        written[path.relative_to(store.folder).as_posix()] += 1
        real(path, data)

    def counting_many(items: list[tuple[Path, bytes]], **options) -> None:  # the buckets, together at the end
        for path, _ in items:
            written[path.relative_to(store.folder).as_posix()] += 1
        real_many(items, **options)

    monkeypatch.setattr(files, "write_atomic", counting)
    monkeypatch.setattr(files, "write_many", counting_many)
    with books(store).batch():
        for text in texts:
            books(store).import_match(text)
    monkeypatch.undo()
    assert written["players.json"] == 1                       # was once per new player: 120 times
    buckets = [p for p in written if p.startswith("index/")]
    assert buckets and all(written[p] == 1 for p in buckets)   # was once per match in the bucket
    assert sum(written[p] for p in written if p.startswith("matches/")) == 60
    assert len(store.players()) == 120 and len(store.list_matches()) == 60


def test_what_a_batch_wrote_reads_back_the_same_after_reopening(store, open_store):
    with books(store).batch():
        for k in range(20):
            books(store).import_match(match_file(k))
    before = (store.list_matches(), store.players())
    store.close()
    again = open_store()
    assert again.damaged == []
    assert (again.list_matches(), again.players()) == before


def test_a_crash_inside_a_batch_loses_at_most_the_import_in_progress_and_damages_nothing(tmp_path):
    folder = tmp_path / "data"
    with Store(folder) as store:
        books(store).import_match(match_file(999))
    child = ("import os, sys\n"
             "from companion.storage import Store\n"
             "from tests.play import books\n"
             "from tests.storage.builders import match_file\n"
             f"store = Store({str(folder)!r})\n"
             "with books(store).batch():\n"
             "    for k in range(30):\n"
             "        books(store).import_match(match_file(k))\n"
             "    os._exit(9)  # killed inside the batch: nothing of the index or the players written\n")
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    with Store(folder) as store:
        assert store.damaged == []
        matches = store.list_matches()
        assert len(matches) <= 31 and any(m.sides == ("Player 1998", "Player 1999") for m in matches)
        names = {p.name for p in store.players()}
        assert all(set(m.sides) <= names for m in matches)      # every stored match's players are known
        for m in matches:
            store.get(m.id)


def test_an_import_needs_no_walk_over_every_stored_match_to_find_the_same_content(store):
    # The same content twice in one batch is found by its fingerprint, however many matches are stored.
    with books(store).batch():
        first = books(store).import_match(match_file(1))
        second = books(store).import_match(match_file(1))
    assert first.record.id == second.record.id and len(store.list_matches()) == 1


def test_a_batch_held_across_an_await_leaves_another_tasks_save_undeferred(store, monkeypatch):
    """The browser build runs a sync round and the page in one thread: the round's batch (`Sync.receive`)
    spans awaits, and a match the page imports meanwhile must have its players and index written, and its
    folder synced, at once, not when the round ends (#23). Deferring by thread did exactly that."""
    import asyncio

    written: list[str] = []
    synced: list[Path] = []
    real_one, real_many, real_dir = files.write_atomic, files.write_many, files.fsync_dir
    monkeypatch.setattr(files, "write_atomic", lambda path, data, **kw: (written.append(path.name),
                                                                          real_one(path, data, **kw))[1])
    monkeypatch.setattr(files, "write_many", lambda items, **kw: (written.extend(p.name for p, _ in items),
                                                                  real_many(items, **kw))[1])
    monkeypatch.setattr(files, "fsync_dir", lambda folder: (synced.append(Path(folder)), real_dir(folder))[1])

    async def evening() -> tuple[bool, bool]:
        inside, done = asyncio.Event(), asyncio.Event()

        async def a_round() -> None:
            with books(store).batch():
                inside.set()
                await done.wait()

        async def the_page() -> tuple[bool, bool]:
            await inside.wait()
            books(store).import_match(match_file(1))
            now = "players.json" in written, any(p.name == "matches" for p in synced)
            done.set()
            return now

        _, seen = await asyncio.gather(a_round(), the_page())
        return seen

    players_written, folder_synced = asyncio.run(evening())
    assert players_written, written
    assert folder_synced, synced
