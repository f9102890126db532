"""The frame every screen is drawn in: header, the scrolling body (and on wide screens a second column), the
status strip and the pinned actions; a phone column centred on a laptop."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel, Session
from . import render
from .common import dialog, header, split, strip
from .widgets import labelled, primary, problem, secondary
from .palette import palette

MAX_WIDTH = 620
"""Content width on a desktop: a phone column, centred."""


def seen_hook(session: Session) -> ft.Control:
    """What the app has seen, for the browser tests to wait on instead of sleeping (test pages only)."""
    return ft.Semantics(identifier="app-seen",
                        label=f"revision {session.revision} taps {session.taps} access {session.access}",
                        content=ft.Container(width=1, height=1))


def page_dialog(vm: AppModel, hooks: bool = False) -> ft.AlertDialog | None:
    """What is shown over the screen, if anything. A modal dialog hides the page's other semantics: on a
    test page it carries what the app saw itself."""
    shown = dialog(vm)
    if shown is not None and hooks:
        shown.content = ft.Column([shown.content, seen_hook(vm.session)], tight=True, spacing=0)
    return shown


def page_frame(vm: AppModel, hooks: bool = False) -> ft.Control:
    """The screen on show, in its frame."""
    frame = render(vm)
    session = vm.session
    width, _ = session.viewport
    p = palette(session.dark)
    key = f"screen-{session.screen}"
    body = ft.Column(frame.body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, key=key)
    if frame.to_top:
        async def to_top(_e=None) -> None:
            await body.scroll_to(offset=0, duration=300)

        body.controls.append(secondary(frame.to_top, to_top, "to-top", icon=ft.Icons.ARROW_UPWARD))
    if frame.side is not None and session.wide:
        left, right = split(session)
        middle: ft.Control = ft.Row([ft.Container(body, expand=left),
                         ft.Container(ft.Column(frame.side, spacing=12, scroll=ft.ScrollMode.AUTO, key=key + "-side"),
                                      expand=right)],
                                    spacing=16, expand=True, vertical_alignment=ft.CrossAxisAlignment.START)
        if frame.top:
            middle = ft.Column([ft.Container(ft.Column(frame.top, spacing=10), key=key + "-top"), middle],
                               spacing=10, expand=True)
        content_width = min(width, 1280) - 24
    else:
        middle = body
        content_width = min(width, MAX_WIDTH) - 24
    # Each screen's parts are keyed by the screen: a control Flet would otherwise reuse from the screen
    # before keeps its old semantics identifier in the browser (seen: Save still called end-hand).
    column: list[ft.Control] = [ft.Container(header(vm, frame), key=key + "-header"), middle]
    bottom: list[ft.Control] = []
    if frame.strip:
        bottom.append(strip(vm, frame, p))
    bottom += frame.footer
    if bottom and session.short and frame.footer:
        # A phone held sideways has little height: the strip and the pinned actions share one row.
        row = ft.Row([ft.Container(bottom[0], expand=3), ft.Container(ft.Column(bottom[1:], spacing=6), expand=2)],
                     spacing=8, vertical_alignment=ft.CrossAxisAlignment.END)
        column.append(ft.Container(row, padding=ft.Padding.only(top=6), key=key + "-bottom"))
    elif bottom:
        column.append(ft.Container(ft.Column(bottom, spacing=6), padding=ft.Padding.only(top=6), key=key + "-bottom"))
    if hooks:
        column.append(seen_hook(session))
    return ft.SafeArea(
        content=ft.Row(
            [ft.Column(column, width=content_width, spacing=0, expand=True)],
            alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        expand=True,
    )


def broken_frame(vm: AppModel, hooks: bool = False) -> ft.Control:
    """What a phone shows in place of a screen that could not be drawn (a bug, logged): a sentence saying
    nothing saved is lost, and the way back to the start."""
    tr = vm.tr
    column: list[ft.Control] = [problem(tr("screen.broken"), "screen-broken"),
                                primary(tr("screen.broken_home"), lambda: vm.home(), "broken-home", icon=ft.Icons.HOME)]
    if hooks:
        column.append(seen_hook(vm.session))
    width = min(vm.session.viewport[0], MAX_WIDTH) - 24
    return ft.SafeArea(content=labelled(ft.Column(column, spacing=16, width=width), "screen-broken-frame"), expand=True)
