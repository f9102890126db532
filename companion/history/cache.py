"""The scored history, kept for the whole app so a player page adds figures up instead of scoring matches."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, TypeVar

from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from .pages import PlayerFigures, kept_key, pages_bytes, pages_from_bytes, player_figures
from .ratings import Filter, Leaderboard, RatingBook
from .stats import ScoredMatch, score_history

log = logging.getLogger(__name__)
T = TypeVar("T")

PAGES = "player-pages"
"""The name every player's page figures are kept under between runs (`Library.keep`)."""


class HistoryCache:
    """The scored history (every finished and abandoned match), kept for the whole app while no match changes
    (its key: `Library.history_key`, a digest of what each match's figures come from), whichever browser session
    asks, and the ratings of the filters asked for. The figures come from the storage's index (`Library.scored`:
    kept with each save), so no match file is read; `warm` fills it ahead of time in a thread, `warm_stepwise`
    without one (the browser build)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key = ""
        self._result: tuple[ScoredMatch, ...] = ()
        self._books: dict[Filter, RatingBook] = {}
        """The ratings of each filter asked for, kept between calls (a new match costs one update)."""
        self._books_lock = threading.Lock()
        self._pages_key = ""
        self._pages: dict[str, PlayerFigures] = {}
        """Player pages' figures worked out or read for the history of `_pages_key`, by player id."""
        self._kept = ""
        """The key of the figures last kept or found kept (`keep_pages` writes them again when it changes)."""

    @staticmethod
    def _key_of(library: Any) -> str:
        """The key a scored history is kept under: a digest of what each history match's figures come from (not
        its last change: a live tap moves nothing), which the storage keeps up to date with each write
        (`Library.history_key`), so asking costs nothing."""
        return str(library.history_key())

    def scored(self, library: Any) -> tuple[ScoredMatch, ...]:
        """The scored history of `library` (the service's `Library`), oldest first."""
        return self._snapshot(library)[1]

    def _snapshot(self, library: Any) -> tuple[str, tuple[ScoredMatch, ...]]:
        """The history's key and the scored history of that very key: read together, under the storage's lock
        (`Library.scored_with_key`). A key read apart from the history could be a key the history comes back to
        (a match deleted, then brought back) while the figures are those of the history in between."""
        key = self._key_of(library)
        with self._lock:
            if key == self._key:
                return key, self._result
        key, scored = library.scored_with_key()
        result = score_history(scored)
        with self._lock:
            self._key, self._result = key, result
        return key, result

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

    # --- a player's page ---------------------------------------------------------------------------------
    def player_figures(self, library: Any, player_id: str) -> PlayerFigures:
        """What `player_id`'s page shows: from memory, else from the figures kept by an earlier run under the same
        history (a page opens at once on a store just opened, however long the history), else worked out."""
        key = self._key_of(library)
        with self._lock:
            if self._pages_key == key and player_id in self._pages:
                return self._pages[player_id]
            warm = self._key == key
        if not warm:
            # Read under the storage's lock with the key they are checked against: figures of this very history.
            key, data = library.read_kept_with_key(PAGES)
            kept = pages_from_bytes(data, key)
            if kept is not None:
                self._remember(key, kept, kept=True)
                if player_id in kept:
                    return kept[player_id]
        key, history = self._snapshot(library)
        figures = self._work_out(history, player_id)
        self._remember(key, {player_id: figures})
        return figures

    def _remember(self, key: str, pages: dict[str, PlayerFigures], kept: bool = False) -> None:
        with self._lock:
            if self._pages_key != key:
                self._pages_key, self._pages = key, {}
            self._pages.update(pages)
            if kept:
                self._kept = key

    def _work_out(self, history: tuple[ScoredMatch, ...], player_id: str) -> PlayerFigures:
        """`player_id`'s figures over `history` (one snapshot: `_snapshot`) and its all-time ratings."""
        rated = self._with_book(Filter(), history, lambda book: book.leaderboard(datetime.now(UTC)).of(player_id))
        return player_figures(history, player_id, rated)

    def _kept_already(self, library: Any, key: str) -> bool:
        """Whether the figures kept are of this history and whole (a damaged file is kept again, not skipped)."""
        if key == self._kept:
            return True
        data = library.read_kept(PAGES)
        if kept_key(data) != key or pages_from_bytes(data, key) is None:
            return False
        self._kept = key
        return True

    def keep_pages(self, library: Any) -> bool:
        """Every player's page worked out and kept for the next run, unless kept for this very history already;
        True when it kept them."""
        key, history = self._snapshot(library)
        if self._kept_already(library, key):
            return False
        return self._keep(library, key, {pid: self._work_out(history, pid) for pid in sorted(library.seen_players())})

    def _keep(self, library: Any, key: str, pages: dict[str, PlayerFigures]) -> bool:
        """Keep `pages`, the figures of the history of `key` (one snapshot), under that key: right for that history
        whatever happened since (a later history has another key, and the next round keeps it)."""
        library.keep(PAGES, pages_bytes(key, pages))
        self._remember(key, pages, kept=True)
        return True

    # --- ahead of time ----------------------------------------------------------------------------------
    def warm(self, library: Any) -> None:
        """The history and its all-time ratings worked out now, so the first player page opens at once, and every
        player's page kept for the next run."""
        try:
            self._with_book(Filter(), self.scored(library), lambda book: None)
            self.keep_pages(library)
        except Exception:  # a warm-up is only a head start: the page reads what it needs itself
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)

    def follow(self, library: Any, stop: threading.Event, every: float = 10.0) -> None:
        """`warm` now, then again whenever the history has changed (checked every `every` seconds: asking costs
        nothing), until `stop` is set: what the next run finds kept is at most that much behind."""
        while not stop.is_set():
            try:
                if self._key_of(library) != self._kept:
                    self.warm(library)
            except Exception:  # the store closed as the app ends, or a bug: only a head start, said in the log
                if stop.is_set():
                    return
                log.warning("following the history failed; pages are worked out when opened", exc_info=True)
            if stop.wait(every):
                return

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
            key, whole = self._snapshot(library)
            self._with_book(Filter(), whole, lambda book: None)
            if self._kept_already(library, key):
                return
            pages = {}
            for pid in sorted(library.seen_players()):   # a page at a time, all of the one snapshot
                await asyncio.sleep(0)
                pages[pid] = self._work_out(whole, pid)
            self._keep(library, key, pages)
        except Exception:  # only a head start, as `warm`
            log.warning("scoring the history ahead of time failed; each page will score it", exc_info=True)

    async def follow_stepwise(self, library: Any, every: float = 10.0) -> None:
        """`follow` where there are no threads: `warm_stepwise` now and whenever the history has changed."""
        while True:
            try:
                if self._key_of(library) != self._kept:
                    await self.warm_stepwise(library)
            except Exception:  # only a head start, as `follow`
                log.warning("following the history failed; pages are worked out when opened", exc_info=True)
            await asyncio.sleep(every)
