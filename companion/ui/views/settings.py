"""The settings and the rules page."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import header
from .widgets import card, pill, section, suit_text, toggle


def rules_screen(vm: AppModel) -> list[ft.Control]:
    tr, m = vm.tr, vm.rules
    out: list[ft.Control] = [header(vm, tr("nav.rules"))]
    out.append(ft.Row([pill(title, selected, lambda _e=None, k=key: m.show(k), f"rules-{key}", size=14)
                       for key, title, selected in m.choices()], wrap=True, spacing=6, run_spacing=6))
    description = m.description()
    if description:
        out.append(suit_text(description, size=15, weight=ft.FontWeight.NORMAL))
    lines = []
    for line in m.lines():
        words = suit_text(line, size=16, weight=ft.FontWeight.NORMAL)
        words.expand = True  # wrap within the card instead of running off it
        lines.append(ft.Row([ft.Text("•", size=16), words], vertical_alignment=ft.CrossAxisAlignment.START))
    out.append(card(*lines, ident="rules-text"))
    return out


def settings_screen(vm: AppModel) -> list[ft.Control]:
    tr, m, s = vm.tr, vm.settings, vm.session
    out: list[ft.Control] = [header(vm, tr("nav.settings"))]
    out.append(section(tr("settings.language"), ft.Row([
        pill(name, s.lang == code, lambda _e=None, code=code: m.set_language(code), f"lang-{code}", expand=True)
        for code, name in m.languages.items()], spacing=6)))
    out.append(section(tr("settings.theme"), ft.Row([
        pill(tr(f"settings.theme.{k}"), s.theme == k, lambda _e=None, k=k: m.set_theme(k), f"theme-{k}", expand=True,
             size=15) for k in m.themes], spacing=6)))
    out.append(toggle(tr("settings.keep_awake"), s.keep_awake, lambda e: m.set_keep_awake(e.control.value),
                      "keep-awake"))
    folder = m.data_folder()
    if folder:
        out.append(ft.Text(folder, size=13, color=ft.Colors.ON_SURFACE_VARIANT, selectable=True))
    return out
