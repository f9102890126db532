"""`python -m companion score FILE [--json] [--rules NAME]`, run as the user runs it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = "data/examples/classic-151.json"


def score(*args: str) -> subprocess.CompletedProcess:
    """Run the score command from the repository root; output is read as UTF-8."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "companion", "score", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def write(tmp_path: Path, document, name: str = "match.json") -> str:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return str(path)


def classic_doc(*hands) -> dict:
    return {"format": "xeri-match", "version": 1, "rules": "classic",
            "sides": [{"name": "Anna"}, {"name": "Ben"}], "goal": {"target": 151, "extension": 251},
            "hands": list(hands)}


def hand(**changes) -> dict:
    return {"cards": [30, 22], "counting": [12, 8], "xeris": [0, 0], "jack_xeris": [0, 0],
            "ten_of_diamonds": 0, "two": 1, **changes}


def refused(run: subprocess.CompletedProcess) -> str:
    """The stderr of a refused run, after checking it refused the way the command promises."""
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip()
    return run.stderr


def test_a_good_file_prints_the_score_sheet():
    run = score(CLASSIC)
    assert (run.returncode, run.stderr) == (0, "")
    lines = run.stdout.splitlines()
    assert lines[0] == "Anna and Ben: Classic rules, first to 151 (251 if two sides reach it in the same hand)"
    assert "Hand 1 (Anna deals)" in lines
    assert any(line.split()[:3] == ["Hand", "26", "29"] for line in lines)
    assert lines[-2:] == ["Still needed: Anna 125 and Ben 122.", "Next hand: Ben deals, Anna leads."]


def test_json_prints_one_json_object_with_the_standing():
    run = score(CLASSIC, "--json")
    assert (run.returncode, run.stderr) == (0, "")
    assert len(run.stdout.strip().splitlines()) == 1
    sheet = json.loads(run.stdout)
    assert {"hands", "totals", "hands_won", "status", "winner", "target"} <= set(sheet)
    assert (sheet["totals"], sheet["hands_won"], sheet["status"], sheet["winner"], sheet["target"]) == (
        [26, 29], [0, 1], "playing", None, 151)
    assert sheet["hands"][0]["points"] == [26, 29]
    assert sheet["hands"][0]["lines"][0][0]["explanation"] == "most cards (30 of 52): 3 points"


def test_a_finished_match_says_who_won(tmp_path):
    big = hand(cards=[26, 26], counting=[10, 10], xeris=[13, 0])
    run = score(write(tmp_path, classic_doc(big, big)), "--json")
    sheet = json.loads(run.stdout)
    assert (sheet["status"], sheet["winner"], sheet["totals"]) == ("won", 0, [282, 22])
    assert score(write(tmp_path, classic_doc(big, big))).stdout.rstrip().endswith("Anna wins the match.")


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = write(tmp_path, "Anna 26, Ben 29\n")
    assert refused(score(path)).startswith(f"{path}: not valid JSON (line 1, column 1")


def test_a_json_file_of_another_format_is_refused(tmp_path):
    path = write(tmp_path, {"format": "scores", "version": 1})
    assert refused(score(path)) == f'{path}: this is not a Xeri match file (it needs "format": "xeri-match")\n'


def test_a_missing_file_is_refused():
    assert "cannot read the file" in refused(score("no/such/match.json"))


def test_unknown_rules_on_the_command_line_are_refused():
    assert "invalid choice: 'poker'" in refused(score(CLASSIC, "--rules", "poker"))


def test_unknown_rules_in_the_file_are_refused(tmp_path):
    path = write(tmp_path, {**classic_doc(), "rules": "poker"})
    assert "there are no 'poker' rules" in refused(score(path))


def test_an_impossible_hand_is_refused_naming_the_hand_the_side_and_the_problem(tmp_path):
    path = write(tmp_path, classic_doc(hand(), hand(cards=[43, 9], counting=[11, 9])))
    assert refused(score(path)) == f"{path}: hand 2: Ben captured 9 cards but holds 10 counting and special cards.\n"


def test_an_impossible_hand_is_refused_with_json_too(tmp_path):
    path = write(tmp_path, classic_doc(hand(xeris=[0, 12])))
    assert refused(score(path, "--json")) == (
        f"{path}: hand 1: Ben has 12 xeris, which take 24 cards, but captured only 22.\n")


def test_rules_plain_rescores_the_same_hands(tmp_path):
    path = write(tmp_path, classic_doc(hand(counting=[12, 8], jack_xeris=[1, 0])))
    classic = json.loads(score(path, "--json").stdout)
    plain = json.loads(score(path, "--json", "--rules", "plain").stdout)
    assert classic["totals"] == [36, 9]
    assert plain["totals"] == [26, 9]
    assert "Plain rules" in score(path, "--rules", "plain").stdout.splitlines()[0]


def test_rescoring_under_rules_the_hands_cannot_fit_is_refused():
    assert "hand 1: Anna and Ben have 20 counting cards; the deck has 16 (K Q J 10)." in refused(
        score(CLASSIC, "--rules", "greek-online"))


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "data" / "examples").glob("*.json")))
def test_every_example_file_scores(example):
    run = score(f"data/examples/{example}", "--json")
    assert (run.returncode, run.stderr) == (0, "")
    assert json.loads(run.stdout)["status"] in ("playing", "won", "drawn")
