"""The history as CSV: one row per hand, for a spreadsheet (the one CSV writer of the app)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from .scored import is_history, order_key, score_record
from ..i18n import ENGLISH, Translator
from ..records import MatchRecord

MAX_SIDES = 4
"""The most sides a table can have (four single players, or two partnerships)."""

CSV_SIDES = MAX_SIDES
"""Side columns in the export: enough for any table."""
CSV_HEADER = (
    ("match", "date", "rules", "hand")
    + tuple(f"side_{n}" for n in range(1, CSV_SIDES + 1))
    + tuple(f"points_{n}" for n in range(1, CSV_SIDES + 1))
    + tuple(f"total_{n}" for n in range(1, CSV_SIDES + 1))
    + ("hand_winner",)
)
"""The export's columns (in English); a table of fewer sides leaves the extra side columns empty."""


def csv_header(tr: Translator = ENGLISH) -> tuple[str, ...]:
    """The columns in the words of `tr` (always in the order of `CSV_HEADER`)."""
    sides = range(1, CSV_SIDES + 1)
    return ((tr("csv.match"), tr("csv.date"), tr("csv.rules"), tr("csv.hand"))
            + tuple(tr("csv.side", n=n) for n in sides) + tuple(tr("csv.points", n=n) for n in sides)
            + tuple(tr("csv.total", n=n) for n in sides) + (tr("csv.hand_winner"),))


def _cell(text: str) -> str:
    # A name starting with = + - @ would run as a formula in a spreadsheet; a leading ' keeps it text.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def history_csv(records: Iterable[MatchRecord], tr: Translator = ENGLISH) -> str:
    """The whole history as CSV text, one row per hand, oldest match first (lines end in `\\n`); the
    header in the words of `tr`, the cells as stored (ISO dates, rule-set names as in match files)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_header(tr))
    blank = [""] * CSV_SIDES
    scored = sorted(((score_record(r), r) for r in records if is_history(r)), key=lambda pair: order_key(pair[0]))
    for sm, record in scored:
        match = record.match
        names = [_cell(s.name) for s in match.sides]
        running = [0] * len(names)
        for number, (points, winner) in enumerate(zip(sm.hand_points, sm.hand_winners), start=1):
            running = [t + p for t, p in zip(running, points)]
            writer.writerow(
                [sm.id, sm.date, _cell(match.rules.name), number]
                + (names + blank)[:CSV_SIDES]
                + (list(points) + blank)[:CSV_SIDES]
                + (running + blank)[:CSV_SIDES]
                + [names[winner] if winner is not None else ""]
            )
    return out.getvalue()
