"""The screens as controls, without a browser: what only the control tree can show."""

from __future__ import annotations

import flet as ft

from companion.ui.viewmodel import AppModel
from companion.ui.views import render


def walk(control):
    yield control
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        if isinstance(child, list):
            for c in child:
                yield from walk(c)
        elif child is not None and hasattr(child, "__dataclass_fields__"):
            yield from walk(child)


def test_the_pile_counts_ask_a_phone_for_its_number_keypad(services):
    vm = AppModel(services)
    vm.setup.open()
    vm.setup.set_name(0, "Anna")
    vm.setup.set_name(1, "Ben")
    vm.setup.start()
    vm.scoreboard.end_hand()
    vm.entry.toggle_counts()
    frame = render(vm)
    fields = [c for part in frame.body for c in walk(part) if isinstance(c, ft.TextField)]
    assert len(fields) == 2
    assert all(f.keyboard_type == ft.KeyboardType.NUMBER for f in fields)


def test_a_watching_phone_is_offered_nothing_that_changes_the_table(services):
    from companion.net.access import Access
    from companion.ui.viewmodel import Session

    owner = AppModel(services)
    owner.setup.open()
    owner.setup.set_name(0, "Anna")
    owner.setup.set_name(1, "Ben")
    owner.setup.start()
    watcher = AppModel(services, session=Session(services, access=Access.WATCHER))
    watcher.scoreboard.open()
    frame = render(watcher)
    idents = {getattr(c, "identifier", None) for part in frame.body + frame.footer + frame.actions for c in walk(part)}
    assert not idents & {"xeri-0", "jack-xeri-0", "end-hand", "undo-hand", "abandon-match", "undo-tap"}
    assert {"live-counts", "watching"} <= idents
