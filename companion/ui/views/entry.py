"""The hand entry, one screen for a typical hand: most cards, counting cards (one picker), the 10♦ and the
special two in one row, xeris folded into a line while the live taps filled them in; the points previewed
in the status strip and Save pinned below. Or card by card.
"""

from __future__ import annotations

import flet as ft

from ..viewmodel import TIE, AppModel, TapKind, Tone
from .common import Frame, Status, column_width
from .metrics import fits, fitting_size, row_size
from .palette import Palette, palette
from .theme import text_style
from .widgets import (READABLE, TOUCH, holdable, icon_button, in_rows, labelled, per_row, pill, pill_inner,
                      playing_card, primary, secondary, section, stepper, suit_text)

STEPPERS = 2 * TOUCH + 40
"""The width of a − n + stepper."""


def entry(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.entry
    d = m.draft
    p = palette(vm.session.dark)
    names = m.names
    n = len(names)
    body: list[ft.Control] = []
    # A wide screen (a phone held sideways, a tablet): two columns, so a typical hand needs no scroll (most
    # cards, the 10♦ and the special two and the xeris on the left; the counting cards on the right).
    sideways = vm.session.wide and not d.exact
    width = column_width(vm, "body" if sideways else "full")

    reopened = m.reopened_line()
    if reopened:
        body.append(labelled(ft.Container(ft.Text(reopened, size=15, weight=ft.FontWeight.W_600,
                                                  color=p.on_tertiary_container),
                                          bgcolor=p.tertiary_container, border_radius=10,
                                          padding=ft.Padding.symmetric(horizontal=10, vertical=6)), "reopened-line"))
    if m.dealer_last_reminder:
        body.append(labelled(ft.Text(tr("entry.dealer_last"), size=13, color=ft.Colors.ON_SURFACE_VARIANT,
                                     italic=True), "dealer-last-reminder"))

    # Most cards: who has most, or the counted piles.
    majority = d.majority()
    flagged = m.flagged("cards") | m.flagged("most_cards")
    words = names + [tr("entry.tie")]
    # A long name keeps the row: on two lines broken between words, every name of the row at one size.
    k = per_row(words, width, 4, lines=2)
    each = (width - 4 * (k - 1)) / k
    size, lines = row_size(words, pill_inner(each), 16, least=10)
    most = [pill(names[i], majority == i, lambda _e=None, i=i: m.set_most(i), f"most-{i}", p.sides[i], p.on_sides,
                 expand=True, label=tr("entry.most_label", side=names[i]), size=size, fit=each, lines=lines)
            for i in range(n)]
    most.append(pill(tr("entry.tie"), majority == TIE, lambda: m.set_most(TIE), "most-tie", expand=True, size=size,
                     fit=each, lines=lines))
    most_controls: list[ft.Control] = in_rows(most, k)
    if d.show_counts:
        fields = []
        for i in range(n):
            bad = i in flagged or i in d.cards.bad()
            fields.append(labelled(ft.TextField(
                # No input filter: what is typed stays as typed, and a number that cannot be right is said in
                # words naming this field (a filter would silently change "-5" into 5, "3.5" into 35).
                label=("⚠ " if bad else "") + names[i], value=d.cards.shown(i), keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e, i=i: m.type_cards(i, e.control.value), expand=True, text_size=18, dense=True,
                border_color=ft.Colors.ERROR if bad else (p.sides[i] if d.cards.is_auto(i) else None),
                helper=tr("entry.auto") if d.cards.is_auto(i) else None), f"cards-{i}", value=d.cards.shown(i)))
        # Tops aligned: the filled-in field's helper line ("filled in") hangs below it, not lifting it 10 px.
        most_controls.append(ft.Row(fields, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
    body.append(section(tr("entry.most"), *most_controls, ident="section-most", spacing=2))

    side = None
    if d.exact:
        body += exact_grid(vm, p)
        body.append(xeris_section(vm, p, width))
    elif sideways:
        body += [specials(vm, p, width), xeris_section(vm, p, width)]
        side = [counting_picker(vm, p, column_width(vm, "side"))]
    else:
        body += [counting_picker(vm, p, width), specials(vm, p, width), xeris_section(vm, p, width)]

    if m.stale is not None:
        footer: list[ft.Control] = [ft.Row([secondary(tr("entry.discard"), lambda: m.discard(), "discard-hand",
                                              icon=ft.Icons.CLOSE, expand=True),
                          labelled(holdable(ft.FilledButton(m.reopen_label(), icon=ft.Icons.REFRESH,
                                                            on_click=lambda: m.reopen(), height=56, expand=True)),
                                   "reopen-hand")], spacing=8)]
        status = Status(m.stale_line(), Tone.PROBLEM)
    else:
        # A problem is said in the strip (fixed: nothing moves) and marked on its field with ⚠ in place.
        reason = m.save_reason()
        footer = [primary(tr("entry.save"), lambda: m.save(), "save-hand", icon=ft.Icons.CHECK, disabled=bool(reason))]
        if m.reopened is not None:
            # A hand reopened by an undo: put back (as it was or corrected) or left out, side by side.
            footer = [ft.Row([secondary(tr("entry.discard_reopened"), lambda: m.discard_reopened(), "discard-reopened",
                                        icon=ft.Icons.DELETE_OUTLINE, expand=True),
                              ft.Container(footer[0], expand=True)], spacing=8)]
        preview = m.preview()
        if m.problems():
            status = Status(m.problems_line(), Tone.PROBLEM, on_tap=lambda: m.show_problems())
        elif reason:
            status = Status(reason)
        else:   # the preview, in full when tapped (two lines at 360 px can cut its end)
            status = Status(preview.text if preview else "", on_tap=(lambda: m.show_preview()) if preview else None)
    actions = [icon_button(ft.Icons.PIN if not d.show_counts else ft.Icons.LOOKS_ONE, lambda: m.toggle_counts(),
                           tr("entry.give_counts") if not d.show_counts else tr("entry.hide_counts"), "toggle-counts"),
               icon_button(ft.Icons.GRID_VIEW if not d.exact else ft.Icons.NUMBERS, lambda: m.set_exact(not d.exact),
                           tr("entry.exact_mode") if not d.exact else tr("entry.count_mode"), "exact-mode")]
    return Frame(m.title, body, footer=footer, status=status, actions=actions, side=side)


def counting_picker(vm: AppModel, p: Palette, width: float) -> ft.Control:
    """One number picker for the counting cards: the side it sets is chosen above it; the last side is worked out.
    Each side's tab has its name on one line and its count below, so neither cuts the other."""
    tr, m = vm.tr, vm.entry
    d = m.draft
    names = m.names
    flagged = m.flagged("counting")
    values = [m.counting_status(i) for i in range(len(names))]
    # The sides' tabs in one row where their names fit it on two lines (the tab grows to hold them and the count),
    # every tab's name at one size.
    k = per_row(names, width, 4, lines=2) if all(fits(v, pill_inner(width / len(names)), 13) for v in values) else \
        per_row(names + values, width, 4)
    each = (width - 4 * (k - 1)) / k
    size, lines = row_size(names, pill_inner(each), 15, least=10)
    tabs = []
    for i, name in enumerate(names):
        value = values[i]
        tabs.append(pill(name, m.counting_side == i, lambda _e=None, i=i: m.pick_counting_side(i),
                         f"counting-side-{i}", p.sides[i], p.on_sides, expand=True, size=size,
                         auto=d.counting.is_auto(i), flag=i in flagged or None in flagged, fit=each, sub=value,
                         lines=lines, height=TOUCH if lines == 1 else TOUCH + 18,
                         label=tr("entry.counting_of", side=name, value=value)))
    side = m.counting_side
    chosen = d.counting.values[side]
    numbers = [pill(str(k), chosen == k and not d.counting.is_auto(side),
                    lambda _e=None, i=side, k=k: m.set_counting(i, k), f"counting-{side}-{k}", p.sides[side],
                    p.on_sides, width=TOUCH, size=16, auto=d.counting.is_auto(side) and chosen == k,
                    label=tr.n("entry.counting_label", k, side=names[side])) for k in m.counting_range()]
    return section(m.counting_title(), *in_rows(tabs, k), ft.Row(numbers, wrap=True, spacing=0, run_spacing=0),
                   ident="section-counting", spacing=4)


CARD_LABEL = 40
"""The width of the 10♦ / 2♣ label before its row of names."""


def specials(vm: AppModel, p: Palette, width: float) -> ft.Control:
    """Who took the 10♦ and the special two: one row for two sides whose names fit it, else a row each (and
    fewer names to a row when they need it): a name is drawn whole, never cut or wrapped mid-word."""
    tr, m = vm.tr, vm.entry
    d = m.draft
    names = m.names
    n = len(names)
    # Both cards in one row: each half holds the card's label and a pill per side.
    half = (width - 10) / 2 - CARD_LABEL - 4
    together = n == 2 and per_row(names, half, 4) == n
    # Not together: the card's label before its choices where they all fit beside it; else the label heads them
    # and they take the whole width (two long names a row, on two lines).
    beside = together or per_row(names, width - CARD_LABEL - 4, 4) == n
    room = half if together else (width - CARD_LABEL - 4 if beside else width)
    k = n if beside else per_row(names, room, 4, lines=2)
    each = (room - 4 * (k - 1)) / k
    size, wrap = row_size(names, pill_inner(each), 15, least=10, lines=1 if beside else 2)
    groups: list[ft.Control] = []
    for key, label, setter, value, field in (("ten", m.ten_label(), m.set_ten, d.ten, "ten_of_diamonds"),
                                             ("two", m.two_label(), m.set_two, d.two, "two")):
        flagged = m.flagged(field)
        choices = [pill(names[i], value == i, lambda _e=None, i=i, f=setter: f(i),
                        f"{key}-{i}", p.sides[i], p.on_sides, expand=True, size=size, flag=i in flagged, fit=each,
                        lines=wrap,
                        label=tr("entry.took_label", side=names[i], card=label)) for i in range(n)]
        lines = in_rows(choices, k)
        if not beside:
            groups.append(ft.Column([suit_text(label, size=15, weight=ft.FontWeight.W_700, red=p.red_suit), *lines],
                                    spacing=2))
            continue
        card = ft.Container(suit_text(label, size=16, weight=ft.FontWeight.W_700, red=p.red_suit), width=CARD_LABEL,
                            height=TOUCH, alignment=ft.Alignment.CENTER_LEFT)
        picks = lines[0] if len(lines) == 1 else ft.Column(lines, spacing=4)
        picks.expand = True
        groups.append(ft.Row([card, picks], spacing=4, expand=together,
                             vertical_alignment=ft.CrossAxisAlignment.START if len(lines) > 1 else None))
    rows: list[ft.Control] = [ft.Row(groups, spacing=10)] if together else groups
    return section(tr("entry.specials", ten=m.ten_label(), two=m.two_label()), *rows, ident="section-specials",
                   spacing=4)


def xeris_section(vm: AppModel, p: Palette, width: float) -> ft.Control:
    """The xeris: one line while the live taps filled them in; steppers when opened or when there is a problem."""
    tr, m = vm.tr, vm.entry
    flagged = m.flagged("xeris") | m.flagged("jack_xeris")
    if not (m.xeris_open or flagged):
        words = ft.Text(spans=[ft.TextSpan(tr("entry.xeris") + "  ", style=text_style(
                                   weight=ft.FontWeight.W_700, color=ft.Colors.ON_SURFACE_VARIANT)),
                               ft.TextSpan(m.xeris_summary())], size=15, expand=True, max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS)
        line = ft.Row([words, secondary(tr("entry.change_xeris"), lambda: m.open_xeris(), "open-xeris",
                                        icon=ft.Icons.EDIT)], vertical_alignment=ft.CrossAxisAlignment.CENTER)
        return labelled(line, "section-xeris")
    rows: list[ft.Control] = [ft.Row([ft.Text("", expand=True),
                    ft.Text(tr("field.xeris"), width=STEPPERS, text_align=ft.TextAlign.CENTER, size=13),
                    ft.Text(tr("field.jack_xeris"), width=STEPPERS, text_align=ft.TextAlign.CENTER, size=13)],
                   spacing=4)]
    # One row per side, or per player in a partnership (a correction then names who made the xeri). A name
    # too long for the room beside the steppers gets a line of its own above them.
    beside = width - 2 * STEPPERS - 8
    xeri_rows = m.xeri_rows()
    apart = not all(fits(row.name, beside, READABLE) for row in xeri_rows)
    for row in xeri_rows:
        i = row.index
        bad = row.side in flagged or None in flagged
        shown = ("⚠ " if bad else "") + row.name
        name = ft.Text(shown, size=fitting_size(shown, width if apart else beside, 15, least=10),
                       weight=ft.FontWeight.W_700, color=ft.Colors.ERROR if bad else p.sides[row.side],
                       expand=True, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=True)
        if apart:
            rows.append(ft.Row([name]))
        rows.append(ft.Row([
            ft.Container(expand=True) if apart else name,
            stepper(row.xeris, lambda _e=None, i=i: m.step(TapKind.XERI, i, -1),
                    lambda _e=None, i=i: m.step(TapKind.XERI, i, 1),
                    f"xeris-{i}", tr("entry.xeris_of", side=row.name)),
            stepper(row.jack_xeris, lambda _e=None, i=i: m.step(TapKind.JACK_XERI, i, -1),
                    lambda _e=None, i=i: m.step(TapKind.JACK_XERI, i, 1), f"jack-xeris-{i}",
                    tr("entry.jack_xeris_of", side=row.name)),
        ], spacing=4))
    # Where the xeris come from is said below the steppers (the last thing on the screen): when they were
    # changed by hand the longer note and "Use the taps again" move nothing above them.
    rows.append(ft.Text(m.xeris_note(), size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    if m.editing is None and m.draft.xeris_touched:
        rows.append(secondary(tr("entry.use_taps"), lambda: m.use_taps(), "use-taps", icon=ft.Icons.RESTART_ALT))
    return section(tr("entry.xeris"), *rows, ident="section-xeris", spacing=2)


def exact_grid(vm: AppModel, p: Palette) -> list[ft.Control]:
    tr, m = vm.tr, vm.entry
    tiles = [playing_card(p, c.rank.value, c.suit.symbol, c.suit.is_red, holder,
                          lambda _e=None, code=c.code: m.tap_card(code), label, f"card-{c.code}")
             for c, holder, label in m.exact_cards()]
    counts: list[ft.Control] = [ft.Text(text, color=p.sides[i], size=15, weight=ft.FontWeight.W_600)
              for i, text in enumerate(m.exact_counts())]
    return [section(tr("entry.exact_title"), ft.Row(tiles, wrap=True, spacing=4, run_spacing=4),
                    ft.Row(counts, wrap=True, spacing=12), note=tr("entry.exact_note"), ident="exact-grid")]
