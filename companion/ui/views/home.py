"""The home screen: the match in play, a new match, the history and the rules."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import header, notices
from .widgets import SIDE_COLORS, card, labelled, primary, secondary, section


def history_row(vm: AppModel, row) -> ft.Control:
    return card(
        ft.Row([ft.Text(row.title, size=16, weight=ft.FontWeight.W_600, expand=True,
                        max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                ft.Text(row.score, size=18, weight=ft.FontWeight.W_700)]),
        ft.Text(row.detail, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        padding=12, on_click=lambda: vm.record.open(row.id), ident=f"history-{row.id}")


def home(vm: AppModel) -> list[ft.Control]:
    tr, table = vm.tr, vm.table
    out: list[ft.Control] = [header(vm, tr("app.title"), back=False, actions=[
        labelled(ft.IconButton(ft.Icons.MENU_BOOK, on_click=lambda: vm.rules.open(), tooltip=tr("nav.rules")),
                 "open-rules"),
        labelled(ft.IconButton(ft.Icons.SETTINGS, on_click=lambda: vm.settings.open(), tooltip=tr("nav.settings")),
                 "open-settings"),
    ])]
    out += notices(vm)
    if table.in_play:
        totals = ft.Row([
            ft.Column([ft.Text(box.name, size=15, color=SIDE_COLORS[i], weight=ft.FontWeight.W_600,
                               max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                       ft.Text(str(box.total), size=34, weight=ft.FontWeight.W_700)],
                      expand=True, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
            for i, box in enumerate(table.boxes())])
        out.append(card(
            ft.Text(tr("home.in_progress"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            totals,
            ft.Text(table.summary_line(), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            primary(tr("home.continue"), lambda: table.open(), "continue-match", icon=ft.Icons.PLAY_ARROW),
            color=ft.Colors.PRIMARY_CONTAINER))
    out.append(primary(tr("home.new_match"), lambda: vm.setup.open(), "new-match", icon=ft.Icons.ADD))
    out.append(ft.Row([
        secondary(tr("nav.history"), lambda: vm.history.open(), "open-history", icon=ft.Icons.HISTORY, expand=True),
        secondary(tr("nav.rules"), lambda: vm.rules.open(), "open-rules-button", icon=ft.Icons.MENU_BOOK, expand=True),
    ]))
    recent = vm.history.recent()
    if recent:
        out.append(section(tr("home.recent"), *[history_row(vm, row) for row in recent]))
    return out
