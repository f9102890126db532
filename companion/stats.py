"""History and statistics over stored matches: plain functions of `MatchRecord` values, never of storage.

Which matches count: the history is every match that is finished (`MatchRecord.finished` set) or
abandoned; matches still in play are left out everywhere. Each match is scored once with the engine
(`standing`, kept as a `ScoredMatch`), and every figure is added up from that:

- match figures (played, won, lost, drawn, win rate, streaks, head-to-head, partnerships, wins per
  month) count only matches that were decided (won or drawn); an abandoned match is counted apart;
- hand figures (hands won, points, xeris, the 10♦, the special two, most cards, best hand) count every
  scored hand of finished and abandoned matches alike.

Players are known by the stable ids of `MatchRecord.player_ids`, never by name (names can change; see
`player_names`); a record without ids is in the history and the export but counts for no player. A partnership is one side with one capture pile, so its hand figures are the side's:
every per-hand figure is per hand of the player's side, and both partners get the same figures.

Every function takes records, or the `ScoredMatch` values of `score_history`. Scoring is nearly all
the cost (the engine checks and itemises every hand), so a page that shows several figures, or a view
model that keeps the history between pages, should score once and pass the scored history around:
adding the figures up is then a few milliseconds for a thousand matches.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Iterable, NamedTuple

from .engine.entry import InvalidHand, Problem
from .engine.match import Match, MatchError, Standing, Status, standing, with_rules
from .engine.rules import Goal, RuleSet
from .engine.scoring import ITEMS, HandScore, score_hand
from .records import MatchRecord

__all__ = [
    "SideFigures", "ScoredMatch", "is_history", "score_record", "score_history", "player_names",
    "HistoryRow", "history",
    "BestHand", "PlayerStats", "player_stats",
    "HeadToHead", "head_to_head", "Partnership", "partnerships", "pairs",
    "HandPoints", "points_per_hand_series", "MonthWins", "wins_per_month",
    "TotalsSeries", "running_totals_series",
    "WhatIf", "WhatIfError", "what_if",
    "CSV_SIDES", "CSV_HEADER", "history_csv",
]

MAX_SIDES = 4
"""The most sides a table can have (four single players, or two partnerships)."""

# Where each scoring item sits among a side's lines (`HandScore.lines[side]` is in `ITEMS` order).
_MAJORITY, _TEN, _TWO, _XERIS, _JACK_XERIS = (ITEMS.index(i) for i in
                                               ("majority", "ten_of_diamonds", "two", "xeris", "jack_xeris"))


# --- scoring each stored match once --------------------------------------------------------------

def _parse_time(text: str, record_id: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValueError(f"match {record_id}: {text!r} is not an ISO 8601 timestamp") from None
    # Records are written in UTC; a timestamp without a zone is read as UTC so that all compare.
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)


@dataclass(frozen=True)
class SideFigures:
    """One side's hand figures in one match, worked out once so that a player's page only adds them up."""

    points: int
    """Points the side scored in the match's hands."""
    hands_won: int
    """Hands the side won (strictly the most points)."""
    hands_tied: int
    """Hands with equal top scores, won by nobody."""
    xeris: int
    """Xeris (not jack xeris)."""
    jack_xeris: int
    """Jack xeris."""
    ten_of_diamonds: int
    """Hands in which the side took the 10♦."""
    two: int
    """Hands in which the side took the special two."""
    most_cards: int
    """Hands in which the side had strictly the most cards."""
    best_points: int | None
    """The most points the side scored in one hand; None for a match without hands."""
    best_hand: int | None
    """The number (from 1) of the first hand with `best_points`."""


def _side_figures(scores: tuple[HandScore, ...], side: int) -> SideFigures:
    points = won = tied = xeris = jack_xeris = tens = twos = most = 0
    best, best_hand = None, None
    for number, score in enumerate(scores, start=1):
        mine, lines = score.points[side], score.lines[side]
        points += mine
        if score.winner == side:
            won += 1
        elif score.winner is None:
            tied += 1
        xeris += lines[_XERIS].count or 0
        jack_xeris += lines[_JACK_XERIS].count or 0
        tens += lines[_TEN].count or 0
        twos += lines[_TWO].count or 0
        most += lines[_MAJORITY].note == "most"
        if best is None or mine > best:
            best, best_hand = mine, number
    return SideFigures(points, won, tied, xeris, jack_xeris, tens, twos, most, best, best_hand)


@dataclass(frozen=True)
class ScoredMatch:
    """A finished or abandoned match scored once by the engine, kept as the few numbers the figures need.

    (Not the whole `Standing`: its itemised lines are many small objects, and a history of a thousand
    matches would keep a hundred thousand of them alive for nothing.)
    """

    record: MatchRecord
    """The stored match."""
    date: str
    """The timestamp the match is dated by: when it finished, or when it started if it never did."""
    when: datetime
    """`date` as an aware UTC datetime, for ordering and months."""
    status: Status
    """Won, drawn, or playing (abandoned)."""
    winner: int | None
    """The winning side, once won."""
    totals: tuple[int, ...]
    """Points per side."""
    hands_won: tuple[int, ...]
    """Hands won per side."""
    hand_points: tuple[tuple[int, ...], ...]
    """Each hand's points per side (hands after the deciding hand, which a stored match never has, left out)."""
    hand_winners: tuple[int | None, ...]
    """Each hand's winning side, or None for a hand won by nobody."""
    sides: tuple[SideFigures, ...]
    """Each side's hand figures."""

    @property
    def match(self) -> Match:
        """The engine's match."""
        return self.record.match

    @property
    def is_decided(self) -> bool:
        """True when the match was won or drawn; False when it was abandoned."""
        return self.status is not Status.PLAYING

    def side_of(self, player_id: str) -> int | None:
        """The side the player sat on, or None when the player was not at the table."""
        for side, ids in enumerate(self.record.player_ids):
            if player_id in ids:
                return side
        return None

    def result_of(self, side: int) -> str:
        """`won`, `lost`, `drawn`, or `abandoned`, for the side."""
        if self.status is Status.WON:
            return "won" if self.winner == side else "lost"
        return "drawn" if self.status is Status.DRAWN else "abandoned"


def is_history(record: MatchRecord) -> bool:
    """True for a match that belongs to the history: finished, or abandoned."""
    return record.finished is not None or record.abandoned


def score_record(record: MatchRecord) -> ScoredMatch:
    """The record scored by the engine; `InvalidHand` if a stored hand cannot be scored under its rules."""
    # strict=False: a stored match never has hands after its end, but if one did, the figures count
    # the hands up to the end instead of failing the whole history page.
    date = record.finished or record.created
    st = standing(record.match, strict=False)
    return ScoredMatch(
        record=record, date=date, when=_parse_time(date, record.id),
        status=st.status, winner=st.winner, totals=st.totals, hands_won=st.hands_won,
        hand_points=tuple(score.points for score in st.scores),
        hand_winners=tuple(score.winner for score in st.scores),
        sides=tuple(_side_figures(st.scores, side) for side in range(len(record.match.sides))),
    )


def _order_key(scored: ScoredMatch) -> tuple[datetime, str, str]:
    return scored.when, scored.record.created, scored.record.id


def _scored(items: Iterable[MatchRecord | ScoredMatch], player_id: str | None = None) -> list[ScoredMatch]:
    """The history in the items (only the player's, when given), scored, oldest first."""
    out = []
    for item in items:
        record = item.record if isinstance(item, ScoredMatch) else item
        if player_id is not None and not any(player_id in ids for ids in record.player_ids):
            continue  # before scoring: scoring is the expensive part
        if isinstance(item, ScoredMatch):
            out.append(item)
        elif is_history(item):
            out.append(score_record(item))
    out.sort(key=_order_key)
    return out


def score_history(records: Iterable[MatchRecord | ScoredMatch]) -> tuple[ScoredMatch, ...]:
    """The finished and abandoned matches, each scored once, oldest first (pass it to the other functions)."""
    return tuple(_scored(records))


def player_names(records: Iterable[MatchRecord | ScoredMatch]) -> dict[str, str]:
    """Each player id with the name it had in its newest match (any match, in play or not)."""
    newest: dict[str, tuple[tuple[datetime, str, str], str]] = {}
    for item in records:
        record = item.record if isinstance(item, ScoredMatch) else item
        key = (_parse_time(record.finished or record.created, record.id), record.created, record.id)
        for side, ids in zip(record.match.sides, record.player_ids):
            for player_id, name in zip(ids, side.members):
                if player_id not in newest or key > newest[player_id][0]:
                    newest[player_id] = (key, name)
    return {player_id: name for player_id, (_, name) in sorted(newest.items())}


# --- history ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HistoryRow:
    """One match of the history, as the history list shows it."""

    id: str
    """The match's record id."""
    date: str
    """When it finished, or when it started if it was abandoned (ISO 8601, UTC)."""
    sides: tuple[str, ...]
    """The side names, in score-sheet order."""
    members: tuple[tuple[str, ...], ...]
    """The players' names per side (the partners of a partnership, or the one player)."""
    player_ids: tuple[tuple[str, ...], ...]
    """The players' ids per side."""
    rules_name: str
    """The rule set's name (`classic`, `partnership`, …)."""
    rules: RuleSet
    """The rule set itself, variants included."""
    goal: Goal
    """The target race or agreed number of hands."""
    hands: int
    """Hands played."""
    totals: tuple[int, ...]
    """Final points per side."""
    hands_won: tuple[int, ...]
    """Hands won per side."""
    winner: int | None
    """The winning side, or None for a drawn or abandoned match."""
    status: Status
    """Won, drawn, or playing (an abandoned match is still playing)."""
    abandoned: bool
    """True when the table stopped the match before it was decided."""

    @property
    def winner_name(self) -> str | None:
        """The winning side's name, or None."""
        return self.sides[self.winner] if self.winner is not None else None


def _rules_match(rules: RuleSet, wanted: str | RuleSet | None) -> bool:
    if wanted is None:
        return True
    return rules.name == wanted if isinstance(wanted, str) else rules == wanted


def history(records: Iterable[MatchRecord | ScoredMatch], player_id: str | None = None,
            rules: str | RuleSet | None = None) -> list[HistoryRow]:
    """Finished and abandoned matches, newest first; only the player's and of the rule set, when given.

    `rules` is a rule-set name (every variant of it) or a `RuleSet` (exactly that one).
    """
    rows = []
    for sm in reversed(_scored(records, player_id)):
        match = sm.match
        if not _rules_match(match.rules, rules):
            continue
        rows.append(HistoryRow(
            id=sm.record.id, date=sm.date,
            sides=tuple(s.name for s in match.sides), members=tuple(s.members for s in match.sides),
            player_ids=sm.record.player_ids, rules_name=match.rules.name, rules=match.rules, goal=match.goal,
            hands=len(sm.hand_points), totals=sm.totals, hands_won=sm.hands_won, winner=sm.winner,
            status=sm.status, abandoned=not sm.is_decided,
        ))
    return rows


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
    for sm in _scored(records, player_id):
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
        if fig.best_points is not None and (best is None or fig.best_points > best.points):
            best = BestHand(points=fig.best_points, match_id=sm.record.id, hand=fig.best_hand, date=sm.date)
    played = results["won"] + results["lost"] + results["drawn"]
    return PlayerStats(
        player_id=player_id, matches=played + results["abandoned"], played=played,
        won=results["won"], lost=results["lost"], drawn=results["drawn"], abandoned=results["abandoned"],
        hands=hands, hands_won=hands_won, hands_lost=hands - hands_won - hands_tied, hands_tied=hands_tied,
        points=points, xeris=xeris, jack_xeris=jack_xeris, ten_of_diamonds=tens, two=twos, most_cards=most,
        best_hand=best, longest_streak=longest, current_streak=streak,
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
    for sm in _scored(records, player_id):
        side = sm.side_of(player_id)
        if side is None or not sm.is_decided:
            continue
        for other, ids in enumerate(sm.record.player_ids):
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


def pairs(records: Iterable[MatchRecord | ScoredMatch]) -> list[Partnership]:
    """Every partnership of the history, most matches first."""
    return _pairs(_scored(records), None)


def partnerships(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[Partnership]:
    """The partnerships the player was in, one per partner, most matches first."""
    return _pairs(_scored(records, player_id), player_id)


def _pairs(scored: list[ScoredMatch], player_id: str | None) -> list[Partnership]:
    tally: dict[tuple[str, str], list[int]] = {}
    for sm in scored:
        if not sm.is_decided:
            continue
        for side, ids in enumerate(sm.record.player_ids):
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


class HandPoints(NamedTuple):
    """One point of a player's points-per-hand chart."""

    date: str
    """The match's date."""
    hand: int
    """The hand's number in its match, from 1."""
    points: int
    """The points of the player's side in that hand."""


def points_per_hand_series(records: Iterable[MatchRecord | ScoredMatch], player_id: str) -> list[HandPoints]:
    """The player's side's points in every hand, oldest first (finished and abandoned matches)."""
    series = []
    for sm in _scored(records, player_id):
        side = sm.side_of(player_id)
        if side is not None:
            series.extend(HandPoints(sm.date, number, points[side])
                          for number, points in enumerate(sm.hand_points, start=1))
    return series


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
    for sm in _scored(records, player_id):
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
    if not match.goal.is_race:
        return TotalsSeries(sides, None)
    if not st.extensions:
        return TotalsSeries(sides, (match.goal.target,) * (len(st.running) + 1))
    # The target only moves on an extension, which is rare: ask the engine where it stood after each hand
    # rather than repeating its rule here.
    targets = [match.goal.target] + [standing(replace(match, hands=match.hands[:n]), strict=False).target
                                     for n in range(1, len(st.running) + 1)]
    return TotalsSeries(sides, tuple(targets))


# --- what if ------------------------------------------------------------------------------------

class WhatIfError(ValueError):
    """A match that cannot be rescored under the other rules: the message says which hand and why."""

    def __init__(self, message: str, hand: int | None = None, problems: tuple[Problem, ...] = ()):
        super().__init__(message)
        self.hand = hand
        """The 0-based index of the hand that cannot be rescored, if a hand is at fault."""
        self.problems = problems
        """The engine's problems with that hand."""


@dataclass(frozen=True)
class WhatIf:
    """A match as it was scored beside the same hands under other rules; the stored match is unchanged."""

    stored_rules: RuleSet
    """The rules the match was played under."""
    rules: RuleSet
    """The rules it is rescored under."""
    goal: Goal
    """The goal of the rescored match (the stored goal unless another was asked for)."""
    stored: Standing
    """The standing as played."""
    rescored: Standing
    """The standing under the other rules; it may end at an earlier hand, or not at all."""
    stored_points: tuple[tuple[int, ...], ...]
    """Each stored hand's points per side, as played."""
    rescored_points: tuple[tuple[int, ...], ...]
    """Each stored hand's points per side under the other rules, hands after the new end included."""

    @property
    def hands_after_end(self) -> int:
        """Stored hands that fall after the hand deciding the rescored match."""
        return self.rescored.hands_after_end

    @property
    def totals(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Final points per side: as played, and rescored (up to the new end)."""
        return self.stored.totals, self.rescored.totals

    @property
    def winners(self) -> tuple[int | None, int | None]:
        """The winning side as played and rescored (None: drawn or undecided)."""
        return self.stored.winner, self.rescored.winner

    @property
    def winner_changed(self) -> bool:
        """True when the other rules give another result (winner, draw or no result yet)."""
        return (self.stored.status, self.stored.winner) != (self.rescored.status, self.rescored.winner)


def what_if(match: Match, rules: RuleSet, goal: Goal | None = None) -> WhatIf:
    """The match rescored under `rules` (and `goal`, if given) beside the stored result.

    Raise `WhatIfError` when the hands cannot be read under those rules: another table shape, another
    counting deck (the counts were taken for the played rules), or a hand the rules make impossible.
    """
    sides = len(match.sides)
    try:
        other = with_rules(match, rules)
        if goal is not None:
            other = replace(other, goal=goal)
    except MatchError as exc:
        raise WhatIfError(f"the match cannot be played under {rules.name} rules: {exc}") from None
    if rules.two != match.rules.two and any(not h.is_exact for h in match.hands):
        # A counted hand only says which side took the played rules' two, not who took the other two.
        raise WhatIfError(f"the hands say who took the {match.rules.two.label}, "
                          f"not the {rules.two.label} that {rules.name} rules score")
    rescored_points = []
    for index, entry in enumerate(match.hands):
        try:
            rescored_points.append(score_hand(entry, rules, sides).points)
        except InvalidHand as exc:
            raise WhatIfError(f"hand {index + 1} cannot be scored under {rules.name} rules: "
                              f"{', '.join(p.code for p in exc.problems)}", index, exc.problems) from None
    stored = standing(match, strict=False)
    return WhatIf(
        stored_rules=match.rules, rules=rules, goal=other.goal,
        stored=stored, rescored=standing(other, strict=False),
        stored_points=tuple(score.points for score in stored.scores),
        rescored_points=tuple(rescored_points),
    )


# --- export -------------------------------------------------------------------------------------

CSV_SIDES = MAX_SIDES
"""Side columns in the export: enough for any table."""
CSV_HEADER = (
    ("match", "date", "rules", "hand")
    + tuple(f"side_{n}" for n in range(1, CSV_SIDES + 1))
    + tuple(f"points_{n}" for n in range(1, CSV_SIDES + 1))
    + tuple(f"total_{n}" for n in range(1, CSV_SIDES + 1))
    + ("hand_winner",)
)
"""The export's columns; a table of fewer sides leaves the extra side columns empty."""


def _cell(text: str) -> str:
    # A name starting with = + - @ would run as a formula in a spreadsheet; a leading ' keeps it text.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def history_csv(records: Iterable[MatchRecord | ScoredMatch]) -> str:
    """The whole history as CSV text, one row per hand, oldest match first (lines end in `\\n`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    blank = [""] * CSV_SIDES
    for sm in _scored(records):
        match = sm.match
        names = [_cell(s.name) for s in match.sides]
        running = [0] * len(names)
        for number, (points, winner) in enumerate(zip(sm.hand_points, sm.hand_winners), start=1):
            running = [t + p for t, p in zip(running, points)]
            writer.writerow(
                [sm.record.id, sm.date, _cell(match.rules.name), number]
                + (names + blank)[:CSV_SIDES]
                + (list(points) + blank)[:CSV_SIDES]
                + (running + blank)[:CSV_SIDES]
                + [names[winner] if winner is not None else ""]
            )
    return out.getvalue()
