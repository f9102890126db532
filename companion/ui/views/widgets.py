"""Small building blocks shared by the screens: labelled buttons, pills, cards, steppers, suit-coloured text.

Every tappable thing is at least `TOUCH` × `TOUCH` logical pixels (a test measures them in Chromium).
Colours that depend on the theme come from the `Palette` the screen passes in.
"""

from __future__ import annotations

from typing import Any, TypeVar
from collections.abc import Callable

import flet as ft

from .metrics import fits, fitting_size, wrapped
from .palette import Palette
from .theme import text_style

TOUCH = 48
"""The least width and height of anything a person taps, in logical pixels."""

HOLDABLE = (ft.Button, ft.OutlinedButton, ft.TextButton, ft.IconButton)
"""Flet's controls whose Flutter side always takes a press held still as a long press (`holdable`). Its
iOS-style button does too, but the app draws none of those controls (tests/packaging/test_pwa_trim.py)."""
Button = TypeVar("Button", ft.Button, ft.OutlinedButton, ft.TextButton, ft.IconButton)


def holdable(button: Button) -> Button:
    """The button, its press held still taken as the tap it is.

    Flet's buttons always ask Flutter for a long press, whether or not the app listens for one: a press held
    half a second was a long press that nobody heard, and the tap was lost without a word. Seven tenths of a
    second with the accessibility tree on (Flutter holds a press back 200 ms there before it hands it on).
    Found after a browser test on a busy machine failed because the app never heard of a tap on Start; a press
    held a second drops it every time (docs/decisions.md, "A press held is a tap"). A person who presses firmly
    at the table is the same. So a long press does what the tap does, and does it once (Flutter gives a press
    to one of the two, never both). On a touch screen it comes while the finger is still down."""
    button.on_long_press = button.on_click
    return button


def labelled(control: ft.Control, ident: str | None = None, label: str | None = None,
             value: str | None = None, live: bool = False) -> ft.Control:
    """Give a control an identifier for tests and a label for screen readers.

    `value` is what the app holds for a text field: the browser tests wait for it to read back what they
    typed, which proves the app (not only the browser's field) has it. `live` makes screen readers read
    out changes (the status strip).
    """
    if ident is None and label is None and value is None and not live:
        return control
    # The wrapper takes the control's expand, or a Row would no longer share its width out.
    # (Only a truthy expand: Flet turns expand=False into Expanded(flex: 0), which breaks a wrapping Row.)
    # Keyed by its identifier: where one control takes another's place (Save becoming Reopen), Flutter's
    # web semantics would otherwise keep the old identifier on the new control.
    return ft.Semantics(identifier=ident, label=label, value=value, content=control, live_region=live or None,
                        expand=getattr(control, "expand", None) or None, key=ident)


def primary(text: str, on_click: Callable | None, ident: str | None = None, icon: Any = None,
            disabled: bool = False, expand: bool = True) -> ft.Control:
    """The main action of a screen: a big filled button."""
    button = holdable(ft.FilledButton(text, icon=icon, on_click=on_click, disabled=disabled or on_click is None,
                                      height=56, expand=expand,
                                      style=ft.ButtonStyle(text_style=text_style(size=18, weight=ft.FontWeight.W_600),
                                                           shape=ft.RoundedRectangleBorder(radius=14))))
    return labelled(ft.Row([button]) if expand else button, ident)


def secondary(text: str, on_click: Callable | None, ident: str | None = None, icon: Any = None,
              disabled: bool = False, expand: bool = False, danger: bool = False) -> ft.Control:
    """A less prominent action: an outlined button."""
    button = holdable(ft.OutlinedButton(text, icon=icon, on_click=on_click, disabled=disabled, height=TOUCH,
                                        expand=expand,
                                        style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12),
                                                             color=ft.Colors.ERROR if danger else None,
                                                             padding=ft.Padding.symmetric(horizontal=14))))
    return labelled(button, ident)


def icon_button(icon: Any, on_click: Callable | None, tooltip: str, ident: str, disabled: bool = False) -> ft.Control:
    """An icon action (headers, small actions): 48 × 48, its words the tooltip and the screen readers' label."""
    return labelled(holdable(ft.IconButton(icon, on_click=on_click, tooltip=tooltip, width=TOUCH, height=TOUCH,
                                           disabled=disabled)), ident, tooltip)


PILL_PAD = 6
"""A pill's padding on each side of its words."""
READABLE = 13
"""The least size a name is drawn at before the screen gives it more room (fewer to a row)."""


def pill(text: str, selected: bool, on_click: Callable | None, ident: str | None = None,
         color: str | None = None, on_color: str | None = None, width: int | None = None, label: str | None = None,
         expand: bool | int = False, auto: bool = False, size: float = 18, flag: bool = False,
         fit: float | None = None, sub: str | None = None, lines: int = 1, height: float = TOUCH) -> ft.Control:
    """A choice: filled with `color` when selected (text in `on_color`), outlined otherwise.

    `flag` marks a choice that is wrong with a ⚠ in its text as well as its outline: never colour alone.
    `fit` is the pill's width: its words (a name) are then drawn on one line at a size that fits it, never
    wrapped mid-word (cut with an ellipsis only below the least size: the label says them whole). `lines`: 2 lets
    them break between words onto a second line (`row_size` chose the size and the lines for the whole row, so
    every name in a row is drawn alike). `sub` is a second, smaller line (a side's count under its name).
    """
    color = color or ft.Colors.PRIMARY
    style = ft.ButtonStyle(
        shape=ft.RoundedRectangleBorder(radius=12),
        padding=ft.Padding.symmetric(horizontal=6),
        text_style=text_style(size=size, weight=ft.FontWeight.W_600),
        bgcolor=color if selected else None,
        color=(on_color or ft.Colors.ON_PRIMARY) if selected else (ft.Colors.ERROR if flag else None),
        side=ft.BorderSide(3 if flag else (2 if selected or auto else 1),
                           ft.Colors.ERROR if flag else (color if (selected or auto) else ft.Colors.OUTLINE)),
    )
    shown = f"⚠ {text}" if flag else text
    content: str | ft.Control = shown
    if fit is not None or sub is not None:
        inner = pill_inner(fit or width or 10_000)
        drawn = fitting_size(shown, inner, size, least=10) if lines == 1 else size
        line = ft.Text(shown, size=drawn, max_lines=lines, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=lines == 1,
                       text_align=ft.TextAlign.CENTER)
        content = line
        if sub is not None:
            small = fitting_size(sub, inner, min(13, drawn), least=10, bold=False)
            content = ft.Column([line, ft.Text(sub, size=small, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                                               no_wrap=True, weight=ft.FontWeight.NORMAL)],
                                spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                alignment=ft.MainAxisAlignment.CENTER)
        label = label or (shown if sub is None else f"{shown} {sub}")
    button = holdable(ft.OutlinedButton(content, on_click=on_click, style=style, height=height, width=width or None,
                                        expand=expand))
    return labelled(button, ident, label)


def pill_inner(width: float) -> float:
    """The room for a pill's words, `width` wide: less its padding and outline."""
    return width - 2 * PILL_PAD - 4


def per_row(texts: list[str], width: float, spacing: float, size: float = READABLE, most: int | None = None,
            lines: int = 1) -> int:
    """How many pills of these words go in a row `width` wide so that every one is drawn whole at `size` or
    more, on one line or (`lines` 2) on two broken between words: all of them when they fit, else fewer to a row
    (a name is never wrapped mid-word)."""
    count = min(len(texts), most or len(texts))
    for k in range(count, 1, -1):
        inner = pill_inner((width - spacing * (k - 1)) / k)
        if all(fits(t, inner, size) or lines > 1 and (w := wrapped(t, inner, size)) is not None and len(w) <= lines
               for t in texts):
            rows = -(-count // k)
            return -(-count // rows)     # as many to each row as the rows allow: 2 + 2, not 3 + 1
    return 1


def in_rows(controls: list[ft.Control], k: int, spacing: float = 4) -> list[ft.Control]:
    """The controls `k` to a row; a last, shorter row keeps the same widths (spacers fill it)."""
    rows: list[ft.Control] = []
    for start in range(0, len(controls), k):
        chunk = controls[start:start + k]
        chunk += [ft.Container(expand=True) for _ in range(k - len(chunk))] if start else []
        rows.append(ft.Row(chunk, spacing=spacing))
    return rows


def section(title: str, *controls: ft.Control, note: str | None = None, ident: str | None = None,
            trailing: ft.Control | None = None, spacing: int = 6) -> ft.Control:
    """A titled group on a screen; `trailing` sits at the right of the title (a small action)."""
    heading = suit_text(title, size=15, weight=ft.FontWeight.W_700, color=ft.Colors.ON_SURFACE_VARIANT)
    head: list[ft.Control] = [ft.Row([ft.Container(heading, expand=True), trailing],
                                     vertical_alignment=ft.CrossAxisAlignment.CENTER)] if trailing else [heading]
    if note:
        head.append(ft.Text(note, size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    return labelled(ft.Column(head + list(controls), spacing=spacing,
                              horizontal_alignment=ft.CrossAxisAlignment.STRETCH), ident)


def card(*controls: ft.Control, padding: int = 16, color: str | None = None, on_click: Callable | None = None,
         ident: str | None = None, border: str | None = None, label: str | None = None) -> ft.Control:
    """A rounded surface grouping related things."""
    box = ft.Container(
        content=ft.Column(list(controls), spacing=8),
        padding=padding,
        border_radius=16,
        bgcolor=color or ft.Colors.SURFACE_CONTAINER_LOW,
        border=ft.Border.all(2, border) if border else None,
        on_click=on_click,
        ink=on_click is not None,
    )
    return labelled(box, ident, label)


def problem(text: str, ident: str | None = None) -> ft.Control:
    """A sentence saying what is wrong, next to the number that is wrong (an icon and words, not colour alone)."""
    return labelled(ft.Row([ft.Icon(ft.Icons.WARNING_AMBER_ROUNDED, color=ft.Colors.ERROR, size=20),
                            ft.Text(text, color=ft.Colors.ERROR, size=15, expand=True, weight=ft.FontWeight.W_600)],
                           vertical_alignment=ft.CrossAxisAlignment.START, spacing=6), ident)


def suit_text(text: str, size: int = 18, weight: ft.FontWeight = ft.FontWeight.W_600,
              color: str | None = None, red: str = "#A91B1B", **kwargs: Any) -> ft.Text:
    """Text in which ♦ and ♥ are red (`red`: the palette's red for the background it sits on)."""
    if not any(s in text for s in "♦♥"):
        return ft.Text(text, size=size, weight=weight, color=color, **kwargs)
    spans, current = [], ""
    for ch in text:
        if ch in "♦♥":
            if current:
                spans.append(ft.TextSpan(current))
                current = ""
            spans.append(ft.TextSpan(ch, style=text_style(color=red)))
        else:
            current += ch
    if current:
        spans.append(ft.TextSpan(current))
    return ft.Text(spans=spans, size=size, weight=weight, color=color, **kwargs)


def playing_card(p: Palette, rank: str, suit: str, red: bool, holder: int | None, on_click: Callable, label: str,
                 ident: str) -> ft.Control:
    """A real-looking card face (`rank`, `suit` symbol); its border and tint show which side holds it."""
    ink = p.card_red if red else p.card_ink
    tint = p.side_tints[holder] if holder is not None else p.card_face
    edge = p.sides[holder] if holder is not None else p.outline
    face = ft.Container(
        content=ft.Column([
            ft.Text(rank, size=19, weight=ft.FontWeight.W_700, color=ink),
            ft.Text(suit, size=20, color=ink),
        ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER),
        width=50, height=64, border_radius=8, bgcolor=tint,
        border=ft.Border.all(3 if holder is not None else 1, edge),
        on_click=on_click, ink=True, alignment=ft.Alignment.CENTER,
    )
    return ft.Semantics(identifier=ident, label=label, button=True, content=face)


def toggle(label: str, value: bool, on_change: Callable[[bool], Any], ident: str) -> ft.Control:
    """A setting that is on or off: the whole row (words and switch, at least 48 tall) toggles it."""
    row = ft.Container(
        ft.Row([ft.Text(label, size=16, expand=True),
                ft.Semantics(exclude_semantics=True,
                             content=ft.Switch(value=value, on_change=lambda e: on_change(e.control.value)))],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        on_click=lambda _e=None: on_change(not value), ink=True, border_radius=12,
        padding=ft.Padding.only(left=4, top=4, bottom=4))
    return ft.Semantics(identifier=ident, label=label, toggled=value, button=True, content=row)


def stepper(value: int, on_minus: Callable, on_plus: Callable, ident: str, label: str, step: int = 1,
            width: int = 40, minimum: int = 0) -> ft.Control:
    """A number with − and + buttons (48 × 48 each) that step by `step`."""
    return ft.Row([
        labelled(holdable(ft.IconButton(ft.Icons.REMOVE, on_click=on_minus, tooltip=f"{label} −{step}",
                                        disabled=value <= minimum, width=TOUCH, height=TOUCH)), f"{ident}-minus"),
        labelled(ft.Text(str(value), size=22, weight=ft.FontWeight.W_700, width=width, no_wrap=True,
                         text_align=ft.TextAlign.CENTER), f"{ident}-value", f"{label}: {value}"),
        labelled(holdable(ft.IconButton(ft.Icons.ADD, on_click=on_plus, tooltip=f"{label} +{step}", width=TOUCH,
                                        height=TOUCH)), f"{ident}-plus"),
    ], spacing=0, tight=True)
