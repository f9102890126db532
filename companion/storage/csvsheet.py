"""A match as a CSV score sheet: one row per hand, each side's points and running total."""

from __future__ import annotations

import csv
import io

from ..engine.match import Match, standing

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is read as a formula by spreadsheets."""


def _cell(text: str) -> str:
    # A name such as "=SUM(A1)" must stay text in a spreadsheet, not run as a formula.
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def sheet_csv(match: Match) -> str:
    """The score sheet as CSV text: `Hand, Dealer, <side> points…, <side> total…`, one row per hand.

    Rows end in CRLF (RFC 4180) and the text starts with a byte-order mark, so spreadsheets open
    Greek names as UTF-8.
    """
    st = standing(match, strict=False)
    names = [s.name for s in match.sides]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Hand", "Dealer"] + [_cell(f"{n} points") for n in names] + [_cell(f"{n} total") for n in names])
    for index, score in enumerate(st.scores):
        dealer = match.seats[match.dealer_of(index)].player
        writer.writerow([index + 1, _cell(dealer), *score.points, *st.running[index]])
    return "\ufeff" + out.getvalue()
