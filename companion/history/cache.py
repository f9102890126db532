"""The scored history, kept for the whole app so a player page adds figures up instead of reading files."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, TypeVar

from collections.abc import Callable, Iterable
from datetime import datetime

from .ratings import Filter, Leaderboard, RatingBook
from .stats import ScoredMatch, score_history, score_record

log = logging.getLogger(__name__)
T = TypeVar("T")


class HistoryCache:
    """Every finished and abandoned match, scored once per version (id, last change), whichever browser
    session asks. `warm` fills it ahead of time in a thread; `warm_stepwise` without one (the browser build)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scored: dict[str, tuple[str, ScoredMatch]] = {}
        self._key: tuple = ()
        self._result: tuple[ScoredMatch, ...] = ()
        self._books: dict[Filter, RatingBook] = {}
        """The ratings of each filter asked for, kept between calls (a new match costs one update)."""
        self._books_lock = threading.Lock()

    @staticmethod
    def _wanted(library: Any) -> tuple[list, tuple]:
        """The history's summaries, and the key a scored history is kept under (each match's id and last change)."""
        wanted = [s for s in library.matches() if s.is_history]
        return wanted, tuple((s.id, s.updated) for s in wanted)

    def scored(self, library: Any) -> tuple[ScoredMatch, ...]:
        """The scored history of `library` (the service's `Library`), oldest first."""
        wanted, key = self._wanted(library)
        with self._lock:
            if key == self._key:
                return self._result
            have = dict(self._scored)
        fresh = {}
        for s in wanted:
            known = have.get(s.id)
            fresh[s.id] = (s.updated, known[1] if known and known[0] == s.updated else score_record(library.get(s.id)))
        result = score_history(scored for _, scored in fresh.values())
        with self._lock:
            self._scored, self._key, self._result = fresh, key, result
        return result

    def leaderboard(self, library: Any, filter: Filter, now: datetime) -> Leaderboard:
        """The leaderboard of `filter` over `library`'s history, brought up to date from the last one asked."""
        return self._with_book(filter, self.scored(library), lambda book: book.leaderboard(now))

    def changes_if_warm(self, library: Any, match_ids: Iterable[str]) -> dict[str, float] | None:
        """How far these matches moved their players' all-time ratings; None while the history is not scored
        yet (it is being warmed up: asked on a screen that must not wait for it)."""
        with self._lock:
            if self._wanted(library)[1] != self._key:
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
        """Score the history now, so the first player page opens at once."""
        try:
            self._with_book(Filter(), self.scored(library), lambda book: None)   # the all-time ratings too
        except Exception:  # a warm-up is only a head start: the page reads what it needs itself
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)

    async def warm_stepwise(self, library: Any) -> None:
        """`warm` where there are no threads (a browser tab): one match at a time, handing the event loop
        back after each, so a tap meanwhile waits for one match's scoring at most."""
        try:
            for summary in library.matches():
                if not summary.is_history:
                    continue
                with self._lock:
                    known = self._scored.get(summary.id)
                if known is None or known[0] != summary.updated:
                    scored = score_record(library.get(summary.id))
                    with self._lock:
                        self._scored[summary.id] = (summary.updated, scored)
                await asyncio.sleep(0)
            history = self.scored(library)  # every match is scored by now: this only adds them up
            await asyncio.sleep(0)
            self._with_book(Filter(), history, lambda book: None)
        except Exception:  # only a head start, as `warm`
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)
