"""Parts every screen shares: the header, the notices, the pending question."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel, Tone
from .widgets import TOUCH, card, labelled, problem, secondary


def header(vm: AppModel, title: str, back: bool = True, actions: list[ft.Control] | None = None) -> ft.Control:
    tr = vm.tr
    left = [labelled(ft.IconButton(ft.Icons.ARROW_BACK, on_click=lambda: vm.back(), tooltip=tr("nav.back")),
                     "back")] if back else []
    return ft.Row(left + [ft.Text(title, size=22, weight=ft.FontWeight.W_700, expand=True,
                                  overflow=ft.TextOverflow.ELLIPSIS, max_lines=1)] + (actions or []),
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def notices(vm: AppModel) -> list[ft.Control]:
    s = vm.session
    out = []
    for text in s.problems_at_open:
        out.append(card(problem(text), color=ft.Colors.ERROR_CONTAINER, ident="damaged-notice"))
    if s.notice:
        bad = s.notice.tone is Tone.PROBLEM
        out.append(labelled(ft.Container(
            ft.Row([ft.Text(s.notice.text, size=15, expand=True,
                            color=ft.Colors.ON_ERROR_CONTAINER if bad else ft.Colors.ON_SECONDARY_CONTAINER),
                    ft.IconButton(ft.Icons.CLOSE, on_click=lambda: vm.dismiss_notice(), tooltip=vm.tr("nav.dismiss"),
                                  icon_size=18)]),
            bgcolor=ft.Colors.ERROR_CONTAINER if bad else ft.Colors.SECONDARY_CONTAINER, border_radius=12,
            padding=ft.Padding.only(left=14)), "notice"))
    return out


def question_box(vm: AppModel) -> list[ft.Control]:
    """The pending question, if any, with Yes and Cancel."""
    question = vm.session.question
    if question is None:
        return []
    tr = vm.tr
    return [card(ft.Text(question.text, size=16, weight=ft.FontWeight.W_600),
                 ft.Row([secondary(tr("confirm.no"), lambda: vm.cancel(), "confirm-no", expand=True),
                         labelled(ft.FilledButton(tr("confirm.yes"), on_click=lambda: vm.confirm(), height=TOUCH,
                                                  expand=True), "confirm-yes")]),
                 color=ft.Colors.TERTIARY_CONTAINER, ident="confirm-box")]
