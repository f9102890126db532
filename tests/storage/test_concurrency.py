"""One writer: threads of one process are serialised, a second process is refused with a message."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.storage import Store, StoreLocked

from .builders import hand_for, new_match
from tests.play import play

ROOT = Path(__file__).resolve().parents[2]


def test_two_threads_saving_hands_to_the_same_match_lose_nothing(store, folder):
    record = play(store).start(new_match())
    per_thread = 40
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def saver(offset: int) -> None:
        try:
            start.wait()
            for n in range(per_thread):
                play(store).record_hand(record.id, hand_for(offset + n))
                if n % 5 == 0:
                    store.list_matches()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=saver, args=(k * 100,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    expected = sorted([hand_for(n) for n in range(per_thread)] + [hand_for(100 + n) for n in range(per_thread)],
                      key=repr)
    assert sorted(store.get(record.id).match.hands, key=repr) == expected
    store.close()
    with Store(folder) as reopened:
        assert sorted(reopened.get(record.id).match.hands, key=repr) == expected
        assert reopened.list_matches()[0].hands == 2 * per_thread


def test_threads_creating_matches_and_players_at_once_lose_nothing(store, folder):
    def worker(k: int) -> None:
        for n in range(10):
            record = play(store).start(new_match(f"P{k}-{n}", "Shared"))
            play(store).record_hand(record.id, hand_for(n))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    with Store(folder) as reopened:
        assert len(reopened.list_matches()) == 40
        assert len(reopened.players()) == 41
        assert all(m.hands == 1 for m in reopened.list_matches())


def test_a_second_process_is_refused_with_a_clear_message(store, folder):
    code = ("import sys\n"
            "from companion.storage import Store, StoreLocked\n"
            "try:\n"
            "    Store(sys.argv[1])\n"
            "except StoreLocked as exc:\n"
            "    print(exc)\n"
            "    sys.exit(3)\n")
    play(store).start(new_match())
    done = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 3, done.stderr
    assert done.stdout.strip() == (f"Xeri Companion is already open with this data folder ({folder}); "
                                   "close it there first.")
    assert len(store.list_matches()) == 1


def test_the_folder_is_free_again_once_the_store_closes(store, folder):
    with pytest.raises(StoreLocked) as caught:
        Store(folder)
    assert isinstance(caught.value, RuntimeError) and "already open" in str(caught.value)
    store.close()
    with Store(folder) as second:
        assert second.list_matches() == []


def test_a_store_can_be_closed_from_another_thread(folder):
    store = Store(folder)
    closer = threading.Thread(target=store.close)
    closer.start()
    closer.join()
    with Store(folder):
        pass
