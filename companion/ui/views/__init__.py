"""The screens: functions from the app's view model to Flet controls. They render and send intents;
they import no engine, storage, presets or statistics (a test checks)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..viewmodel import AppModel, Screen
from .home import home
from .memo import redraw


class Later:
    """A screen's render function, imported from its module of this package when the screen is first drawn: a
    start imports only the screens it shows (in the browser build every module imported before the first
    screen costs a first visit, issue #27; the snapshot for the next start holds them all the same)."""

    def __init__(self, module: str, name: str):
        self.module = f"{__name__}.{module}"
        self.name = name

    def __call__(self, vm: AppModel) -> object:
        return getattr(importlib.import_module(self.module), self.name)(vm)

    def __repr__(self) -> str:
        return f"Later({self.module}.{self.name})"


SCREENS: dict[Screen, Callable[[AppModel], object]] = {
    Screen.HOME: home,
    Screen.SETUP: Later("setup", "setup"),
    Screen.SCOREBOARD: Later("scoreboard", "scoreboard"),
    Screen.ENTRY: Later("entry", "entry"),
    Screen.RULES: Later("settings", "rules_screen"),
    Screen.SETTINGS: Later("settings", "settings_screen"),
    Screen.HISTORY: Later("history", "history_screen"),
    Screen.RECORD: Later("history", "record_screen"),
    Screen.PLAYER: Later("history", "player_screen"),
    Screen.RATINGS: Later("ratings", "ratings_screen"),
    Screen.SYNC: Later("sync", "sync_screen"),
    Screen.CONFLICT: Later("sync", "conflict_screen"),
}
"""Every screen's render function: a screen without one is an error (a test checks every `Screen`). Home's is
imported with the app; the others' when first drawn (`Later`)."""

LATER = tuple(sorted({view.module for view in SCREENS.values() if isinstance(view, Later)} | {f"{__name__}.picture"}))
"""The modules of this package a start does not import until a screen (or the picture of a match) needs them."""


def render(vm: AppModel):
    """The controls of the screen on show: a list, or (list, footer) for a footer kept in reach."""
    redraw(vm.session)
    return SCREENS[vm.screen](vm)
