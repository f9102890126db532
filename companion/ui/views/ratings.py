"""The table of honour: the season's leaderboard, its filters, and the group's records."""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import Frame
from .widgets import card, labelled, pill, primary, problem, section

FORM_COLOURS = {"won": ft.Colors.PRIMARY, "lost": ft.Colors.ERROR, "drawn": ft.Colors.OUTLINE}


def form_marks(tr, form: tuple[str, ...]) -> ft.Control:
    """The last results as small lettered marks (a letter each, never colour alone), oldest first."""
    return labelled(ft.Row([ft.Container(ft.Text(tr(f"ratings.form_letter.{r}"), size=11, weight=ft.FontWeight.W_700,
                                                 color=ft.Colors.SURFACE),
                                         width=20, height=20, border_radius=10, bgcolor=FORM_COLOURS[r],
                                         alignment=ft.Alignment.CENTER)
                            for r in form], spacing=3),
                    None, tr("ratings.form_said", results=", ".join(tr(f"ratings.result.{r}") for r in form)))


def chips(choices, on_choose, prefix: str) -> ft.Control:
    return ft.Row([pill(c.label, c.selected, lambda _e=None, k=c.key: on_choose(k), f"{prefix}-{c.key}", size=14)
                   for c in choices], wrap=True, spacing=6, run_spacing=6)


def ratings_screen(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.ratings
    out: list[ft.Control] = [chips(m.season_choices(), m.choose_season, "season")]
    if m.season == "dates":
        fields = [labelled(ft.TextField(label=tr(f"ratings.dates.{end}"), value=m.typed_dates[i],
                                        hint_text="2026-03-31", keyboard_type=ft.KeyboardType.DATETIME,
                                        text_size=15, expand=True,
                                        content_padding=ft.Padding.symmetric(horizontal=8, vertical=12),
                                        on_change=lambda e, i=i: m.type_date(i, e.control.value),
                                        on_submit=lambda _e=None: m.show_dates()),
                           f"dates-{end}", value=m.typed_dates[i])
                  for i, end in enumerate(("from", "to"))]
        show = primary(tr("ratings.dates.show"), lambda: m.show_dates(), "dates-show", expand=False)
        out.append(ft.Row([ft.Container(f, expand=True) for f in fields] + [show], spacing=8))
        if m.dates_problem:
            out.append(problem(m.dates_problem, "dates-problem"))
    page = m.page
    if page is None:
        out.append(labelled(ft.ProgressBar(), "busy"))
        return Frame(tr("ratings.title"), out)
    # One row of filters (rule sets, then table sizes that pick other matches than a rule set does): the
    # leaderboard itself starts high on a phone.
    rules, tables = m.rules_choices(), m.table_choices()
    shown = [(c, m.choose_rules, "rating-rules") for c in rules] if len(rules) > 1 or m.rules else []
    shown += [(c, m.choose_table, "rating-table") for c in tables] if len(tables) > 1 or m.table else []
    if shown:
        out.append(labelled(ft.Row([pill(c.label, c.selected, lambda _e=None, k=c.key, f=f: f(k), f"{p}-{c.key}",
                                         size=14) for c, f, p in shown], wrap=True, spacing=6, run_spacing=6),
                            "rating-filters", tr("ratings.filters")))
    out.append(labelled(ft.Text(page.counted, size=14, color=ft.Colors.ON_SURFACE_VARIANT), "ratings-counted"))
    for row in page.rows:
        right: list[ft.Control] = [ft.Text(row.rating, size=22, weight=ft.FontWeight.W_800,
                                           color=ft.Colors.ON_SURFACE_VARIANT if row.provisional else None)]
        if row.change:
            right.append(ft.Text(row.change, size=12, weight=ft.FontWeight.W_600,
                                 color=ft.Colors.PRIMARY if row.rising else ft.Colors.ERROR))
        middle: list[ft.Control] = [
            ft.Text(row.name, size=16, weight=ft.FontWeight.W_700, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
            ft.Text(row.detail, size=13, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2)]
        if row.form:
            middle.append(form_marks(tr, row.form))
        out.append(card(ft.Row([
            ft.Container(ft.Text(str(row.place), size=16, weight=ft.FontWeight.W_800), width=28,
                         alignment=ft.Alignment.CENTER),
            ft.Column(middle, spacing=2, expand=True),
            ft.Column(right, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END)],
            vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=12, on_click=lambda _e=None, pid=row.player_id: vm.player.open(pid),
            ident=f"rating-{row.place}", label=row.label))
    if page.note:
        out.append(ft.Text(page.note, size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    if page.honours:
        out.append(section(tr("ratings.records"), *[
            card(ft.Row([ft.Text(h.title, size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                         ft.Text(h.value, size=18, weight=ft.FontWeight.W_800)]),
                 ft.Text(h.who, size=15, weight=ft.FontWeight.W_600, max_lines=2),
                 padding=12, on_click=lambda _e=None, mid=h.match_id: vm.record.open(mid), ident=f"honour-{h.key}",
                 label=f"{h.title}: {h.value}, {h.who}")
            for h in page.honours], ident="records"))
    return Frame(tr("ratings.title"), out)
