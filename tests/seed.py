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
