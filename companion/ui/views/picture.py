"""The sheet card: a match's score sheet drawn for a picture (`viewmodel.picture.SheetPicture`), never shown on
screen. The page lays it out off-screen inside an `ft.Screenshot` and captures it as a PNG
(`PageAdapter.share_picture`), so it is Flutter's drawing, the same in every front door.

Always the light palette (a picture for a chat, whatever the phone's theme) and a phone's width: `WIDTH`
logical pixels, captured at `PIXEL_RATIO` (1080 px wide). The result comes first (a chat's preview shows the
top), then each side with its total, then every hand's points and running totals in a compact table.
"""

from __future__ import annotations

import flet as ft

from ..viewmodel.picture import PictureSide, SheetPicture
from ..viewmodel.sheet import HandRow
from .metrics import fitting_size
from .palette import LIGHT
from .theme import theme

WIDTH = 360
"""The card's width in logical pixels."""
PIXEL_RATIO = 3.0
"""Device pixels per logical pixel in the picture: 1080 px wide, sharp on any phone. (A float: Flutter takes
no whole number for it, "Runtime type check failed".)"""
PAD = 16
"""The card's inner margin."""
NUMBER = 36
"""The width of the table's hand-number column."""
INNER = WIDTH - 2 * PAD

P = LIGHT


def sheet_card(pic: SheetPicture) -> ft.Control:
    """The picture of a match, as a control tree of `WIDTH` logical pixels, laid out in the light theme."""
    body: list[ft.Control] = [ft.Text(pic.rules, size=13, color=P.on_surface_variant), result_line(pic),
                              *[side_row(i, side) for i, side in enumerate(pic.sides)]]
    body.append(hand_table(pic) if pic.hands else ft.Text(pic.no_hands, size=13, color=P.on_surface_variant))
    body.append(ft.Row([ft.Text(pic.footer, size=11, color=P.on_surface_variant)], alignment=ft.MainAxisAlignment.END))
    return ft.Container(
        ft.Column([heading(pic),
                   ft.Container(ft.Column(body, spacing=10, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                padding=ft.Padding.only(left=PAD, right=PAD, top=10, bottom=10))],
                  spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        width=WIDTH, bgcolor=P.surface, theme=theme(P), theme_mode=ft.ThemeMode.LIGHT)


def heading(pic: SheetPicture) -> ft.Control:
    """The title and the day, on the app's green."""
    return ft.Container(
        ft.Column([ft.Text(pic.title, size=20, weight=ft.FontWeight.W_800, color=P.on_primary),
                   ft.Text(pic.day, size=14, color=P.on_primary)], spacing=0, tight=True),
        bgcolor=P.primary, padding=ft.Padding.only(left=PAD, right=PAD, top=14, bottom=12))


def result_line(pic: SheetPicture) -> ft.Control:
    """Who won, in a sentence, with a trophy when someone did."""
    words = ft.Text(pic.result, size=17, weight=ft.FontWeight.W_800, color=P.on_primary_container, expand=True)
    row: list[ft.Control] = ([ft.Icon(ft.Icons.EMOJI_EVENTS, color=P.on_primary_container, size=28)] if pic.won else [])
    return ft.Container(ft.Row([*row, words], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                        bgcolor=P.primary_container, border_radius=12,
                        padding=ft.Padding.symmetric(horizontal=12, vertical=8))


def side_row(i: int, side: PictureSide) -> ft.Control:
    """A side: its colour, its name (and its players), the hands it won, and its total; the winner tinted."""
    name_width = INNER - 6 - 12 - 2 * 10 - 72     # the colour bar, the spacing, the padding, the total
    names: list[ft.Control] = [ft.Text(side.name, size=fitting_size(side.name, name_width, 17, least=13),
                                       weight=ft.FontWeight.W_800, color=P.sides[i], max_lines=2,
                                       overflow=ft.TextOverflow.ELLIPSIS)]
    if side.players:
        names.append(ft.Text(side.players, size=13, color=P.on_surface, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS))
    names.append(ft.Text(side.hands_won, size=12, color=P.on_surface_variant))
    total = ft.Text(str(side.total), size=28, weight=ft.FontWeight.W_800, color=P.on_surface,
                    text_align=ft.TextAlign.RIGHT)
    return ft.Container(
        ft.Row([ft.Container(width=6, height=44, bgcolor=P.sides[i], border_radius=3),
                ft.Column(names, spacing=0, tight=True, expand=True),
                ft.Container(total, width=72, alignment=ft.Alignment.CENTER_RIGHT)],
               spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        bgcolor=P.side_tints[i] if side.is_winner else P.surface_container_low, border_radius=12,
        padding=ft.Padding.symmetric(horizontal=10, vertical=6),
        border=ft.Border.all(2, P.sides[i]) if side.is_winner else None)


def hand_table(pic: SheetPicture) -> ft.Control:
    """Every hand: its number, then per side the hand's points (small) and the running total (bold); the
    hand's winner in its side's colour on its tint; the totals at the foot."""
    sides = len(pic.sides)
    column = (INNER - NUMBER) / sides
    head: list[ft.Control] = [ft.Container(ft.Text(pic.hand_head, size=11, weight=ft.FontWeight.W_700,
                                                   color=P.on_surface_variant, no_wrap=True), width=NUMBER)]
    for i, side in enumerate(pic.sides):
        head.append(ft.Container(
            ft.Text(side.name, size=fitting_size(side.name, column - 8, 12, least=10), weight=ft.FontWeight.W_700,
                    color=P.sides[i], no_wrap=True, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                    text_align=ft.TextAlign.RIGHT),
            expand=True, padding=ft.Padding.only(right=4)))
    rows: list[ft.Control] = [ft.Container(ft.Row(head, spacing=0), padding=ft.Padding.only(bottom=4),
                                           border=ft.Border.only(bottom=ft.BorderSide(1, P.outline_variant)))]
    for hand in pic.hands:
        rows.extend(hand_rows(hand, sides, stripe=hand.number % 2 == 0))
    foot: list[ft.Control] = [ft.Container(ft.Text(pic.total_head, size=11, weight=ft.FontWeight.W_700,
                                                   color=P.on_surface_variant, no_wrap=True), width=NUMBER)]
    foot += [ft.Container(ft.Text(str(side.total), size=18, weight=ft.FontWeight.W_800, color=P.sides[i],
                                  text_align=ft.TextAlign.RIGHT), expand=True, padding=ft.Padding.only(right=4))
             for i, side in enumerate(pic.sides)]
    rows.append(ft.Container(ft.Row(foot, spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                             padding=ft.Padding.only(top=4),
                             border=ft.Border.only(top=ft.BorderSide(2, P.on_surface_variant))))
    return ft.Column(rows, spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def hand_rows(hand: HandRow, sides: int, stripe: bool) -> list[ft.Control]:
    """A hand's row of the table, and above it what the hand did to the target, if anything."""
    out: list[ft.Control] = []
    if hand.event:
        out.append(ft.Container(ft.Text(hand.event, size=11, weight=ft.FontWeight.W_700,
                                        color=P.on_tertiary_container),
                                bgcolor=P.tertiary_container, padding=ft.Padding.symmetric(horizontal=6, vertical=2)))
    cells: list[ft.Control] = [ft.Container(ft.Text(str(hand.number), size=12, weight=ft.FontWeight.W_700,
                                                    color=P.on_surface_variant), width=NUMBER,
                                            padding=ft.Padding.only(left=4))]
    for i in range(sides):
        won = hand.winner == i
        cells.append(ft.Container(
            ft.Row([ft.Text(f"+{hand.points[i]}", size=11, color=P.sides[i] if won else P.on_surface_variant,
                            weight=ft.FontWeight.W_800 if won else ft.FontWeight.NORMAL, no_wrap=True),
                    ft.Text(str(hand.running[i]), size=14, weight=ft.FontWeight.W_700, color=P.on_surface,
                            no_wrap=True)],
                   spacing=5, alignment=ft.MainAxisAlignment.END, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            expand=True, bgcolor=P.side_tints[i] if won else None, padding=ft.Padding.symmetric(horizontal=4)))
    out.append(ft.Container(ft.Row(cells, spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                            bgcolor=P.surface_container if stripe else None, height=20))
    return out
