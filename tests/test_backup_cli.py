"""Backups from the command line: export all history to one zip, import it on another device."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from companion.engine import HandEntry, Match, Side
from companion.formats.presets import preset
from companion.storage import Store
from tests.play import play

ROOT = Path(__file__).resolve().parent.parent


def run(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XERI_DATA_DIR": str(data), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def finished_match(store: Store, a: str, b: str) -> str:
    rules = preset("classic")
    match = Match.new(rules, [Side(a), Side(b)], rules.goal.__class__(hands=1))
    record = play(store).start(match)
    play(store).record_hand(record.id, HandEntry(xeris=(1, 0), jack_xeris=(0, 0), most_cards=0, counting=(12, 8),
                                           ten_of_diamonds=0, two=1))
    return record.id


def test_export_then_import_on_another_device_skips_what_is_already_there(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    with Store(here) as store:
        finished_match(store, "Anna", "Ben")
        finished_match(store, "Άννα", "Chris")
    out = run(here, "export", "--out", str(tmp_path / "backup"))
    assert out.returncode == 0, out.stderr
    archive = next((tmp_path / "backup").glob("xeri-history-*.zip"))
    with zipfile.ZipFile(archive) as zf:
        names = zf.namelist()
        assert "history.csv" in names and len([n for n in names if n.endswith(".json")]) == 2
        assert "Άννα" in zf.read("history.csv").decode("utf-8")
    first = run(there, "import", str(archive))
    assert first.returncode == 0 and first.stdout.count("imported") == 2
    again = run(there, "import", str(archive))
    assert again.returncode == 0 and again.stdout.count("already stored") == 2
    with Store(there) as store:
        assert sorted(s.sides for s in store.list_matches()) == [("Anna", "Ben"), ("Άννα", "Chris")]


def test_a_broken_file_is_reported_and_the_rest_is_imported(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"format": "xeri-match", "version": 1, "rules": "classic",
                                "sides": [{"name": "Anna"}, {"name": "Ben"}], "hands": []}), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out = run(tmp_path / "data", "import", str(good), str(bad))
    assert out.returncode == 2
    assert "imported good.json" in out.stdout and "could not import bad.json" in out.stderr
