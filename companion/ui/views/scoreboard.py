"""The scoreboard: totals, who deals, the live xeri buttons, the score sheet, and the end of the match.

End hand is pinned at the bottom; what a tap did is said in the status strip, which never moves anything.
On a wide screen (a tablet, a phone held sideways) the score sheet stands beside the controls, and the
totals are big enough to read from across the table.
"""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel, TapKind
from .common import Frame, Status, breakdown_table, watching
from .palette import Palette, palette
from .theme import text_style
from .widgets import card, icon_button, labelled, primary, secondary, section
from .sync import conflict_cards


def scoreboard(vm: AppModel) -> Frame:
    tr, table, s = vm.tr, vm.scoreboard, vm.session
    st = table.standing
    p = palette(s.dark)
    wide = s.wide
    writer = s.can_write            # a watching phone sees the table and none of the buttons that change it
    totals = [goal_line(vm, p), side_boxes(vm, p, big=wide and not s.short)]
    # A phone held sideways has room for the xeri buttons or the totals, not both: the buttons stay in
    # reach on the left and the totals head the score sheet beside them.
    sideways = wide and s.short and not st.is_over
    controls: list[ft.Control] = watching(vm) + conflict_cards(vm, table.record.id if table.record else None) + (
        [] if sideways else totals)
    if st.is_over:
        controls += match_over(vm, p)
        footer = [primary(tr("over.rematch"), lambda: table.rematch(), "rematch", icon=ft.Icons.REPLAY)] if writer else []
    else:
        controls.append(labelled(ft.Row([ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                                         ft.Text(table.deal_line(), size=16, expand=True, weight=ft.FontWeight.W_600)]),
                                 "dealer-line"))
        controls.append(live_panel(vm, p) if writer else live_counts(vm, p))
        footer = [primary(tr("match.end_hand"), lambda: table.end_hand(), "end-hand", icon=ft.Icons.EDIT_NOTE)] \
            if writer else []
    sheet = score_sheet(vm, p, table.side_names, table.hand_rows(), table.opened, table.breakdown,
                        table.show_breakdown, edit=table.ask_edit if writer else None)
    # Undo and Stop sit in the header, where nothing the sheet grows by can move them.
    header_actions = [icon_button(ft.Icons.UNDO, lambda: table.ask_undo(), tr("match.undo_hand"), "undo-hand",
                                  disabled=not table.match.hands)] if writer else []
    if not st.is_over and writer:
        header_actions.append(icon_button(ft.Icons.CLOSE, lambda: table.ask_abandon(), tr("match.abandon"),
                                          "abandon-match"))
    header_actions.append(icon_button(ft.Icons.MENU_BOOK, lambda: vm.rules.open("current"), tr("nav.rules"),
                                      "match-rules"))
    saved = table.saved_line()
    status = Status(saved, on_tap=lambda: table.show_saved()) if saved else Status(
        table.taps_line() if not st.is_over else table.goal_line())
    if wide:
        return Frame(table.title, controls, footer=footer, status=status, actions=header_actions,
                     side=totals + sheet if sideways else sheet)
    return Frame(table.title, controls + sheet, footer=footer, status=status, actions=header_actions)


def goal_line(vm: AppModel, p: Palette) -> ft.Control:
    """The goal in force; once two sides passed the target together, a banner says so (same place, same size)."""
    table = vm.scoreboard
    if table.extended and not table.standing.is_over:
        box = ft.Container(ft.Row([ft.Icon(ft.Icons.TRENDING_UP, color=p.on_tertiary_container, size=20),
                                   ft.Text(table.goal_line(), size=15, weight=ft.FontWeight.W_700,
                                           color=p.on_tertiary_container, expand=True, max_lines=1,
                                           overflow=ft.TextOverflow.ELLIPSIS)], spacing=6),
                           bgcolor=p.tertiary_container, border_radius=10, height=40,
                           padding=ft.Padding.symmetric(horizontal=10))
    else:
        box = ft.Container(ft.Text(table.goal_line(), size=14, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2,
                                   overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER),
                           height=40, alignment=ft.Alignment.CENTER)
    return labelled(box, "goal-line", table.goal_line())


def side_boxes(vm: AppModel, p: Palette, big: bool = False) -> ft.Control:
    table = vm.scoreboard
    compact = len(table.side_names) > 2 and not big   # four boxes share a phone's width
    boxes = []
    for i, box in enumerate(table.boxes(compact)):
        size = 72 if big else (32 if compact else 44)
        lines = [ft.Text(box.name, size=22 if big else 15, weight=ft.FontWeight.W_700, color=p.sides[i], max_lines=1,
                         overflow=ft.TextOverflow.ELLIPSIS),
                 labelled(ft.Text(str(box.total), size=size, weight=ft.FontWeight.W_800), f"total-{i}", box.label)]
        if box.players:
            lines.insert(1, ft.Text(box.players, size=13, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1,
                                    overflow=ft.TextOverflow.ELLIPSIS))
        small = dict(size=16 if big else (12 if compact else 13), color=ft.Colors.ON_SURFACE_VARIANT,
                     text_align=ft.TextAlign.CENTER, max_lines=1)
        if box.needs:
            lines.append(ft.Text(box.needs, **small))
        lines.append(ft.Text(("★ " if box.is_winner else "") + box.hands_won, **small))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  expand=True, padding=ft.Padding.symmetric(horizontal=6, vertical=8),
                                  border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                  border=ft.Border.all(3 if box.is_winner else 1,
                                                       p.sides[i] if box.is_winner else ft.Colors.OUTLINE_VARIANT)))
    return ft.Row(boxes, spacing=6, vertical_alignment=ft.CrossAxisAlignment.START)


def live_panel(vm: AppModel, p: Palette) -> ft.Control:
    """A row per player: their xeris and jack xeris as they happen (the count is on the button)."""
    tr, table = vm.tr, vm.scoreboard
    rows = []
    for seat in table.seats():
        color = p.sides[seat.side]
        text = text_style(size=16, weight=ft.FontWeight.W_600)
        rows.append(ft.Row([
            ft.Text(seat.player, size=15, weight=ft.FontWeight.W_700, color=color, width=76, max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS),
            labelled(ft.FilledButton(f"{tr('match.xeri')}  {seat.xeris}",
                                     on_click=lambda _e=None, i=seat.seat: table.tap(i, TapKind.XERI),
                                     height=52, expand=True,
                                     style=ft.ButtonStyle(bgcolor=color, color=p.on_sides, text_style=text,
                                                          padding=ft.Padding.symmetric(horizontal=6),
                                                          shape=ft.RoundedRectangleBorder(radius=12))),
                     f"xeri-{seat.seat}", seat.xeri_label),
            labelled(ft.OutlinedButton(f"{tr('match.jack_xeri')}  {seat.jack_xeris}",
                                       on_click=lambda _e=None, i=seat.seat: table.tap(i, TapKind.JACK_XERI),
                                       height=52, expand=True,
                                       style=ft.ButtonStyle(side=ft.BorderSide(2, color), color=color, text_style=text,
                                                            padding=ft.Padding.symmetric(horizontal=6),
                                                            shape=ft.RoundedRectangleBorder(radius=12))),
                     f"jack-xeri-{seat.seat}", seat.jack_xeri_label),
        ], spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    has_taps = bool(table.record.live.taps)
    rows.append(ft.Row([ft.Text(tr("match.during"), size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                        secondary(tr("match.undo_tap"), lambda: table.undo_tap(), "undo-tap", icon=ft.Icons.UNDO,
                                  disabled=not has_taps)]))
    return labelled(ft.Column(rows, spacing=6), "live-panel")


def live_counts(vm: AppModel, p: Palette) -> ft.Control:
    """The live xeris as words, for a phone that only watches."""
    rows = [ft.Row([ft.Text(seat.player, size=15, weight=ft.FontWeight.W_700, color=p.sides[seat.side], expand=True),
                    ft.Text(f"{vm.tr('match.xeri')} {seat.xeris} · {vm.tr('match.jack_xeri')} {seat.jack_xeris}",
                            size=15)]) for seat in vm.scoreboard.seats()]
    return labelled(ft.Column(rows, spacing=6), "live-counts")


def score_sheet(vm: AppModel, p: Palette, names: list[str], rows, opened, breakdown_of, toggle,
                edit=None) -> list[ft.Control]:
    """The score sheet: a row per hand, newest first; per side the hand's points and the running total; the
    hand's winner marked with ★ (not colour alone); a tap opens the hand's breakdown."""
    tr = vm.tr
    if not rows:
        return [labelled(ft.Text(tr("match.no_hands"), color=ft.Colors.ON_SURFACE_VARIANT), "no-hands")]
    sides = len(rows[0].points)
    head = [ft.Container(ft.Text("#", size=13, color=ft.Colors.ON_SURFACE_VARIANT), width=40)]
    for i in range(sides):
        head.append(ft.Container(ft.Text(names[i] or "", size=13, weight=ft.FontWeight.W_700, color=p.sides[i],
                                         max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                                         text_align=ft.TextAlign.RIGHT), expand=True))
    out: list[ft.Control] = [ft.Row(head, spacing=4)]
    for row in rows:
        is_open = opened == row.index
        cells: list[ft.Control] = [ft.Column([ft.Text(str(row.index + 1), size=16, weight=ft.FontWeight.W_700),
                                              ft.Text(row.dealer, size=11, color=ft.Colors.ON_SURFACE_VARIANT,
                                                      max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)],
                                             spacing=0, width=40)]
        for i, (points, total) in enumerate(zip(row.points, row.running)):
            won = row.winner == i
            cells.append(ft.Container(ft.Column([
                ft.Text(("★ " if won else "") + f"+{points}", size=13,
                        weight=ft.FontWeight.W_700 if won else ft.FontWeight.NORMAL,
                        color=p.sides[i] if won else ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.RIGHT),
                ft.Text(str(total), size=19, weight=ft.FontWeight.W_800 if won else ft.FontWeight.W_600,
                        text_align=ft.TextAlign.RIGHT),
            ], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END), expand=True))
        body: list[ft.Control] = [ft.Row(cells, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
        if row.event:
            body.insert(0, labelled(ft.Container(
                ft.Text(row.event, size=13, weight=ft.FontWeight.W_700, color=p.on_tertiary_container),
                bgcolor=p.tertiary_container, border_radius=8, padding=ft.Padding.symmetric(horizontal=8, vertical=4)),
                f"event-{row.index}"))
        if is_open:
            body.append(breakdown_table(breakdown_of(row.index), p))
            if edit is not None:
                body.append(secondary(tr("match.edit_hand"), lambda _e=None, i=row.index: edit(i),
                                      f"edit-hand-{row.index}", icon=ft.Icons.EDIT))
        winner = (tr("sheet.row_label", n=row.index + 1, detail=row.detail,
                     totals=" : ".join(str(t) for t in row.running)))
        out.append(card(*body, padding=8, ident=f"hand-{row.index}", label=winner,
                        on_click=lambda _e=None, i=row.index: toggle(i)))
    return [section(tr("match.hands"), *out, ident="score-sheet", spacing=4)]


def match_over(vm: AppModel, p: Palette) -> list[ft.Control]:
    tr, table = vm.tr, vm.scoreboard
    share = vm.session.page_actions
    return [card(
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.ON_PRIMARY_CONTAINER, size=40),
                labelled(ft.Text(table.over_title(), size=24, weight=ft.FontWeight.W_800, expand=True,
                                 color=ft.Colors.ON_PRIMARY_CONTAINER), "winner")]),
        ft.Text(table.goal_line(), size=14, color=ft.Colors.ON_PRIMARY_CONTAINER),
        ft.Row([secondary(tr("over.share"), share.get("share"), "share", icon=ft.Icons.SHARE, expand=True),
                secondary(tr("over.share_sheet"), share.get("share_sheet"), "share-sheet", icon=ft.Icons.DESCRIPTION,
                          expand=True)]),
        secondary(tr("over.home"), lambda: vm.home(), "go-home", icon=ft.Icons.HOME),
        color=ft.Colors.PRIMARY_CONTAINER, ident="match-over")]
