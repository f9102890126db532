"""What a person does at the table, said straight to the view models (no screen drawn): start a match, enter
a typical hand. For the same through the screens' controls, tests/flows.py."""

from __future__ import annotations

from companion.engine.live import TapKind
from companion.ui.viewmodel import AppModel, Place, Screen, Session


def start(app, names=("Anna", "Ben"), layout="two", preset=None, goal=None):
    app.setup.open()
    if layout != "two":
        app.setup.set_layout(layout)
    if preset:
        app.setup.set_preset(preset)
    for i, n in enumerate(names):
        app.setup.set_name(i, n)
    if goal:
        app.setup.set_goal_kind(goal["goal_kind"])
        app.setup.form.hands = goal.get("hands", app.setup.form.hands)
    app.setup.start()
    assert app.screen is Screen.SCOREBOARD, app.session.notice


def enter(app, most=0, counting=(0, 12), ten=0, two=1, xeris=None):
    app.scoreboard.end_hand()
    assert app.screen is Screen.ENTRY
    app.entry.set_most(most)
    app.entry.set_counting(*counting)
    app.entry.set_ten(ten)
    app.entry.set_two(two)
    for side, n in enumerate(xeris or ()):
        for _ in range(n):
            app.entry.step(TapKind.XERI, side, 1)
    assert app.entry.save_reason() is None, app.entry.save_reason()
    app.entry.save()
    assert app.screen is Screen.SCOREBOARD


class Browser:
    """A phone's browser: where the page keeps the phone's place (`ui.app.place_keeper`), read back as it opens."""

    def __init__(self) -> None:
        self.kept: list[Place] = []

    def open(self, services) -> AppModel:
        session = Session(services)
        session.place, session.keep_place = (self.kept[-1] if self.kept else None), self.kept.append
        return AppModel(services, session=session)
