"""The Sync screen (join a group, try it, see how syncing goes, the join QR code, leave) and the conflict
screen (two versions of one hand, side by side, for the table to choose)."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel, Tone
from .common import Frame, Status
from .palette import palette
from .widgets import TOUCH, card, labelled, primary, secondary, section, suit_text


def _field(vm: AppModel, name: str, label: str, value: str, password: bool = False,
           keyboard: ft.KeyboardType = ft.KeyboardType.TEXT) -> ft.Control:
    m = vm.sync
    return ft.Row([labelled(ft.TextField(label=label, value=value, password=password, can_reveal_password=password,
                                         keyboard_type=keyboard, autocorrect=False, text_size=17, expand=True,
                                         on_change=lambda e, n=name: m.set_field(n, e.control.value)),
                            f"sync-{name}", value=None if password else value)])


def sync_screen(vm: AppModel) -> Frame:
    tr, m, s = vm.tr, vm.sync, vm.session
    p = palette(s.dark)
    body: list[ft.Control] = []
    footer: list[ft.Control] = []
    status, tone = m.status()
    group = m.group()
    if group is not None:
        body.append(card(ft.Text(tr("sync.in_group"), size=15, color=ft.Colors.ON_SURFACE_VARIANT),
                         labelled(ft.Text(group, size=17, weight=ft.FontWeight.W_600, selectable=True), "sync-group"),
                         ident="sync-group-card"))
        body.append(ft.Text(tr("sync.explain_in"), size=15))
        if s.can_write:
            problem = m.device_name_problem()
            body.append(ft.Row([labelled(ft.TextField(
                label=tr("sync.device_name"), value=m.device_name(), text_size=17, expand=True,
                # The helper's line is always there and the problem takes its place: nothing below moves.
                helper=None if problem else tr("sync.device_name_help"), error=problem, error_max_lines=1,
                helper_max_lines=1, on_change=lambda e: m.type_device_name(e.control.value),
                on_blur=lambda: m.keep_device_name(), on_submit=lambda: m.keep_device_name()),
                "sync-device-name", value=m.device_name())]))
        if s.can_write:  # a watching phone sees the group, never its password (in the QR) nor Leave
            body.append(ft.Row([secondary(tr("sync.show_qr"), lambda: m.show_join_qr(), "sync-show-qr",
                                          icon=ft.Icons.QR_CODE_2, expand=True)]))
            body.append(ft.Row([secondary(tr("sync.copy_link"), lambda: m.copy_join_link(), "sync-copy-link",
                                          icon=ft.Icons.LINK, expand=True)]))
            body.append(ft.Row([secondary(tr("sync.leave"), lambda: m.ask_leave(), "sync-leave", danger=True,
                                          icon=ft.Icons.LOGOUT, expand=True)]))
        footer.append(primary(tr("sync.now"), lambda: m.sync_now(), "sync-now", icon=ft.Icons.SYNC))
    else:
        body.append(ft.Text(tr("sync.explain_out", couchdb="CouchDB"), size=15))
        body.append(section(tr("sync.paste_title"), ft.Row([labelled(ft.TextField(
            label=tr("sync.paste"), value=m.link, on_change=lambda e: m.paste(e.control.value), text_size=16,
            expand=True,
            autocorrect=False, keyboard_type=ft.KeyboardType.URL), "sync-paste", value=m.link)])))
        body.append(section(tr("sync.fields_title"),
                            _field(vm, "server", tr("sync.server", https="https://…"), m.server,
                                   keyboard=ft.KeyboardType.URL),
                            _field(vm, "database", tr("sync.database"), m.database),
                            _field(vm, "user", tr("sync.user"), m.user),
                            _field(vm, "password", tr("sync.password"), m.password, password=True)))
        if m.found is not None:
            color = p.on_surface if m.found.ok else ft.Colors.ERROR
            lines = [ft.Row([ft.Icon(ft.Icons.CHECK if m.found.ok or i < len(m.found.lines) - 1 else ft.Icons.ERROR,
                                     size=20, color=color),
                             ft.Text(line, size=15, expand=True)]) for i, line in enumerate(m.found.lines)]
            body.append(card(*lines, ident="sync-found"))
            if m.found.may_create:
                body.append(ft.Row([secondary(tr("sync.create"), lambda: m.test(create=True), "sync-create",
                                              icon=ft.Icons.ADD, expand=True)]))
        busy = m.busy is not None
        footer.append(ft.Row([secondary(tr("sync.test"), lambda: m.test(), "sync-test", disabled=busy, expand=True),
                              ft.Container(primary(tr("sync.join") if m.busy != "join" else tr("sync.joining"),
                                                   lambda: m.join(), "sync-join", disabled=busy), expand=True)],
                             spacing=8))
    return Frame(tr("sync.title"), body, footer=footer,
                 status=Status(status, tone) if group is not None or tone is Tone.PROBLEM else Status(status))


def conflict_screen(vm: AppModel) -> Frame:
    """Two versions of one hand: side by side where they fit (sideways, a tablet), else one at a time with a
    switch; the lines that differ marked; Keep pinned below, so it is never under the fold; Keep both, which
    adds a hand, a secondary action that says so."""
    tr, m = vm.tr, vm.sync
    p = palette(vm.session.dark)
    versions = m.versions()
    body: list[ft.Control] = [ft.Text(tr("sync.conflict_explain"), size=15)]
    wide = vm.session.wide
    shown = min(m.shown, len(versions) - 1) if versions else 0

    def version_card(n: int, v) -> ft.Control:
        return card(
            ft.Text(v.title, size=16, weight=ft.FontWeight.W_700),
            ft.Text(v.where, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            *([labelled(ft.Text(v.points, size=28, weight=ft.FontWeight.W_700), f"version-{n}-points")] if wide
              else []),
            marked_breakdown(vm, v, p),
            ident=f"version-{n}", padding=12)

    if wide:
        body.append(ft.Row([ft.Container(version_card(n, v), expand=True) for n, v in enumerate(versions)],
                           spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))
    elif versions:
        body.append(ft.Row([switch_button(vm, n, v, n == shown) for n, v in enumerate(versions)], spacing=8))
        body.append(version_card(shown, versions[shown]))
    if len(versions) > 1:
        body.append(ft.Row([secondary(tr("sync.keep_both"), lambda: m.keep([v.id for v in versions]), "keep-both",
                                      icon=ft.Icons.DONE_ALL, expand=True)]))
    # Held sideways the pinned actions share a row with the strip: two Keeps there say just which version.
    words = "sync.version_short" if wide and vm.session.short else "sync.keep_this"
    keeps = [primary(tr(words, n=n + 1), lambda _e=None, i=v.id: m.keep([i]), f"keep-version-{n}",
                     icon=ft.Icons.CHECK) for n, v in enumerate(versions) if wide or n == shown]
    footer: list[ft.Control] = keeps if len(keeps) < 2 else [
        ft.Row([ft.Container(k, expand=True) for k in keeps], spacing=8)]
    return Frame(m.conflict_title(), body, footer=footer)


def switch_button(vm: AppModel, n: int, v, selected: bool) -> ft.Control:
    """One version in the switch: its name and points; the one shown is filled."""
    p = palette(vm.session.dark)
    return labelled(ft.Container(
        ft.Column([ft.Text(v.short, size=14, weight=ft.FontWeight.W_600, color=p.on_primary if selected else None),
                   labelled(ft.Text(v.points, size=20, weight=ft.FontWeight.W_700,
                                    color=p.on_primary if selected else None), f"version-{n}-points")],
                  spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        bgcolor=ft.Colors.PRIMARY if selected else ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=12,
        padding=ft.Padding.symmetric(horizontal=8, vertical=6), height=TOUCH + 16, expand=True,
        alignment=ft.Alignment.CENTER, on_click=lambda _e=None: vm.sync.show_version(n)), f"show-version-{n}")


def marked_breakdown(vm: AppModel, v, p) -> ft.Control:
    """A version's breakdown, the lines another version says otherwise marked (a bar and the word)."""
    tr = vm.tr
    blocks: list[ft.Control] = []
    for side in v.sides:
        lines: list[ft.Control] = [ft.Text(f"{side.name}: {side.total}", size=16, weight=ft.FontWeight.W_700,
                                           color=p.sides[side.side])]
        for line in side.lines:
            differs = (side.side, line.label) in v.differs
            row = ft.Row([
                suit_text(line.label, size=15, weight=ft.FontWeight.W_600, red=p.red_suit),
                ft.Text(line.text, size=13, color=p.on_surface_variant, expand=True),
                ft.Text(str(line.points), size=16, weight=ft.FontWeight.W_700),
            ], vertical_alignment=ft.CrossAxisAlignment.START)
            lines.append(labelled(ft.Container(row, bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=6,
                                               padding=ft.Padding.symmetric(horizontal=4, vertical=2),
                                               border=ft.Border.only(left=ft.BorderSide(4, ft.Colors.TERTIARY)))
                                  if differs else row, None, f"{line.label} {line.points}, {tr('sync.differs')}"
                                  if differs else None))
        blocks.append(ft.Column(lines, spacing=4))
    return labelled(ft.Column(blocks, spacing=12), "breakdown")


def conflict_cards(vm: AppModel, match_id: str | None) -> list[ft.Control]:
    """A card for each hand of the match two phones saved differently: what happened, and where to choose."""
    tr, m = vm.tr, vm.sync
    out: list[ft.Control] = []
    for slot, n in m.conflicts(match_id):
        out.append(card(
            ft.Row([ft.Icon(ft.Icons.CALL_SPLIT, color=ft.Colors.ERROR),
                    ft.Text(tr("sync.conflict_card", n=n), size=16, weight=ft.FontWeight.W_600, expand=True)]),
            ft.Row([secondary(tr("sync.choose"), lambda _e=None, s=slot: m.open_conflict(match_id or "", s),
                              f"choose-{slot}", expand=True)]),
            ident=f"conflict-{slot}", color=ft.Colors.ERROR_CONTAINER))
    return out
