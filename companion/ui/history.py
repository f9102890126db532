"""The history, a past match (read-only, with its trail, chart and what-if) and the player pages."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from ..engine.match import standing
from ..explain import goal_text, status_text
from ..presets import preset_names
from ..stats import running_totals_series
from .app import register_screens
from .screens import confirm_box, header, history_row, hands_list, notices
from .state import AppState
from .widgets import SIDE_COLORS, card, labelled, pill, secondary, section, toggle


def history_screen(s: AppState) -> list[ft.Control]:
    tr = s.tr
    out: list[ft.Control] = [header(s, tr("nav.history"), actions=[
        labelled(ft.IconButton(ft.Icons.UPLOAD_FILE, on_click=s.import_action, tooltip=tr("history.import")),
                 "import-files"),
        labelled(ft.IconButton(ft.Icons.ARCHIVE, on_click=s.export_action or (lambda: s.export_all()), tooltip=tr("history.export")),
                 "export-all")])]
    out += notices(s)
    if s.deleted:
        out.append(secondary(tr("history.undo_delete"), lambda: s.undo_delete(), "undo-delete", icon=ft.Icons.RESTORE))
    players = s.history_players()
    if players:
        out.append(section(tr("history.by_player"), ft.Row(
            [pill(p.name, s.history_player == p.id, lambda _e=None, p=p: s.set_history_filter(player=p.id),
                  f"filter-player-{p.name}", size=14) for p in players], wrap=True, spacing=6, run_spacing=6)))
    out.append(section(tr("history.by_rules"), ft.Row(
        [pill(tr(f"rules.{n}.title"), s.history_rules == n, lambda _e=None, n=n: s.set_history_filter(rules=n),
              f"filter-rules-{n}", size=14) for n in preset_names()], wrap=True, spacing=6, run_spacing=6)))
    items = s.history_items()
    if not items:
        out.append(ft.Text(tr("history.empty"), color=ft.Colors.ON_SURFACE_VARIANT, size=15))
    out += [history_row(s, item) for item in items]
    if players:
        out.append(section(tr("history.players"), ft.Row(
            [secondary(p.name, lambda _e=None, p=p: s.open_player(p.id), f"player-{p.name}", icon=ft.Icons.PERSON)
             for p in players], wrap=True, spacing=6, run_spacing=6)))
    return out


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
    step_y = nice_step(max_y)
    return dict(
        left_axis=fch.ChartAxis(label_size=40, label_spacing=step_y),
        bottom_axis=fch.ChartAxis(label_size=28, label_spacing=max(1, nice_step(max_x, 8))),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step_y),
        min_x=0, max_x=max(1, max_x), min_y=0, max_y=step_y * (int(max_y // step_y) + 1),
    )


def totals_chart(match, tr, height: int = 220) -> ft.Control:
    """Running totals per side, and the target in force as a dashed line."""
    series = running_totals_series(match)
    top = max([max(line) for line in series.sides] + [t for t in (series.target or []) if t is not None] + [10])
    data = [fch.LineChartData(points=[fch.LineChartDataPoint(x, y) for x, y in enumerate(line)],
                              color=SIDE_COLORS[i], stroke_width=3, point=True)
            for i, line in enumerate(series.sides)]
    if series.target:
        data.append(fch.LineChartData(points=[fch.LineChartDataPoint(x, y) for x, y in enumerate(series.target)],
                                      color=ft.Colors.RED_400, stroke_width=2, dash_pattern=[6, 4]))
    chart = fch.LineChart(data_series=data, height=height, expand=True, **axes(len(series.sides[0]) - 1, top))
    legend = ft.Row([ft.Text(f"● {side.name}", color=SIDE_COLORS[i], size=13) for i, side in enumerate(match.sides)]
                    + ([ft.Text(f"- - {tr('chart.target')}", color=ft.Colors.RED_400, size=13)]
                       if series.target else []), wrap=True)
    return labelled(ft.Column([ft.Container(chart, height=height, padding=ft.Padding.only(right=12, top=8)), legend]),
                    "totals-chart", tr("chart.totals_label"))


def record_screen(s: AppState) -> list[ft.Control]:
    tr, record = s.tr, s.viewing
    if record is None:
        return [header(s, tr("nav.history"))]
    match = record.match
    st = standing(match, strict=False)
    out: list[ft.Control] = [header(s, " · ".join(side.name for side in match.sides))]
    out += notices(s)
    out.append(card(
        ft.Row([ft.Column([ft.Text(side.name, color=SIDE_COLORS[i], weight=ft.FontWeight.W_700, size=15),
                           ft.Text(str(st.totals[i]), size=36, weight=ft.FontWeight.W_800)],
                          expand=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=0)
                for i, side in enumerate(match.sides)]),
        ft.Text(f"{record.created[:10]} · {tr(f'rules.{match.rules.name}.title')} · "
                f"{goal_text(match.goal, tr, st.target)}", size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        labelled(ft.Text(status_text(match, st, tr) if not record.abandoned or st.is_over else tr("history.abandoned_long"),
                         size=16, weight=ft.FontWeight.W_600), "record-status"),
        ident="record-summary"))
    if match.hands:
        out.append(section(tr("chart.title"), totals_chart(match, tr)))
    actions = []
    if record.abandoned and not st.is_over:
        actions.append(secondary(tr("history.continue"), lambda: s.continue_viewing(), "continue-abandoned",
                                 icon=ft.Icons.PLAY_ARROW, expand=True))
    actions.append(secondary(tr("history.delete"), lambda: s.ask("delete", record.id), "delete-match",
                             icon=ft.Icons.DELETE_OUTLINE, expand=True, danger=True))
    out.append(ft.Row(actions))
    out += what_if_section(s)
    out += hands_list(s, record=record, read_only=True)
    if record.trail:
        rows = []
        for t in record.trail:
            rows.append(ft.Text(tr(f"trail.{t.action}", n=t.hand + 1, at=t.at[:16].replace("T", " ")), size=14))
        out.append(section(tr("trail.title"), card(*rows, padding=12), ident="trail"))
    return out, confirm_box(s)


def what_if_section(s: AppState) -> list[ft.Control]:
    tr = s.tr
    record = s.viewing
    choice = s.what_if_choice or (record.match.rules.name, False)
    pills = [pill(tr(f"rules.{n}.title"), choice[0] == n and s.what_if_result is not None,
                  lambda _e=None, n=n: s.run_what_if(n, choice[1]), f"whatif-{n}", size=13) for n in preset_names()]
    jack = toggle(tr("setup.variant.jack25"), choice[1], lambda e: s.run_what_if(choice[0], e.control.value),
                  "whatif-jack25")
    body: list[ft.Control] = [ft.Row(pills, wrap=True, spacing=6, run_spacing=6), jack]
    result = s.what_if_result
    if result is not None:
        names = [side.name for side in record.match.sides]
        rows = [ft.Row([ft.Text("", expand=True), ft.Text(tr("whatif.stored"), width=90, text_align=ft.TextAlign.RIGHT),
                        ft.Text(tr("whatif.rescored"), width=90, text_align=ft.TextAlign.RIGHT)])]
        for i, name in enumerate(names):
            rows.append(ft.Row([ft.Text(name, color=SIDE_COLORS[i], weight=ft.FontWeight.W_700, expand=True),
                                ft.Text(str(result.stored.totals[i]), width=90, size=18, text_align=ft.TextAlign.RIGHT),
                                ft.Text(str(result.rescored.totals[i]), width=90, size=18, weight=ft.FontWeight.W_700,
                                        text_align=ft.TextAlign.RIGHT)]))
        winner = result.rescored.winner
        verdict = (tr("whatif.winner", side=names[winner]) if winner is not None else tr("whatif.no_winner"))
        if result.winner_changed:
            verdict += " " + tr("whatif.changed")
        rows.append(labelled(ft.Text(verdict, size=15, weight=ft.FontWeight.W_600), "whatif-verdict"))
        if result.hands_after_end:
            rows.append(ft.Text(tr.n("whatif.after_end", result.hands_after_end), size=13))
        body.append(card(*rows, padding=12, ident="whatif-result"))
    return [section(tr("whatif.title"), *body, note=tr("whatif.note"))]


def player_screen(s: AppState) -> list[ft.Control]:
    tr = s.tr
    page = s.player_page()
    st = page["stats"]
    names = page["names"]
    out: list[ft.Control] = [header(s, page["name"])]

    def figure(label: str, value: str, ident: str) -> ft.Control:
        return labelled(ft.Container(ft.Column([ft.Text(value, size=24, weight=ft.FontWeight.W_800),
                                                ft.Text(label, size=12, color=ft.Colors.ON_SURFACE_VARIANT,
                                                        text_align=ft.TextAlign.CENTER)],
                                               spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                     width=112, padding=8, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW),
                        ident, f"{label}: {value}")

    def pct(x) -> str:
        return "–" if x is None else f"{round(100 * x)}%"

    def per(x) -> str:
        return "–" if x is None else f"{x:.2f}"

    figures = [
        figure(tr("player.matches"), str(st.played), "stat-matches"),
        figure(tr("player.won"), str(st.won), "stat-won"),
        figure(tr("player.win_rate"), pct(st.win_rate), "stat-win-rate"),
        figure(tr("player.hands_won"), f"{st.hands_won}/{st.hands}", "stat-hands-won"),
        figure(tr("player.points_per_hand"), per(st.points_per_hand), "stat-points"),
        figure(tr("player.xeris_per_hand"), per(st.xeris_per_hand), "stat-xeris"),
        figure(tr("player.jack_xeris_per_hand"), per(st.jack_xeris_per_hand), "stat-jack-xeris"),
        figure(tr("player.ten_rate"), pct(st.ten_of_diamonds_rate), "stat-ten"),
        figure(tr("player.two_rate"), pct(st.two_rate), "stat-two"),
        figure(tr("player.most_rate"), pct(st.most_cards_rate), "stat-most"),
        figure(tr("player.best_hand"), str(st.best_hand.points) if st.best_hand else "–", "stat-best"),
        figure(tr("player.streak"), str(st.longest_streak), "stat-streak"),
    ]
    out.append(ft.Row(figures, wrap=True, spacing=8, run_spacing=8, alignment=ft.MainAxisAlignment.CENTER))
    if page["points"]:
        pts = page["points"]
        chart = fch.LineChart(
            data_series=[fch.LineChartData(points=[fch.LineChartDataPoint(i + 1, p.points) for i, p in enumerate(pts)],
                                           color=ft.Colors.PRIMARY, stroke_width=2, point=len(pts) < 40)],
            height=190, expand=True, **axes(len(pts), max(p.points for p in pts)))
        out.append(section(tr("player.points_chart"), labelled(
            ft.Container(chart, height=200, padding=ft.Padding.only(right=12, top=8)), "points-chart")))
    if page["months"]:
        months = page["months"][-12:]
        bars = fch.BarChart(
            groups=[fch.BarChartGroup(x=i, rods=[fch.BarChartRod(to_y=m.wins, width=14, color=ft.Colors.PRIMARY,
                                                                 bg_to_y=max(1, m.played),
                                                                 bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)])
                    for i, m in enumerate(months)],
            bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=i, label=ft.Text(m.month[2:], size=11))
                                              for i, m in enumerate(months)], label_size=32),
            left_axis=fch.ChartAxis(label_size=28, label_spacing=nice_step(max(m.played for m in months))),
            max_y=max(1, max(m.played for m in months)), expand=True)
        out.append(section(tr("player.wins_chart"), labelled(
            ft.Container(bars, height=200, padding=ft.Padding.only(right=12, top=8, bottom=4)), "wins-chart")))
    if page["head_to_head"]:
        rows = [ft.Row([ft.Text(names.get(h.opponent_id, "?"), expand=True, size=15),
                        ft.Text(tr("player.record", w=h.wins, l=h.losses, d=h.draws), size=15)])
                for h in page["head_to_head"]]
        out.append(section(tr("player.head_to_head"), card(*rows, padding=12)))
    if page["partners"]:
        # The page's player first, then the partner (`players` is in id order, which reads at random).
        rows = [ft.Row([ft.Text(f"{page['name']} & {names.get(p.partner_of(s.player_shown), '?')}", expand=True,
                                size=15),
                        ft.Text(tr("player.record", w=p.wins, l=p.losses, d=p.draws), size=15)])
                for p in page["partners"]]
        out.append(section(tr("player.partners"), card(*rows, padding=12)))
    return out


register_screens({"history": history_screen, "record": record_screen, "player": player_screen})
