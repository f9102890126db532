"""A player's page: figures over the history, charts of points per hand and wins per month, head to
head and partners. Worked out off the page's event loop: a cold history can take a moment."""

from __future__ import annotations

from dataclasses import dataclass

from ...history.stats import (HandPoints, MonthWins, head_to_head, partnerships, player_names, player_stats,
                              points_per_hand_series, wins_per_month)
from .session import Screen, Session, ViewModel, intent


@dataclass(frozen=True)
class Figure:
    key: str
    """Its identifier (`stat-won`)."""
    label: str
    value: str


@dataclass(frozen=True)
class PlayerPage:
    """Everything the player page shows, in words and numbers."""

    name: str
    figures: tuple[Figure, ...]
    points: tuple[HandPoints, ...]
    months: tuple[MonthWins, ...]
    head_to_head: tuple[tuple[str, str], ...]
    """(opponent, record in words)."""
    partners: tuple[tuple[str, str], ...]
    """(the two partners, record in words)."""


class PlayerModel(ViewModel):
    """The player page on screen."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.player_id: str | None = None
        self.page: PlayerPage | None = None
        """None while it is being worked out."""

    @intent
    def open(self, player_id: str) -> None:
        self.player_id, self.page = player_id, None
        self.session.go(Screen.PLAYER)
        self.session.background(lambda: self._work(player_id), self._shown)

    @intent(person=False)
    def _shown(self, page: tuple[str, PlayerPage]) -> None:
        player_id, result = page
        if player_id == self.player_id:
            self.page = result

    def _work(self, pid: str) -> tuple[str, PlayerPage]:
        tr = self.tr
        library = self.services.library
        scored = self.session.history_cache.scored(library)
        names = {**player_names(scored), **{p.id: p.name for p in library.players()}}
        st = player_stats(scored, pid)

        def pct(x) -> str:
            return "–" if x is None else f"{round(100 * x)}%"

        def per(x) -> str:
            return "–" if x is None else f"{x:.2f}"

        figures = (
            Figure("stat-matches", tr("player.matches"), str(st.played)),
            Figure("stat-won", tr("player.won"), str(st.won)),
            Figure("stat-win-rate", tr("player.win_rate"), pct(st.win_rate)),
            Figure("stat-hands-won", tr("player.hands_won"), f"{st.hands_won}/{st.hands}"),
            Figure("stat-points", tr("player.points_per_hand"), per(st.points_per_hand)),
            Figure("stat-xeris", tr("player.xeris_per_hand"), per(st.xeris_per_hand)),
            Figure("stat-jack-xeris", tr("player.jack_xeris_per_hand"), per(st.jack_xeris_per_hand)),
            Figure("stat-ten", tr("player.ten_rate"), pct(st.ten_of_diamonds_rate)),
            Figure("stat-two", tr("player.two_rate"), pct(st.two_rate)),
            Figure("stat-most", tr("player.most_rate"), pct(st.most_cards_rate)),
            Figure("stat-best", tr("player.best_hand"), str(st.best_hand.points) if st.best_hand else "–"),
            Figure("stat-streak", tr("player.streak"), str(st.longest_streak)),
        )
        name = names.get(pid, "?")
        h2h = tuple((names.get(h.opponent_id, "?"), tr("player.record", w=h.wins, l=h.losses, d=h.draws))
                    for h in head_to_head(scored, pid))
        partners = tuple((f"{name} & {names.get(p.partner_of(pid), '?')}",
                          tr("player.record", w=p.wins, l=p.losses, d=p.draws)) for p in partnerships(scored, pid))
        return pid, PlayerPage(name, figures, tuple(points_per_hand_series(scored, pid)),
                               tuple(wins_per_month(scored, pid)), h2h, partners)
