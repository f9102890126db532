"""The new-match screen: who plays, the rules, the goal and the first dealer; Start pinned with the rules beside it."""

from __future__ import annotations

import functools
from typing import Any

import flet as ft

from ..viewmodel import AppModel
from ..viewmodel.setup import GOAL_KINDS, LAYOUTS
from .common import Frame, Status, column_width
from .metrics import text_width
from .palette import palette
from .widgets import TOUCH, card, holdable, labelled, pill, primary, section, stepper, suit_text, toggle


def setup(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.setup
    f = m.form
    p = palette(vm.session.dark)
    wide = vm.session.wide
    body: list[ft.Control] = []
    body.append(section(tr("setup.who"), ft.Row([
        pill(tr(f"setup.layout.{k}"), f.layout == k, lambda _e=None, k=k: m.set_layout(k), f"layout-{k}", size=14,
             expand=True) for k in LAYOUTS], spacing=6, wrap=False)))

    def name_field(i: int, label: str) -> ft.Control:
        field = ft.Row([labelled(ft.TextField(label=label, value=f.names[i], error=m.field_problem("player", i),
                                              on_change=lambda e, i=i: m.set_name(i, e.control.value),
                                              text_size=18, capitalization=ft.TextCapitalization.WORDS, expand=True),
                                 f"name-{i}", value=f.names[i])])
        chips = [labelled(holdable(ft.TextButton(h, on_click=lambda _e=None, h=h, i=i: m.set_name(i, h),
                                                 style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=12)),
                                                 height=TOUCH)), f"suggest-{i}-{h}")
                 for h in m.name_suggestions(i)[:4]]
        parts: list[ft.Control] = [field]
        if chips:
            parts.append(ft.Row(chips, wrap=True, spacing=4))
        return ft.Column(parts, spacing=2,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    if f.layout == "partners":
        teams = []
        for team in range(2):
            teams.append(card(
                ft.Text(tr("setup.team", n=team + 1), weight=ft.FontWeight.W_700, color=p.sides[team]),
                ft.Row([labelled(ft.TextField(label=tr("setup.team_name"), value=f.team_names[team],
                                              error=m.field_problem("team", team),
                                              on_change=lambda e, t=team: m.set_team_name(t, e.control.value),
                                              expand=True), f"team-{team}", value=f.team_names[team])]),
                name_field(2 * team, tr("setup.player", n=2 * team + 1)),
                name_field(2 * team + 1, tr("setup.player", n=2 * team + 2)),
                padding=12))
        if wide:   # the two teams side by side
            teams = [ft.Row([ft.Container(t, expand=True) for t in teams], spacing=8,
                            vertical_alignment=ft.CrossAxisAlignment.START)]
        body.append(section(tr("setup.players"), *teams, note=m.seating_note()))
    else:
        fields = [name_field(i, tr("setup.player", n=i + 1)) for i in range(f.seats)]
        if wide:   # two name fields to a row: a phone held sideways shows them together
            fields = [ft.Row([ft.Container(x, expand=True) for x in fields[i:i + 2]], spacing=8,
                             vertical_alignment=ft.CrossAxisAlignment.START) for i in range(0, len(fields), 2)]
        body.append(section(tr("setup.players"), *fields, note=m.seating_note()))
    # Wide (a tablet, a phone held sideways): who plays on the left, the rules, goal and dealer beside it.
    rules_column: list[ft.Control] = []

    presets = []
    for choice in m.presets():
        presets.append(card(
            ft.Row([ft.Icon(ft.Icons.RADIO_BUTTON_CHECKED if choice.selected else ft.Icons.RADIO_BUTTON_OFF,
                            color=ft.Colors.PRIMARY),
                    ft.Column([ft.Text(choice.title, size=17, weight=ft.FontWeight.W_600),
                               suit_text(choice.description, size=14, weight=ft.FontWeight.NORMAL, red=p.red_suit)],
                              spacing=2, expand=True)]),
            padding=12, on_click=lambda _e=None, n=choice.name: m.set_preset(n), ident=f"preset-{choice.name}",
            border=ft.Colors.PRIMARY if choice.selected else None))
    rest = rules_column if wide else body
    rest.append(section(tr("setup.rules"), *presets))
    rest.append(section(tr("setup.variants"), *[
        toggle(sw.label, sw.on, functools.partial(m.switch, sw.field), f"variant-{sw.key}")
        for sw in m.switches()], spacing=2))

    goal_controls: list[ft.Control] = [ft.Row([
        pill(tr(f"setup.goal.{k}"), f.goal_kind == k, lambda _e=None, k=k: m.set_goal_kind(k), f"goal-{k}", size=14,
             expand=True) for k in GOAL_KINDS], spacing=6)]
    if f.goal_kind == "custom":
        goal_controls.append(ft.Row([ft.Text(tr("setup.target"), size=16, expand=True),
                                     stepper(f.target, lambda: m.step_target(-10), lambda: m.step_target(10), "target",
                                             tr("setup.target"), step=10, width=64, minimum=10)]))
    elif f.goal_kind == "hands":
        goal_controls.append(ft.Row([ft.Text(tr("setup.hands"), size=16, expand=True),
                                     stepper(f.hands, lambda: m.step_hands(-1), lambda: m.step_hands(1), "hands",
                                             tr("setup.hands"), minimum=1)]))
    goal_controls.append(ft.Text(m.goal_line(), size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    rest.append(section(tr("setup.goal"), *goal_controls))

    room = column_width(vm, "side" if wide else "full")
    # A pill as wide as its name, but never wider than the column: a 40-letter name is drawn smaller there.
    dealer_pills = [pill(d.label, d.selected, lambda _e=None, seat=d.seat: m.set_first_dealer(seat),
                         "dealer-draw" if d.seat is None else f"dealer-{d.seat}", size=15,
                         **_narrow(d.label, room))
                    for d in m.dealers()]
    rest.append(section(tr("setup.first_dealer"), ft.Row(dealer_pills, wrap=True, spacing=6, run_spacing=6)))

    missing = m.missing_text()
    rules_line = suit_text(m.rules_line(), size=14, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT,
                           max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, red=p.red_suit)
    footer = [labelled(ft.Container(rules_line, height=22), "start-rules", m.rules_line()),
              primary(tr("setup.start"), lambda: m.start(), "start-match", icon=ft.Icons.PLAY_ARROW,
                      disabled=bool(missing))]
    status = Status(missing or "")
    return Frame(tr("setup.title"), body, footer=footer, status=status, side=rules_column if wide else None)


def _narrow(label: str, room: float) -> dict[str, Any]:
    """A pill's width and fit when its name is wider than the column: drawn smaller there."""
    return {"width": room, "fit": room} if text_width(label, 15) + 24 > room else {}
