"""A player's page: figures over the history, charts of points per hand and wins per month, head to
head and partners. Worked out off the page's event loop: a cold history can take a moment."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ...history.stats import MonthWins
from .ratings import MoveRow, move_row
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
    points: tuple[tuple[int, float], ...]
    """The chart of the points of the player's side per hand, oldest first: (hand number, points), each point the
    average of `hands_per_point` hands (`history.pages`: a long history is thinned)."""
    months: tuple[MonthWins, ...]
    head_to_head: tuple[tuple[str, str], ...]
    """(opponent, record in words)."""
    partners: tuple[tuple[str, str], ...]
    """(the two partners, record in words)."""
    month_labels: tuple[str, ...] = ()
    """Each month of `months` as the language names it (`Nov 2026`)."""
    team_note: str | None = None
    """Said under the figures when some are a partnership's (the team's, not the player's own)."""
    ratings: tuple[tuple[int, float], ...] = ()
    """The chart of the rating (all time): (rated match number, the rating after it), oldest first, sampled."""
    moves: tuple[MoveRow, ...] = ()
    """Why the rating moved: the latest matches, newest first."""
    form: tuple[str, ...] = ()
    """The last five results, oldest first."""
    hands_per_point: int = 1
    """How many hands each point of the points chart averages."""
    rating_span: tuple[int, float, float] | None = None
    """(rated matches, the rating the player started from, the rating now), for the rating chart's words."""


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
        self.slow(lambda: self._work(player_id), self._shown, lambda: self._gave_up(player_id))

    def _gave_up(self, player_id: str) -> None:
        """The page could not be worked out: not left on its spinner (what went wrong is said)."""
        if player_id == self.player_id and self.page is None and self.session.screen is Screen.PLAYER:
            self.session.back()

    @intent(person=False)
    def _shown(self, page: tuple[str, PlayerPage]) -> None:
        player_id, result = page
        if player_id == self.player_id:
            self.page = result

    def _work(self, pid: str) -> tuple[str, PlayerPage]:
        tr = self.tr
        library = self.services.library
        f = self.session.history_cache.player_figures(library, pid)
        names = {p.id: p.name for p in library.players()}
        st, rated = f.stats, f.rated

        def pct(x) -> str:
            return "–" if x is None else tr.percent(x)

        def per(x) -> str:
            return "–" if x is None else tr.decimal(x)

        team = st.in_partnership
        side = "player.team_" if team else "player."   # a partnership's hand figures are the team's: say so
        figures = [
            Figure("stat-matches", tr("player.matches"), str(st.played)),
            Figure("stat-won", tr("player.won"), str(st.won)),
            Figure("stat-win-rate", tr("player.win_rate"), pct(st.win_rate)),
            Figure("stat-hands-won", tr(side + "hands_won"), f"{st.hands_won}/{st.hands}"),
            Figure("stat-points", tr(side + "points_per_hand"), per(st.points_per_hand)),
            Figure("stat-xeris", tr(side + "xeris_per_hand"), per(st.xeris_per_hand)),
            Figure("stat-jack-xeris", tr(side + "jack_xeris_per_hand"), per(st.jack_xeris_per_hand)),
            Figure("stat-ten", tr(side + "ten_rate"), pct(st.ten_of_diamonds_rate)),
            Figure("stat-two", tr(side + "two_rate"), pct(st.two_rate)),
            Figure("stat-most", tr(side + "most_rate"), pct(st.most_cards_rate)),
            Figure("stat-best", tr(side + "best_hand"), str(st.best_hand.points) if st.best_hand else "–"),
            Figure("stat-streak", tr("player.streak"), str(st.longest_streak)),
        ]
        if rated is not None:
            figures.insert(0, Figure("stat-rating", tr("player.rating_provisional" if rated.provisional else
                                                       "player.rating"), tr.say(round(rated.rating))))
        if team:
            # The player's own beside the team's, so the two add up where the taps say who made each xeri.
            own = [Figure("stat-own-xeris", tr("player.own_xeris"),
                          tr("player.own_of_team", own=st.partnership_own_xeris, team=st.team_xeris)),
                   Figure("stat-own-jack-xeris", tr("player.own_jack_xeris"),
                          tr("player.own_of_team", own=st.partnership_own_jack_xeris, team=st.team_jack_xeris))]
            figures[6:6] = own
        name = names.get(pid, "?")

        def record(w: int, lost: int, d: int) -> str:
            return " · ".join((tr.n("player.wins", w), tr.n("player.losses", lost), tr.n("player.draws", d)))

        h2h = tuple((names.get(h.opponent_id, "?"), record(h.wins, h.losses, h.draws)) for h in f.head_to_head)
        partners = tuple((f"{name} & {names.get(p.partner_of(pid), '?')}", record(p.wins, p.losses, p.draws))
                         for p in f.partners)
        labels = tuple(tr.month(date(int(m.month[:4]), int(m.month[5:7]), 1)) for m in f.months)
        note = None
        if team:
            note = tr("player.team_note")
            missing = st.unattributed_xeris
            if missing:   # the partners' own do not add up to the team's: say why, and by how much
                all_team = st.team_xeris + st.team_jack_xeris
                note += " " + tr.n("player.team_note_missing", missing, named=all_team - missing, team=all_team)
        return pid, PlayerPage(
            name, tuple(figures), f.points, f.months, h2h, partners, labels, note, f.ratings,
            tuple(move_row(tr, m, names) for m in reversed(rated.moves)) if rated is not None else (),
            rated.form if rated is not None else (), f.hands_per_point,
            (rated.matches, rated.first, rated.rating) if rated is not None else None)
