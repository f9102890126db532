"""`python -m companion score FILE [--json] [--rules NAME]`, run as the user runs it."""

import json
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = "data/examples/classic-151.json"


def score(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess:
    """Run the score command from the repository root, on a machine whose locale is `lang` (the sheet's
    language by default); output is read as UTF-8."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(PYTHONIOENCODING="utf-8", LANG=lang)
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


# --- any file ends in a sheet or in exit status 2, never a traceback ----------------------------------

def test_a_xeri_worth_ten_to_the_hundred_is_refused_at_once_naming_the_field(tmp_path):
    document = classic_doc(hand(cards=[30, 22], xeris=[13, 10]))
    path = write(tmp_path, json.dumps({**document, "rules": {"preset": "classic", "xeri_points": 10**100}}))
    said = refused(score(path))  # score() gives up after 60 s; this file hung it for good
    assert said == f"{path}: xeri_points must be a whole number of points from 0 to 100, not a number of 101 digits\n"


@pytest.mark.parametrize("text, said", [
    ('{"format": "xeri-match", "version": 1, "meta": ' + "[" * 5000 + "]" * 5000 + "}",
     "the JSON is nested too deeply to be a match file"),
    (json.dumps(classic_doc(hand())).replace('"first_dealer"', '"x"')
     .replace('"version": 1', '"version": 1' + "0" * 4400),
     "match file version a number of 4,401 digits is not known; this app reads version 1"),
    (json.dumps({**classic_doc(), "sides": [{"name": "Anna\ud800"}, {"name": "Ben"}]}),
     "side 1: the name 'Anna\\ud800' holds a control character, an invisible or direction-changing character, "
     "or broken text"),
])
def test_a_file_that_would_raise_inside_python_gives_exit_2_and_a_message(tmp_path, text, said):
    run = refused(score(write(tmp_path, text)))
    assert said in run and "Traceback" not in run


def test_a_file_with_a_byte_order_mark_scores(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (ROOT / CLASSIC).read_bytes())
    run = score(str(path), "--json")
    assert (run.returncode, run.stderr) == (0, "") and json.loads(run.stdout)["totals"] == [26, 29]


def test_a_file_larger_than_any_match_file_is_not_read_whole(tmp_path):
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.write(b'{"format": "xeri-match", "sides": [{"name": "')
        handle.write(b"x" * (8 * 1024 * 1024))
    assert refused(score(str(path))) == f"{path}: the file is larger than 4 MB; no match file is that big\n"


def test_lang_prints_the_sheet_in_korean_and_turkish_with_the_columns_lined_up(tmp_path):
    from companion.formats.sheet import width

    four = "data/examples/partnership-hands.json"
    run = score(four, "--lang", "ko")
    assert (run.returncode, run.stderr) == (0, "")
    lines = run.stdout.splitlines()
    assert lines[0].endswith("팀전 규칙, 총 3라운드, 라운드를 가장 많이 이긴 편이 승리")
    assert "1라운드(딜러 Anna)" in lines
    # A Hangul syllable takes two columns in a terminal: the numbers stand one under the other.
    start = lines.index("1라운드(딜러 Anna)")
    rows = [re.match(r"  .*? +\d+ +\d+(?=   |$)", line).group() for line in lines[start + 2:start + 10]]
    assert {width(row) for row in rows} == {width(lines[start + 1])}, rows
    run = score(CLASSIC, "--lang", "tr")
    lines = run.stdout.splitlines()
    assert lines[0] == "Anna ve Ben: Klasik kuralları, 151 puana ilk ulaşan kazanır (iki taraf aynı elde ulaşırsa 251)"
    assert "1. el (dağıtan: Anna)" in lines and lines[-2] == "Kalan puan: Anna 125 ve Ben 122."


def test_the_sheet_speaks_the_systems_language_when_the_app_does(tmp_path):
    assert score(CLASSIC, lang="tr_TR.UTF-8").stdout.startswith("Anna ve Ben: Klasik kuralları")
    assert score(CLASSIC, lang="ko_KR.UTF-8").stdout.startswith("Anna, Ben: ")
    assert score(CLASSIC, lang="fr_FR.UTF-8").stdout.startswith("Anna and Ben: Classic rules")
    assert score(CLASSIC, "--lang", "el", lang="ko_KR.UTF-8").stdout.startswith("Anna και Ben")


def test_a_broken_file_is_refused_in_the_language_asked_for_or_the_systems(tmp_path):
    path = write(tmp_path, "Anna 26, Ben 29\n")
    said = refused(score(path, "--lang", "tr"))
    assert said == f"{path}: geçerli bir JSON değil (satır 1, sütun 1: Expecting value)\n"
    assert refused(score(path, lang="el_GR.UTF-8")).startswith(f"{path}: μη έγκυρο JSON (γραμμή 1, στήλη 1")
    impossible = write(tmp_path, classic_doc(hand(), hand(cards=[43, 9], counting=[11, 9])), "impossible.json")
    assert refused(score(impossible, "--lang", "ko")) == (
        f"{impossible}: 2라운드: Ben: 획득한 카드는 9장인데 가진 점수 카드와 특수 카드는 10장입니다.\n")
    assert refused(score("no/such/match.json", "--lang", "tr")).startswith("no/such/match.json: dosya okunamıyor (")


def test_an_unknown_language_is_refused_naming_the_ones_there_are():
    run = score(CLASSIC, "--lang", "fr")
    assert run.returncode == 2 and "invalid choice: 'fr'" in run.stderr and "'ko'" in run.stderr


def score_into(stdout, *args: str) -> subprocess.CompletedProcess:
    """`score` with its output going to `stdout` (a file descriptor or a file), what it says to stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(PYTHONIOENCODING="utf-8", LANG="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "companion", "score", *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, encoding="utf-8", timeout=60)


def closed_pipe() -> int:
    """The writing end of a pipe whose reader already went away (as `head` does once it has read enough)."""
    reader, writer = os.pipe()
    os.close(reader)
    return writer


@pytest.mark.parametrize("args", [(CLASSIC,), (CLASSIC, "--json")])
def test_a_reader_that_went_away_ends_the_sheet_quietly_as_it_ends_cat(args):
    writer = closed_pipe()
    try:
        run = score_into(writer, *args)
    finally:
        os.close(writer)
    assert (run.returncode, run.stderr) == (141, "")           # 128 + SIGPIPE: what a shell shows for cat there


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a file that is always full")
@pytest.mark.parametrize("lang, said", [("en", "could not write the output: the disk is full"),
                                        ("el", "η έξοδος δεν γράφτηκε: ο δίσκος είναι γεμάτος")])
def test_a_sheet_the_disk_refuses_is_said_in_one_sentence_with_exit_2(lang, said):
    with open("/dev/full", "w") as full:
        run = score_into(full, CLASSIC, "--lang", lang)
    assert (run.returncode, run.stderr) == (2, said + "\n")


@pytest.mark.parametrize("name, escaped", [("Ann\u202ea", "'Ann\\u202ea'"), ("\u200bBen", "'\\u200bBen'")])
def test_a_name_that_turns_text_around_or_hides_a_character_is_refused_and_never_printed_raw(tmp_path, name, escaped):
    doc = classic_doc(hand())
    doc["sides"][0]["name"] = name
    said = refused(score(write(tmp_path, doc)))
    assert "side 1: the name " + escaped + " holds a control character, an invisible or direction-changing" in said
    assert name not in said and "\u202e" not in said and "\u200b" not in said


def test_a_fifteen_digit_count_is_written_out_and_a_longer_one_told_by_its_exact_length(tmp_path):
    said = refused(score(write(tmp_path, classic_doc(hand(xeris=[999_999_999_999_999, 0])))))
    assert "'xeris' of side 1 is 999999999999999, more than the 52 cards of a deck" in said
    said = refused(score(write(tmp_path, classic_doc(hand(xeris=[10**15, 0])))))
    assert "xeris must be a whole number, not a number of 16 digits" in said
