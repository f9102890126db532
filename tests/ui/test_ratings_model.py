"""The leaderboard and a player's rating on screen, said to the view models: who is where, why a rating moved,
seasons and filters, and a match just finished counted the next time the leaderboard opens."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from companion.history.cache import HistoryCache
from companion.history.ratings import Filter, RatingBook, leaderboard
from companion.ui.viewmodel import AppModel, Screen
from tests.play import finished_match


def number(shown: str) -> int:
    return int("".join(c for c in shown if c.isdigit()))


def test_the_leaderboard_ranks_by_skill_and_says_who_is_provisional(services, store):
    for _ in range(5):
        finished_match(store, "Anna", "Ben")
    finished_match(store, "Chloe", "Ben")
    app = AppModel(services)
    app.ratings.open()
    assert app.screen is Screen.RATINGS
    page = app.ratings.page
    assert [r.name for r in page.rows] == ["Anna", "Ben", "Chloe"]     # Chloe: one match, provisional, last
    anna, chloe = page.rows[0], page.rows[2]
    assert anna.detail == "5 matches · 5 wins" and not anna.provisional and anna.form == ("won",) * 5
    assert chloe.detail == "1 match · 1 win · provisional" and number(chloe.rating) > number(page.rows[1].rating)
    assert page.counted.startswith("6 matches rated") and page.note.startswith("Provisional: fewer than 5 matches")
    assert anna.label.startswith("1. Anna, ")
    assert [c.key for c in app.ratings.season_choices() if c.selected] == ["all"]


def test_a_season_without_matches_says_so_and_a_filter_keeps_to_its_table(services, store):
    finished_match(store, "Anna", "Ben")
    app = AppModel(services)
    app.ratings.open()
    app.ratings.choose_table("2x2")                 # no partnership was played: nobody to rank
    assert app.ratings.page.rows == ()
    app.ratings.choose_table("2")
    assert [r.name for r in app.ratings.page.rows] == ["Anna", "Ben"]
    app.ratings.choose_season("month")              # the match finished now: this month has it
    assert len(app.ratings.page.rows) == 2
    app.ratings.choose_rules("greek-online")
    assert app.ratings.page.rows == () and app.ratings.page.counted.startswith("No finished match")


def test_a_players_page_shows_the_rating_over_time_and_why_it_moved(services, store):
    finished_match(store, "Anna", "Ben")
    finished_match(store, "Ben", "Anna")
    last = finished_match(store, "Ben", "Chloe")
    app = AppModel(services)
    app.ratings.open()
    ben = next(r for r in app.ratings.page.rows if r.name == "Ben")
    app.player.open(ben.player_id)
    page = app.player.page
    assert page.figures[0].key == "stat-rating" and page.figures[0].label == "Rating (provisional)"
    assert page.figures[0].value == ben.rating and len(page.ratings) == 4 and page.form == ("lost", "won", "won")
    # The chart starts where Ben started, before his first rated match, and the words say so.
    assert page.ratings[0][0] == 0 and [x for x, _ in page.ratings] == [0, 1, 2, 3]
    assert page.rating_span[1] == page.ratings[0][1]
    newest = page.moves[0]
    assert newest.match_id == last and newest.text == "Beat Chloe (rated lower)" and newest.change.startswith("+")
    assert page.moves[-1].text == "Lost to Anna" and page.moves[-1].change.startswith("−")
    assert page.moves[1].text == "Beat Anna (rated higher)"     # Anna was above Ben after beating him


def test_one_rated_match_charts_a_line_from_where_the_player_started(services, store):
    # It was a lone dot at the chart's right edge, said as "from 1,012 to 1,012".
    from tests.screens import ScreenPhone

    finished_match(store, "Anna", "Ben")
    phone = ScreenPhone(AppModel(services))
    anna = next(p.id for p in services.library.players() if p.name == "Anna")
    phone.vm.player.open(anna)
    page = phone.vm.player.page
    (x0, start), (x1, after) = page.ratings
    assert (x0, x1) == (0, 1) and after > start
    assert page.rating_span == (1, start, after)
    assert phone.has_text(f"Rating after 1 match: from {round(start):,} to {round(after):,}")
    # The rating axis in the phone's numbers: the chart's own labels wrote 1,000 to 1,030 all as "1K" or "1.1K".
    import flet_charts as fch

    from tests.screens import walk

    chart = next(c for c, _ in walk(phone.node("rating-chart")[0]) if isinstance(c, fch.LineChart))
    labels = [(label.value, label.label.value) for label in chart.left_axis.labels]
    assert labels[0] == (chart.min_y, f"{int(chart.min_y):,}") and labels[-1] == (chart.max_y, f"{int(chart.max_y):,}")
    assert len(labels) >= 3 and len({text for _, text in labels}) == len(labels)


def test_a_match_finished_since_counts_the_next_time_the_leaderboard_opens(services, store):
    finished_match(store, "Anna", "Ben")
    app = AppModel(services)
    app.ratings.open()
    assert app.ratings.page.counted.startswith("1 match rated")
    finished_match(store, "Ben", "Anna")
    app.home()
    app.ratings.open()
    assert app.ratings.page.counted.startswith("2 matches rated")
    assert [r.form for r in app.ratings.page.rows] == [("won", "lost"), ("lost", "won")] or \
        [r.form for r in app.ratings.page.rows] == [("lost", "won"), ("won", "lost")]


def test_the_groups_records_are_listed_under_the_leaderboard_each_with_its_match(services, store):
    for _ in range(3):
        finished_match(store, "Anna", "Ben")
    finished_match(store, "Ben", "Anna")
    app = AppModel(services)
    app.ratings.open()
    found = {h.key: h for h in app.ratings.page.honours}
    assert set(found) == {"highest_hand", "most_xeris_in_a_hand", "longest_winning_streak"}
    streak = found["longest_winning_streak"]
    assert (streak.title, streak.value) == ("Longest winning streak", "3 wins in a row")
    assert streak.who.startswith("Anna · ")
    assert found["most_xeris_in_a_hand"].value == "1 xeri" and "hand 1" in found["highest_hand"].who
    app.record.open(streak.match_id)                 # a tap opens the match that set it
    assert app.screen is Screen.RECORD


def test_home_shows_the_evening_and_how_the_ratings_moved_once_the_history_is_scored(services, store):
    finished_match(store, "Anna", "Ben")
    finished_match(store, "Chloe", "Anna")
    app = AppModel(services)
    card = app.ratings.evening_card()
    assert card.title == "This evening: 2 matches"
    assert card.lines[0].startswith("Anna beat Ben, ") and card.lines[1].startswith("Chloe beat Anna, ")
    first = [int(x) for x in card.lines[0].split(", ")[1].split(" : ")]
    assert first[0] > first[1]                       # the winner's score first, as the line names the winner first
    assert card.changes is None                      # the history is warming up: the card does not wait for it
    app.session.history_cache.warm(services.library)
    card = app.ratings.evening_card()
    assert card.changes.startswith("Ratings: Chloe +") and "Ben −" in card.changes
    assert card.text.splitlines() == [card.title, *card.lines, card.changes]   # what Share sends


def test_a_season_of_the_groups_own_dates(services, store):
    finished_match(store, "Anna", "Ben")
    app = AppModel(services)
    app.ratings.open()
    app.ratings.choose_season("dates")
    first, last = app.ratings.typed_dates                  # this month so far, to change
    assert first.endswith("-01") and len(app.ratings.page.rows) == 2
    app.ratings.type_date(0, "31/12/2001")
    app.ratings.show_dates()
    assert app.ratings.dates_problem.startswith("Write each day as year-month-day, for example ")
    app.ratings.type_date(0, "2001-12-31")
    app.ratings.type_date(1, "2001-01-01")
    app.ratings.show_dates()
    assert app.ratings.dates_problem == "The first day is after the last: swap them."
    app.ratings.type_date(1, "2002-06-30")
    app.ratings.show_dates()
    assert app.ratings.dates_problem is None and app.ratings.page.rows == ()   # nothing was played then
    app.ratings.type_date(1, last)
    app.ratings.show_dates()
    assert [r.name for r in app.ratings.page.rows] == ["Anna", "Ben"]        # the last day counts


def test_the_warm_up_without_threads_rates_the_history_a_few_matches_at_a_time_as_from_scratch(services, store):
    """The browser build's warm-up (`warm_stepwise`): the ratings in steps, each a prefix of the history, hand the
    event loop back between them and end where one computation from scratch ends."""
    for n in range(7):
        finished_match(store, *(("Anna", "Ben"), ("Chloe", "Anna"), ("Ben", "Chloe"))[n % 3])
    cache = HistoryCache()
    steps: list[int] = []
    real = RatingBook.update

    def counted(book, history):
        steps.append(len(history))
        return real(book, history)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RatingBook, "update", counted)
        asyncio.run(cache.warm_stepwise(services.library, step=3))
    assert steps[:3] == [3, 6, 7] and set(steps[3:]) == {7}   # then each player's page: the same, rated history
    assert cache.keep_pages(services.library) is False       # and every page kept for the next run
    now = datetime.now(UTC)
    assert cache.leaderboard(services.library, Filter(), now) == leaderboard(cache.scored(services.library), now)
    assert cache.changes_if_warm(services.library, [s.id for s in services.library.matches()]) is not None
