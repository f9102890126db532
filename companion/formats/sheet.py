"""Score sheets as text and JSON: what `python -m companion score` prints and the app shares."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from ..engine.entry import HandEntry, InvalidHand
from ..engine.limits import MAX_NAME, cut
from ..engine.match import Match, Standing, standing
from ..engine.scoring import ITEMS, score_hand
from ..i18n.explain import field_name, goal_text, item_label, join_names, line_text, status_text
from ..i18n import ENGLISH, Translator
from ..records import TrailAction, TrailEntry


def sheet_json(match: Match, st: Standing | None = None) -> dict[str, Any]:
    """The score sheet as one JSON-ready object (the `--json` output)."""
    st = st or standing(match)
    hands = []
    for score in st.scores:
        hands.append({
            "points": list(score.points),
            "winner": score.winner,
            "lines": [[{"item": line.item, "points": line.points, "count": line.count, "each": line.each,
                        "explanation": line_text(line, match.rules)} for line in side] for side in score.lines],
        })
    return {
        "hands": hands,
        "totals": list(st.totals),
        "hands_won": list(st.hands_won),
        "status": st.status.value,
        "winner": st.winner,
        "target": st.target,
        "needs": list(st.needs) if st.needs is not None else None,
        "next_dealer": match.seats[st.next_dealer].player,
        "next_leader": match.seats[st.next_leader].player,
    }


COLUMN = 16
"""The widest a side's name is shown at the head of its column; longer ones are cut with "…"."""


def width(text: str) -> int:
    """Columns `text` takes in a terminal: a Hangul syllable or other wide character takes two, a combining
    mark none (so a Korean sheet's columns line up as an English one's do)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text


def sheet_text(match: Match, tr: Translator = ENGLISH, st: Standing | None = None) -> str:
    """The score sheet as plain text: each hand's breakdown, running totals and the result.

    Names are cut to `COLUMN` characters at the head of the columns and to `MAX_NAME` in sentences (a
    match stored before names were limited may hold longer ones), so the sheet's size follows its hands.
    """
    st = st or standing(match)
    full = [cut(s.name, MAX_NAME) for s in match.sides]
    names = full
    heads = [cut(name, COLUMN) for name in full]
    rules_title = tr(f"rules.{match.rules.name}.title")
    out = [tr("cli.sheet.title", sides=join_names(names, tr), rules=rules_title,
              goal=goal_text(match.goal, tr)), ""]
    labels = [item_label(i, match.rules, tr) for i in ITEMS] + [tr(f"cli.sheet.{k}") for k in
                                                                 ("running", "hands_won", "hand_points")]
    label_width = max(width(label) for label in labels)
    col = max(6, *(width(n) + 2 for n in heads))

    def row(label: str, values: list[Any], note: str = "") -> str:
        cells = "".join(rjust(str(v), col) for v in values)
        return f"  {ljust(label, label_width)}{cells}" + (f"   {note}" if note else "")

    if not st.scores:
        out.append(tr("cli.sheet.no_hands"))
    for index, score in enumerate(st.scores):
        dealer = cut(match.seats[match.dealer_of(index)].player, MAX_NAME)
        out.append(tr("cli.sheet.hand", n=index + 1, dealer=dealer))
        out.append(row("", heads))
        for item in ITEMS:
            lines = [score.line(s, item) for s in range(len(names))]
            notes = [f"{names[s]}: {line_text(line, match.rules, tr)}" for s, line in enumerate(lines) if line.points]
            tied = [s for s, line in enumerate(lines) if item == "majority" and line.note == "tie"]
            if tied:   # a tie is said once, of every side in it: "Anna and Ben: a tie for most cards…"
                said = line_text(lines[tied[0]], match.rules, tr)
                notes.insert(0, f"{join_names([names[s] for s in tied], tr)}: {said}")
            out.append(row(item_label(item, match.rules, tr), [line.points for line in lines], "; ".join(notes)))
        winner = (tr("cli.sheet.hand_winner", side=names[score.winner]) if score.winner is not None
                  else tr("cli.sheet.hand_tie"))
        out.append(row(tr("cli.sheet.hand_points"), list(score.points), winner))
        out.append(row(tr("cli.sheet.running"), list(st.running[index])))
        out.append("")
    out.append(row(tr("cli.sheet.hands_won"), list(st.hands_won)))
    out.append("")
    out.append(status_text(match, st, tr))
    if not st.is_over:
        seats = match.seats
        out.append(tr("cli.sheet.next", dealer=cut(seats[st.next_dealer].player, MAX_NAME),
                      leader=cut(seats[st.next_leader].player, MAX_NAME)))
    return "\n".join(out)


_ENTRY_FIELDS = ("cards", "most_cards", "counting", "ten_of_diamonds", "two", "xeris", "jack_xeris")
"""The fields of a hand's entry a trail line names when an edit changed them, in the entry's order."""
_HELD_BY_ONE = ("most_cards", "ten_of_diamonds", "two")
"""Fields that say which side (an index), not how many per side."""


def trail_text(entry: TrailEntry, match: Match, tr: Translator = ENGLISH) -> str:
    """A trail entry in words, saying what changed: "hand 2: Mia 35 → 25 (counting cards 6 : 14 → 5 : 15)",
    or for an undo the points the hand had ("hand 4 was undone (16 : 9)"); a hand undone and saved again says
    so, with what changed if anything did ("hand 4 was saved again: Mia 16 → 15 (…)")."""
    names = [side.name for side in match.sides]
    at = entry.at[:16].replace("T", " ")

    def points(hand: HandEntry | None) -> tuple[int, ...] | None:
        try:
            return score_hand(hand, match.rules, len(names)).points if hand is not None else None
        except InvalidHand:
            return None

    before, after = points(entry.before), points(entry.after)
    if entry.action is TrailAction.UNDO or entry.after is None:
        said = " : ".join(str(p) for p in before) if before is not None else "–"
        return tr("trail.undo", at=at, n=entry.hand + 1, points=said)
    if entry.action is TrailAction.REDO and entry.before == entry.after:
        said = " : ".join(str(p) for p in after) if after is not None else "–"
        return tr("trail.redo", at=at, n=entry.hand + 1, points=said)
    moved = [f"{name} {b} → {a}" for name, b, a in zip(names, before or (), after or ()) if b != a]
    fields = []
    for key in _ENTRY_FIELDS:
        old, new = (getattr(e, key, None) if e is not None else None for e in (entry.before, entry.after))
        if old != new:
            fields.append(f"{field_name(key, tr)} {_entry_value(old, key, names)} → {_entry_value(new, key, names)}")
    what = ", ".join(moved) if moved else tr("trail.same_points")
    if fields:
        what += f" ({'; '.join(fields)})"
    return tr("trail.redo_changed" if entry.action is TrailAction.REDO else "trail.edit", at=at, n=entry.hand + 1,
              what=what)


def _entry_value(value: object, key: str, names: Sequence[str]) -> str:
    if value is None:
        return "–"
    if key in _HELD_BY_ONE and isinstance(value, int):
        return names[value] if 0 <= value < len(names) else "–"
    if isinstance(value, tuple):
        return " : ".join(str(v) for v in value)
    return str(value)
