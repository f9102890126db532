"""Data folders for tests and benchmarks that start the app on them: a match in play, or a history."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.engine import Goal, HandEntry, Match, Side
from companion.formats.presets import preset
from companion.storage import Store

from .play import play


def seed_match(folder: Path, names: tuple[str, str] = ("Anna", "Ben")) -> str:
    """Start a classic race to 151 between two players in the data folder `folder`; its id."""
    from companion.service import Services

    with Store(folder) as store:
        match = Match.new(preset("classic"), [Side(names[0]), Side(names[1])], Goal(target=151, extension=251))
        return Services.over(store).table.start(match).id


def hand(anna_side_counting: int, ten: int, two: int, xeris=(0, 0), jack_xeris=(0, 0), cards=(30, 22)) -> HandEntry:
    """A valid classic count-mode hand of two sides (20 counting cards between them)."""
    return HandEntry(cards=cards, counting=(anna_side_counting, 20 - anna_side_counting), ten_of_diamonds=ten,
                     two=two, xeris=xeris, jack_xeris=jack_xeris)


@dataclass(frozen=True)
class Seeded:
    folder: Path
    anna_ben: str
    """Classic, one hand: Anna 26, Ben 29 with a jack xeri; Ben wins (Anna would under plain rules)."""
    anna_chris: str
    """Classic, one hand: Anna 5, Chris 40; Chris wins."""
    abandoned: str
    """Ben v Chris, classic to 151, stopped after one hand."""
    partners: str
    """Partnership, one hand: Reds (Anna & Dora) 27, Blues (Ben & Chris) 18."""

    @property
    def all(self) -> tuple[str, ...]:
        return self.anna_ben, self.anna_chris, self.abandoned, self.partners


def seed_history(folder: Path) -> Seeded:
    """Four past matches in the data folder `folder` (three finished, one stopped), for the history's tests."""
    classic = preset("classic")
    store = Store(folder)
    try:
        one_hand = Goal(hands=1)
        anna_ben = play(store).start(Match(
            rules=classic, sides=(Side("Anna"), Side("Ben")), goal=one_hand,
            hands=(hand(12, 0, 1, xeris=(1, 0), jack_xeris=(0, 1)),)))
        anna_chris = play(store).start(Match(
            rules=classic, sides=(Side("Anna"), Side("Chris")), goal=one_hand,
            hands=(hand(5, 1, 1, xeris=(0, 2), cards=(20, 32)),)))
        stopped = play(store).start(Match.new(classic, [Side("Ben"), Side("Chris")]))
        stopped = play(store).record_hand(stopped.id, hand(11, 0, 0))
        play(store).abandon(stopped.id)
        partners = play(store).start(Match(
            rules=preset("partnership"), sides=(Side("Reds", ("Anna", "Dora")), Side("Blues", ("Ben", "Chris"))),
            goal=one_hand, hands=(hand(13, 0, 1, xeris=(1, 1)),)))
        seeded = Seeded(folder, anna_ben.id, anna_chris.id, stopped.id, partners.id)
        summaries = {s.id: s for s in store.list_matches()}
        assert [summaries[m].winner for m in (seeded.anna_ben, seeded.anna_chris, seeded.partners)] == [1, 1, 0]
        assert summaries[seeded.abandoned].abandoned
        return seeded
    finally:
        store.close()


SEASON_PLAYERS = ("Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Κωνσταντίνος")
"""A club: each player's chance to take a hand from a weaker one grows with the place in this order's reverse."""


def seed_season(folder: Path, matches: int = 40, days: int = 80, seed: int = 7) -> None:
    """A club's season in `folder`: `matches` one-hand classic matches and a few partnerships between
    `SEASON_PLAYERS` over the last `days` days, the last three tonight (the stronger player wins more often),
    for the leaderboard and the evening on Home."""
    import random
    from datetime import UTC, datetime, timedelta

    from companion.service import Services

    rng = random.Random(seed)
    skill = {name: len(SEASON_PLAYERS) - i for i, name in enumerate(SEASON_PLAYERS)}
    start = datetime.now(UTC) - timedelta(days=days)
    when = [start + timedelta(days=days * k / matches, hours=20) for k in range(matches - 3)]
    when += [datetime.now(UTC) - timedelta(hours=3 - k) for k in range(3)]     # tonight: the evening on Home
    step = iter(when)
    clock_now = [start]

    def clock() -> str:
        return clock_now[0].isoformat(timespec="milliseconds").replace("+00:00", "Z")

    with Store(folder) as store:
        table = Services.over(store, clock=clock).table
        for k in range(matches):
            clock_now[0] = next(step)
            if k % 8 == 7:
                four = rng.sample(SEASON_PLAYERS, 4)
                sides = [Side(f"{four[0]} & {four[1]}", (four[0], four[1])), Side(f"{four[2]} & {four[3]}", (four[2], four[3]))]
                first = skill[four[0]] + skill[four[1]] + rng.random() * 6 > skill[four[2]] + skill[four[3]] + 3
                rules = preset("partnership")
            else:
                a, b = rng.sample(SEASON_PLAYERS, 2)
                sides = [Side(a), Side(b)]
                first = skill[a] + rng.random() * 6 > skill[b] + 3
                rules = preset("classic")
            entry = hand(13, 0, 1, xeris=(rng.randrange(0, 3), 0)) if first else \
                hand(4, 1, 0, xeris=(0, rng.randrange(0, 3)), cards=(20, 32))
            table.start(Match(rules=rules, sides=tuple(sides), goal=Goal(hands=1), hands=(entry,)))
