"""A player's page figures (#27): worked out from the scored history, kept between runs under the history's key,
and read back as they were; never shown for another history, another version, or when damaged."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.history.cache import PAGES, HistoryCache
from companion.history.scored import FIGURES
from companion.history.pages import (CHART_POINTS, VERSION, averaged, kept_key, pages_bytes, pages_from_bytes,
                                     player_figures, sampled)
from companion.history.ratings import leaderboard
from companion.history.stats import points_per_hand, score_history
from companion.service import Services
from companion.storage import Store

from tests.engine.strategies import matches
from tests.play import finished_match, play
from tests.storage.builders import Clock


@given(st.lists(st.integers(-50, 200), max_size=1000), st.integers(2, 150))
def test_averaged_points_keep_the_sum_and_at_most_so_many_points(values, most):
    points, per = averaged(values, most)
    assert len(points) <= most and (per == 1) == (len(values) <= most)
    runs = [values[i:i + per] for i in range(0, len(values), per)]
    assert [x for x, _ in points] == [min(i + per, len(values)) for i in range(0, len(values), per)]
    assert all(y == pytest.approx(sum(r) / len(r), abs=0.0501) for (_, y), r in zip(points, runs))


@given(st.lists(st.floats(0, 3000), min_size=1, max_size=1000), st.integers(2, 150))
def test_a_sampled_rating_keeps_its_first_and_last_value_in_order(values, most):
    points = sampled(values, most)
    assert len(points) <= most and points[0] == (1, values[0]) and points[-1] == (len(values), values[-1])
    assert all(a[0] < b[0] and values[b[0] - 1] == b[1] for a, b in zip(points, points[1:]))


def history_of(folder, specs) -> tuple:
    with Store(folder, clock=Clock()) as store:
        table = play(store)
        for match in specs:
            table.start(match)
        history = score_history(store.list_scored())
        players = sorted(store.seen_players())
        key = store.history_key()
    return history, players, key


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(matches(max_hands=5), min_size=1, max_size=5))
def test_kept_figures_read_back_equal_to_the_figures_worked_out(tmp_path_factory, specs):
    """Any rules and tables: every player's figures, kept and read back, are the figures worked out."""
    history, players, key = history_of(tmp_path_factory.mktemp("pages"), specs)
    board = leaderboard(history, datetime.now(UTC))
    pages = {pid: player_figures(history, pid, board.of(pid)) for pid in players}
    data = pages_bytes(key, pages)
    assert pages_from_bytes(data, key) == pages and kept_key(data) == key
    assert pages_from_bytes(data, key + "x") is None            # another history: never shown
    for pid in players:
        assert sum(y * per for y, per in _runs(pages[pid])) == pytest.approx(sum(points_per_hand(history, pid)),
                                                                             abs=0.0501 * len(pages[pid].points))


def _runs(figures):
    """Each chart point's average with the number of hands it averages."""
    previous = 0
    for x, y in figures.points:
        yield y, x - previous
        previous = x


def test_damaged_or_other_version_figures_are_not_read(tmp_path):
    history, players, key = history_of(tmp_path, [])
    data = pages_bytes(key, {})
    assert pages_from_bytes(data, key) == {}
    head, _, body = data.partition(b"\n")
    flipped = head + b"\n" + body.replace(b"{}", b"{\"x\":[]}")
    older = json.dumps({**json.loads(head), "version": f"{VERSION}/{FIGURES - 1}"}).encode() + b"\n" + body
    for bad in (flipped, older, b"", b"\xff\n{}", head, b"[1]\n{}", head + b"\n{\"p\": [1, 2]}"):
        assert pages_from_bytes(bad, key) is None


def test_a_store_just_opened_shows_the_kept_page_without_scoring_the_history(tmp_path, monkeypatch):
    """The page a run kept opens the next run's player page without the history scored or rated; a match saved
    since (the history's key moved) is never hidden by the figures kept before it."""
    with Store(tmp_path, clock=Clock()) as store:
        for pair in (("Anna", "Ben"), ("Ben", "Anna"), ("Anna", "Chris")):
            finished_match(store, *pair)
        library = Services.over(store).library
        anna = next(p.id for p in library.players() if p.name == "Anna")
        warmed = HistoryCache()
        warmed.warm(library)
        assert library.read_kept(PAGES) is not None
        worked_out = warmed.player_figures(library, anna)
    scored: list[int] = []
    real = Store.list_scored
    monkeypatch.setattr(Store, "list_scored", lambda self: scored.append(1) or real(self))
    with Store(tmp_path, clock=Clock()) as store:
        library = Services.over(store).library
        assert HistoryCache().player_figures(library, anna) == worked_out and scored == []
        finished_match(store, "Chris", "Anna")                  # one more: what was kept is of another history
        fresh = HistoryCache().player_figures(library, anna)
        assert scored and fresh.stats.played == worked_out.stats.played + 1
        assert fresh == player_figures(score_history(real(store)), anna,
                                       leaderboard(score_history(real(store)), datetime.now(UTC)).of(anna))


def test_following_the_history_keeps_the_pages_again_after_a_change_and_stops_when_told(tmp_path):
    import threading

    with Store(tmp_path, clock=Clock()) as store:
        finished_match(store, "Anna", "Ben")
        library = Services.over(store).library
        cache, stop = HistoryCache(), threading.Event()
        follower = threading.Thread(target=cache.follow, args=(library, stop, 0.01))
        follower.start()
        try:
            for _ in range(500):
                if kept_key(library.read_kept(PAGES)) == library.history_key():
                    break
                stop.wait(0.01)
            first = library.history_key()
            assert kept_key(library.read_kept(PAGES)) == first
            finished_match(store, "Ben", "Chris")
            for _ in range(500):
                if kept_key(library.read_kept(PAGES)) != first:
                    break
                stop.wait(0.01)
            assert kept_key(library.read_kept(PAGES)) == library.history_key() != first
            chris = next(p.id for p in library.players() if p.name == "Chris")
            kept = pages_from_bytes(library.read_kept(PAGES), library.history_key())
            assert kept is not None and kept[chris].stats.played == 1
        finally:
            stop.set()
            follower.join(5)
        assert not follower.is_alive()


def test_a_long_history_is_thinned_for_the_charts_and_the_chart_says_so(tmp_path):
    from companion.ui.viewmodel import AppModel
    from tests.screens import ScreenPhone

    with Store(tmp_path, clock=Clock()) as store:
        for n in range(CHART_POINTS + 30):
            finished_match(store, *(("Anna", "Ben") if n % 2 else ("Ben", "Anna")))
        services = Services.over(store)
        phone = ScreenPhone(AppModel(services))
        anna = next(p.id for p in services.library.players() if p.name == "Anna")
        phone.vm.player.open(anna)
        page = phone.vm.player.page
        assert page.hands_per_point == 2 and len(page.points) <= CHART_POINTS
        assert len(page.ratings) == CHART_POINTS and page.rating_span[0] == CHART_POINTS + 30
        assert phone.has_text("Points per hand (each point the average of 2 hands)")
        assert phone.has_text(f"Rating over {CHART_POINTS + 30} matches: from ")


def test_a_match_deleted_and_brought_back_while_pages_are_worked_out_never_leaves_them_wrong(tmp_path):
    """The history's key comes back when a deleted match is brought back: figures worked out in between were
    kept under it (found in review). The key and the history are now read together, once for every page."""
    with Store(tmp_path, clock=Clock()) as store:
        ids = [finished_match(store, *pair) for pair in (("Anna", "Ben"), ("Ben", "Anna"), ("Anna", "Chris"))]
        library = Services.over(store).library
        anna = next(p.id for p in library.players() if p.name == "Anna")
        cache = HistoryCache()
        real, calls = cache._work_out, []

        def work_out(history, pid):
            if not calls:
                library.delete(ids[2])            # a person deletes a match as the pages are worked out…
            calls.append(pid)
            out = real(history, pid)
            if len(calls) == 2:
                library.restore(ids[2])           # …and taps Undo before they are done
            return out

        cache._work_out = work_out  # type: ignore[method-assign]
        cache.keep_pages(library)
        kept = pages_from_bytes(library.read_kept(PAGES), library.history_key())
        shown = cache.player_figures(library, anna)
        assert (kept is None or kept[anna].stats.played == 3) and shown.stats.played == 3
    with Store(tmp_path, clock=Clock()) as store:
        assert HistoryCache().player_figures(Services.over(store).library, anna).stats.played == 3


def test_a_damaged_kept_file_is_kept_again_not_skipped(tmp_path):
    with Store(tmp_path, clock=Clock()) as store:
        finished_match(store, "Anna", "Ben")
        library = Services.over(store).library
        assert HistoryCache().keep_pages(library)
        data = library.read_kept(PAGES)
        head, _, body = data.partition(b"\n")
        library.keep(PAGES, head + b"\n" + body.replace(b"1000.0", b"1001.0", 1))   # the header fits, not the body
        assert pages_from_bytes(library.read_kept(PAGES), library.history_key()) is None
        assert HistoryCache().keep_pages(library)
        assert pages_from_bytes(library.read_kept(PAGES), library.history_key()) is not None
