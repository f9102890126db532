"""`python -m companion ratings`: the group's leaderboard from the command line, in words or as JSON."""

from __future__ import annotations

import json
from datetime import date

import pytest

from companion.cli import season_of
from companion.history.ratings import Season
from companion.storage import Store
from tests.play import cli as run, finished_match


def test_the_leaderboard_in_words_and_as_json(tmp_path):
    with Store(tmp_path) as store:
        for _ in range(3):
            finished_match(store, "Anna", "Ben")          # Anna wins each
        finished_match(store, "Chloe", "Anna")    # and Chloe beats her
    out = run(tmp_path, "ratings")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Skill ratings: 4 matches rated"
    assert lines[1].startswith("1. Anna: ") and lines[1].endswith("(4 matches, 3 wins), provisional")
    assert lines[-1].startswith("Provisional: fewer than 5 matches in this season")
    got = json.loads(run(tmp_path, "ratings", "--json", "--table", "2").stdout)
    assert got["matches"] == 4 and [p["name"] for p in got["players"]][0] == "Anna"
    anna = got["players"][0]
    assert anna["wins"] == 3 and anna["form"] == ["won", "won", "won", "lost"] and anna["provisional"]
    greek = run(tmp_path, "ratings", "--lang", "el", "--season", "year")
    assert greek.stdout.splitlines()[0] == "Βαθμολογίες δεξιότητας: 4 παρτίδες μετρήθηκαν"


def test_an_empty_season_and_a_season_that_is_not_one_are_said_in_words(tmp_path):
    with Store(tmp_path) as store:
        finished_match(store, "Anna", "Ben")
    empty = run(tmp_path, "ratings", "--season", "2001-01-01:2001-12-31")
    assert empty.returncode == 0 and "nothing to rate yet" in empty.stdout
    bad = run(tmp_path, "ratings", "--season", "last-summer")
    assert bad.returncode == 2 and bad.stderr.startswith("--season: last-summer is neither one of month, quarter")
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("said, season", [
    ("month", Season(date(2026, 12, 1), date(2027, 1, 1))),
    ("quarter", Season(date(2026, 10, 1), date(2027, 1, 1))),
    ("year", Season(date(2026, 1, 1), date(2027, 1, 1))),
    ("all", Season()),
    ("2026-03-01:2026-03-31", Season(date(2026, 3, 1), date(2026, 4, 1))),   # the last day counts
    ("2026-03-01:", Season(date(2026, 3, 1), None)),
])
def test_seasons_as_the_command_line_names_them(said, season):
    assert season_of(said, date(2026, 12, 5)) == season
