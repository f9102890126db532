"""The scoreboard: totals, who deals, the live xeri buttons, the hands, and the end of the match."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import header, notices, question_box
from .widgets import SIDE_COLORS, card, labelled, primary, secondary, section, suit_text


def scoreboard(vm: AppModel):
    tr, table = vm.tr, vm.table
    st = table.standing
    out: list[ft.Control] = [header(vm, table.title, actions=[
        labelled(ft.IconButton(ft.Icons.MENU_BOOK, on_click=lambda: vm.rules.open("current"), tooltip=tr("nav.rules")),
                 "match-rules"),
    ])]
    out += notices(vm)
    out.append(labelled(ft.Text(table.goal_line(), size=16, color=ft.Colors.ON_SURFACE_VARIANT,
                                text_align=ft.TextAlign.CENTER), "goal-line"))
    compact = len(table.side_names) > 2   # four boxes share a phone's width
    boxes = []
    for i, box in enumerate(table.boxes(compact)):
        lines = [ft.Text(box.name, size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], max_lines=1,
                         overflow=ft.TextOverflow.ELLIPSIS),
                 labelled(ft.Text(str(box.total), size=34 if compact else 48, weight=ft.FontWeight.W_800),
                          f"total-{i}", box.label)]
        if box.players:
            lines.insert(1, ft.Text(box.players, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        small = dict(size=12 if compact else 13, color=ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.CENTER)
        if box.needs:
            lines.append(ft.Text(box.needs, **small))
        lines.append(ft.Text(box.hands_won, **small))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  expand=True, padding=10, border_radius=16,
                                  bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                  border=ft.Border.all(3 if box.is_winner else 1,
                                                       SIDE_COLORS[i] if box.is_winner else ft.Colors.OUTLINE_VARIANT)))
    out.append(ft.Row(boxes, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))

    if st.is_over:
        out += match_over(vm)
    else:
        out.append(labelled(ft.Row([ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                                    ft.Text(table.deal_line(), size=16, expand=True)]), "dealer-line"))
        if table.flash is not None and table.flash < len(st.scores):
            out.append(saved_card(vm, table.flash))
        out.append(live_panel(vm))
        out.append(primary(tr("match.end_hand"), lambda: table.end_hand(), "end-hand", icon=ft.Icons.EDIT_NOTE))
    out += hands_list(vm, table.hand_rows(), table.opened, table.breakdown, table.show_breakdown,
                      edit=table.ask_edit)
    actions = []
    if table.match.hands:
        actions.append(secondary(tr("match.undo_hand"), lambda: table.ask_undo(), "undo-hand", icon=ft.Icons.UNDO,
                                 expand=True))
    if not st.is_over:
        actions.append(secondary(tr("match.abandon"), lambda: table.ask_abandon(), "abandon-match",
                                 icon=ft.Icons.CLOSE, expand=True, danger=True))
    if actions:
        out.append(ft.Row(actions))
    # The question stays in reach below the scrolling part, whichever button asked it.
    return out, question_box(vm)


def live_panel(vm: AppModel) -> ft.Control:
    tr, table = vm.tr, vm.table
    rows = []
    for seat in table.seats():
        color = SIDE_COLORS[seat.side]
        rows.append(ft.Column([
            ft.Text(seat.player, size=15, weight=ft.FontWeight.W_700, color=color),
            ft.Row([
                labelled(ft.FilledButton(f"+ {tr('match.xeri')}  {seat.xeris}",
                                         on_click=lambda _e=None, i=seat.seat: table.tap(i, "xeri"),
                                         height=56, expand=True,
                                         style=ft.ButtonStyle(bgcolor=color, color=ft.Colors.WHITE,
                                                              text_style=ft.TextStyle(size=17),
                                                              shape=ft.RoundedRectangleBorder(radius=12))),
                         f"xeri-{seat.seat}", seat.xeri_label),
                labelled(ft.OutlinedButton(f"+ {tr('match.jack_xeri')}  {seat.jack_xeris}",
                                           on_click=lambda _e=None, i=seat.seat: table.tap(i, "jack_xeri"),
                                           height=56, expand=True,
                                           style=ft.ButtonStyle(side=ft.BorderSide(2, color), color=color,
                                                                text_style=ft.TextStyle(size=17),
                                                                shape=ft.RoundedRectangleBorder(radius=12))),
                         f"jack-xeri-{seat.seat}", seat.jack_xeri_label),
            ], spacing=8),
        ], spacing=4))
    has_taps = bool(table.record.live.taps)
    rows.append(ft.Row([ft.Text(table.taps_line(), size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                        secondary(tr("match.undo_tap"), lambda: table.undo_tap(), "undo-tap", icon=ft.Icons.UNDO,
                                  disabled=not has_taps)]))
    return section(tr("match.during"), card(*rows, padding=12))


def hands_list(vm: AppModel, rows, opened, breakdown_of, toggle, edit=None) -> list[ft.Control]:
    """The hands, newest first; a tap opens a hand's breakdown (and, in play, its edit button)."""
    tr = vm.tr
    if not rows:
        return [ft.Text(tr("match.no_hands"), color=ft.Colors.ON_SURFACE_VARIANT)]
    cards = []
    for row in rows:
        is_open = opened == row.index
        head = ft.Row([
            ft.Column([ft.Text(row.title, size=16, weight=ft.FontWeight.W_700),
                       ft.Text(row.detail, size=13, color=ft.Colors.ON_SURFACE_VARIANT)], spacing=0, expand=True),
            ft.Row([ft.Text(str(p), size=20, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], width=44,
                            text_align=ft.TextAlign.RIGHT) for i, p in enumerate(row.points)], spacing=4),
            ft.Icon(ft.Icons.EXPAND_LESS if is_open else ft.Icons.EXPAND_MORE),
        ])
        body = [head]
        if is_open:
            body.append(breakdown_table(breakdown_of(row.index)))
            if edit is not None:
                body.append(secondary(tr("match.edit_hand"), lambda _e=None, i=row.index: edit(i),
                                      f"edit-hand-{row.index}", icon=ft.Icons.EDIT))
        cards.append(card(*body, padding=12, ident=f"hand-{row.index}",
                          on_click=lambda _e=None, i=row.index: toggle(i)))
    return [section(tr("match.hands"), *cards)]


def breakdown_table(sides) -> ft.Control:
    """Every line of a hand's score, per side, with the rule it comes from in words."""
    blocks = []
    for side in sides:
        lines = [ft.Text(f"{side.name}: {side.total}", size=16, weight=ft.FontWeight.W_700,
                         color=SIDE_COLORS[side.side])]
        for line in side.lines:
            dim = ft.Colors.ON_SURFACE_VARIANT if not line.points else None
            lines.append(ft.Row([
                suit_text(line.label, size=15, weight=ft.FontWeight.W_600),
                ft.Text(line.text, size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                ft.Text(str(line.points), size=16, weight=ft.FontWeight.W_700, color=dim),
            ], vertical_alignment=ft.CrossAxisAlignment.START))
        blocks.append(ft.Column(lines, spacing=4))
    return labelled(ft.Column(blocks, spacing=12), "breakdown")


def saved_card(vm: AppModel, index: int) -> ft.Control:
    table = vm.table
    return card(ft.Row([ft.Text(table.saved_title(index), size=17, weight=ft.FontWeight.W_700, expand=True),
                        ft.IconButton(ft.Icons.CLOSE, on_click=lambda: table.dismiss_flash(),
                                      tooltip=vm.tr("nav.dismiss"))]),
                breakdown_table(table.breakdown(index)), color=ft.Colors.PRIMARY_CONTAINER, ident="flash")


def match_over(vm: AppModel) -> list[ft.Control]:
    tr, table = vm.tr, vm.table
    return [card(
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_700, size=40),
                labelled(ft.Text(table.over_title(), size=24, weight=ft.FontWeight.W_800, expand=True), "winner")]),
        ft.Text(table.goal_line(), size=14),
        primary(tr("over.rematch"), lambda: table.rematch(), "rematch", icon=ft.Icons.REPLAY),
        ft.Row([secondary(tr("over.share"), vm.session.page_actions.get("share"), "share", icon=ft.Icons.SHARE,
                          expand=True),
                secondary(tr("over.home"), lambda: vm.home(), "go-home", icon=ft.Icons.HOME, expand=True)]),
        color=ft.Colors.PRIMARY_CONTAINER, ident="match-over")]
