"""The screens: functions from the app's view model to Flet controls. They render and send intents;
they import no engine, storage, presets or statistics (a test checks)."""

from __future__ import annotations

from collections.abc import Callable

from ..viewmodel import AppModel, Screen
from .entry import entry
from .history import history_screen, player_screen, record_screen
from .home import home
from .ratings import ratings_screen
from .memo import redraw
from .scoreboard import scoreboard
from .settings import rules_screen, settings_screen
from .setup import setup
from .sync import conflict_screen, sync_screen

SCREENS: dict[Screen, Callable[[AppModel], object]] = {
    Screen.HOME: home,
    Screen.SETUP: setup,
    Screen.SCOREBOARD: scoreboard,
    Screen.ENTRY: entry,
    Screen.RULES: rules_screen,
    Screen.SETTINGS: settings_screen,
    Screen.HISTORY: history_screen,
    Screen.RECORD: record_screen,
    Screen.PLAYER: player_screen,
    Screen.RATINGS: ratings_screen,
    Screen.SYNC: sync_screen,
    Screen.CONFLICT: conflict_screen,
}
"""Every screen's render function: a screen without one is an error (a test checks every `Screen`)."""


def render(vm: AppModel):
    """The controls of the screen on show: a list, or (list, footer) for a footer kept in reach."""
    redraw(vm.session)
    return SCREENS[vm.screen](vm)
