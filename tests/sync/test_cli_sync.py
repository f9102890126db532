"""`python -m companion sync` against a real CouchDB-protocol server: a match imported on device A arrives on
device B with the same id and sheet; syncing again moves nothing and doubles nothing; a wrong address or
password ends in exit 2 and a sentence; `--forget` leaves the group."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.sync.devices import history, sheets, shared_docs, synced

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "data" / "examples" / "classic-151.json"


def run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XERI_DATA_DIR": str(folder), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "companion", *args, "--lang", "en"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def stored(folder: Path) -> dict[str, str]:
    """Every stored match of a data folder: id -> its score sheet as `score` prints it."""
    out = run(folder, "export", "--out", str(folder.parent / f"{folder.name}-export"))
    assert out.returncode == 0, out.stderr
    found = {}
    for path in sorted((folder / "matches").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        record = next(iter(doc["match"].values()))
        found[record["id"]] = json.dumps(record["match"], sort_keys=True)
    return found


def test_a_match_imported_on_one_device_arrives_on_another_once(couch, tmp_path):
    couch.create_database(couch.db)
    url = couch.url_for()
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(a, "import", str(EXAMPLE)).returncode == 0
    first = run(a, "sync", "--server", url)
    assert first.returncode == 0, first.stderr
    assert "sent" in first.stdout and "password" not in first.stdout and couch.password not in first.stdout
    got = run(b, "sync", "--server", url)
    assert got.returncode == 0, got.stderr
    assert "1 matches changed here" in got.stdout
    assert stored(a) == stored(b) and len(stored(b)) == 1              # the same id, the same match
    for folder in (a, b):                                              # the address was kept: no --server
        again = run(folder, "sync")
        assert again.returncode == 0, again.stderr
        assert "sent 0 changes, received 0; 0 matches changed here" in again.stdout
    assert len(stored(b)) == 1
    # The password is in the device's own data folder, never in what it exports.
    exported = list((tmp_path / "a-export").glob("*.zip"))
    assert exported and couch.password.encode() not in exported[0].read_bytes()
    assert couch.password in (a / "sync" / "group.json").read_text(encoding="utf-8")


def test_a_wrong_password_or_address_ends_in_exit_2_and_a_sentence(couch, tmp_path):
    couch.create_database(couch.db)
    couch.add_user("anna", "right-password")
    couch.set_members(couch.db, ["anna"])
    folder = tmp_path / "a"
    wrong = run(folder, "sync", "--server", couch.url_for("anna", "wrong-password"))
    assert wrong.returncode == 2 and "does not accept this user name and password" in wrong.stderr
    assert "Traceback" not in wrong.stderr and "wrong-password" not in wrong.stderr
    assert not (folder / "sync" / "group.json").exists()                # not kept: it did not work
    for address, said in [("not an address", "not a server address"),
                          ("http://example.com/club", "is not an HTTPS address"),
                          (f"http://127.0.0.1:{couch.port + 1 if couch.port < 65535 else 1}/club", "cannot reach"),
                          (couch.url_for(database="nothere"), "has no database")]:
        out = run(folder, "sync", "--server", address)
        assert out.returncode == 2 and said in out.stderr, (address, out.stderr)
    none = run(tmp_path / "b", "sync")
    assert none.returncode == 2 and "in no group" in none.stderr


def test_forget_leaves_the_group_and_keeps_the_matches(couch, tmp_path):
    couch.create_database(couch.db)
    folder = tmp_path / "a"
    assert run(folder, "import", str(EXAMPLE)).returncode == 0
    assert run(folder, "sync", "--server", couch.url_for()).returncode == 0
    out = run(folder, "sync", "--forget")
    assert out.returncode == 0 and "left its group" in out.stdout
    assert not (folder / "sync" / "group.json").exists() and len(stored(folder)) == 1
    assert run(folder, "sync").returncode == 2


def test_sync_with_another_groups_server_is_right_in_its_first_run(couch, tmp_path):
    """`sync --server OTHER` on a device in a group: joined before the round, so the first run already holds
    the device's matches and the other group's, and sent its own there (#23: the first round used the old
    group's checkpoint and outbox and stored nothing; only a second run was right)."""
    couch.create_database(couch.db)
    other = couch.create_database(couch.new_database_name())
    a, b = tmp_path / "a", tmp_path / "b"
    mine = history(a, 2)
    synced(a, couch.url_for())
    theirs = history(b, 3)
    synced(b, couch.url_for(database=other))
    said = synced(a, couch.url_for(database=other))
    assert sheets(a) == mine | theirs, said
    starts = {d["match"] for d in shared_docs(couch, other).values() if d.get("kind") == "start"}
    assert starts == set(mine) | set(theirs)
    synced(b)
    assert sheets(b) == mine | theirs
