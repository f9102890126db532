"""The evening on Home: the matches a group played since it sat down, from the index alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from companion.engine.match import Status
from hypothesis import given
from hypothesis import strategies as st

from companion.history.evening import FRESH, GAP, evening, latest_evening
from companion.records import MatchSummary

NOW = datetime(2026, 12, 5, 23, 30, tzinfo=UTC)


def ended(id: str, ago: timedelta | None, abandoned: bool = False) -> MatchSummary:
    when = (NOW - ago).isoformat().replace("+00:00", "Z") if ago is not None else None
    return MatchSummary(id=id, created="2026-12-05T18:00:00Z", updated=when or "2026-12-05T18:00:00Z",
                        finished=None if abandoned else when, status=Status.PLAYING if abandoned or when is None
                        else Status.WON, sides=("Anna", "Ben"), members=(("Anna",), ("Ben",)),
                        player_ids=(("a",), ("b",)), rules="classic", goal={"hands": 1}, totals=(26, 9),
                        winner=None if abandoned or when is None else 0, hands=1, abandoned=abandoned)


def test_the_evening_is_the_run_of_matches_that_ended_close_together_up_to_the_latest():
    h = timedelta(hours=1)
    summaries = [ended("last-week", timedelta(days=7)), ended("afternoon", 9 * h), ended("first", 4.5 * h),
                 ended("second", 2 * h), ended("stopped", 1 * h, abandoned=True), ended("in-play", None),
                 ended("third", 0.25 * h)]
    assert [s.id for s in evening(summaries, NOW)] == ["first", "second", "third"]   # 9 h → 4.5 h: a pause > GAP
    assert GAP < 4.5 * h < FRESH


def test_no_evening_once_its_last_match_is_long_over_or_without_matches():
    assert evening([ended("late", FRESH + timedelta(minutes=1))], NOW) == ()
    assert evening([], NOW) == () and evening([ended("in-play", None)], NOW) == ()


def test_matches_that_ended_at_the_same_moment_are_ordered_by_id_on_every_device():
    summaries = [ended("b", timedelta(hours=1)), ended("a", timedelta(hours=1))]
    assert [s.id for s in evening(summaries, NOW)] == ["a", "b"] == [s.id for s in evening(summaries[::-1], NOW)]


def test_a_stopped_match_is_dated_by_its_start_not_by_when_this_device_stored_it():
    # Each device stores a match the group sends at its own time: sorting by that listed the same stopped
    # matches in different orders on two phones ("Recent matches").
    stopped = ended("stopped", timedelta(hours=1), abandoned=True)
    assert stopped.when == stopped.created
    from dataclasses import replace

    assert replace(stopped, updated="2030-01-01T00:00:00Z").when == stopped.when


@given(st.lists(st.tuples(st.integers(0, 60 * 30), st.sampled_from(["won", "stopped", "playing"])), max_size=60),
       st.integers(1, 8))
def test_the_evening_asked_a_page_at_a_time_is_the_evening_of_the_whole_history(items, first):
    """Home asks the newest matches a page at a time (#27): the same evening as from every match."""
    summaries = [ended(f"m{n:02}", timedelta(minutes=ago) if kind != "playing" else None, kind == "stopped")
                 for n, (ago, kind) in enumerate(items)]
    history = sorted((s for s in summaries if s.is_history), key=lambda s: (s.when, s.id), reverse=True)
    asked: list[int] = []

    def newest(n: int) -> list[MatchSummary]:
        asked.append(n)
        return history[:n]

    assert latest_evening(newest, NOW, first=first) == evening(summaries, NOW)
    assert asked[-1] <= max(first, 2 * len(history))
