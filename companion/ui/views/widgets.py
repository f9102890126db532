"""Small building blocks shared by the screens: labelled buttons, pills, cards, suit-coloured text."""

from __future__ import annotations

from typing import Any, Callable

import flet as ft

SIDE_COLORS = [ft.Colors.BLUE_700, ft.Colors.DEEP_ORANGE_700, ft.Colors.PURPLE_600, ft.Colors.TEAL_700]
SIDE_TINTS = [ft.Colors.BLUE_100, ft.Colors.DEEP_ORANGE_100, ft.Colors.PURPLE_100, ft.Colors.TEAL_100]
RED = ft.Colors.RED_700
TOUCH = 48
"""The least height of anything a person taps, in logical pixels."""


def labelled(control: ft.Control, ident: str | None = None, label: str | None = None,
             value: str | None = None) -> ft.Control:
    """Give a control an identifier for tests and a label for screen readers.

    `value` is what the app holds for a text field: the browser tests wait for it to read back
    what they typed, which proves the app (not only the browser's field) has it.
    """
    if ident is None and label is None:
        return control
    # The wrapper takes the control's expand, or a Row would no longer share its width out.
    # (Only a truthy expand: Flet turns expand=False into Expanded(flex: 0), which breaks a wrapping Row.)
    return ft.Semantics(identifier=ident, label=label, value=value, content=control,
                        expand=getattr(control, "expand", None) or None)


def primary(text: str, on_click: Callable | None, ident: str | None = None, icon: Any = None,
            disabled: bool = False, expand: bool = True) -> ft.Control:
    """The main action of a screen: a big filled button."""
    button = ft.FilledButton(text, icon=icon, on_click=on_click, disabled=disabled or on_click is None,
                             height=56, expand=expand,
                             style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.W_600),
                                                  shape=ft.RoundedRectangleBorder(radius=14)))
    return labelled(ft.Row([button]) if expand else button, ident)


def secondary(text: str, on_click: Callable | None, ident: str | None = None, icon: Any = None,
              disabled: bool = False, expand: bool = False, danger: bool = False) -> ft.Control:
    """A less prominent action: an outlined button."""
    button = ft.OutlinedButton(text, icon=icon, on_click=on_click, disabled=disabled, height=TOUCH, expand=expand,
                               style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12),
                                                    color=ft.Colors.ERROR if danger else None))
    return labelled(button, ident)


def pill(text: str, selected: bool, on_click: Callable | None, ident: str | None = None,
         color: str | None = None, width: int | None = None, label: str | None = None,
         expand: bool | int = False, auto: bool = False, size: int = 18) -> ft.Control:
    """A choice: filled with the side's colour when selected, outlined otherwise."""
    color = color or ft.Colors.PRIMARY
    style = ft.ButtonStyle(
        shape=ft.RoundedRectangleBorder(radius=12),
        padding=ft.Padding.symmetric(horizontal=8),
        text_style=ft.TextStyle(size=size, weight=ft.FontWeight.W_600),
        bgcolor=color if selected else None,
        color=ft.Colors.WHITE if selected else None,
        side=ft.BorderSide(2 if selected or auto else 1, color if (selected or auto) else ft.Colors.OUTLINE_VARIANT),
    )
    button = ft.OutlinedButton(text, on_click=on_click, style=style, height=TOUCH, width=width, expand=expand)
    return labelled(button, ident, label)


def section(title: str, *controls: ft.Control, note: str | None = None, ident: str | None = None) -> ft.Control:
    """A titled group on a screen."""
    head = [suit_text(title, size=16, weight=ft.FontWeight.W_700, color=ft.Colors.ON_SURFACE_VARIANT)]
    if note:
        head.append(ft.Text(note, size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    return labelled(ft.Column(head + list(controls), spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                    ident)


def card(*controls: ft.Control, padding: int = 16, color: str | None = None, on_click: Callable | None = None,
         ident: str | None = None, border: str | None = None) -> ft.Control:
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
    return labelled(box, ident)


def problem(text: str, ident: str | None = None) -> ft.Control:
    """A sentence saying what is wrong, next to the number that is wrong."""
    return labelled(ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=20),
                            ft.Text(text, color=ft.Colors.ERROR, size=15, expand=True)],
                           vertical_alignment=ft.CrossAxisAlignment.START), ident)


def suit_text(text: str, size: int = 18, weight: ft.FontWeight = ft.FontWeight.W_600,
              color: str | None = None) -> ft.Control:
    """Text in which ♦ and ♥ are red."""
    if not any(s in text for s in "♦♥"):
        return ft.Text(text, size=size, weight=weight, color=color)
    spans, current = [], ""
    for ch in text:
        if ch in "♦♥":
            if current:
                spans.append(ft.TextSpan(current))
                current = ""
            spans.append(ft.TextSpan(ch, style=ft.TextStyle(color=RED)))
        else:
            current += ch
    if current:
        spans.append(ft.TextSpan(current))
    return ft.Text(spans=spans, size=size, weight=weight, color=color)


def playing_card(rank: str, suit: str, red: bool, holder: int | None, on_click: Callable, label: str,
                 ident: str) -> ft.Control:
    """A real-looking card face (`rank`, `suit` symbol); its border and tint show which side holds it."""
    ink = RED if red else ft.Colors.BLACK
    tint = SIDE_TINTS[holder] if holder is not None else ft.Colors.WHITE
    edge = SIDE_COLORS[holder] if holder is not None else ft.Colors.GREY_400
    face = ft.Container(
        content=ft.Column([
            ft.Text(rank, size=20, weight=ft.FontWeight.W_700, color=ink),
            ft.Text(suit, size=22, color=ink),
        ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER),
        width=56, height=76, border_radius=8, bgcolor=tint,
        border=ft.Border.all(3 if holder is not None else 1, edge),
        on_click=on_click, ink=True, alignment=ft.Alignment.CENTER,
    )
    return ft.Semantics(identifier=ident, label=label, button=True, content=face)


def toggle(label: str, value: bool, on_change: Callable, ident: str) -> ft.Control:
    """A setting that is on or off: the words on the left (they may wrap), the switch on the right."""
    return ft.Row([ft.Text(label, size=16, expand=True),
                   labelled(ft.Switch(value=value, on_change=on_change), ident, label)],
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def stepper(value: int, on_minus: Callable, on_plus: Callable, ident: str, label: str) -> ft.Control:
    """A number with − and + buttons."""
    return ft.Row([
        labelled(ft.IconButton(ft.Icons.REMOVE, on_click=on_minus, tooltip=f"{label} −1", disabled=value <= 0,
                               width=TOUCH, height=TOUCH), f"{ident}-minus"),
        labelled(ft.Text(str(value), size=22, weight=ft.FontWeight.W_700, width=36,
                         text_align=ft.TextAlign.CENTER), f"{ident}-value", f"{label}: {value}"),
        labelled(ft.IconButton(ft.Icons.ADD, on_click=on_plus, tooltip=f"{label} +1", width=TOUCH, height=TOUCH),
                 f"{ident}-plus"),
    ], spacing=0, tight=True)
