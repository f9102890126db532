"""What every screen is made of: a `Frame` (header, scrolling body, status strip, pinned actions), and
the dialogs (a pending question, a notice in full, a hand's breakdown).

Nothing moves under a finger: the header and the status strip have a fixed height, news and problems
are said in the strip (two lines; a tap shows them in full), and questions open over the screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable

import flet as ft

from ..viewmodel import AppModel, Tone
from .palette import Palette, palette
from .widgets import TOUCH, holdable, icon_button, labelled, suit_text

HEADER = 56
"""The header's height: the back button, the title and the screen's actions."""
STRIP = 48
"""The status strip's height: two lines of text, always there, so nothing moves when it speaks."""


PHONE_COLUMN = 620
"""The widest a one-column screen is drawn (`views.frame`'s MAX_WIDTH: a test keeps the two equal)."""
WIDE_COLUMNS = 1280
"""The widest two columns are drawn (wide screens, `views.frame.page_frame`)."""
PAGE_PADDING = 12
"""The page's padding on each side (`ui.app.make_main`)."""


def split(session) -> tuple[int, int]:
    """How a wide screen shares its width between the body and the side column: a phone held sideways gives the
    side (the score sheet, the counting cards) a little more; a tablet or a laptop halves it, so neither column
    is a phone's strip beside empty space."""
    return (5, 6) if session.short else (1, 1)


def column_width(vm: AppModel, part: str = "full") -> float:
    """The width the screen's controls get, in logical pixels, as `views.frame.page_frame` lays them out: the one
    column (`full`), or on a wide screen the body (`body`), the side column (`side`), or both together above
    them (`top`)."""
    width = vm.session.viewport[0]
    if part == "full" or not vm.session.wide:
        return min(width, PHONE_COLUMN) - 2 * PAGE_PADDING
    both = min(width, WIDE_COLUMNS) - 2 * PAGE_PADDING - 16
    if part == "top":
        return both + 16
    body, side = split(vm.session)
    return both * (body if part == "body" else side) / (body + side)


@dataclass
class Status:
    """What the strip says when there is no notice: the screen's own state (a save reason, the last tap)."""

    text: str
    tone: Tone = Tone.INFO
    on_tap: Callable | None = None
    """What a tap on the strip does (e.g. show the hand just saved), if anything."""


@dataclass
class Frame:
    """One screen: its title and header actions, the scrolling body, and the actions pinned at the bottom."""

    title: str
    body: list[ft.Control]
    footer: list[ft.Control] = field(default_factory=list)
    """Pinned below the strip, always in reach (End hand, Save, Start)."""
    actions: list[ft.Control] = field(default_factory=list)
    back: bool = True
    status: Status | None = None
    side: list[ft.Control] | None = None
    """A second column for wide screens (the score sheet beside the controls)."""
    top: list[ft.Control] | None = None
    """On a wide screen, what spans both columns above them (a tablet's big totals)."""
    strip: bool = True
    """Whether the screen has a status strip (every screen does unless it has nothing to say)."""
    to_top: str | None = None
    """The words of a button at the body's end that scrolls it back to its top: a long list's way back to what is
    above it (the history's filters)."""


def header(vm: AppModel, frame: Frame) -> ft.Control:
    tr = vm.tr
    left = [icon_button(ft.Icons.ARROW_BACK, lambda: vm.back(), tr("nav.back"), "back")] if frame.back else \
        [ft.Container(width=8)]
    title = ft.Text(frame.title, size=21, weight=ft.FontWeight.W_700, expand=True,
                    overflow=ft.TextOverflow.ELLIPSIS, max_lines=1)
    return ft.Container(ft.Row(left + [title] + frame.actions, spacing=0,
                               vertical_alignment=ft.CrossAxisAlignment.CENTER), height=HEADER)


def strip(vm: AppModel, frame: Frame, p: Palette) -> ft.Control:
    """The status strip: the notice if there is one, else the screen's status; fixed height, two lines."""
    notice = vm.session.notice
    if notice is not None and not vm.session.notice_holds(frame.status.text if frame.status is not None else ""):
        notice = None   # news gives way once the screen's own status moves on
    if notice is not None:
        text, tone, tap = notice.text, notice.tone, (lambda: vm.show_notice())
    elif frame.status is not None:
        text, tone, tap = frame.status.text, frame.status.tone, frame.status.on_tap
    else:
        text, tone, tap = "", Tone.INFO, None
    problem = tone is Tone.PROBLEM
    bg = p.error_container if problem else (p.secondary_container if notice is not None else p.surface)
    fg = p.on_error_container if problem else (p.on_secondary_container if notice is not None else p.on_surface_variant)
    words = suit_text(text, size=15, weight=ft.FontWeight.W_600 if (problem or notice) else ft.FontWeight.NORMAL,
                      color=fg, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, red=p.red_suit)
    row: list[ft.Control] = [ft.Icon(ft.Icons.WARNING_AMBER_ROUNDED, color=fg, size=20)] if problem else []
    row.append(ft.Container(words, expand=True))
    if tap is not None and text:
        row.append(ft.Icon(ft.Icons.UNFOLD_MORE, color=fg, size=18))
    box = ft.Container(ft.Row(row, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                       height=STRIP, bgcolor=bg, border_radius=12, padding=ft.Padding.symmetric(horizontal=12),
                       on_click=tap if text else None, ink=tap is not None)
    strip_node = labelled(box, "status", text or None, live=True)
    # A node that turns tappable is made anew: Flutter's web semantics would otherwise drop its identifier.
    strip_node.key = f"status-{'tap' if tap is not None and text else 'still'}"
    return strip_node


def dialog(vm: AppModel) -> ft.AlertDialog | None:
    """The question or detail over the screen, if any (rendered through `ft.use_dialog`)."""
    s, tr = vm.session, vm.tr
    p = palette(s.dark)
    if s.question is not None:
        q = s.question
        # Both answers are full-size targets (48 px tall), side by side or, when their words are long,
        # one above the other.
        no = labelled(holdable(ft.OutlinedButton(q.no_label or tr("confirm.no"), on_click=lambda: vm.cancel(),
                                                 height=TOUCH,
                                                 style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16)))),
                      "confirm-no")
        yes = labelled(holdable(ft.FilledButton(q.yes_label or tr("confirm.yes"), on_click=lambda: vm.confirm(),
                                                height=TOUCH)), "confirm-yes")
        other = [labelled(holdable(ft.OutlinedButton(q.other_label, on_click=lambda: vm.choose_other(), height=TOUCH,
                                                     style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16)))),
                          "confirm-other")] if q.other is not None and q.other_label else []
        return ft.AlertDialog(
            modal=True,
            content=labelled(ft.Text(q.text, size=17, weight=ft.FontWeight.W_600), "confirm-box"),
            actions=[no, *other, yes], actions_overflow_button_spacing=8,
            on_dismiss=lambda: vm.dismiss_question() if s.question is not None else None)
    if s.detail is not None:
        d = s.detail
        body: list[ft.Control] = []
        if d.image:
            body.append(labelled(ft.Image(src=d.image, width=260, height=260, fit=ft.BoxFit.CONTAIN), "qr-code",
                                 tr("join.qr_label")))
        if d.text:   # selectable text is not in the accessibility tree: its words are said as its label
            body.append(labelled(ft.Text(d.text, size=16, selectable=True), None, d.text))
        if d.sides:
            body.append(breakdown_table(d.sides, p))
        # The dialog scrolls its title and content as one, between the screen's edges and above OK: a long
        # breakdown (three sides at 360×640) went on under the OK button.
        return ft.AlertDialog(
            scrollable=True,
            title=ft.Text(d.title, size=18, weight=ft.FontWeight.W_700),
            content=labelled(ft.Column(body, tight=True, spacing=10), d.ident),
            actions=[labelled(holdable(ft.FilledButton(tr("nav.ok"), on_click=lambda: vm.close_detail(), height=TOUCH)),
                              "detail-ok")],
            on_dismiss=lambda: vm.close_detail() if s.detail is not None else None)
    return None


def breakdown_table(sides, p: Palette) -> ft.Control:
    """Every line of a hand's score, per side, with the rule it comes from in words."""
    blocks: list[ft.Control] = []
    for side in sides:
        lines: list[ft.Control] = [ft.Text(f"{side.name}: {side.total}", size=16, weight=ft.FontWeight.W_700,
                                           color=p.sides[side.side])]
        for line in side.lines:
            dim = p.on_surface_variant if not line.points else None
            lines.append(ft.Row([
                suit_text(line.label, size=15, weight=ft.FontWeight.W_600, red=p.red_suit),
                ft.Text(line.text, size=13, color=p.on_surface_variant, expand=True),
                ft.Text(str(line.points), size=16, weight=ft.FontWeight.W_700, color=dim),
            ], vertical_alignment=ft.CrossAxisAlignment.START))
        blocks.append(ft.Column(lines, spacing=4))
    return labelled(ft.Column(blocks, spacing=12), "breakdown")


def watching(vm: AppModel) -> list[ft.Control]:
    """On a phone that only watches: what it may not do, and a field for the table code that lets it play."""
    if vm.session.can_write:
        return []
    tr = vm.tr
    join = vm.session.page_actions.get("join")
    field = labelled(ft.TextField(label=tr("join.code"), value=vm.session.join_code, text_size=20, dense=True,
                                  capitalization=ft.TextCapitalization.CHARACTERS,
                                  on_change=lambda e: vm.set_join_code(e.control.value), expand=True),
                     "join-code", value=vm.session.join_code)
    return [labelled(ft.Container(ft.Column([
        ft.Text(tr("access.watching"), size=15, color=ft.Colors.ON_TERTIARY_CONTAINER),
        ft.Row([field, labelled(holdable(ft.FilledButton(tr("join.button"), on_click=join, height=TOUCH)), "join")],
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ], spacing=8), bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=16, padding=12), "watching")]


MARK_ICONS = {"done": ft.Icons.CLOUD_DONE, "waiting": ft.Icons.CLOUD_UPLOAD, "off": ft.Icons.CLOUD_OFF,
              "choose": ft.Icons.RULE, "catching": ft.Icons.CLOUD_SYNC}
"""The sync mark's glyph for each state (`SyncModel.mark`)."""


def sync_mark(vm: AppModel) -> list[ft.Control]:
    """Where this device stands with its group, as a header action (none outside a group): one 48 × 48 icon whose
    glyph follows the runner, so nothing moves when it changes; its words are the tooltip and the screen
    reader's label; a tap opens the Sync page."""
    mark = vm.sync.mark()
    if mark is None:
        return []
    return [labelled(holdable(ft.IconButton(MARK_ICONS[mark.kind], on_click=lambda: vm.sync.open(), tooltip=mark.words,
                                            width=TOUCH, height=TOUCH,
                                            icon_color=ft.Colors.ERROR if mark.problem else None)),
                     "sync-mark", mark.words)]
