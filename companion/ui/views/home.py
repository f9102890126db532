"""The home screen: the match this phone follows, every other match in play, a new match, the history and the
rules."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import Frame, sync_mark, watching
from .palette import palette
from .widgets import card, icon_button, labelled, primary, problem, secondary, section


def history_row(vm: AppModel, row, playing: bool = False) -> ft.Control:
    """A match of the history (its page), or a match in play (`playing`: a tap follows it, its scoreboard)."""
    return card(
        ft.Row([ft.Text(row.title, size=16, weight=ft.FontWeight.W_600, expand=True,
                        max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                ft.Text(row.score, size=18, weight=ft.FontWeight.W_700)]),
        ft.Text(row.detail, size=13, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS),
        padding=12, on_click=(lambda: vm.scoreboard.follow(row.id)) if playing else lambda: vm.record.open(row.id),
        ident=f"{'in-play' if playing else 'history'}-{row.id}")


def home(vm: AppModel) -> Frame:
    tr, table = vm.tr, vm.scoreboard
    p = palette(vm.session.dark)
    body: list[ft.Control] = watching(vm)
    info = vm.session.table_info
    if info is not None:
        body.append(card(
            ft.Row([ft.Icon(ft.Icons.PHONELINK, color=ft.Colors.PRIMARY),
                    ft.Text(tr("join.title"), size=16, weight=ft.FontWeight.W_700, expand=True)]),
            labelled(ft.Text(tr("join.how", url=info.url, code=info.code), size=15, selectable=True), "join-info"),
            secondary(tr("join.show_qr"), lambda: vm.show_join_qr(), "show-qr", icon=ft.Icons.QR_CODE_2),
            ident="table-code"))
    if vm.session.problems_at_open:
        body.append(card(*[problem(text) for text in vm.session.problems_at_open],
                         secondary(tr("nav.ok"), lambda: vm.dismiss_notice(), "damaged-ok"),
                         color=ft.Colors.ERROR_CONTAINER, ident="damaged-notice"))
    if table.in_play:
        totals = ft.Row([
            ft.Column([ft.Text(box.name, size=15, color=p.sides[i], weight=ft.FontWeight.W_700,
                               max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                       ft.Text(str(box.total), size=34, weight=ft.FontWeight.W_700)],
                      expand=True, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
            for i, box in enumerate(table.boxes())])
        body.append(card(
            ft.Text(tr("home.in_progress"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            totals,
            labelled(ft.Text(table.summary_line(), size=14, color=ft.Colors.ON_SURFACE_VARIANT), "home-goal"),
            primary(tr("home.continue"), lambda: table.open(), "continue-match", icon=ft.Icons.PLAY_ARROW),
            color=ft.Colors.SURFACE_CONTAINER))
    others = vm.history.in_play(leave_out=table.record.id if table.in_play else None)
    if others:   # every other table's match in play, here or on another device of the group: one tap follows it
        body.append(section(tr("home.other_tables") if table.in_play else tr("history.in_play"),
                            *[history_row(vm, row, playing=True) for row in others], ident="in-play"))
    if vm.session.can_write:
        body.append(primary(tr("home.new_match"), lambda: vm.setup.open(), "new-match", icon=ft.Icons.ADD))
    body.append(ft.Row([
        secondary(tr("nav.history"), lambda: vm.history.open(), "open-history", icon=ft.Icons.HISTORY, expand=True),
        secondary(tr("nav.ratings"), lambda: vm.ratings.open(), "open-ratings", icon=ft.Icons.EMOJI_EVENTS,
                  expand=True),
    ]))
    night = vm.ratings.evening_card()
    if night is not None:
        body.append(card(
            ft.Row([ft.Icon(ft.Icons.NIGHTLIFE, color=ft.Colors.PRIMARY),
                    ft.Text(night.title, size=16, weight=ft.FontWeight.W_700, expand=True)]),
            *[ft.Text(line, size=14) for line in night.lines],
            *([labelled(ft.Text(night.changes, size=14, weight=ft.FontWeight.W_600), "evening-changes")]
              if night.changes else []),
            secondary(tr("ratings.evening.share"), vm.session.page_actions.get("share_evening"), "share-evening",
                      icon=ft.Icons.SHARE),
            ident="evening"))
    recent = vm.history.recent()
    if recent:
        body.append(section(tr("home.recent"), *[history_row(vm, row) for row in recent]))
    actions = [*sync_mark(vm), icon_button(ft.Icons.MENU_BOOK, lambda: vm.rules.open(), tr("nav.rules"), "open-rules")]
    if vm.session.can_write:
        actions.append(icon_button(ft.Icons.SETTINGS, lambda: vm.settings.open(), tr("nav.settings"), "open-settings"))
    return Frame(tr("app.title"), body, back=False, actions=actions)
