"""The Sync screen (join a group, try it, see how syncing goes, the join QR code, leave) and the conflict
screen (two versions of one hand, side by side, for the table to choose)."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel, Tone
from .common import Frame, Status, breakdown_table
from .palette import palette
from .widgets import card, labelled, primary, secondary, section


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
    tr, m = vm.tr, vm.sync
    p = palette(vm.session.dark)
    versions = m.versions()
    body: list[ft.Control] = [ft.Text(tr("sync.conflict_explain"), size=15)]
    columns = []
    for n, v in enumerate(versions):
        columns.append(card(
            ft.Text(v.title, size=16, weight=ft.FontWeight.W_700),
            labelled(ft.Text(v.points, size=28, weight=ft.FontWeight.W_700), f"version-{n}-points"),
            breakdown_table(v.sides, p),
            primary(tr("sync.keep_this"), lambda _e=None, i=v.id: m.keep([i]), f"keep-version-{n}",
                    icon=ft.Icons.CHECK),
            ident=f"version-{n}", padding=12))
    wide = vm.session.wide
    if wide:
        body.append(ft.Row([ft.Container(c, expand=True) for c in columns], spacing=12,
                           vertical_alignment=ft.CrossAxisAlignment.START))
    else:
        body += columns
    footer: list[ft.Control] = []
    if len(versions) > 1:
        footer.append(ft.Row([secondary(tr("sync.keep_both"), lambda: m.keep([v.id for v in versions]), "keep-both",
                                        icon=ft.Icons.DONE_ALL, expand=True)]))
    return Frame(m.conflict_title(), body, footer=footer)


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
