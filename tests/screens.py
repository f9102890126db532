"""A phone without a browser: the app's own screens drawn as Flet controls (`ui.app.draw`, what the page draws
for each redraw) and tapped by test identifier through the handler Flet would call, with the event Flet
would pass.

It has the browser driver's words (`tap`, `type`, `see`, `text_of`, `is_disabled`, `wait_id`, `taps`), so
one flow (tests/flows.py) runs on either. What it proves is everything but the browser: that the control
with this identifier is on screen, enabled, and sends the intent that changes the match as a person
expects. What only a browser shows (layout, nothing moving, fonts, the accessibility tree, the WebSocket,
the browser build) stays in tests/e2e.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import flet as ft
from flet.utils.object_model import get_param_count

from companion.ui.app import draw
from companion.ui.viewmodel import AppModel
from companion.ui.views.widgets import HOLDABLE

HANDLERS = ("on_click", "on_change")


def children(control: Any) -> Iterator[Any]:
    """The controls directly inside `control`, whatever the field holds them (content, controls, actions…)."""
    for field in dataclasses.fields(control):
        if field.name.startswith("_") or field.name in ("parent", "page"):
            continue
        value = getattr(control, field.name, None)
        if isinstance(value, ft.BaseControl):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ft.BaseControl))


def walk(control: Any, disabled: bool = False) -> Iterator[tuple[Any, bool]]:
    """Every control drawn in the tree with whether it is disabled (itself or by a parent, as Flutter has it);
    a control that is not visible is not there, nor is anything in it."""
    if getattr(control, "visible", True) is False:
        return
    disabled = disabled or bool(getattr(control, "disabled", False))
    yield control, disabled
    for child in children(control):
        yield from walk(child, disabled)


def words(control: Any) -> list[str]:
    """What a control says: its label, text, value or tooltip (the text a browser's accessibility tree has)."""
    found = []
    if isinstance(control, ft.Semantics):
        found += [control.label or "", control.value or ""]
    elif isinstance(control, ft.Text):
        found.append(control.value or "")
        found += [span.text or "" for span in control.spans or []]
    elif isinstance(control, ft.TextField):
        found += [text for text in (control.label, control.value, control.helper, control.error) if isinstance(text, str)]
    if isinstance(getattr(control, "content", None), str):
        found.append(control.content)
    if isinstance(getattr(control, "tooltip", None), str):
        found.append(control.tooltip)
    return [w for w in found if w]


class ScreenPhone:
    """One phone's view model, drawn after every tap as the page would draw it."""

    def __init__(self, vm: AppModel):
        self.vm = vm
        self._drawn: tuple[int, list[Any]] | None = None

    # --- what is on screen ---------------------------------------------------------------------------------
    def drawn(self) -> list[Any]:
        """The dialog if one is open (it hides the screen under it, as in the browser), else the screen; drawn
        again once an intent moved the session's revision on (as the page redraws)."""
        session = self.vm.session
        if self._drawn is None or self._drawn[0] != session.revision:
            dialog, frame = draw(self.vm, hooks=True)
            self._drawn = (session.revision, [dialog] if dialog is not None else [frame])
            lost = [control for root in self._drawn[1] for control, _ in walk(root)
                    if isinstance(control, HOLDABLE) and callable(control.on_click)
                    and control.on_long_press is not control.on_click]
            assert not lost, f"a press held on these buttons would be lost (widgets.holdable): {lost}"
        return self._drawn[1]

    def nodes(self) -> dict[str, tuple[Any, bool]]:
        """Every identified control on screen: ident → (the Semantics node, disabled)."""
        found: dict[str, tuple[Any, bool]] = {}
        for root in self.drawn():
            for control, disabled in walk(root):
                if isinstance(control, ft.Semantics) and control.identifier and control.identifier not in found:
                    found[control.identifier] = (control, disabled)
        return found

    def node(self, ident: str) -> tuple[Any, bool]:
        nodes = self.nodes()
        if ident not in nodes:
            raise AssertionError(f"{ident} is not on screen; it shows: {sorted(nodes)}")
        return nodes[ident]

    def screen_text(self) -> str:
        """Every word on screen, a control's a line; then each identified control's words on one line (a
        button's label, as the accessibility tree merges it: "Anna · Ben 26 : 29")."""
        lines = [w for root in self.drawn() for control, _ in walk(root) for w in words(control)]
        lines += [" ".join(w for control, _ in walk(node) for w in words(control)) for node, _ in self.nodes().values()]
        return "\n".join(lines)

    # --- the driver's words ---------------------------------------------------------------------------------
    @property
    def taps(self) -> int:
        return self.vm.session.taps

    def tap(self, ident: str, wait: bool = True, scroll: bool = True) -> None:
        """Tap the control: its first handler under the identifier, refused (as Flutter refuses) when it is
        disabled or has none."""
        node, disabled = self.node(ident)
        for control, off in walk(node, disabled):
            handler = getattr(control, "on_click", None)
            if callable(handler):
                if off:
                    raise AssertionError(f"{ident} is disabled: a tap on it does nothing")
                self._call(handler, ft.ControlEvent(control=control, name="click", data=None))
                return
        raise AssertionError(f"{ident} has nothing to tap")

    def type(self, ident: str, text: str) -> None:
        node, disabled = self.node(ident)
        for control, off in walk(node, disabled):
            if isinstance(control, ft.TextField) and callable(control.on_change):
                assert not off, f"{ident} is disabled"
                control.value = text
                self._call(control.on_change, ft.ControlEvent(control=control, name="change", data=text))
                shown = self.node(ident)[0].value
                assert shown == text, f"{ident} holds {shown!r} after typing {text!r}"
                return
        raise AssertionError(f"{ident} is not a text field")

    @staticmethod
    def _call(handler: Any, event: ft.ControlEvent) -> None:
        handler() if get_param_count(handler) == 0 else handler(event)

    def is_disabled(self, ident: str) -> bool:
        node, disabled = self.node(ident)
        return all(off for control, off in walk(node, disabled) if callable(getattr(control, "on_click", None)))

    def text_of(self, ident: str) -> str:
        return " ".join(w for control, _ in walk(self.node(ident)[0]) for w in words(control))

    def see(self, text: str, timeout: int = 0) -> None:
        shown = self.screen_text()
        assert text in shown, f"{text!r} is not on screen; it shows:\n{shown}"

    def has_text(self, text: str) -> bool:
        return text in self.screen_text()

    def wait_id(self, ident: str, timeout: int = 0) -> Any:
        return self.node(ident)[0]

    def wait_any(self, *idents: str, timeout: int = 0) -> str:
        nodes = self.nodes()
        for ident in idents:
            if ident in nodes:
                return ident
        raise AssertionError(f"none of {idents} is on screen; it shows: {sorted(nodes)}")

    def wait_gone(self, ident: str, timeout: int = 0) -> None:
        assert ident not in self.nodes(), f"{ident} is still on screen"

    def by_id_count(self, ident: str) -> int:
        return int(ident in self.nodes())
