"""The scoreboard: totals, who deals, the live xeri buttons, the score sheet, and the end of the match.

End hand is pinned at the bottom; what a tap did is said in the status strip, which never moves anything.
On a wide screen (a tablet, a phone held sideways) the score sheet stands beside the controls, and the
totals are big enough to read from across the table.
"""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from ..viewmodel import AppModel, TapKind
from ..viewmodel.scoreboard import SeatTaps
from .common import Frame, Status, breakdown_table, column_width, sync_mark, watching
from .memo import kept
from .metrics import fitting_size, row_size
from .palette import Palette, palette
from .theme import text_style
from .widgets import card, holdable, icon_button, labelled, primary, secondary
from .sync import conflict_cards


def scoreboard(vm: AppModel) -> Frame:
    tr, table, s = vm.tr, vm.scoreboard, vm.session
    st = table.standing
    p = palette(s.dark)
    wide = s.wide
    writer = s.can_write            # a watching phone sees the table and none of the buttons that change it
    # A tablet or a laptop: the totals big across the whole width, the buttons and the score sheet side by side
    # below them. A phone held sideways has room for the xeri buttons (or the match-over actions) or the totals,
    # not both: the buttons stay in reach on the left and the totals head the score sheet beside them.
    big = wide and not s.short
    sideways = wide and s.short
    boxes_width = column_width(vm, "top" if big else ("side" if sideways else "body"))
    # The totals, the live buttons of each player, the dealer's row, the header's actions and End hand are kept
    # from the redraw before while what they show is unchanged (`views.memo`): a xeri tapped changes one player's
    # row and the strip, and every phone at the table redraws for it.
    totals = kept(s, "totals", (table.match, table.at_hand, s.lang, s.dark, s.viewport, boxes_width, big),
                  lambda: [goal_line(vm, p), side_boxes(vm, p, boxes_width, big=big)])
    controls: list[ft.Control] = watching(vm) + conflict_cards(vm, table.record.id if table.record else None) + (
        [] if sideways or big else totals)
    if not table.at_hand:
        controls += match_over(vm, p)
        footer = [primary(tr("over.rematch"), lambda: table.rematch(), "rematch", icon=ft.Icons.REPLAY)] \
            if writer else []
    else:
        controls.append(kept(s, "deal", (table.deal_line(), bool(table.record.live.taps), writer, s.lang),
                             lambda: deal_row(vm)))
        controls.append(live_panel(vm, p, column_width(vm, "body")) if writer else live_counts(vm, p))
        footer = kept(s, "end-hand", s.lang, lambda: [primary(tr("match.end_hand"), lambda: table.end_hand(),
                                                              "end-hand", icon=ft.Icons.EDIT_NOTE)]) \
            if writer else []
    sheet_width = column_width(vm, "side" if wide else "full")
    # The sheet is kept from the redraw before while the match's hands are as they were (a tap, a resize
    # of another part): it is most of the scoreboard's controls. The hands themselves, not their number: a
    # version of a hand from the group can take the place of this phone's with as many hands and edits.
    sheet = kept(s, "score-sheet", (table.record.id, table.match.hands, table.record.revision.changes,
                                    tuple(table.side_names), table.opened, s.lang, s.dark, sheet_width, writer),
                 lambda: score_sheet(vm, p, table.side_names, table.hand_rows(), table.opened, table.breakdown,
                                     table.show_breakdown, edit=table.ask_edit if writer else None, width=sheet_width))
    # Undo and Stop sit in the header, where nothing the sheet grows by can move them.
    header_actions = sync_mark(vm)   # where this device stands with its group: a fixed 48 × 48 mark
    header_actions += kept(s, "header-actions", (writer, table.can_redo and table.redo_label(), bool(table.match.hands),
                                                 table.at_hand, st.is_over, st.may_finish_now, s.lang),
                           lambda: match_actions(vm))
    saved = table.saved_line()
    offer = table.finish_offer()    # a side sure to win before the last hand: finish now, or play on
    status = Status(saved, on_tap=lambda: table.show_saved()) if saved else Status(
        offer, on_tap=(lambda: table.ask_finish()) if writer else None) if offer else Status(
        table.taps_line() if table.at_hand else table.goal_line())
    if wide:
        return Frame(table.title, controls, footer=footer, status=status, actions=header_actions,
                     side=totals + sheet if sideways else sheet, top=totals if big else None)
    return Frame(table.title, controls + sheet, footer=footer, status=status, actions=header_actions)


def match_actions(vm: AppModel) -> list[ft.Control]:
    """The scoreboard's own actions in its header: Redo, Undo, Stop (or Finish now, or Keep the draw), Rules."""
    tr, table, st = vm.tr, vm.scoreboard, vm.scoreboard.standing
    writer = vm.session.can_write
    header_actions: list[ft.Control] = []
    if writer and table.can_redo:
        # Left of Undo, so that nothing else in the header moves when it comes and goes.
        header_actions.append(icon_button(ft.Icons.REDO, lambda: table.redo(), table.redo_label(), "redo-hand"))
    if writer:
        header_actions.append(icon_button(ft.Icons.UNDO, lambda: table.ask_undo(), tr("match.undo_hand"), "undo-hand",
                                          disabled=not table.match.hands))
    if table.at_hand and writer:
        # One place, one size: Stop; Finish now once a side is sure to win; Keep the draw in a deciding hand.
        if st.is_over:
            header_actions.append(icon_button(ft.Icons.CLOSE, lambda: table.keep_draw(), tr("over.keep_draw"),
                                              "keep-draw"))
        elif st.may_finish_now:
            header_actions.append(icon_button(ft.Icons.SPORTS_SCORE, lambda: table.ask_finish(), tr("over.finish_now"),
                                              "finish-match"))
        else:
            header_actions.append(icon_button(ft.Icons.CLOSE, lambda: table.ask_abandon(), tr("match.abandon"),
                                              "abandon-match"))
    header_actions.append(icon_button(ft.Icons.MENU_BOOK, lambda: vm.rules.open("current"), tr("nav.rules"),
                                      "match-rules"))
    return header_actions


def deal_row(vm: AppModel) -> ft.Control:
    """Who deals, and beside it Undo tap: one row, so that the score sheet's newest hand and the totals are on a
    360×640 screen with the xeri buttons, without a scroll."""
    table = vm.scoreboard
    deal = labelled(ft.Row([ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                            ft.Text(table.deal_line(), size=16, expand=True, weight=ft.FontWeight.W_600,
                                    max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)]),
                    "dealer-line")
    deal.expand = True
    undo = [secondary(vm.tr("match.undo_tap"), lambda: table.undo_tap(), "undo-tap", icon=ft.Icons.UNDO,
                      disabled=not table.record.live.taps)] if vm.session.can_write else []
    return ft.Row([deal, *undo], vertical_alignment=ft.CrossAxisAlignment.CENTER)


def goal_line(vm: AppModel, p: Palette) -> ft.Control:
    """The goal in force; once two sides passed the target together, a banner says so (same place, same size)."""
    table = vm.scoreboard
    sure = table.standing.may_finish_now     # a side is sure to win before the last hand: said the same way
    if (table.extended or sure) and not table.standing.is_over:
        box = ft.Container(ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS if sure else ft.Icons.TRENDING_UP,
                                           color=p.on_tertiary_container, size=20),
                                   ft.Text(table.goal_short() if sure else table.goal_line(), size=15,
                                           weight=ft.FontWeight.W_700,
                                           color=p.on_tertiary_container, expand=True, max_lines=1,
                                           overflow=ft.TextOverflow.ELLIPSIS)], spacing=6),
                           bgcolor=p.tertiary_container, border_radius=10, height=GOAL_LINE,
                           padding=ft.Padding.symmetric(horizontal=10))
    else:
        # One line (the short form: "first to 151, then 251"); screen readers get the goal in full.
        box = ft.Container(ft.Text(table.goal_short(), size=14, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1,
                                   overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER),
                           height=GOAL_LINE, alignment=ft.Alignment.CENTER)
    return labelled(box, "goal-line", table.goal_line())


GOAL_LINE = 30
"""The goal line's height, the same whether it states the goal or says the match was played on."""


def side_boxes(vm: AppModel, p: Palette, width: float, big: bool = False) -> ft.Control:
    table = vm.scoreboard
    compact = len(table.side_names) > 2 and not big   # four boxes share a phone's width
    boxes: list[ft.Control] = []
    n = len(table.side_names)
    inner = (width - 6 * (n - 1)) / n - 12 - 6       # the box's padding and border
    all_boxes = table.boxes(compact)
    # Every box's name at one size: on one line, or on two broken between words where that draws them larger
    # (a team called after two long names); cut only past the least size (the total's label says it whole).
    name_size = 22 if big else 15
    drawn, name_lines = row_size([b.name for b in all_boxes], inner, name_size, least=10)
    # A phone short of height for four players' buttons: a named team's players are on those buttons already.
    roomy = big or not (n == 2 and len(table.match.seats) == 4 and vm.session.viewport[1] < 700)
    for i, box in enumerate(all_boxes):
        size = 72 if big else (32 if compact else 44)
        lines = [ft.Container(ft.Text(box.name, size=drawn, weight=ft.FontWeight.W_700, color=p.sides[i],
                                      max_lines=name_lines, no_wrap=name_lines == 1, text_align=ft.TextAlign.CENTER,
                                      overflow=ft.TextOverflow.ELLIPSIS),
                              height=round(name_size * 1.45) if name_lines == 1 else round(drawn * 1.3 * name_lines),
                              alignment=ft.Alignment.CENTER),
                 labelled(ft.Text(str(box.total), size=size, weight=ft.FontWeight.W_800), f"total-{i}", box.label)]
        if box.players and roomy:
            lines.insert(1, ft.Text(box.players, size=13, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1,
                                    overflow=ft.TextOverflow.ELLIPSIS))
        small: dict[str, Any] = dict(size=16 if big else (12 if compact else 13), color=ft.Colors.ON_SURFACE_VARIANT,
                     text_align=ft.TextAlign.CENTER, max_lines=1)
        won = ("★ " if box.is_winner else "") + box.hands_won
        if box.needs and n == 2 and not big:   # two boxes have room for both on one line: the sheet gets it
            lines.append(ft.Text(f"{box.needs} · {won}", **small))
        else:
            if box.needs:
                lines.append(ft.Text(box.needs, **small))
            lines.append(ft.Text(won, **small))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  expand=True, padding=ft.Padding.symmetric(horizontal=6, vertical=6),
                                  border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                  border=ft.Border.all(3 if box.is_winner else 1,
                                                       p.sides[i] if box.is_winner else ft.Colors.OUTLINE_VARIANT)))
    return ft.Row(boxes, spacing=6, vertical_alignment=ft.CrossAxisAlignment.START)


def live_panel(vm: AppModel, p: Palette, width: float) -> ft.Control:
    """A row per player: their xeris and jack xeris as they happen (the count is on the button)."""
    rows: list[ft.Control] = []
    # The player's name is on their Xeri button, above the count: the two buttons share the row's width, so a
    # 12-letter name is drawn whole (a name column beside them was 76 px, and wrapped it mid-word).
    each = (width - 6) / 2 - 16
    seats = vm.scoreboard.seats()
    # A player's row: their name on both buttons at one size, a long one by its first name (the labels say it
    # whole).
    # Four players on a phone short of height: buttons of the least touch height, closer together, so every row
    # is on screen.
    tall = 48 if len(seats) == 4 and vm.session.viewport[1] < 700 else 52
    for seat in seats:   # a player's row is kept while their counts are as they were (another player's tap)
        rows.append(kept(vm.session, f"live-{seat.seat}", (seat, vm.session.lang, p, each, tall),
                         functools.partial(seat_row, vm, p, seat, each, tall)))
    return labelled(ft.Column(rows, spacing=6 if tall > 48 else 3), "live-panel")


def seat_row(vm: AppModel, p: Palette, seat: SeatTaps, each: float, tall: float) -> ft.Control:
    """One player's Xeri and Jack xeri buttons, each `each` wide for its words and `tall` high."""
    tr, table = vm.tr, vm.scoreboard
    color = p.sides[seat.side]
    text = text_style(size=16, weight=ft.FontWeight.W_600)
    name_size = fitting_size(seat.shown, each, 14, least=10)

    def words(what: str, count: int, player: str = seat.shown, name_size: float = name_size) -> ft.Control:
        """The player's name above what the button counts: partners' buttons differ by more than a colour."""
        return ft.Column([
            ft.Text(player, size=name_size, weight=ft.FontWeight.W_700,
                    max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=True),
            ft.Text(f"{what}  {count}", size=16, weight=ft.FontWeight.W_600, no_wrap=True),
        ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.CENTER)

    xeri_words = words(tr("match.xeri"), seat.xeris)
    return ft.Row([
        labelled(holdable(ft.FilledButton(xeri_words,
                                          on_click=lambda _e=None, i=seat.seat: table.tap(i, TapKind.XERI),
                                          height=tall, expand=True,
                                          style=ft.ButtonStyle(bgcolor=color, color=p.on_sides, text_style=text,
                                                               padding=ft.Padding.symmetric(horizontal=6),
                                                               shape=ft.RoundedRectangleBorder(radius=12)))),
                 f"xeri-{seat.seat}", seat.xeri_label),
        labelled(holdable(ft.OutlinedButton(words(tr("match.jack_xeri"), seat.jack_xeris),
                                            on_click=lambda _e=None, i=seat.seat: table.tap(i, TapKind.JACK_XERI),
                                            height=tall, expand=True,
                                            style=ft.ButtonStyle(side=ft.BorderSide(2, color), color=color,
                                                                 text_style=text,
                                                                 padding=ft.Padding.symmetric(horizontal=6),
                                                                 shape=ft.RoundedRectangleBorder(radius=12)))),
                 f"jack-xeri-{seat.seat}", seat.jack_xeri_label),
    ], spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def live_counts(vm: AppModel, p: Palette) -> ft.Control:
    """The live xeris as words, for a phone that only watches: a row per player, kept while their counts are."""
    rows: list[ft.Control] = [kept(vm.session, f"counts-{seat.seat}", (seat, vm.session.lang, p),
                                   functools.partial(count_row, vm, p, seat)) for seat in vm.scoreboard.seats()]
    return labelled(ft.Column(rows, spacing=6), "live-counts")


def count_row(vm: AppModel, p: Palette, seat: SeatTaps) -> ft.Control:
    return ft.Row([ft.Text(seat.player, size=15, weight=ft.FontWeight.W_700, color=p.sides[seat.side], expand=True),
                   ft.Text(f"{vm.tr('match.xeri')} {seat.xeris} · {vm.tr('match.jack_xeri')} {seat.jack_xeris}",
                           size=15)])


def score_sheet(vm: AppModel, p: Palette, names: list[str], rows, opened, breakdown_of, toggle,
                edit=None, width: float | None = None) -> list[ft.Control]:
    """The score sheet: a row per hand, newest first; per side the hand's points and the running total; the
    hand's winner marked with ★ (not colour alone); a tap opens the hand's breakdown."""
    tr = vm.tr
    if not rows:
        return [labelled(ft.Text(tr("match.no_hands"), color=ft.Colors.ON_SURFACE_VARIANT), "no-hands")]
    sides = len(rows[0].points)
    # The sheet's title heads its number column (one line less above the newest hand).
    head: list[ft.Control] = [ft.Container(ft.Text(tr("match.hands"), size=13, weight=ft.FontWeight.W_700, no_wrap=True,
                                 color=ft.Colors.ON_SURFACE_VARIANT), width=40)]
    column = ((width or column_width(vm)) - 16 - 40 - 4 * sides) / sides
    for i in range(sides):
        name = names[i] or ""
        head.append(ft.Container(ft.Text(name, size=fitting_size(name, column, 13, least=10),
                                         weight=ft.FontWeight.W_700, color=p.sides[i], no_wrap=True,
                                         max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                                         text_align=ft.TextAlign.RIGHT), expand=True))
    out: list[ft.Control] = [ft.Row(head, spacing=4)]
    for row in rows:
        is_open = opened == row.index
        # The hand's number only: the small name under it was the dealer, unlabelled, and read like the
        # winner. The winner is marked by ★ on its points; who dealt is said in words in the open row.
        cells: list[ft.Control] = [ft.Container(ft.Text(str(row.index + 1), size=16, weight=ft.FontWeight.W_700),
                                                width=40)]
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
            body.append(labelled(ft.Text(row.detail, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                                 f"detail-{row.index}"))
            body.append(breakdown_table(breakdown_of(row.index), p))
            if edit is not None:
                body.append(secondary(tr("match.edit_hand"), lambda _e=None, i=row.index: edit(i),
                                      f"edit-hand-{row.index}", icon=ft.Icons.EDIT))
        winner = (tr("sheet.row_label", n=row.index + 1, detail=row.detail,
                     totals=" : ".join(str(t) for t in row.running)))
        out.append(card(*body, padding=8, ident=f"hand-{row.index}", label=winner,
                        on_click=lambda _e=None, i=row.index: toggle(i)))
    return [labelled(ft.Column(out, spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), "score-sheet")]


def match_over(vm: AppModel, p: Palette) -> list[ft.Control]:
    tr, table = vm.tr, vm.scoreboard
    share = vm.session.page_actions
    return [card(
        # A trophy for a winner; a draw has none.
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS if table.standing.winner is not None else ft.Icons.HANDSHAKE,
                        color=ft.Colors.ON_PRIMARY_CONTAINER, size=40),
                labelled(ft.Text(table.over_title(), size=24, weight=ft.FontWeight.W_800, expand=True,
                                 color=ft.Colors.ON_PRIMARY_CONTAINER), "winner")]),
        ft.Text(table.goal_line(), size=14, color=ft.Colors.ON_PRIMARY_CONTAINER),
        *deciding_offer(vm),
        ft.Row([secondary(tr("over.share"), share.get("share_picture"), "share", icon=ft.Icons.SHARE, expand=True),
                secondary(tr("over.save_picture"), share.get("save_picture"), "save-picture", icon=ft.Icons.IMAGE,
                          expand=True)]),
        ft.Row([secondary(tr("over.share_sheet"), share.get("share_sheet"), "share-sheet", icon=ft.Icons.DESCRIPTION,
                          expand=True),
                secondary(tr("over.home"), lambda: vm.home(), "go-home", icon=ft.Icons.HOME, expand=True)]),
        color=ft.Colors.PRIMARY_CONTAINER, ident="match-over")]


def deciding_offer(vm: AppModel) -> list[ft.Control]:
    """A drawn match whose rules let the table agree on a deciding hand: said, and the button to play it."""
    tr, table = vm.tr, vm.scoreboard
    if not table.deciding_offered:
        return []
    offer: list[ft.Control] = [labelled(ft.Text(tr("over.deciding_offer"), size=14,
                                                color=ft.Colors.ON_PRIMARY_CONTAINER), "deciding-offer")]
    if vm.session.can_write:
        offer.append(primary(tr("over.deciding_hand"), lambda: table.play_deciding_hand(), "deciding-hand",
                             icon=ft.Icons.PLAY_ARROW))
    return offer
