"""The history list, a past match (read-only, with its chart, trail and what-if), and a player's page.

The charts (flet-charts) load only when one of these screens opens.
"""

from __future__ import annotations

import flet as ft

from ..viewmodel import AppModel
from .common import Frame, Status, watching
from .home import history_row
from .palette import palette
from .ratings import form_marks
from .scoreboard import score_sheet
from .widgets import card, labelled, pill, secondary, section, toggle
from .sync import conflict_cards


LONG_LIST = 20
"""Rows from which the history's list ends with a way back to its top (a phone shows about eight)."""


def history_screen(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.history
    actions = vm.session.page_actions
    out: list[ft.Control] = watching(vm)
    if m.busy:
        out.append(labelled(ft.ProgressBar(value=m.progress_fraction()), "busy", m.progress_text()))
    if m.deleted and vm.session.can_write:
        out.append(secondary(tr("history.undo_delete"), lambda: m.undo_delete(), "undo-delete", icon=ft.Icons.RESTORE))
    players = m.player_choices()
    # Each filter is one row that scrolls sideways: nine players filled 440 px as rows of chips.
    if players:
        out.append(section(tr("history.by_player"), ft.Row(
            [pill(c.label, c.selected, lambda _e=None, k=c.key: m.filter_player(k), f"filter-player-{c.label}", size=14)
             for c in players], scroll=ft.ScrollMode.AUTO, spacing=6)))
    out.append(section(tr("history.by_rules"), ft.Row(
        [pill(c.label, c.selected, lambda _e=None, k=c.key: m.filter_rules(k), f"filter-rules-{c.key}", size=14)
         for c in m.rules_choices()], scroll=ft.ScrollMode.AUTO, spacing=6)))
    playing = [] if (m.player or m.rules) else m.in_play()
    if playing:
        out.append(section(tr("history.in_play"), *[history_row(vm, row, playing=True) for row in playing],
                           ident="history-in-play"))
    rows = m.rows()
    if not rows and not playing:
        out.append(ft.Text(tr("history.empty"), color=ft.Colors.ON_SURFACE_VARIANT, size=15))
    out += [history_row(vm, row) for row in rows]
    more = m.more_count()
    if more:   # under the rows, so the rows shown stay where they were when the next page comes in
        out.append(secondary(tr.n("history.show_more", more), lambda: m.show_more(), "history-more",
                             icon=ft.Icons.EXPAND_MORE))
    hidden = m.hidden_count()
    if hidden:
        out.append(secondary(tr.n("history.show_empty", hidden), lambda: m.toggle_empty(), "show-empty",
                             icon=ft.Icons.VISIBILITY))
    if players:
        out.append(section(tr("history.players"), ft.Row(
            [secondary(c.label, lambda _e=None, k=c.key: vm.player.open(k), f"player-{c.label}", icon=ft.Icons.PERSON)
             for c in players], wrap=True, spacing=6, run_spacing=6)))
    if vm.session.can_write:   # said in words, not bare icons in the header
        out.append(section(tr("history.backups"), ft.Row([
            secondary(tr("history.import_short"), actions.get("import"), "import-files", icon=ft.Icons.UPLOAD_FILE,
                      expand=True, disabled=m.busy is not None),
            secondary(tr("history.export_short"), lambda: m.export_all(), "export-all", icon=ft.Icons.ARCHIVE,
                      expand=True, disabled=m.busy is not None)], spacing=8), note=tr("history.backups_note")))
    return Frame(tr("nav.history"), out, status=Status(m.progress_text()) if m.progress_text() else None,
                 to_top=tr("nav.to_top") if len(rows) >= LONG_LIST else None)


def nice_step(top: float, lines: int = 5) -> int:
    """A round axis step (1, 2, 5, 10, 20, 25, 50, …) giving about `lines` labels up to `top`."""
    raw = max(1.0, top / lines)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 2.5, 5, 10):
        if m * magnitude >= raw:
            return max(1, int(m * magnitude))
    return int(10 * magnitude)


def axes(max_x: int, max_y: float) -> dict:
    """Axes with whole-number labels at round steps."""
    import flet_charts as fch

    step_y = nice_step(max_y)
    step_x, end_x = x_axis(max_x)
    return dict(
        left_axis=fch.ChartAxis(label_size=40, label_spacing=step_y),
        bottom_axis=fch.ChartAxis(label_size=28, label_spacing=step_x),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step_y),
        min_x=0, max_x=end_x, min_y=0, max_y=step_y * (int(max_y // step_y) + 1),
    )


def x_axis(count: int) -> tuple[int, int]:
    """A bottom axis for `count` points: its label step, and its end at a whole step (the chart labels its end
    too: "18" and "19" side by side would run into one another)."""
    step = max(1, nice_step(count, 8))
    return step, max(step, -(-count // step) * step)


def totals_chart(vm: AppModel, series, side_names: list[str], height: int = 220) -> ft.Control:
    """Running totals per side, and the target in force as a dashed line."""
    import flet_charts as fch

    tr = vm.tr
    side_colors = palette(vm.session.dark).sides
    top = max([max(line) for line in series.sides] + [t for t in (series.target or []) if t is not None] + [10])
    data = [fch.LineChartData(points=[fch.LineChartDataPoint(x, y) for x, y in enumerate(line)],
                              color=side_colors[i], stroke_width=3, point=True)
            for i, line in enumerate(series.sides)]
    if series.target:
        data.append(fch.LineChartData(points=[fch.LineChartDataPoint(x, y) for x, y in enumerate(series.target)],
                                      color=ft.Colors.ERROR, stroke_width=2, dash_pattern=[6, 4]))
    chart = fch.LineChart(data_series=data, height=height, expand=True, **axes(len(series.sides[0]) - 1, top))
    names: list[ft.Control] = [ft.Text(f"● {name}", color=side_colors[i], size=13)
                               for i, name in enumerate(side_names)]
    legend = ft.Row(names
                    + ([ft.Text(f"- - {tr('chart.target')}", color=ft.Colors.ERROR, size=13)]
                       if series.target else []), wrap=True)
    return labelled(ft.Column([ft.Container(chart, height=height, padding=ft.Padding.only(right=12, top=8)), legend]),
                    "totals-chart", tr("chart.totals_label"))


def record_screen(vm: AppModel) -> Frame:
    tr, m = vm.tr, vm.record
    if m.record is None:
        return Frame(tr("nav.history"), [])
    p = palette(vm.session.dark)
    side_colors = p.sides
    out: list[ft.Control] = []
    out.append(card(
        ft.Row([ft.Column([ft.Text(name, color=side_colors[i], weight=ft.FontWeight.W_700, size=15),
                           ft.Text(str(total), size=36, weight=ft.FontWeight.W_800)],
                          expand=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=0)
                for i, name, total in m.totals()]),
        ft.Text(m.summary_line(), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        labelled(ft.Text(m.status_line(), size=16, weight=ft.FontWeight.W_600), "record-status"),
        ident="record-summary"))
    out += conflict_cards(vm, m.record.id)
    series = m.chart()
    if series is not None:
        out.append(section(tr("chart.title"), totals_chart(vm, series, [name for _, name, _ in m.totals()])))
    if vm.session.can_write:
        actions = []
        if m.can_continue:
            actions.append(secondary(tr("history.continue"), lambda: m.continue_match(), "continue-abandoned",
                                     icon=ft.Icons.PLAY_ARROW, expand=True))
        if m.can_rematch:
            actions.append(secondary(tr("over.rematch"), lambda: m.rematch(), "rematch-past", icon=ft.Icons.REPLAY,
                                     expand=True))
        actions.append(secondary(tr("history.delete"), lambda: m.ask_delete(), "delete-match",
                                 icon=ft.Icons.DELETE_OUTLINE, expand=True, danger=True))
        out.append(ft.Row(actions))
    # The picture is no change to the match: a watching phone may share it too.
    share = vm.session.page_actions
    out.append(ft.Row([secondary(tr("over.share"), share.get("share_picture"), "share-past", icon=ft.Icons.SHARE,
                                 expand=True),
                       secondary(tr("over.save_picture"), share.get("save_picture"), "save-picture-past",
                                 icon=ft.Icons.IMAGE, expand=True)]))
    out += what_if_section(vm)
    out += score_sheet(vm, p, [name for _, name, _ in m.totals()], m.hand_rows(), m.opened, m.breakdown,
                       m.show_breakdown)
    trail = m.trail_lines()
    if trail:
        out.append(section(tr("trail.title"), card(*[ft.Text(t, size=14) for t in trail], padding=12), ident="trail"))
    return Frame(m.title, out)


def what_if_section(vm: AppModel) -> list[ft.Control]:
    tr, m = vm.tr, vm.record
    side_colors = palette(vm.session.dark).sides
    chosen = m.choice[0] if m.choice else None
    pills = [pill(title, selected, lambda _e=None, n=name: m.run_what_if(n, m.jack25), f"whatif-{name}", size=13)
             for name, title, selected in m.what_if_choices()]
    jack = toggle(tr("setup.variant.jack25"), m.jack25,
                  lambda on: m.run_what_if(chosen or m.record.match.rules.name, on), "whatif-jack25")
    body: list[ft.Control] = [ft.Row(pills, wrap=True, spacing=6, run_spacing=6), jack]
    unavailable = m.unavailable_line()
    if unavailable:
        body.append(ft.Text(unavailable, size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    if m.busy:
        body.append(ft.ProgressBar())
    view = m.what_if_view()
    if view is not None:
        rows: list[ft.Control] = [ft.Row([ft.Text("", expand=True),
                                          ft.Text(tr("whatif.stored"), width=90, text_align=ft.TextAlign.RIGHT),
                                          ft.Text(tr("whatif.rescored"), width=90, text_align=ft.TextAlign.RIGHT)])]
        for i, (name, played, rescored) in enumerate(view.rows):
            rows.append(ft.Row([ft.Text(name, color=side_colors[i], weight=ft.FontWeight.W_700, expand=True),
                                ft.Text(str(played), width=90, size=18, text_align=ft.TextAlign.RIGHT),
                                ft.Text(str(rescored), width=90, size=18, weight=ft.FontWeight.W_700,
                                        text_align=ft.TextAlign.RIGHT)]))
        rows.append(labelled(ft.Text(view.verdict, size=15, weight=ft.FontWeight.W_600), "whatif-verdict"))
        if view.hands_after_end:
            rows.append(ft.Text(view.hands_after_end, size=13))
        body.append(card(*rows, padding=12, ident="whatif-result"))
    return [section(tr("whatif.title"), *body, note=tr("whatif.note"))]


def rating_parts(vm: AppModel, page) -> list[ft.Control]:
    """A player's rating over time (all time, after each rated match), the form, and why it moved lately."""
    import flet_charts as fch

    tr = vm.tr
    series, (count, first, last) = page.ratings, page.rating_span
    values = [v for _, v in series]
    low, high = min(values), max(values)
    step = nice_step(max(10.0, high - low))
    bottom, top = step * (int(min(low, 1000) // step)), step * (int(high // step) + 1)
    chart = fch.LineChart(
        data_series=[fch.LineChartData(points=[fch.LineChartDataPoint(x, v) for x, v in series],
                                       color=ft.Colors.PRIMARY, stroke_width=2, point=len(series) < 40)],
        # Our own labels, in the phone's numbers: the chart's own wrote 1000 to 1030 as "1K", "1.1K", "1.1K", "1.1K".
        left_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=v, label=ft.Text(tr.say(v), size=11))
                                        for v in range(bottom, top + 1, step)], label_size=44),
        bottom_axis=fch.ChartAxis(label_size=28, label_spacing=x_axis(count)[0]),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step),
        min_x=0, max_x=x_axis(count)[1], min_y=bottom, max_y=top, height=190,
        expand=True)
    parts: list[ft.Control] = [labelled(ft.Container(chart, height=200, padding=ft.Padding.only(right=12, top=8)),
                                        "rating-chart", tr.n("player.rating_chart_said", count,
                                                             first=tr.say(round(first)), last=tr.say(round(last))))]
    if page.form:
        parts.append(ft.Row([ft.Text(tr("player.form"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                             form_marks(tr, page.form)], spacing=8))
    if page.moves:
        parts.append(ft.Text(tr("player.rating_moves"), size=14, weight=ft.FontWeight.W_700,
                             color=ft.Colors.ON_SURFACE_VARIANT))
        parts += [card(ft.Row([ft.Text(move.text, size=15, expand=True),
                               ft.Text(move.change, size=16, weight=ft.FontWeight.W_700,
                                       color=ft.Colors.PRIMARY if move.rising else ft.Colors.ERROR)]),
                       padding=12, on_click=lambda _e=None, mid=move.match_id: vm.record.open(mid),
                       ident=f"rating-move-{i}", label=f"{move.text}: {move.change}")
                  for i, move in enumerate(page.moves)]
    return parts


def player_screen(vm: AppModel) -> Frame:
    import flet_charts as fch

    tr, page = vm.tr, vm.player.page
    if page is None:
        return Frame(tr("nav.history"), [labelled(ft.ProgressBar(), "busy")])
    out: list[ft.Control] = []

    def figure(f) -> ft.Control:
        # A long figure (4935/10000 hands won) in a smaller size rather than broken over two lines.
        size = 24 if len(f.value) <= 6 else 19 if len(f.value) <= 8 else 15
        return labelled(ft.Container(ft.Column([ft.Text(f.value, size=size, weight=ft.FontWeight.W_800),
                                                ft.Text(f.label, size=12, color=ft.Colors.ON_SURFACE_VARIANT,
                                                        text_align=ft.TextAlign.CENTER)],
                                               spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                     width=112, padding=8, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW),
                        f.key, f"{f.label}: {f.value}")

    out.append(ft.Row([figure(f) for f in page.figures], wrap=True, spacing=8, run_spacing=8,
                      alignment=ft.MainAxisAlignment.CENTER))
    if page.ratings:
        out.append(section(tr("player.rating_chart"), *rating_parts(vm, page)))
    if page.points:
        pts = page.points
        chart = fch.LineChart(
            data_series=[fch.LineChartData(points=[fch.LineChartDataPoint(x, p) for x, p in pts],
                                           color=ft.Colors.PRIMARY, stroke_width=2, point=len(pts) < 40)],
            height=190, expand=True, **axes(pts[-1][0], max(p for _, p in pts)))
        per = page.hands_per_point   # a long history: each point the average of a run of hands, and said so
        out.append(section(tr("player.points_chart") if per == 1 else tr.n("player.points_chart_averaged", per),
                           labelled(ft.Container(chart, height=200, padding=ft.Padding.only(right=12, top=8)),
                                    "points-chart")))
    if page.months:
        months, labels = page.months[-12:], page.month_labels[-12:]
        every = -(-len(labels) // 4)
        bars = fch.BarChart(
            groups=[fch.BarChartGroup(x=i, rods=[fch.BarChartRod(to_y=m.wins, width=14, color=ft.Colors.PRIMARY,
                                                                 bg_to_y=max(1, m.played),
                                                                 bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)])
                    for i, m in enumerate(months)],
            # A label every `every` months, the last always: twelve "Jan 2023" ran into one another at 360 px.
            bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=i, label=ft.Text(label, size=11))
                                              for i, label in enumerate(labels)
                                              if (len(labels) - 1 - i) % every == 0], label_size=32),
            left_axis=fch.ChartAxis(label_size=28, label_spacing=nice_step(max(m.played for m in months))),
            max_y=max(1, max(m.played for m in months)), expand=True)
        out.append(section(tr("player.wins_chart"), labelled(
            ft.Container(bars, height=200, padding=ft.Padding.only(right=12, top=8, bottom=4)), "wins-chart")))
    if page.head_to_head:
        out.append(section(tr("player.head_to_head"), card(*[
            ft.Row([ft.Text(name, expand=True, size=15), ft.Text(record, size=15)])
            for name, record in page.head_to_head], padding=12)))
    if page.partners:
        out.append(section(tr("player.partners"), card(*[
            ft.Row([ft.Text(pair, expand=True, size=15), ft.Text(record, size=15)])
            for pair, record in page.partners], padding=12)))
    if page.team_note:
        out.append(ft.Text(page.team_note, size=13, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    return Frame(page.name, out)
