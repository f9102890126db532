"""The evening: the matches a group played since it sat down, from the index alone (no match file is read).

A group sits down for one evening of matches: the evening is the run of decided matches that ended at most
`GAP` apart, ending with the latest, when that one ended no more than `FRESH` ago (after that the evening
is over, and Home no longer shows it). Pure: a function of the summaries and the time asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta

from ..records import MatchSummary

GAP = timedelta(hours=4)
"""The longest pause between two matches of one evening."""
FRESH = timedelta(hours=12)
"""How long after its last match an evening is still shown."""


def _ended(summary: MatchSummary) -> datetime | None:
    try:
        when = datetime.fromisoformat((summary.finished or "").replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def evening(summaries: Iterable[MatchSummary], now: datetime) -> tuple[MatchSummary, ...]:
    """The evening's matches, oldest first (by the time they ended, then id); empty when there is none."""
    ended = sorted(((when, s.id, s) for s in summaries if not s.is_playing and (when := _ended(s)) is not None),
                   key=lambda t: (t[0], t[1]))
    if not ended or now - ended[-1][0] > FRESH:
        return ()
    run = [ended[-1]]
    for item in reversed(ended[:-1]):
        if run[-1][0] - item[0] > GAP:
            break
        run.append(item)
    return tuple(s for _, _, s in reversed(run))


def latest_evening(newest: Callable[[int], Sequence[MatchSummary]], now: datetime,
                   first: int = 16) -> tuple[MatchSummary, ...]:
    """`evening` of a history asked a page at a time: `newest(n)` gives its `n` newest matches (by `when`: a
    decided match's is when it ended). Pages double until the evening starts inside one, so a long history
    costs an evening's matches, not the whole history."""
    n = first
    while True:
        page = newest(n)
        run = evening(page, now)
        ended = sum(1 for s in page if not s.is_playing and _ended(s) is not None)
        if len(page) < n or len(run) < ended:
            return run
        n *= 2
