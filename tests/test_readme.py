"""The README's examples run and print what the README shows."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMMAND = "$ python -m companion score data/examples/classic-151.json"


def fenced_blocks(text: str) -> list[tuple[str, list[str]]]:
    """Every fenced block of the markdown as (language, lines), indentation of the fence removed."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not opening:
            i += 1
            continue
        indent, language, body = len(opening.group(1)), opening.group(2), []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:])
            i += 1
        blocks.append((language, body))
        i += 1
    return blocks


def console_output_after(command: str) -> list[str]:
    """The lines the README shows after `command` in its ```console block."""
    for language, body in fenced_blocks(README.read_text(encoding="utf-8")):
        if language == "console" and command in body:
            return body[body.index(command) + 1:]
    raise AssertionError(f"README.md has no ```console block with the line {command!r}")


def run(command: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """Run a README command line (`$ python …`) with this interpreter, output read as UTF-8."""
    prompt, python, *args = command.split()
    assert (prompt, python) == ("$", "python")
    return subprocess.run([sys.executable, *args], cwd=cwd, env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def test_the_readme_score_example_prints_what_the_readme_shows():
    expected = console_output_after(COMMAND)
    done = run(COMMAND, ROOT)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.rstrip("\n").splitlines() == expected


def test_the_readme_json_example_is_the_example_match_file():
    text = README.read_text(encoding="utf-8")
    json_blocks = [body for language, body in fenced_blocks(text) if language == "json"]
    assert json_blocks, "README.md shows no match file"
    shown = json.loads("\n".join(json_blocks[0]))
    assert shown == json.loads((ROOT / "data" / "examples" / "classic-151.json").read_text(encoding="utf-8"))


def test_the_readme_error_example_is_what_a_broken_hand_prints(tmp_path):
    command = "$ python -m companion score broken.json"
    (message,) = console_output_after(command)
    document = json.loads((ROOT / "data" / "examples" / "classic-151.json").read_text(encoding="utf-8"))
    document["hands"].append({"cards": [43, 9], "counting": [11, 9], "xeris": [0, 0], "jack_xeris": [0, 0],
                              "ten_of_diamonds": 0, "two": 1})
    (tmp_path / "broken.json").write_text(json.dumps(document), encoding="utf-8")
    done = run(command, tmp_path, PYTHONPATH=str(ROOT))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.rstrip("\n") == message


def test_every_file_the_readme_links_to_is_there():
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [link.split("#")[0] for link in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in link]
    missing = [link for link in links if link and not (ROOT / link).exists()]
    assert len(links) > 20 and missing == []


def suite_timing():
    import importlib.util

    spec = importlib.util.spec_from_file_location("suite_timing", ROOT / "tools" / "suite_timing.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readmes_test_timings_are_the_kept_runs_not_typed_figures():
    timing = suite_timing()
    assert timing.records(), "docs/suite-timings.jsonl keeps no run"
    assert timing.readme_block() in README.read_text(encoding="utf-8"), \
        "README's table of `make test` times differs from docs/suite-timings.jsonl: run `python tools/suite_timing.py readme`"


def test_a_runs_parts_are_read_from_pytests_closing_lines():
    timing = suite_timing()
    log = ("lint ok\n"
           "================= 1144 passed, 1 skipped in 107.95s (0:01:47) ==================\n"
           "=== slowest 15 durations ===\n"
           "10.68s call     tests/e2e/test_table.py::test_every_tappable_control_is_at_least_48_by_48\n"
           "======================== 1 failed, 31 passed in 239.17s (0:03:59) ========================\n")
    assert timing.parts(log) == [{"summary": "1144 passed, 1 skipped", "seconds": 107.95},
                                 {"summary": "1 failed, 31 passed", "seconds": 239.17}]
    row = timing.table([{"commit": "abc1234", "date": "2026-12-04", "hogs": 2, "status": 2, "seconds": 400,
                         "parts": timing.parts(log)}]).splitlines()[-1]
    assert row == "| abc1234 | 2026-12-04 | 2 CPU hogs | 6 min 40 s, failed (exit 2) | 0 min 52 s / 1 min 47 s / 3 min 59 s |"


def test_the_readmes_benchmark_figures_are_the_kept_runs_not_typed_figures():
    from benchmarks import kept

    assert kept.newest(), "docs/bench-runs.jsonl keeps no run"
    assert kept.readme_block() in README.read_text(encoding="utf-8"), \
        "README's benchmark figures differ from docs/bench-runs.jsonl: run `python -m benchmarks readme`"
    assert not kept.stale(), f"{kept.stale()}: the figures differ from docs/bench-runs.jsonl: run `python -m benchmarks readme`"
    assert "`pwa`" in kept.readme_block(kept.TARGETS["docs/pwa.md"]), "docs/pwa.md shows no kept run of `pwa`"


def test_a_kept_benchmark_run_is_what_it_printed_and_the_newest_of_each_is_shown(tmp_path, monkeypatch, capsys):
    from benchmarks import __main__ as bench_main
    from benchmarks import kept

    monkeypatch.setattr(kept, "RUNS", tmp_path / "runs.jsonl")
    assert bench_main.main(["--keep", "engine"]) == 0
    printed = capsys.readouterr().out
    (run,) = kept.newest().values()
    assert run["bench"] == "engine" and run["output"] and "\n".join(run["output"]) in printed
    kept.keep("engine", "a later run\n", 1.0, 0.5)
    block = kept.readme_block()
    assert "a later run" in block and run["output"][-1] not in block
    assert bench_main.main(["nonesuch"]) == 2 and "no such benchmark: nonesuch" in capsys.readouterr().err

    # --readme: run, keep, and write each file that shows kept runs, with the machine and load of the run.
    monkeypatch.setattr(kept, "ROOT", tmp_path)
    monkeypatch.setattr(kept, "TARGETS", {"all.md": None, "other.md": ("stats",)})
    for name in ("all.md", "other.md"):
        (tmp_path / name).write_text(f"before\n{kept.BEGIN}\nold\n{kept.END}\nafter\n", encoding="utf-8")
    assert kept.stale() == ["all.md", "other.md"]
    assert bench_main.main(["--readme", "engine"]) == 0
    shown = (tmp_path / "all.md").read_text(encoding="utf-8")
    assert shown.startswith("before\n") and shown.endswith("after\n") and "old" not in shown
    assert f"({kept.machine()}), load" in shown and kept.newest()["engine"]["output"][-1] in shown
    assert "`engine`" not in (tmp_path / "other.md").read_text(encoding="utf-8")
    assert kept.stale() == []


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_can_be_given_another_address_and_port():
    def runs(*args: str) -> list[str]:
        # Asked from inside `make test`, make says which directory it enters and leaves: only the command counts.
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        said = subprocess.run(["make", "--no-print-directory", "-n", "run", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, env=env).stdout.splitlines()
        return [line for line in said if "-m companion" in line]

    assert runs("HOST=0.0.0.0", "PORT=8600")[-1].endswith("-m companion --host 0.0.0.0 --port 8600")
    assert runs()[-1].endswith("-m companion --host 127.0.0.1 --port 8550")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_run_is_not_called_a_measure_of_uncommitted_code_for_what_it_writes_itself(tmp_path, monkeypatch):
    from benchmarks import kept

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=tmp_path, check=True,
                       capture_output=True)

    (tmp_path / "docs").mkdir()
    for rel in ("README.md", "docs/pwa.md", "docs/bench-runs.jsonl", "code.py"):
        (tmp_path / rel).write_text("x\n")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "start")
    monkeypatch.setattr(kept, "ROOT", tmp_path)
    monkeypatch.setattr(kept, "RUNS", tmp_path / "docs" / "bench-runs.jsonl")
    for rel in ("README.md", "docs/pwa.md", "docs/bench-runs.jsonl"):   # what a run of several benchmarks writes
        (tmp_path / rel).write_text("y\n")
    assert not kept.tree().endswith("+")
    (tmp_path / "code.py").write_text("y\n")                            # the code measured, changed
    assert kept.tree().endswith("+")
