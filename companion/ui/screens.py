"""The screens: functions from the view model to controls. They render and send intents, nothing more."""

from __future__ import annotations

import flet as ft

from ..engine.match import Status
from ..engine.scoring import ITEMS
from ..explain import item_label, line_text, rules_text
from ..i18n import LANGUAGES
from ..presets import preset, preset_names
from .draft import TIE
from .state import LAYOUTS, THEMES, AppState
from .widgets import (SIDE_COLORS, TOUCH, card, labelled, pill, playing_card, primary, problem, secondary,
                      section, stepper, suit_text, toggle)


def header(s: AppState, title: str, back: bool = True, actions: list[ft.Control] | None = None) -> ft.Control:
    tr = s.tr
    left = [labelled(ft.IconButton(ft.Icons.ARROW_BACK, on_click=lambda: s.back(), tooltip=tr("nav.back")),
                     "back")] if back else []
    return ft.Row(left + [ft.Text(title, size=22, weight=ft.FontWeight.W_700, expand=True,
                                  overflow=ft.TextOverflow.ELLIPSIS, max_lines=1)] + (actions or []),
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def notices(s: AppState) -> list[ft.Control]:
    out = []
    for text in s.problems_at_open:
        out.append(card(problem(text), color=ft.Colors.ERROR_CONTAINER, ident="damaged-notice"))
    if s.notice:
        out.append(labelled(ft.Container(
            ft.Row([ft.Text(s.notice, size=15, expand=True, color=ft.Colors.ON_SECONDARY_CONTAINER),
                    ft.IconButton(ft.Icons.CLOSE, on_click=lambda: s.dismiss_notice(), tooltip=s.tr("nav.dismiss"),
                                  icon_size=18)]),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=12, padding=ft.Padding.only(left=14)), "notice"))
    return out


# --- home ---------------------------------------------------------------------------------------
def home(s: AppState) -> list[ft.Control]:
    tr = s.tr
    out: list[ft.Control] = [header(s, tr("app.title"), back=False, actions=[
        labelled(ft.IconButton(ft.Icons.MENU_BOOK, on_click=lambda: s.show_rules(), tooltip=tr("nav.rules")), "open-rules"),
        labelled(ft.IconButton(ft.Icons.SETTINGS, on_click=lambda: s.go("settings"), tooltip=tr("nav.settings")),
                 "open-settings"),
    ])]
    out += notices(s)
    if s.record and not s.standing.is_over:
        st, match = s.standing, s.match
        totals = ft.Row([
            ft.Column([ft.Text(side.name, size=15, color=SIDE_COLORS[i], weight=ft.FontWeight.W_600,
                               max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                       ft.Text(str(st.totals[i]), size=34, weight=ft.FontWeight.W_700)],
                      expand=True, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
            for i, side in enumerate(match.sides)])
        out.append(card(
            ft.Text(tr("home.in_progress"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            totals,
            ft.Text(f"{tr(f'rules.{match.rules.name}.title')} · {s.goal_line()} · "
                    f"{tr.n('home.hands_played', len(match.hands))}", size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            primary(tr("home.continue"), lambda: s.continue_match(), "continue-match", icon=ft.Icons.PLAY_ARROW),
            color=ft.Colors.PRIMARY_CONTAINER))
    out.append(primary(tr("home.new_match"), lambda: s.new_match(), "new-match", icon=ft.Icons.ADD))
    out.append(ft.Row([
        secondary(tr("nav.history"), lambda: s.open_history(), "open-history", icon=ft.Icons.HISTORY, expand=True),
        secondary(tr("nav.rules"), lambda: s.show_rules(), "open-rules-button", icon=ft.Icons.MENU_BOOK, expand=True),
    ]))
    recent = s.recent_matches()
    if recent:
        rows = [history_row(s, row) for row in recent]
        out.append(section(tr("home.recent"), *rows))
    return out


def history_row(s: AppState, row) -> ft.Control:
    tr = s.tr
    names = row.side_names
    score = " : ".join(str(t) for t in row.totals)
    if row.abandoned:
        result = tr("history.abandoned")
    elif row.winner is not None:
        result = tr("history.winner", side=names[row.winner])
    else:
        result = tr("history.drawn")
    return card(
        ft.Row([ft.Text(" · ".join(names), size=16, weight=ft.FontWeight.W_600, expand=True,
                        max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                ft.Text(score, size=18, weight=ft.FontWeight.W_700)]),
        ft.Text(f"{row.date} · {tr(f'rules.{row.rules}.title')} · {short_goal(row.goal, tr)} · {result}", size=13,
                color=ft.Colors.ON_SURFACE_VARIANT),
        padding=12, on_click=lambda: s.open_record(row.id), ident=f"history-{row.id}")


def short_goal(goal: dict | None, tr) -> str:
    """`to 151` or `7 hands`, for a line of the history."""
    goal = goal or {}
    if goal.get("hands"):
        return tr.n("history.goal_hands", goal["hands"])
    return tr("history.goal_race", target=goal.get("target", "?"))


# --- new match ----------------------------------------------------------------------------------
def setup(s: AppState) -> list[ft.Control]:
    tr, d = s.tr, s.setup
    out: list[ft.Control] = [header(s, tr("setup.title"))]
    out += notices(s)
    out.append(section(tr("setup.who"), ft.Row([
        pill(tr(f"setup.layout.{k}"), d.layout == k, lambda _e=None, k=k: s.setup_layout(k), f"layout-{k}", size=14, expand=True)
        for k in LAYOUTS], spacing=6, wrap=False)))

    def name_field(i: int, label: str) -> ft.Control:
        field = ft.Row([labelled(ft.TextField(label=label, value=d.names[i],
                                              on_change=lambda e, i=i: s.setup_name(i, e.control.value),
                                              text_size=18, capitalization=ft.TextCapitalization.WORDS, expand=True),
                                 f"name-{i}", value=d.names[i])])
        hints = s.name_suggestions(d.names[i]) if len(d.names[i].strip()) < 12 else []
        if d.names[i].strip() and any(h.casefold() == d.names[i].strip().casefold() for h in hints):
            hints = []
        chips = [labelled(ft.TextButton(h, on_click=lambda _e=None, h=h, i=i: s.pick_name(i, h)), f"suggest-{i}-{h}")
                 for h in hints[:4]]
        return ft.Column([field] + ([ft.Row(chips, wrap=True, spacing=4)] if chips else []), spacing=2,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    if d.layout == "partners":
        teams = []
        for team in range(2):
            teams.append(card(
                ft.Text(tr("setup.team", n=team + 1), weight=ft.FontWeight.W_700, color=SIDE_COLORS[team]),
                ft.Row([labelled(ft.TextField(label=tr("setup.team_name"), value=d.team_names[team],
                                              on_change=lambda e, t=team: s.setup_team_name(t, e.control.value),
                                              expand=True), f"team-{team}", value=d.team_names[team])]),
                name_field(2 * team, tr("setup.player", n=2 * team + 1)),
                name_field(2 * team + 1, tr("setup.player", n=2 * team + 2)),
                padding=12))
        out.append(section(tr("setup.players"), *teams,
                           note=tr("setup.partners_note") + " " + tr("setup.seating_note_partners",
                                                                     direction=tr(f"direction.{d.direction}"))))
    else:
        note = tr("setup.seating_note", direction=tr(f"direction.{d.direction}")) if d.seats > 2 else None
        out.append(section(tr("setup.players"), *[name_field(i, tr("setup.player", n=i + 1)) for i in range(d.seats)],
                           note=note))

    presets = []
    for name in preset_names():
        rules = preset(name)
        fits = d.seats in rules.players and (d.layout == "partners") == rules.partnerships
        if not fits and name != d.preset:
            continue
        selected = d.preset == name
        presets.append(card(
            ft.Row([ft.Icon(ft.Icons.RADIO_BUTTON_CHECKED if selected else ft.Icons.RADIO_BUTTON_OFF,
                            color=ft.Colors.PRIMARY),
                    ft.Column([ft.Text(tr(f"rules.{name}.title"), size=17, weight=ft.FontWeight.W_600),
                               suit_text(tr(f"rules.{name}.description"), size=14, weight=ft.FontWeight.NORMAL)],
                              spacing=2, expand=True)]),
            padding=12, on_click=lambda _e=None, n=name: s.setup_preset(n), ident=f"preset-{name}",
            border=ft.Colors.PRIMARY if selected else None))
    out.append(section(tr("setup.rules"), *presets))

    def switch(key: str, label: str, value: bool, on_change) -> ft.Control:
        return toggle(label, value, on_change, f"variant-{key}")

    variants = [
        switch("jack25", tr("setup.variant.jack25"), d.jack_xeri_points == 25,
               lambda e: s.setup_option("jack_xeri_points", 25 if e.control.value else preset(d.preset).jack_xeri_points
                                        if preset(d.preset).jack_xeri_points != 25 else 20)),
        switch("jack_any", tr("setup.variant.jack_any"), d.jack_xeri_on_any,
               lambda e: s.setup_option("jack_xeri_on_any", e.control.value)),
        switch("two_spades", tr("setup.variant.two_spades"), d.two == "2S",
               lambda e: s.setup_option("two", "2S" if e.control.value else "2C")),
        switch("dealer_last", tr("setup.variant.dealer_last"), d.dealer_last_card_no_xeri,
               lambda e: s.setup_option("dealer_last_card_no_xeri", e.control.value)),
    ]
    if d.seats > 2:
        variants.append(switch("anticlockwise", tr("setup.variant.anticlockwise"), d.direction == "anticlockwise",
                               lambda e: s.set_direction("anticlockwise" if e.control.value else "clockwise")))
    out.append(section(tr("setup.variants"), *variants))

    goal_row = ft.Row([pill(tr(f"setup.goal.{k}"), d.goal_kind == k, lambda _e=None, k=k: s.setup_option("goal_kind", k),
                            f"goal-{k}", size=14, expand=True) for k in ("race", "custom", "hands")], spacing=6)
    goal_controls = [goal_row]
    if d.goal_kind == "custom":
        goal_controls.append(ft.Row([ft.Text(tr("setup.target"), size=16, expand=True),
                                     stepper(d.target, lambda: s.setup_option("target", max(10, d.target - 10)),
                                             lambda: s.setup_option("target", d.target + 10), "target",
                                             tr("setup.target"))]))
    elif d.goal_kind == "hands":
        goal_controls.append(ft.Row([ft.Text(tr("setup.hands"), size=16, expand=True),
                                     stepper(d.hands, lambda: s.setup_option("hands", max(1, d.hands - 1)),
                                             lambda: s.setup_option("hands", d.hands + 1), "hands", tr("setup.hands"))]))
    rules = d.rules()
    from ..explain import goal_text  # local: only this screen needs it
    goal_controls.append(ft.Text(goal_text(d.goal(rules), tr), size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    out.append(section(tr("setup.goal"), *goal_controls))

    names = d.player_names()
    order = _seat_order(d)
    dealer_pills = [pill(names[order[seat]] or tr("setup.player", n=order[seat] + 1), d.first_dealer == seat,
                         lambda _e=None, seat=seat: s.setup_option("first_dealer", seat), f"dealer-{seat}", size=15)
                    for seat in range(d.seats)]
    dealer_pills.append(pill(tr("setup.draw"), d.first_dealer is None, lambda: s.setup_option("first_dealer", None),
                             "dealer-draw", size=15))
    out.append(section(tr("setup.first_dealer"), ft.Row(dealer_pills, wrap=True, spacing=6, run_spacing=6)))

    missing = d.missing()
    out.append(primary(tr("setup.start"), lambda: s.start_match(), "start-match", icon=ft.Icons.PLAY_ARROW,
                       disabled=bool(missing)))
    if missing:
        out.append(ft.Text(tr(missing[0]), color=ft.Colors.ON_SURFACE_VARIANT, size=14))
    return out


def _seat_order(d) -> list[int]:
    """The name index of each seat: partners sit opposite, so the teams alternate (0, 2, 1, 3)."""
    if d.layout == "partners":
        return [0, 2, 1, 3]
    return list(range(d.seats))


# --- the scoreboard -----------------------------------------------------------------------------
def scoreboard(s: AppState) -> list[ft.Control]:
    tr, match, st = s.tr, s.match, s.standing
    out: list[ft.Control] = [header(s, " – ".join(s.side_names), actions=[
        labelled(ft.IconButton(ft.Icons.MENU_BOOK, on_click=lambda: s.show_rules("current"), tooltip=tr("nav.rules")),
                 "match-rules"),
    ])]
    out += notices(s)
    out.append(labelled(ft.Text(s.goal_line(), size=16, color=ft.Colors.ON_SURFACE_VARIANT,
                                text_align=ft.TextAlign.CENTER), "goal-line"))
    boxes = []
    compact = len(match.sides) > 2   # four boxes share a phone's width
    for i, side in enumerate(match.sides):
        lines = [ft.Text(side.name, size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], max_lines=1,
                         overflow=ft.TextOverflow.ELLIPSIS),
                 labelled(ft.Text(str(st.totals[i]), size=34 if compact else 48, weight=ft.FontWeight.W_800),
                          f"total-{i}", tr("match.total_label", side=side.name, points=st.totals[i]))]
        if side.players and side.name != tr("setup.team_default", a=side.players[0], b=side.players[1]):
            lines.insert(1, ft.Text(" & ".join(side.players), size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        small = dict(size=12 if compact else 13, color=ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.CENTER)
        if st.needs is not None and not st.is_over:
            lines.append(ft.Text(tr("match.needs", points=st.needs[i]), **small))
        lines.append(ft.Text(tr.n("match.hands_won_short" if compact else "match.hands_won", st.hands_won[i]),
                             **small))
        boxes.append(ft.Container(ft.Column(lines, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                                  expand=True, padding=10, border_radius=16,
                                  bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                  border=ft.Border.all(3 if st.winner == i else 1,
                                                       SIDE_COLORS[i] if st.winner == i else ft.Colors.OUTLINE_VARIANT)))
    out.append(ft.Row(boxes, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))

    if st.is_over:
        out += match_over(s)
    else:
        seats = match.seats
        out.append(labelled(ft.Row([ft.Icon(ft.Icons.STYLE, color=ft.Colors.PRIMARY),
                                    ft.Text(tr("match.deals", dealer=seats[st.next_dealer].player,
                                               leader=seats[st.next_leader].player), size=16, expand=True)]),
                            "dealer-line"))
        if s.flash is not None and s.flash < len(st.scores):
            out.append(breakdown_card(s, s.flash, flash=True))
        out.append(live_panel(s))
        out.append(primary(tr("match.end_hand"), lambda: s.end_hand(), "end-hand", icon=ft.Icons.EDIT_NOTE))
    out += hands_list(s)
    actions = []
    if match.hands:
        actions.append(secondary(tr("match.undo_hand"), lambda: s.ask("undo"), "undo-hand", icon=ft.Icons.UNDO,
                                 expand=True))
    if not st.is_over:
        actions.append(secondary(tr("match.abandon"), lambda: s.ask("abandon"), "abandon-match",
                                 icon=ft.Icons.CLOSE, expand=True, danger=True))
    if actions:
        out.append(ft.Row(actions))
    # The question stays in reach below the scrolling part, whichever button asked it.
    return out, confirm_box(s)


def confirm_box(s: AppState) -> list[ft.Control]:
    if not s.confirm:
        return []
    tr = s.tr
    what = s.confirm[0]
    if what == "undo":
        text = tr("confirm.undo", n=len(s.match.hands))
    elif what == "edit":
        text = tr("confirm.edit", n=s.confirm[1] + 1)
    elif what == "delete":
        text = tr("confirm.delete")
    else:
        text = tr("confirm.abandon")
    return [card(ft.Text(text, size=16, weight=ft.FontWeight.W_600),
                 ft.Row([secondary(tr("confirm.no"), lambda: s.cancel(), "confirm-no", expand=True),
                         labelled(ft.FilledButton(tr("confirm.yes"), on_click=lambda: s.confirmed(), height=TOUCH,
                                                  expand=True), "confirm-yes")]),
                 color=ft.Colors.TERTIARY_CONTAINER, ident="confirm-box")]


def live_panel(s: AppState) -> ft.Control:
    tr, match = s.tr, s.match
    rows = []
    for seat_index, seat in enumerate(match.seats):
        color = SIDE_COLORS[seat.side]
        x, jx = s.seat_count(seat_index, "xeri"), s.seat_count(seat_index, "jack_xeri")
        rows.append(ft.Column([
            ft.Text(seat.player, size=15, weight=ft.FontWeight.W_700, color=color),
            ft.Row([
                labelled(ft.FilledButton(f"+ {tr('match.xeri')}  {x}", on_click=lambda _e=None, i=seat_index: s.tap_xeri(i, "xeri"),
                                         height=56, expand=True,
                                         style=ft.ButtonStyle(bgcolor=color, color=ft.Colors.WHITE,
                                                              text_style=ft.TextStyle(size=17),
                                                              shape=ft.RoundedRectangleBorder(radius=12))),
                         f"xeri-{seat_index}", tr("match.xeri_label", player=seat.player, n=x)),
                labelled(ft.OutlinedButton(f"+ {tr('match.jack_xeri')}  {jx}",
                                           on_click=lambda _e=None, i=seat_index: s.tap_xeri(i, "jack_xeri"),
                                           height=56, expand=True,
                                           style=ft.ButtonStyle(side=ft.BorderSide(2, color), color=color,
                                                                text_style=ft.TextStyle(size=17),
                                                                shape=ft.RoundedRectangleBorder(radius=12))),
                         f"jack-xeri-{seat_index}", tr("match.jack_xeri_label", player=seat.player, n=jx)),
            ], spacing=8),
        ], spacing=4))
    live = s.record.live
    rows.append(ft.Row([ft.Text(tr.n("match.taps", len(live.taps)), size=13, color=ft.Colors.ON_SURFACE_VARIANT,
                                expand=True),
                        secondary(tr("match.undo_tap"), lambda: s.undo_tap(), "undo-tap", icon=ft.Icons.UNDO,
                                  disabled=not live.taps)]))
    return section(tr("match.during"), card(*rows, padding=12))


def hands_list(s: AppState, record=None, read_only: bool = False) -> list[ft.Control]:
    tr = s.tr
    record = record or s.record
    match = record.match
    from ..engine.match import standing as standing_of
    st = standing_of(match)
    if not st.scores:
        return [ft.Text(tr("match.no_hands"), color=ft.Colors.ON_SURFACE_VARIANT)]
    rows = []
    for index in reversed(range(len(st.scores))):
        score = st.scores[index]
        dealer = match.seats[match.dealer_of(index)].player
        winner = (tr("match.hand_winner", side=match.sides[score.winner].name) if score.winner is not None
                  else tr("match.hand_tie"))
        opened = s.breakdown == index
        head = ft.Row([
            ft.Column([ft.Text(tr("match.hand_n", n=index + 1), size=16, weight=ft.FontWeight.W_700),
                       ft.Text(tr("match.hand_dealer", dealer=dealer) + " · " + winner, size=13,
                               color=ft.Colors.ON_SURFACE_VARIANT)], spacing=0, expand=True),
            ft.Row([ft.Text(str(p), size=20, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], width=44,
                            text_align=ft.TextAlign.RIGHT) for i, p in enumerate(score.points)], spacing=4),
            ft.Icon(ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE),
        ])
        body = [head]
        if opened:
            body.append(breakdown_table(s, match, score))
            if not read_only:
                body.append(secondary(tr("match.edit_hand"), lambda _e=None, i=index: s.ask("edit", i), f"edit-hand-{index}",
                                      icon=ft.Icons.EDIT))
        rows.append(card(*body, padding=12, ident=f"hand-{index}",
                         on_click=lambda _e=None, i=index, o=opened: s.show_breakdown(None if o else i)))
    return [section(tr("match.hands"), *rows)]


def breakdown_table(s: AppState, match, score) -> ft.Control:
    """Every line of a hand's score, per side, with the rule it comes from in words."""
    tr = s.tr
    blocks = []
    for side_index, side in enumerate(match.sides):
        lines = [ft.Text(f"{side.name}: {score.points[side_index]}", size=16, weight=ft.FontWeight.W_700,
                         color=SIDE_COLORS[side_index])]
        for item in ITEMS:
            line = score.line(side_index, item)
            dim = ft.Colors.ON_SURFACE_VARIANT if not line.points else None
            lines.append(ft.Row([
                suit_text(item_label(item, match.rules, tr), size=15, weight=ft.FontWeight.W_600),
                ft.Text(line_text(line, match.rules, tr), size=13, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                ft.Text(str(line.points), size=16, weight=ft.FontWeight.W_700, color=dim),
            ], vertical_alignment=ft.CrossAxisAlignment.START))
        blocks.append(ft.Column(lines, spacing=4))
    return labelled(ft.Column(blocks, spacing=12), "breakdown")


def breakdown_card(s: AppState, index: int, flash: bool = False) -> ft.Control:
    tr, match, st = s.tr, s.match, s.standing
    score = st.scores[index]
    title = tr("match.saved", n=index + 1, points=" : ".join(str(p) for p in score.points))
    return card(ft.Row([ft.Text(title, size=17, weight=ft.FontWeight.W_700, expand=True),
                        ft.IconButton(ft.Icons.CLOSE, on_click=lambda: s.dismiss_flash(), tooltip=tr("nav.dismiss"))]),
                breakdown_table(s, match, score), color=ft.Colors.PRIMARY_CONTAINER, ident="flash")


def match_over(s: AppState) -> list[ft.Control]:
    tr, match, st = s.tr, s.match, s.standing
    if st.status is Status.WON:
        title = tr("over.winner", side=match.sides[st.winner].name)
    else:
        title = tr("over.drawn")
    return [card(
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_700, size=40),
                labelled(ft.Text(title, size=24, weight=ft.FontWeight.W_800, expand=True), "winner")]),
        ft.Text(s.goal_line(), size=14),
        primary(tr("over.rematch"), lambda: s.rematch(), "rematch", icon=ft.Icons.REPLAY),
        ft.Row([secondary(tr("over.share"), s.share_action, "share", icon=ft.Icons.SHARE, expand=True),
                secondary(tr("over.home"), lambda: s.home(), "go-home", icon=ft.Icons.HOME, expand=True)]),
        color=ft.Colors.PRIMARY_CONTAINER, ident="match-over")]


# --- hand entry ---------------------------------------------------------------------------------
def entry(s: AppState) -> list[ft.Control]:
    tr, match, d = s.tr, s.match, s.draft
    names = s.side_names
    n = len(names)
    title = tr("entry.edit_title", n=s.editing + 1) if s.editing is not None else tr("entry.title",
                                                                                       n=len(match.hands) + 1)
    out: list[ft.Control] = [header(s, title)]
    out += notices(s)
    problems = s.entry_problems()

    def problems_for(*fields: str) -> list[ft.Control]:
        return [problem(text, f"problem-{p.code}") for p, text in problems if p.field in fields]

    if match.rules.dealer_last_card_no_xeri:
        out.append(card(ft.Row([ft.Icon(ft.Icons.INFO_OUTLINE), ft.Text(tr("entry.dealer_last"), expand=True)]),
                        padding=12, color=ft.Colors.TERTIARY_CONTAINER, ident="dealer-last-reminder"))

    out.append(toggle(tr("entry.exact_mode"), d.exact, lambda e: s.set_exact(e.control.value), "exact-mode"))

    # Most cards
    majority = d.majority()
    most = [pill(names[i], majority == i, lambda _e=None, i=i: s.draft_tap("set_most", i), f"most-{i}", SIDE_COLORS[i],
                 expand=True, label=tr("entry.most_label", side=names[i])) for i in range(n)]
    most.append(pill(tr("entry.tie"), majority == TIE, lambda: s.draft_tap("set_most", TIE), "most-tie", expand=True))
    most_controls = [ft.Row(most, spacing=6)]
    most_controls.append(labelled(ft.TextButton(tr("entry.hide_counts") if d.show_counts else tr("entry.give_counts"),
                                                on_click=lambda: s.toggle_counts()), "toggle-counts"))
    if d.show_counts:
        fields = []
        for i in range(n):
            fields.append(labelled(ft.TextField(
                label=names[i], value=d.cards.shown(i), keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e, i=i: s.draft_tap("type_cards", i, e.control.value), expand=True, text_size=18,
                border_color=SIDE_COLORS[i] if d.cards.is_auto(i) else None,
                helper=tr("entry.auto") if d.cards.is_auto(i) else None), f"cards-{i}", value=d.cards.shown(i)))
        most_controls.append(ft.Row(fields, spacing=8))
    most_controls += problems_for("cards", "most_cards")
    out.append(section(tr("entry.most"), *most_controls, ident="section-most"))

    if d.exact:
        out += exact_grid(s)
    else:
        deck_total = match.rules.counting_cards_in_deck
        ranks = " ".join(r.value for r in match.rules.counting_ranks)
        rows = []
        for i in range(n):
            value = d.counting.values[i]
            auto = d.counting.is_auto(i)
            chips = [pill(str(k), value == k, lambda _e=None, i=i, k=k: s.draft_tap("set_counting", i, k),
                          f"counting-{i}-{k}", SIDE_COLORS[i], width=TOUCH, size=16,
                          label=tr("entry.counting_label", side=names[i], n=k), auto=auto and value == k)
                     for k in range(deck_total + 1)]
            status = (tr("entry.auto_value", n=value) if auto else str(value)) if value is not None else "–"
            rows.append(ft.Column([
                ft.Row([ft.Text(names[i], size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], expand=True),
                        labelled(ft.Text(status, size=16, weight=ft.FontWeight.W_700), f"counting-value-{i}")]),
                ft.Row(chips, wrap=True, spacing=4, run_spacing=4),
            ], spacing=4))
        out.append(section(tr("entry.counting", ranks=ranks, total=deck_total), *rows, *problems_for("counting"),
                           ident="section-counting"))
        for key, card_label, method, value in (("ten", "10♦", "ten", d.ten), ("two", match.rules.two.label, "two", d.two)):
            choices = [pill(names[i], value == i, lambda _e=None, i=i, m=method: s.draft_tap("set_holder", m, i),
                            f"{key}-{i}", SIDE_COLORS[i], expand=True, label=tr("entry.took_label", side=names[i],
                                                                             card=card_label)) for i in range(n)]
            field = "ten_of_diamonds" if key == "ten" else "two"
            out.append(section(tr("entry.who_took", card=card_label), ft.Row(choices, spacing=6),
                               *problems_for(field), ident=f"section-{key}"))

    xrows = []
    for i in range(n):
        xrows.append(ft.Row([
            ft.Text(names[i], size=16, weight=ft.FontWeight.W_700, color=SIDE_COLORS[i], expand=True),
            stepper(d.xeris[i], lambda _e=None, i=i: s.draft_tap("step", "xeris", i, -1),
                    lambda _e=None, i=i: s.draft_tap("step", "xeris", i, 1), f"xeris-{i}", tr("entry.xeris_of", side=names[i])),
            stepper(d.jack_xeris[i], lambda _e=None, i=i: s.draft_tap("step", "jack_xeris", i, -1),
                    lambda _e=None, i=i: s.draft_tap("step", "jack_xeris", i, 1), f"jack-xeris-{i}",
                    tr("entry.jack_xeris_of", side=names[i])),
        ], spacing=4))
    out.append(section(tr("entry.xeris"), ft.Row([ft.Text("", expand=True), ft.Text(tr("field.xeris"), width=120,
                                                                                     text_align=ft.TextAlign.CENTER),
                                                  ft.Text(tr("field.jack_xeris"), width=120,
                                                          text_align=ft.TextAlign.CENTER)], spacing=4),
                       *xrows, *problems_for("xeris", "jack_xeris"), note=tr("entry.xeris_note"),
                       ident="section-xeris"))

    other = [text for p, text in problems if p.field not in ("cards", "most_cards", "counting", "ten_of_diamonds",
                                                             "two", "xeris", "jack_xeris", "held")]
    out += [problem(t) for t in other]
    reason = s.save_reason()
    footer = [primary(tr("entry.save"), lambda: s.save_hand(), "save-hand", icon=ft.Icons.CHECK,
                      disabled=bool(reason))]
    if reason:
        footer.append(labelled(ft.Text(reason, size=15, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2,
                                       overflow=ft.TextOverflow.ELLIPSIS), "save-reason"))
    return out, footer


def exact_grid(s: AppState) -> list[ft.Control]:
    tr, match, d = s.tr, s.match, s.draft
    names = s.side_names
    tiles = []
    for c in d.scoring_cards():
        holder = d.held.get(c)
        who = names[holder] if holder is not None else tr("entry.nobody")
        tiles.append(playing_card(c, holder, lambda _e=None, c=c: s.draft_tap("tap_card", c),
                                  tr("entry.card_label", card=c.label, side=who), f"card-{c.code}"))
    counts = []
    for i in range(len(names)):
        held = [c for c, side in d.held.items() if side == i]
        counting = sum(1 for c in held if match.rules.is_counting(c))
        counts.append(ft.Text(tr("entry.exact_count", side=names[i], n=counting), color=SIDE_COLORS[i], size=15,
                              weight=ft.FontWeight.W_600))
    problems = [problem(text) for p, text in s.entry_problems() if p.field == "held"]
    return [section(tr("entry.exact_title"), ft.Row(tiles, wrap=True, spacing=6, run_spacing=6),
                    ft.Row(counts, wrap=True, spacing=12), *problems, note=tr("entry.exact_note"), ident="exact-grid")]


# --- rules and settings -------------------------------------------------------------------------
def rules_screen(s: AppState) -> list[ft.Control]:
    tr = s.tr
    out: list[ft.Control] = [header(s, tr("nav.rules"))]
    choices = []
    if s.match:
        choices.append(pill(tr("rules.this_match"), s.rules_shown == "current", lambda: s.show_rules_of("current"),
                            "rules-current", size=14))
    choices += [pill(tr(f"rules.{n}.title"), s.rules_shown == n, lambda _e=None, n=n: s.show_rules_of(n), f"rules-{n}", size=14)
                for n in preset_names()]
    out.append(ft.Row(choices, wrap=True, spacing=6, run_spacing=6))
    rules = s.shown_rules()
    if s.rules_shown != "current":
        out.append(suit_text(tr(f"rules.{rules.name}.description"), size=15, weight=ft.FontWeight.NORMAL))
    lines = []
    for line in rules_text(rules, tr):
        words = suit_text(line, size=16, weight=ft.FontWeight.NORMAL)
        words.expand = True  # wrap within the card instead of running off it
        lines.append(ft.Row([ft.Text("•", size=16), words], vertical_alignment=ft.CrossAxisAlignment.START))
    out.append(card(*lines, ident="rules-text"))
    return out


def settings_screen(s: AppState) -> list[ft.Control]:
    tr = s.tr
    out: list[ft.Control] = [header(s, tr("nav.settings"))]
    out.append(section(tr("settings.language"), ft.Row([
        pill(name, s.lang == code, lambda _e=None, code=code: s.set_language(code), f"lang-{code}", expand=True)
        for code, name in LANGUAGES.items()], spacing=6)))
    out.append(section(tr("settings.theme"), ft.Row([
        pill(tr(f"settings.theme.{k}"), s.theme == k, lambda _e=None, k=k: s.set_theme(k), f"theme-{k}", expand=True, size=15)
        for k in THEMES], spacing=6)))
    out.append(toggle(tr("settings.keep_awake"), s.keep_awake, lambda e: s.set_keep_awake(e.control.value),
                      "keep-awake"))
    out.append(ft.Text(tr("settings.data_folder", folder=str(getattr(s.store, "folder", ""))), size=13,
                       color=ft.Colors.ON_SURFACE_VARIANT, selectable=True))
    return out
