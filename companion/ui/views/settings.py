"""The settings and the rules page."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import Frame
from .palette import palette
from .widgets import card, pill, secondary, section, suit_text, toggle


def rules_screen(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.rules
    p = palette(vm.session.dark)
    body: list[ft.Control] = [ft.Row([pill(title, selected, lambda _e=None, k=key: m.show(k), f"rules-{key}", size=14)
                                      for key, title, selected in m.choices()], wrap=True, spacing=6, run_spacing=6)]
    description = m.description()
    if description:
        body.append(suit_text(description, size=15, weight=ft.FontWeight.NORMAL, red=p.red_suit))
    lines = []
    for line in m.lines():
        words = suit_text(line, size=16, weight=ft.FontWeight.NORMAL, red=p.red_suit)
        words.expand = True  # wrap within the card instead of running off it
        lines.append(ft.Row([ft.Text("•", size=16), words], vertical_alignment=ft.CrossAxisAlignment.START))
    body.append(card(*lines, ident="rules-text"))
    return Frame(tr("nav.rules"), body, strip=False)


def settings_screen(vm: AppModel) -> Frame:
    tr, m, s = vm.tr, vm.settings, vm.session
    body: list[ft.Control] = []
    languages = [pill(name, s.lang == code, lambda _e=None, code=code: m.set_language(code), f"lang-{code}",
                      expand=True, size=15) for code, name in m.languages.items()]
    # Two to a row: each name in itself, whole, at a size read at arm's length on a 360 px phone.
    body.append(section(tr("settings.language"), ft.Column(
        [ft.Row(languages[i:i + 2], spacing=6) for i in range(0, len(languages), 2)], spacing=6)))
    body.append(section(tr("settings.theme"), ft.Row([
        pill(tr(f"settings.theme.{k}"), s.theme == k, lambda _e=None, k=k: m.set_theme(k), f"theme-{k}", expand=True,
             size=15) for k in m.themes], spacing=6)))
    body.append(toggle(tr("settings.keep_awake"), s.keep_awake, lambda on: m.set_keep_awake(on), "keep-awake"))
    if vm.sync.available:
        line, _tone = vm.sync.status()
        body.append(section(tr("sync.title"), ft.Text(line, size=15, color=ft.Colors.ON_SURFACE_VARIANT),
                            ft.Row([secondary(tr("sync.open"), lambda: vm.sync.open(), "open-sync", icon=ft.Icons.SYNC,
                                              expand=True)])))
    folder = m.data_folder()
    if folder and s.local:
        body.append(ft.Text(folder, size=13, color=ft.Colors.ON_SURFACE_VARIANT, selectable=True))
    return Frame(tr("nav.settings"), body)
