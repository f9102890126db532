"""The scored history, kept for the whole app so a player page adds figures up instead of scoring matches."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, TypeVar

from collections.abc import Callable, Iterable
from datetime import datetime

from .ratings import Filter, Leaderboard, RatingBook
from .stats import ScoredMatch, score_history

log = logging.getLogger(__name__)
T = TypeVar("T")


class HistoryCache:
    """The scored history (every finished and abandoned match), kept for the whole app while no match changes
    (its key: each match's id and last change), whichever browser session asks, and the ratings of the filters
    asked for. The figures come from the storage's index (`Library.scored`: kept with each save), so no match
    file is read; `warm` fills it ahead of time in a thread, `warm_stepwise` without one (the browser build)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple = ()
        self._result: tuple[ScoredMatch, ...] = ()
        self._books: dict[Filter, RatingBook] = {}
        """The ratings of each filter asked for, kept between calls (a new match costs one update)."""
        self._books_lock = threading.Lock()

    @staticmethod
    def _key_of(library: Any) -> tuple:
        """The key a scored history is kept under: each history match's id and last change (as one string each,
        not a pair: asked on every page, 5,000 pairs were 5,000 objects more for the garbage collector)."""
        return tuple(s.id + s.updated for s in library.matches() if s.is_history)

    def scored(self, library: Any) -> tuple[ScoredMatch, ...]:
        """The scored history of `library` (the service's `Library`), oldest first."""
        key = self._key_of(library)
        with self._lock:
            if key == self._key:
                return self._result
        # Asked after the key: a match saved in between makes the history newer than its key, never older, and
        # the next call, seeing another key, asks again.
        result = score_history(library.scored())
        with self._lock:
            self._key, self._result = key, result
        return result

    def leaderboard(self, library: Any, filter: Filter, now: datetime) -> Leaderboard:
        """The leaderboard of `filter` over `library`'s history, brought up to date from the last one asked."""
        return self._with_book(filter, self.scored(library), lambda book: book.leaderboard(now))

    def changes_if_warm(self, library: Any, match_ids: Iterable[str]) -> dict[str, float] | None:
        """How far these matches moved their players' all-time ratings; None while the history is not scored
        yet (it is being warmed up: asked on a screen that must not wait for it)."""
        with self._lock:
            if self._key_of(library) != self._key:
                return None
            history = self._result
        return self._with_book(Filter(), history, lambda book: book.changes(match_ids))

    def _with_book(self, filter: Filter, history: tuple[ScoredMatch, ...], use: Callable[[RatingBook], T]) -> T:
        """`use` of the filter's book brought up to `history`, while no other session changes it."""
        with self._books_lock:
            book = self._books.get(filter)
            if book is None:
                if len(self._books) >= 16:          # a few seasons and filters at a time, not every one ever asked
                    self._books.pop(next(iter(self._books)))
                book = self._books[filter] = RatingBook(filter)
            book.update(history)
            return use(book)

    def warm(self, library: Any) -> None:
        """The history and its all-time ratings worked out now, so the first player page opens at once."""
        try:
            self._with_book(Filter(), self.scored(library), lambda book: None)
        except Exception:  # a warm-up is only a head start: the page reads what it needs itself
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)

    async def warm_stepwise(self, library: Any, step: int = 250) -> None:
        """`warm` where there are no threads (a browser tab): the ratings a few hundred matches at a time (each
        a prefix of the history, which the book takes as matches added at the end), handing the event loop back
        between them, so a tap meanwhile waits for one step at most."""
        try:
            history = self.scored(library)
            for end in range(step, len(history), step):
                await asyncio.sleep(0)
                self._with_book(Filter(), history[:end], lambda book: None)
            await asyncio.sleep(0)
            self._with_book(Filter(), self.scored(library), lambda book: None)
        except Exception:  # only a head start, as `warm`
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)
