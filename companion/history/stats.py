"""History and statistics over stored matches: plain functions of `MatchRecord` values, never of storage.

Which matches count: the history is every match that is finished (`MatchRecord.finished` set) or
abandoned; matches still in play are left out everywhere. Each match is scored once with the engine
(`standing`, kept as a `ScoredMatch`), and every figure is added up from that:

- match figures (played, won, lost, drawn, win rate, streaks, head-to-head, partnerships, wins per
  month) count only matches that were decided (won or drawn); an abandoned match is counted apart;
- hand figures (hands won, points, xeris, the 10♦, the special two, most cards, best hand) count every
  scored hand of finished and abandoned matches alike.

Players are known by the stable ids of `MatchRecord.player_ids`, never by name (names can change; see
`player_names`); a record without ids is in the history and the export but counts for no player. A
partnership is one side with one capture pile, so its hand figures are the side's: every per-hand figure
is per hand of the player's side, and both partners get the same figures. A player's own xeris come from
the taps kept with each hand (who made each xeri), which add up to the team's where every hand says so.

Every function takes records, or the `ScoredMatch` values of `score_history` (see scored.py). Scoring is nearly all
the cost (the engine checks and itemises every hand), so a page that shows several figures, or a view
model that keeps the history between pages, should score once and pass the scored history around:
adding the figures up is then a few milliseconds for a thousand matches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import chain
from operator import itemgetter
from typing import NamedTuple
from collections.abc import Iterable

from ..engine.match import Match, Status, standing
from ..records import MatchRecord
from .scored import ScoredMatch, SideFigures, is_history, player_names, score_history, score_record, scored

__all__ = [
    "SideFigures", "ScoredMatch", "is_history", "score_record", "score_history", "player_names",
    "BestHand", "PlayerStats", "player_stats",
    "HeadToHead", "head_to_head", "Partnership", "partnerships",
    "points_per_hand", "MonthWins", "wins_per_month",
    "TotalsSeries", "running_totals_series",
]


# --- a player's page ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BestHand:
    """A player's best hand: the most points their side scored in one hand (the first such hand)."""

    points: int
    """The side's points in that hand."""
    match_id: str
    """The match it was played in."""
    hand: int
    """Its number in the match, from 1."""
    date: str
    """The match's date."""


def _rate(count: int, out_of: int) -> float | None:
    return count / out_of if out_of else None


@dataclass(frozen=True)
class PlayerStats:
    """A player's figures over the history; hand figures are per hand of the player's side.

    In a partnership both partners share one capture pile, so each partner gets the side's figures.
    """

    player_id: str
    """Whose figures these are."""
    matches: int
    """Finished and abandoned matches the player sat in."""
    played: int
    """Of those, decided matches: won, lost or drawn."""
    won: int
    """Matches the player's side won."""
    lost: int
    """Matches another side won."""
    drawn: int
    """Drawn matches (most hands won shared under a hands goal)."""
    abandoned: int
    """Matches stopped before they were decided."""
    hands: int
    """Hands played, in finished and abandoned matches."""
    hands_won: int
    """Hands the player's side won (strictly the most points)."""
    hands_lost: int
    """Hands another side won."""
    hands_tied: int
    """Hands with equal top scores, won by nobody."""
    points: int
    """Points the player's side scored in those hands."""
    xeris: int
    """Xeris of the player's side (not jack xeris)."""
    jack_xeris: int
    """Jack xeris of the player's side."""
    ten_of_diamonds: int
    """Hands in which the player's side took the 10♦."""
    two: int
    """Hands in which the player's side took the special two (2♣, or 2♠ where the rules say so)."""
    most_cards: int
    """Hands in which the player's side had strictly the most cards."""
    best_hand: BestHand | None
    """The most points in one hand, or None before any hand."""
    longest_streak: int
    """The most decided matches won in a row (abandoned matches neither extend nor break a streak)."""
    current_streak: int
    """Decided matches won in a row up to the latest one."""
    own_xeris: int = 0
    """Xeris the player made themself, from the live taps (the side's figure above is the team's)."""
    own_jack_xeris: int = 0
    """Jack xeris the player made themself, from the live taps."""
    own_hands: int = 0
    """Hands whose live taps are known: what the player's own figures are counted over."""
    in_partnership: bool = False
    """True when some of the player's matches were played in a partnership (their side's figures are the team's)."""
    team_xeris: int = 0
    """Xeris of the player's team in partnership matches: what the player's and the partner's own add up to,
    less those entered without saying who made them (`unattributed_xeris`)."""
    team_jack_xeris: int = 0
    """Jack xeris of the player's team in partnership matches."""
    partner_xeris: int = 0
    """Xeris the player's partners made, from the taps (partnership matches)."""
    partner_jack_xeris: int = 0
    """Jack xeris the player's partners made."""
    partnership_own_xeris: int = 0
    """The player's own xeris in partnership matches (`own_xeris` counts every match)."""
    partnership_own_jack_xeris: int = 0
    """The player's own jack xeris in partnership matches."""

    @property
    def unattributed_xeris(self) -> int:
        """Xeris and jack xeris of the player's teams that no player was named for (hands saved before the app
        kept who made them, or imported): why the partners' own figures may not add up to the team's."""
        return max(0, self.team_xeris + self.team_jack_xeris - self.partnership_own_xeris
                   - self.partnership_own_jack_xeris - self.partner_xeris - self.partner_jack_xeris)

    @property
    def win_rate(self) -> float | None:
        """Matches won per decided match (0 to 1), or None before any."""
        return _rate(self.won, self.played)

    @property
    def points_per_hand(self) -> float | None:
        """Average points per hand of the player's side."""
        return _rate(self.points, self.hands)

    @property
    def xeris_per_hand(self) -> float | None:
        """Xeris per hand of the player's side."""
        return _rate(self.xeris, self.hands)

    @property
    def jack_xeris_per_hand(self) -> float | None:
        """Jack xeris per hand of the player's side."""
        return _rate(self.jack_xeris, self.hands)

    @property
    def ten_of_diamonds_rate(self) -> float | None:
        """Share of hands in which the player's side took the 10♦."""
        return _rate(self.ten_of_diamonds, self.hands)

    @property
    def two_rate(self) -> float | None:
        """Share of hands in which the player's side took the special two."""
        return _rate(self.two, self.hands)

    @property
    def most_cards_rate(self) -> float | None:
        """Share of hands in which the player's side had most cards."""
        return _rate(self.most_cards, self.hands)


def player_stats(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> PlayerStats:
    """Every figure of the player's page (all zero, no best hand, for a player without matches)."""
    results = {"won": 0, "lost": 0, "drawn": 0, "abandoned": 0}
    hands = hands_won = hands_tied = points = 0
    xeris = jack_xeris = tens = twos = most = 0
    best: BestHand | None = None
    streak = longest = 0
    own_xeris = own_jacks = own_hands = 0
    in_partnership = False
    team = {"team_xeris": 0, "team_jack_xeris": 0, "partner_xeris": 0, "partner_jack_xeris": 0,
            "partnership_own_xeris": 0, "partnership_own_jack_xeris": 0}
    for sm in scored(records, player_id):
        side = sm.side_of(player_id)
        if side is None:
            continue
        result = sm.result_of(side)
        results[result] += 1
        if result == "won":
            streak += 1
            longest = max(longest, streak)
        elif result != "abandoned":
            streak = 0
        fig = sm.sides[side]
        hands += len(sm.hand_points)
        hands_won += fig.hands_won
        hands_tied += fig.hands_tied
        points += fig.points
        xeris += fig.xeris
        jack_xeris += fig.jack_xeris
        tens += fig.ten_of_diamonds
        twos += fig.two
        most += fig.most_cards
        in_partnership |= sm.partnerships
        seat = sm.seat_of(player_id)
        if seat is not None and seat < len(sm.seat_taps):
            x, j, known = sm.seat_taps[seat]
            own_xeris, own_jacks, own_hands = own_xeris + x, own_jacks + j, own_hands + known
            partner = sm.partner_seat(seat)
            if partner is not None:
                px, pj, _known = sm.seat_taps[partner] if partner < len(sm.seat_taps) else (0, 0, 0)
                for key, value in (("team_xeris", fig.xeris), ("team_jack_xeris", fig.jack_xeris),
                                   ("partner_xeris", px), ("partner_jack_xeris", pj),
                                   ("partnership_own_xeris", x), ("partnership_own_jack_xeris", j)):
                    team[key] += value
        better = fig.best_points is not None and (best is None or fig.best_points > best.points)
        if better and fig.best_points is not None and fig.best_hand is not None:
            best = BestHand(points=fig.best_points, match_id=sm.id, hand=fig.best_hand, date=sm.date)
    played = results["won"] + results["lost"] + results["drawn"]
    return PlayerStats(
        player_id=player_id, matches=played + results["abandoned"], played=played,
        won=results["won"], lost=results["lost"], drawn=results["drawn"], abandoned=results["abandoned"],
        hands=hands, hands_won=hands_won, hands_lost=hands - hands_won - hands_tied, hands_tied=hands_tied,
        points=points, xeris=xeris, jack_xeris=jack_xeris, ten_of_diamonds=tens, two=twos, most_cards=most,
        best_hand=best, longest_streak=longest, current_streak=streak,
        own_xeris=own_xeris, own_jack_xeris=own_jacks, own_hands=own_hands, in_partnership=in_partnership,
        **team,
    )


@dataclass(frozen=True)
class HeadToHead:
    """A player's decided matches against one opponent (a player on another side)."""

    opponent_id: str
    """The opponent."""
    matches: int
    """Decided matches with the two on different sides."""
    wins: int
    """Of those, won by the player's side."""
    losses: int
    """Won by the opponent's side."""
    draws: int
    """Drawn."""

    @property
    def third_side_wins(self) -> int:
        """Won by a third side (tables of three or four single players)."""
        return self.matches - self.wins - self.losses - self.draws


def head_to_head(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[HeadToHead]:
    """The player's record against each opponent, most matches first; partners are not opponents."""
    tally: dict[str, list[int]] = {}
    for sm in scored(records, player_id):
        side = sm.side_of(player_id)
        if side is None or not sm.is_decided:
            continue
        for other, ids in enumerate(sm.player_ids):
            if other == side:
                continue
            for opponent in ids:
                t = tally.setdefault(opponent, [0, 0, 0, 0])
                t[0] += 1
                t[1] += sm.winner == side
                t[2] += sm.winner == other
                t[3] += sm.status is Status.DRAWN
    rows = [HeadToHead(opponent, *t) for opponent, t in tally.items()]
    rows.sort(key=lambda h: (-h.matches, -h.wins, h.opponent_id))
    return rows


@dataclass(frozen=True)
class Partnership:
    """Two players' decided matches as partners on one side."""

    players: tuple[str, str]
    """The two partners' ids, in sorted order."""
    matches: int
    """Decided matches they played as partners."""
    wins: int
    """Of those, won."""
    losses: int
    """Lost."""
    draws: int
    """Drawn."""

    def partner_of(self, player_id: str) -> str:
        """The other partner."""
        return self.players[1] if self.players[0] == player_id else self.players[0]

    @property
    def win_rate(self) -> float | None:
        """Matches won per match played together."""
        return _rate(self.wins, self.matches)


def partnerships(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[Partnership]:
    """The partnerships the player was in, one per partner, most matches first."""
    return _pairs(scored(records, player_id), player_id)


def _pairs(scored: list[ScoredMatch], player_id: str | None) -> list[Partnership]:
    tally: dict[tuple[str, str], list[int]] = {}
    for sm in scored:
        if not sm.is_decided:
            continue
        for side, ids in enumerate(sm.player_ids):
            if len(ids) != 2 or (player_id is not None and player_id not in ids):
                continue
            t = tally.setdefault((min(ids), max(ids)), [0, 0, 0, 0])
            result = sm.result_of(side)
            t[0] += 1
            t[1] += result == "won"
            t[2] += result == "lost"
            t[3] += result == "drawn"
    rows = [Partnership(players, *t) for players, t in tally.items()]
    rows.sort(key=lambda p: (-p.matches, -p.wins, p.players))
    return rows


def points_per_hand(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[int]:
    """The player's side's points in every hand, oldest first (finished and abandoned matches): a chart's line, as
    plain numbers (a player at 5,000 tables has 50,000 of them)."""
    return list(chain.from_iterable(map(itemgetter(side), sm.hand_points) for sm in scored(records, player_id)
                                    if (side := sm.side_of(player_id)) is not None))


class MonthWins(NamedTuple):
    """One bar of a player's wins-per-month chart."""

    month: str
    """`YYYY-MM`, in UTC."""
    wins: int
    """Matches won that month."""
    played: int
    """Decided matches played that month."""


def wins_per_month(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[MonthWins]:
    """Wins and decided matches per month, from the player's first month to the last, empty months included."""
    tally: dict[tuple[int, int], list[int]] = {}
    for sm in scored(records, player_id):
        side = sm.side_of(player_id)
        if side is None or not sm.is_decided:
            continue
        t = tally.setdefault((sm.when.year, sm.when.month), [0, 0])
        t[0] += sm.winner == side
        t[1] += 1
    if not tally:
        return []
    (year, month), last = min(tally), max(tally)
    out = []
    while (year, month) <= last:
        wins, played = tally.get((year, month), (0, 0))
        out.append(MonthWins(f"{year:04d}-{month:02d}", wins, played))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


# --- a match's chart ----------------------------------------------------------------------------

class TotalsSeries(NamedTuple):
    """The lines of a match's chart, one point before the first hand and one after each hand."""

    sides: tuple[tuple[int, ...], ...]
    """Each side's running total: 0, then the total after each hand."""
    target: tuple[int, ...] | None
    """The target in force at each point (it steps up when two sides reach it together); None for a hands goal."""


def running_totals_series(match: Match) -> TotalsSeries:
    """The running totals of each side and the target line (hands after the end, as in a what-if, left out)."""
    st = standing(match, strict=False)
    sides = tuple((0,) + tuple(running[side] for running in st.running) for side in range(len(match.sides)))
    target = match.goal.target
    if target is None:
        return TotalsSeries(sides, None)
    if not st.extensions:
        return TotalsSeries(sides, (target,) * (len(st.running) + 1))
    # The target only moves on an extension, which is rare: ask the engine where it stood after each hand
    # rather than repeating its rule here.
    targets = [target] + [standing(replace(match, hands=match.hands[:n]), strict=False).target or target
                          for n in range(1, len(st.running) + 1)]
    return TotalsSeries(sides, tuple(targets))
