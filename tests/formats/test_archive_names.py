"""The names of the files in a history export: the players' names whole, as they write them, and a date in the
export's own name on every front door."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from companion.formats.archive import archive_name
from companion.service import history_file_name


@pytest.mark.parametrize("sides, words", [
    (("Ayşe", "İsmail"), "Ayşe-İsmail"),                  # it was "ayşe-i-smail": İ lowered to i and a dot
    (("Νίκος", "Σπύρος"), "Νίκος-Σπύρος"),                 # a final ς stays one (it became σ)
    (("Anna & Ben", "Chloé"), "Anna-Ben-Chloé"),
    (("한국", "Ünal"), "한국-Ünal"),
    (("Ф\u0301ома", "x"), "Ф\u0301ома-x"),                 # a combining mark stays with its letter
    (("🐱", "!!"), "match"),
])
def test_a_match_file_is_named_after_its_sides_as_they_are_written(sides, words):
    assert archive_name("2026-12-05T20:00:00Z", sides, "ab" * 16) == f"matches/2026-12-05-{words}-abababab.json"


def test_every_export_is_named_with_when_it_was_made():
    assert history_file_name(datetime(2026, 12, 5, 21, 3, 7, tzinfo=UTC)) == "xeri-history-20261205-210307.zip"
