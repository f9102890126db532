"""Backups from the command line: export all history to one zip, import it on another device."""

import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.storage import Store
from tests.formats.zips import MiB, many_entries, shared_entries
from tests.disks import needs_a_disk_to_fill, on_full_disk, on_read_only_folder
from tests.play import cli as run, finished_match

ROOT = Path(__file__).resolve().parent.parent


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


@dataclass
class Measured:
    """A finished command and what it cost."""

    status: int
    stdout: str
    stderr: str
    peak_mb: float
    """Its largest resident set, in MB: VmHWM, which the process reads from the kernel as it exits (the
    kernel's account for a child, `ru_maxrss`, starts from the test's own memory at the fork)."""
    cpu_seconds: float
    """User and system time: unlike the time on the clock, it does not grow when other work shares the machine."""


_PEAK = """import atexit, runpy, sys
report = sys.argv.pop(1)
def peak():
    with open("/proc/self/status") as status, open(report, "w") as out:
        out.write(next(line for line in status if line.startswith("VmHWM:")))
atexit.register(peak)
runpy.run_module("companion", run_name="__main__", alter_sys=True)
"""
"""`python -m companion …` that writes its peak memory into the file named first, as it exits."""


def measured(data: Path, *args: str, memory_cap: int = 2 * 1024**3) -> Measured:
    """The command line as `run` runs it, under an address-space cap (the old code asked for 8 GB here)."""
    import resource  # POSIX only: the test that calls this runs on Linux alone

    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(XERI_DATA_DIR=str(data), PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
    out, err, peak = data.parent / "out.txt", data.parent / "err.txt", data.parent / "peak.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", _PEAK, str(peak), *args], cwd=ROOT, env=env, stdout=stdout,
                                stderr=stderr,
                                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (memory_cap, memory_cap)))
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            proc.returncode = 0  # reaped by wait4
    return Measured(os.waitstatus_to_exitcode(status), out.read_text(), err.read_text(),
                    int(peak.read_text().split()[1]) / 1024, usage.ru_utime + usage.ru_stime)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="reads the kernel's account of the process")
@pytest.mark.parametrize("make, refused", [
    (lambda path: many_entries(path, 300), "larger than 4 MB"),                          # 1.5 MB: was 1.2 GB
    (lambda path: many_entries(path, 2_000), "larger than 4 MB"),                        # 10 MB: was 8 GB
    (lambda path: many_entries(path, 300, size=4 * MiB - 4096), "unpacks to more than 512 MB"),
    (lambda path: shared_entries(path, 50_000), "share their data"),                     # was 225 s
], ids=["300 x 5 MiB", "2000 x 5 MiB", "300 x 4 MiB, each read", "50000 pointing at one"])
def test_a_zip_of_many_large_entries_is_refused_in_bounded_memory_and_time(tmp_path, make, refused):
    path = make(tmp_path / "many.zip")
    done = measured(tmp_path / "data", "import", str(path))
    assert done.status == 2 and "Traceback" not in done.stderr and "Error" not in done.stderr
    assert refused in done.stderr.splitlines()[-1]
    assert done.peak_mb <= 400 and done.cpu_seconds <= 30, (done.peak_mb, done.cpu_seconds)


def run_into(data: Path, stdout, *args: str) -> subprocess.CompletedProcess:
    """`run`, with the output going to `stdout` (a file descriptor or a file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(XERI_DATA_DIR=str(data), PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60)


@pytest.mark.parametrize("command", ["export", "import"])
def test_what_export_and_import_say_ends_quietly_when_its_reader_went_away_and_in_words_on_a_full_disk(
        tmp_path, command):
    with Store(tmp_path / "data") as store:
        finished_match(store, "Anna", "Ben")
    args = [command, "--lang", "tr"] + (["--out", str(tmp_path / "backup")] if command == "export" else
                                        [str(ROOT / "data" / "examples" / "classic-151.json")])
    reader, writer = os.pipe()
    os.close(reader)
    try:
        gone = run_into(tmp_path / "data", writer, *args)
    finally:
        os.close(writer)
    assert (gone.returncode, gone.stderr) == (141, "")
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            refused = run_into(tmp_path / "data", full, *args)
        assert (refused.returncode, refused.stderr) == (2, "çıktı yazılamadı: diskte yer kalmadı\n")
    if command == "export":
        assert len(list((tmp_path / "backup").glob("*.zip"))) >= 1   # the zip is written; only what it said was not


@needs_a_disk_to_fill
def test_an_import_stopped_by_a_full_disk_says_so_in_one_sentence(tmp_path):
    with Store(tmp_path / "data") as store:
        finished_match(store, "Anna", "Ben")
    new_players = ROOT / "data" / "examples" / "partnership-hands.json"        # kept in memory until the end
    done = on_full_disk(tmp_path, tmp_path / "data", "import", str(new_players))
    assert done.status == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["the import stopped: could not save the new match: the disk is full; free "
                                        "some space, then try again (No space left on device; data folder "
                                        f"{tmp_path / 'disk' / 'data'}). Nothing saved before is lost."]


@needs_a_disk_to_fill
@pytest.mark.parametrize("out", [None, "out"])
def test_an_export_refused_by_a_full_disk_leaves_no_half_written_file(tmp_path, out):
    with Store(tmp_path / "data") as store:
        for k in range(40):
            finished_match(store, "Anna", f"Ben {k}")
    args = ["--out", str(tmp_path / "disk" / out)] if out else []
    done = on_full_disk(tmp_path, tmp_path / "data", "export", *args)
    assert done.status == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "the disk is full" in done.stderr
    assert [f for f in done.files if ".zip" in f] == []


def test_names_that_turn_text_around_or_hide_a_character_are_not_imported_and_never_printed_raw(tmp_path):
    doc = json.loads((ROOT / "data" / "examples" / "classic-151.json").read_text(encoding="utf-8"))
    files = []
    for n, name in enumerate(["Ann\u202ea", "\u200bBen"]):
        doc["sides"][n]["name"] = name
        files.append(tmp_path / f"file{n}.json")
        files[-1].write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        doc["sides"][n]["name"] = "Anna" if n == 0 else "Ben"
    out = run(tmp_path / "data", "import", *map(str, files))
    assert out.returncode == 2 and out.stdout == ""
    assert "\u202e" not in out.stderr and "\u200b" not in out.stderr
    assert "the name 'Ann\\u202ea' holds" in out.stderr and "the name '\\u200bBen' holds" in out.stderr
    with Store(tmp_path / "data") as store:
        assert store.list_matches() == [] and store.players() == []


@pytest.mark.parametrize("marks, taken", [(0, True), (1, True), (2, False)])
def test_score_and_import_read_byte_order_marks_alike(tmp_path, marks, taken):
    path = tmp_path / "marked.json"
    path.write_bytes(b"\xef\xbb\xbf" * marks + (ROOT / "data" / "examples" / "classic-151.json").read_bytes())
    scored, imported = run(tmp_path / "data", "score", str(path)), run(tmp_path / "data", "import", str(path))
    assert (scored.returncode, imported.returncode) == ((0, 0) if taken else (2, 2))
    if not taken:
        why = "not valid JSON (line 1, column 1: Unexpected UTF-8 BOM (decode using utf-8-sig))"
        assert scored.stderr == f"{path}: {why}\n" and imported.stderr == f"could not import marked.json: {why}\n"


@needs_a_disk_to_fill
def test_an_export_reads_a_data_folder_it_cannot_write_into_a_folder_it_can(tmp_path):
    with Store(tmp_path / "data") as store:
        finished_match(store, "Anna", "Ben")
    before = sorted(p.relative_to(tmp_path / "data").as_posix() for p in (tmp_path / "data").rglob("*"))
    done = on_read_only_folder(tmp_path, tmp_path / "data", "export", "--out", str(tmp_path / "backup"))
    assert (done.status, done.stderr) == (0, "") and done.stdout.startswith("exported 1 match to ")
    assert sorted(done.files) == before                                      # nothing written, not even a lock
    with zipfile.ZipFile(next((tmp_path / "backup").glob("xeri-history-*.zip"))) as zf:
        assert len([n for n in zf.namelist() if n.endswith(".json")]) == 1
    done = on_read_only_folder(tmp_path, tmp_path / "data", "export")        # into the folder itself: said so
    assert done.status == 2 and "the data folder cannot be written" in done.stderr


def test_an_export_runs_while_the_app_holds_the_data_folder(tmp_path):
    with Store(tmp_path / "data") as store:
        finished_match(store, "Anna", "Ben")
        out = run(tmp_path / "data", "export", "--out", str(tmp_path / "backup"))
        assert (out.returncode, out.stderr) == (0, "")
        assert run(tmp_path / "data", "import", str(ROOT / "data" / "examples" / "classic-151.json")).returncode == 2
