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
    """The command line on a machine without a locale (it speaks English unless told `--lang`)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(XERI_DATA_DIR=str(data), PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
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


def test_an_import_says_what_it_did_and_why_a_file_was_refused_in_the_language_asked_for(tmp_path):
    good = tmp_path / "good.json"
    good.write_bytes((ROOT / "data" / "examples" / "classic-151.json").read_bytes())
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out = run(tmp_path / "data", "import", "--lang", "ko", str(good), str(bad))
    assert out.returncode == 2
    assert out.stdout == "가져왔습니다: good.json\n"
    assert out.stderr.startswith("가져오지 못했습니다. bad.json: 올바른 JSON이 아닙니다(줄 1, 열 2: ")


def test_a_data_folder_that_cannot_be_made_gives_exit_2_and_a_message_not_a_traceback(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    out = run(tmp_path / "a-file" / "data", "import", str(ROOT / "data" / "examples" / "classic-151.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("could not open the data folder: the data folder is not there any more")


def test_a_match_whose_id_is_stored_with_other_hands_is_imported_as_a_new_match_and_said_so(tmp_path):
    with Store(tmp_path / "data") as store:
        match_id = finished_match(store, "Anna", "Ben")
        from tests.play import books

        doc = json.loads(books(store).export_match(match_id))
    doc["hands"][0]["xeris"] = [0, 0]
    other = tmp_path / "edited.json"
    other.write_text(json.dumps(doc), encoding="utf-8")
    out = run(tmp_path / "data", "import", str(other))
    assert out.returncode == 0
    assert out.stdout == "imported edited.json as a new match: a stored match has its id but other hands\n"
