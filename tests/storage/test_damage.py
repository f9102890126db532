"""Damaged files: moved aside (kept), the user told which match, and every other match still loads."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.storage import DamagedMatch, DiskFault, Store

from .builders import hand_for, new_match
from tests.play import play

NAMES = [("Anna", "Ben"), ("Chris", "Dora"), ("Eva", "Fay")]


def build(folder: Path) -> list[str]:
    """Three stored matches, with 2, 3 and 4 hands; the store is closed again."""
    ids = []
    with Store(folder) as store:
        for k, (a, b) in enumerate(NAMES):
            record = play(store).start(new_match(a, b))
            for n in range(2 + k):
                record = play(store).record_hand(record.id, hand_for(n))
            ids.append(record.id)
    return ids


def match_doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def with_record(change):
    """A damage that edits the match record inside an otherwise valid TinyDB file."""
    def damage(path: Path) -> bytes:
        doc = match_doc(path)
        change(doc["match"]["1"])
        return json.dumps(doc).encode()
    return damage


def impossible_hand(record: dict) -> None:
    record["match"]["hands"][1]["cards"] = [30, 30]


DAMAGES = {
    "truncated": lambda path: path.read_bytes()[: path.stat().st_size // 2],
    "cut after one byte": lambda path: path.read_bytes()[:1],
    "empty": lambda path: b"",
    "garbage bytes": lambda path: random.Random(7).randbytes(400),
    "zero bytes": lambda path: b"\0" * 600,
    "not UTF-8": lambda path: path.read_bytes().replace(b"Chris", b"Chr\xffs"),
    "deeply nested": lambda path: b"[" * 100_000 + b"]" * 100_000,
    "a JSON list": lambda path: b"[1, 2, 3]",
    "a JSON string": lambda path: b'"match"',
    "tables of lists": lambda path: b'{"match": []}',
    "no match in the file": lambda path: b'{"match": {}}',
    "a document id that is not a number": lambda path: b'{"match": {"one": {}}}',
    "a record without fields": lambda path: b'{"match": {"1": {"schema": 1}}}',
    "no schema version": with_record(lambda r: r.pop("schema")),
    "not a match file inside": with_record(lambda r: r.update(match={"format": "chess"})),
    "an impossible hand": with_record(impossible_hand),
    "hands after the end": with_record(lambda r: r["match"].update(goal={"hands": 1})),
    "a hand of the wrong type": with_record(lambda r: r["match"]["hands"][0].update(xeris="two")),
    "player ids that do not fit the sides": with_record(lambda r: r.update(player_ids=[["x"]])),
    "a live tap for a seat not at the table": with_record(lambda r: r.update(live=[[5, "xeri"]])),
    "a live tap of an unknown kind": with_record(lambda r: r.update(live=[[0, "ace"]])),
    "a broken trail": with_record(lambda r: r.update(trail=[{"action": "edit"}])),
    "a start time that is not a time": with_record(lambda r: r.update(created="soon")),
    "another match's id": with_record(lambda r: r.update(id="f" * 32)),
}


@pytest.mark.parametrize("index_too", [False, True], ids=["index kept", "index lost"])
@pytest.mark.parametrize("kind", list(DAMAGES))
def test_a_damaged_match_file_is_moved_aside_and_every_other_match_loads(folder, kind, index_too):
    ids = build(folder)
    path = folder / "matches" / f"{ids[1]}.json"
    bad = DAMAGES[kind](path)
    path.write_bytes(bad)
    if index_too:
        for bucket in (folder / "index").glob("*.json"):
            bucket.unlink()

    with Store(folder) as store:
        (damaged,) = store.damaged
        assert damaged.path == path and damaged.match_id == ids[1] and damaged.reason
        assert damaged.new_path.parent == folder / "damaged" and damaged.new_path.read_bytes() == bad
        assert not path.exists()
        if not index_too:
            assert damaged.match_name == "Chris – Dora" and damaged.created is not None
        assert [m.id for m in store.list_matches()] == [ids[2], ids[0]]
        assert store.get(ids[0]).match.hands == tuple(hand_for(n) for n in range(2))
        assert store.get(ids[2]).match.hands == tuple(hand_for(n) for n in range(4))
        assert play(store).unfinished().id == ids[2]

    with Store(folder) as store:  # told once; the next open is clean
        assert store.damaged == []
        assert len(store.list_matches()) == 2


def test_the_name_of_a_damaged_match_is_read_from_the_file_when_the_index_is_lost_too(folder):
    ids = build(folder)
    path = folder / "matches" / f"{ids[0]}.json"
    path.write_bytes(with_record(impossible_hand)(path))
    for bucket in (folder / "index").glob("*.json"):
        bucket.unlink()
    with Store(folder) as store:
        (damaged,) = store.damaged
        assert damaged.match_name == "Anna – Ben"
        assert "hand 2" in damaged.reason


def test_a_file_damaged_while_the_app_runs_is_moved_aside_when_opened(folder):
    ids = build(folder)
    with Store(folder) as store:
        path = folder / "matches" / f"{ids[2]}.json"
        path.write_bytes(b"{broken")
        with pytest.raises(DamagedMatch) as caught:
            store.get(ids[2])
        assert "Eva – Fay" in str(caught.value)
        assert caught.value.damaged in store.damaged
        assert caught.value.damaged.new_path.read_bytes() == b"{broken"
        assert play(store).unfinished().id == ids[1]
        assert [m.id for m in store.list_matches()] == [ids[1], ids[0]]


def test_a_match_file_damaged_after_it_was_read_is_rewritten_from_memory_when_saved(folder):
    ids = build(folder)
    with Store(folder) as store:
        record = store.get(ids[0])
        path = folder / "matches" / f"{ids[0]}.json"
        path.write_bytes(b"\0\0\0")
        record = play(store).record_hand(ids[0], hand_for(2))
        assert len(store.damaged) == 1
    with Store(folder) as store:
        assert store.damaged == []
        assert store.get(ids[0]) == record


@pytest.mark.parametrize("kind", ["truncated", "garbage bytes", "a JSON list", "tables of lists"])
@pytest.mark.parametrize("which", ["index", "players", "settings"])
def test_a_damaged_index_players_or_settings_file_is_set_aside_and_nothing_is_lost(folder, which, kind):
    ids = build(folder)
    with Store(folder) as store:
        store.update_settings(language="el")
        names = {p.id: p.name for p in store.players()}
    path = {"index": next((folder / "index").glob("*.json"), None),
            "players": folder / "players.json", "settings": folder / "settings.json"}[which]
    bad = DAMAGES[kind](path)
    path.write_bytes(bad)
    with Store(folder) as store:
        assert [d.path for d in store.damaged] == [path]
        assert store.damaged[0].new_path.read_bytes() == bad
        assert {m.id for m in store.list_matches()} == set(ids)
        for match_id in ids:
            store.get(match_id)
        assert {p.id: p.name for p in store.players()} == names
        assert store.settings()["language"] == ("en" if which == "settings" else "el")
    with Store(folder) as store:
        assert store.damaged == []


def test_a_lost_index_is_rebuilt_from_the_match_files(folder):
    ids = build(folder)
    with Store(folder) as store:
        before = store.list_matches()
    for bucket in (folder / "index").glob("*.json"):
        bucket.unlink()
    (folder / "index").rmdir()
    (folder / "players.json").unlink()
    with Store(folder) as store:
        assert store.damaged == []
        rebuilt = store.list_matches()
        assert [m.id for m in rebuilt] == [m.id for m in before] and len(rebuilt) == len(ids)
        assert [(m.sides, m.totals, m.hands, m.status) for m in rebuilt] == \
            [(m.sides, m.totals, m.hands, m.status) for m in before]
        assert sorted(p.name for p in store.players()) == ["Anna", "Ben", "Chris", "Dora", "Eva", "Fay"]


def test_an_index_entry_without_its_match_file_is_dropped(folder):
    ids = build(folder)
    (folder / "matches" / f"{ids[0]}.json").unlink()
    with Store(folder) as store:
        assert {m.id for m in store.list_matches()} == {ids[1], ids[2]}


def test_stray_temporary_files_are_cleaned_up_and_the_files_they_were_to_replace_are_intact(folder):
    ids = build(folder)
    strays = [folder / "matches" / f".{ids[0]}.json.1a2b3c4d.tmp", folder / "index" / ".ab.json.00000000.tmp",
              folder / ".players.json.deadbeef.tmp"]
    for stray in strays:
        stray.write_bytes(b'{"half a wri')
    with Store(folder) as store:
        assert store.damaged == []
        assert not any(s.exists() for s in strays)
        assert len(store.get(ids[0]).match.hands) == 2


def test_a_damaged_file_is_never_overwritten_by_a_later_one(folder, clock):
    ids = build(folder)
    path = folder / "settings.json"
    for content in (b"first", b"second"):
        path.write_bytes(content)
        with Store(folder, clock=lambda: "2025-03-01T20:00:00.000Z") as store:
            assert len(store.damaged) == 1
    kept = sorted(p.read_bytes() for p in (folder / "damaged").iterdir())
    assert kept == [b"first", b"second"]
    assert ids


def paths(value, prefix=()):
    """Every place in a JSON value, outermost first."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from paths(child, prefix + (i,))


def put(doc, path, new):
    if not path:
        return new
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return doc


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.integers(min_value=0), new=json_values, drop=st.booleans())
def test_any_one_change_to_a_match_file_leaves_the_store_opening_with_the_other_matches(tmp_path_factory, where,
                                                                                       new, drop):
    template = tmp_path_factory.getbasetemp() / "fuzz-template"
    if not template.exists():
        build(template)
    folder = tmp_path_factory.mktemp("fuzz")
    shutil.rmtree(folder)
    shutil.copytree(template, folder)
    with Store(folder) as store:
        ids = [m.id for m in sorted(store.list_matches(), key=lambda m: m.created)]
    path = folder / "matches" / f"{ids[0]}.json"
    doc = match_doc(path)
    places = list(paths(doc))
    place = places[where % len(places)]
    if drop and place:
        parent = doc
        for step in place[:-1]:
            parent = parent[step]
        del parent[place[-1]]
    else:
        doc = put(doc, place, new)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with Store(folder) as store:
        listed = {m.id for m in store.list_matches()}
        assert {ids[1], ids[2]} <= listed
        if ids[0] in listed:
            store.get(ids[0])  # whatever the change, a match still listed opens
        else:
            assert [d.match_id for d in store.damaged] == [ids[0]]
        assert store.get(ids[1]).match.hands == tuple(hand_for(n) for n in range(3))


def test_players_json_damaged_while_the_app_runs_is_rewritten_from_memory(folder):
    build(folder)
    with Store(folder) as store:
        before = store.players()
        (folder / "players.json").write_bytes(b"\xff")
        new = store.player_id("Gina")
        assert len(store.damaged) == 1
    with Store(folder) as store:
        assert store.damaged == []
        assert {p.id for p in store.players()} == {p.id for p in before} | {new}


def test_a_save_that_fails_on_the_disk_changes_nothing(folder, monkeypatch):
    import companion.storage.files as files

    ids = build(folder)
    with Store(folder) as store:
        record = store.get(ids[0])

        def full_disk(path, data):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(files, "write_atomic", full_disk)
        with pytest.raises(DiskFault, match="the disk is full"):
            play(store).record_hand(ids[0], hand_for(2))
        monkeypatch.undo()
        assert store.get(ids[0]) == record
        assert store.list_matches()[-1].hands == 2
    with Store(folder) as store:
        assert store.get(ids[0]).match.hands == record.match.hands


def test_a_save_whose_index_cannot_be_written_keeps_the_hand_and_says_nothing(folder, monkeypatch):
    import companion.storage.files as files

    ids = build(folder)
    real = files.write_atomic
    with Store(folder) as store:
        def index_fails(path, data):
            if path.parent.name == "index":
                raise OSError(28, "No space left on device")
            real(path, data)

        monkeypatch.setattr(files, "write_atomic", index_fails)
        play(store).record_hand(ids[0], hand_for(2))  # the match file is saved; the index is only a cache
        monkeypatch.undo()
        assert len(store.get(ids[0]).match.hands) == 3
    with Store(folder) as store:
        assert store.damaged == []
        assert store.get(ids[0]).match.hands == tuple(hand_for(n) for n in range(3))
        assert {m.id: m.hands for m in store.list_matches()}[ids[0]] == 3
