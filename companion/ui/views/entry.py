"""The hand entry: most cards, counting cards, the 10♦ and the special two, xeris; or card by card."""

from __future__ import annotations

import flet as ft

from ..viewmodel import TIE, AppModel
from .common import header, notices
from .widgets import SIDE_COLORS, TOUCH, card, labelled, pill, playing_card, primary, problem, section, stepper, toggle


def entry(vm: AppModel):
    tr, m = vm.tr, vm.entry
    d = m.draft
    names = m.names
    n = len(names)
    out: list[ft.Control] = [header(vm, m.title)]
    out += notices(vm)

    def problems_for(*fields: str) -> list[ft.Control]:
        return [problem(text, f"problem-{code}") for code, text in m.problems_for(*fields)]

    if m.dealer_last_reminder:
        out.append(card(ft.Row([ft.Icon(ft.Icons.INFO_OUTLINE), ft.Text(tr("entry.dealer_last"), expand=True)]),
                        padding=12, color=ft.Colors.TERTIARY_CONTAINER, ident="dealer-last-reminder"))

    out.append(toggle(tr("entry.exact_mode"), d.exact, lambda e: m.set_exact(e.control.value), "exact-mode"))

    # Most cards
    majority = d.majority()
    most = [pill(names[i], majority == i, lambda _e=None, i=i: m.set_most(i), f"most-{i}", SIDE_COLORS[i],
                 expand=True, label=tr("entry.most_label", side=names[i])) for i in range(n)]
    most.append(pill(tr("entry.tie"), majority == TIE, lambda: m.set_most(TIE), "most-tie", expand=True))
    most_controls = [ft.Row(most, spacing=6)]
    most_controls.append(labelled(ft.TextButton(tr("entry.hide_counts") if d.show_counts else tr("entry.give_counts"),
                                                on_click=lambda: m.toggle_counts()), "toggle-counts"))
    if d.show_counts:
        fields = []
        for i in range(n):
            fields.append(labelled(ft.TextField(
                label=names[i], value=d.cards.shown(i), keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e, i=i: m.type_cards(i, e.control.value), expand=True, text_size=18,
                border_color=SIDE_COLORS[i] if d.cards.is_auto(i) else None,
                helper=tr("entry.auto") if d.cards.is_auto(i) else None), f"cards-{i}", value=d.cards.shown(i)))
        most_controls.append(ft.Row(fields, spacing=8))
    most_controls += problems_for("cards", "most_cards")
    out.append(section(tr("entry.most"), *most_controls, ident="section-most"))

    if d.exact:
        out += exact_grid(vm)
    else:
        deck_total = d.rules.counting_cards_in_deck
        rows = []
        for i in range(n):
            value = d.counting.values[i]
            auto = d.counting.is_auto(i)
            chips = [pill(str(k), value == k, lambda _e=None, i=i, k=k: m.set_counting(i, k),
                          f"counting-{i}-{k}", SIDE_COLORS[i], width=TOUCH, size=16,
                          label=tr("entry.counting_label", side=names[i], n=k), auto=auto and value == k)
                     for k in range(deck_total + 1)]
            rows.append(ft.Column([
                ft.Row([ft.Text(names[i], size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], expand=True),
                        labelled(ft.Text(m.counting_status(i), size=16, weight=ft.FontWeight.W_700),
                                 f"counting-value-{i}")]),
                ft.Row(chips, wrap=True, spacing=4, run_spacing=4),
            ], spacing=4))
        out.append(section(m.counting_title(), *rows, *problems_for("counting"), ident="section-counting"))
        for key, card_label, setter, value, field in (("ten", "10♦", m.set_ten, d.ten, "ten_of_diamonds"),
                                                      ("two", m.two_label(), m.set_two, d.two, "two")):
            choices = [pill(names[i], value == i, lambda _e=None, i=i, f=setter: f(i), f"{key}-{i}", SIDE_COLORS[i],
                            expand=True, label=tr("entry.took_label", side=names[i], card=card_label))
                       for i in range(n)]
            out.append(section(tr("entry.who_took", card=card_label), ft.Row(choices, spacing=6),
                               *problems_for(field), ident=f"section-{key}"))

    xrows = []
    for i in range(n):
        xrows.append(ft.Row([
            ft.Text(names[i], size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], expand=True),
            stepper(d.xeris[i], lambda _e=None, i=i: m.step("xeri", i, -1), lambda _e=None, i=i: m.step("xeri", i, 1),
                    f"xeris-{i}", tr("entry.xeris_of", side=names[i])),
            stepper(d.jack_xeris[i], lambda _e=None, i=i: m.step("jack_xeri", i, -1),
                    lambda _e=None, i=i: m.step("jack_xeri", i, 1), f"jack-xeris-{i}",
                    tr("entry.jack_xeris_of", side=names[i])),
        ], spacing=4))
    out.append(section(tr("entry.xeris"), ft.Row([ft.Text("", expand=True), ft.Text(tr("field.xeris"), width=120,
                                                                                     text_align=ft.TextAlign.CENTER),
                                                  ft.Text(tr("field.jack_xeris"), width=120,
                                                          text_align=ft.TextAlign.CENTER)], spacing=4),
                       *xrows, *problems_for("xeris", "jack_xeris"), note=tr("entry.xeris_note"),
                       ident="section-xeris"))

    out += [problem(t) for t in m.other_problems()]
    reason = m.save_reason()
    footer = [primary(tr("entry.save"), lambda: m.save(), "save-hand", icon=ft.Icons.CHECK, disabled=bool(reason))]
    if reason:
        footer.append(labelled(ft.Text(reason, size=15, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2,
                                       overflow=ft.TextOverflow.ELLIPSIS), "save-reason"))
    return out, footer


def exact_grid(vm: AppModel) -> list[ft.Control]:
    tr, m = vm.tr, vm.entry
    tiles = [playing_card(c.rank.value, c.suit.symbol, c.suit.is_red, holder,
                          lambda _e=None, code=c.code: m.tap_card(code), label, f"card-{c.code}")
             for c, holder, label in m.exact_cards()]
    counts = [ft.Text(text, color=SIDE_COLORS[i], size=15, weight=ft.FontWeight.W_600)
              for i, text in enumerate(m.exact_counts())]
    problems = [problem(text) for _, text in m.problems_for("held")]
    return [section(tr("entry.exact_title"), ft.Row(tiles, wrap=True, spacing=6, run_spacing=6),
                    ft.Row(counts, wrap=True, spacing=12), *problems, note=tr("entry.exact_note"), ident="exact-grid")]
