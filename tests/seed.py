"""A data folder with a match in play, for tests and benchmarks that start the served app on it."""

from __future__ import annotations

from pathlib import Path


def seed_match(folder: Path, names: tuple[str, str] = ("Anna", "Ben")) -> str:
    """Start a classic race to 151 between two players in the data folder `folder`; its id."""
    from companion.engine import Goal, Match, Side
    from companion.formats.presets import preset
    from companion.service import Services
    from companion.storage import Store

    with Store(folder) as store:
        match = Match.new(preset("classic"), [Side(names[0]), Side(names[1])], Goal(target=151, extension=251))
        return Services.over(store).table.start(match).id
