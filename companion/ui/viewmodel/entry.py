"""The hand entry: what the table captured, checked as it is tapped in, previewed, and saved against the
version of the match the form was opened on."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.cards import TEN_OF_DIAMONDS, Card, parse_card
from ...engine.entry import EntryField, HandEntry, InvalidHand, Problem
from ...engine.live import Tap, TapKind
from ...engine.match import MatchError, MatchOver, edit_hand, record_hand, standing
from ...engine.names import shown_player
from ...engine.scoring import score_hand
from ...i18n.explain import join_names, problem_text
from ...service import MatchRecord, Revision, StaleWrite
from .draft import TIE, TYPED, EntryDraft
from .session import Detail, Screen, Session, Tone, ViewModel, intent

__all__ = ["EntryModel", "TIE"]


@dataclass(frozen=True)
class Preview:
    """The hand's points as entered so far, before Save."""

    text: str
    """`Anna 26 → 92 · Ben 9 → 88 · Anna wins the hand`."""
    points: tuple[int, ...]


@dataclass(frozen=True)
class XeriRow:
    """One row of xeri steppers: a player's (partnerships) or a side's."""

    index: int
    """What the steppers step: the seat, or the side."""
    name: str
    side: int
    """The side, for its colour."""
    xeris: int
    jack_xeris: int


class EntryModel(ViewModel):
    """The form of one hand: a new hand, or a recorded one being edited.

    Going back keeps what was typed: End hand on the same hand brings it back (the xeris follow the
    live taps until they are changed on the form).
    """

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.draft: EntryDraft | None = None
        self.editing: int | None = None
        """The hand being edited (from 0), or None for a new hand."""
        self.based_on: Revision | None = None
        """The version of the match the form was opened on: the save is refused if it moved on."""
        self.hand_number = 0
        """The number (from 1) of the hand this form enters."""
        self.counting_side = 0
        """The side whose counting cards the number picker sets."""
        self.xeris_open = False
        """Whether the xeri steppers are shown (they are folded away while the live taps fill them in)."""
        self.stale: MatchRecord | None = None
        """The match as another phone left it, once a save was refused: the form offers to discard or reopen."""
        self.reopened: HandEntry | None = None
        """The hand as it was saved, when this form reopened it (Undo last hand): Save puts it back, as it was or
        corrected; Discard leaves it out."""
        self._kept: tuple[str, int, EntryDraft, HandEntry | None] | None = None
        session.on_home.append(self._close)

    # --- opening and closing ---------------------------------------------------------------------------
    def open_new(self, record: MatchRecord) -> None:
        match = record.match
        number = len(match.hands) + 1
        kept = self._kept
        reopened = None
        if kept is not None and kept[:2] == (record.id, number):
            self.draft, reopened = kept[2], kept[3]
            if not self.draft.xeris_touched:
                self._fill_xeris(record)
        else:
            # In a partnership each xeri is a player's: the form gives them per player, so a correction names
            # who made it and the player page's own figures add up to the team's.
            seats = tuple(seat.side for seat in match.seats) if match.rules.partnerships else ()
            self.draft = EntryDraft(len(match.sides), match.rules, seat_sides=seats)
            self._fill_xeris(record)
        self._kept = None
        self.editing, self.based_on, self.hand_number, self.stale = None, record.revision, number, None
        self.reopened = reopened
        self.counting_side = self._next_counting_side(0)
        self.xeris_open = False
        self.session.go(Screen.ENTRY)

    def open_undone(self, record: MatchRecord, entry: HandEntry) -> None:
        """The hand just undone (`entry`, as it was saved), open again as the hand in progress: filled in as
        saved, its live taps back on the scoreboard (the xeris follow them while they say the same)."""
        self._kept = None
        self.draft = self._draft_of(record, entry, record.live.taps)
        if self.draft.per_player:
            seats = range(len(record.match.seats))
            self.draft.xeris_touched = (self.draft.seat_xeris, self.draft.seat_jack_xeris) != (
                [record.live.count(s, TapKind.XERI) for s in seats],
                [record.live.count(s, TapKind.JACK_XERI) for s in seats])
        else:
            sides = [seat.side for seat in record.match.seats]
            self.draft.xeris_touched = record.live.per_side(sides, len(record.match.sides)) != (
                tuple(entry.xeris), tuple(entry.jack_xeris))
        self.editing, self.based_on, self.stale = None, record.revision, None
        self.hand_number, self.reopened = len(record.match.hands) + 1, entry
        self.counting_side, self.xeris_open = 0, self.draft.xeris_touched
        self.session.go(Screen.ENTRY)

    @staticmethod
    def _draft_of(record: MatchRecord, entry: HandEntry, taps: tuple[Tap, ...] | None) -> EntryDraft:
        """A form filled in with `entry`; in a partnership per player where `taps` say who made its xeris."""
        draft = EntryDraft.from_entry(entry, record.match.rules)
        if record.match.rules.partnerships and taps is not None:
            # Per player when the hand's saved taps say who made each of its xeris; a hand saved before the
            # app kept that (or imported) is corrected per side, as it was entered.
            seats = tuple(seat.side for seat in record.match.seats)
            x = [sum(1 for t in taps if t.seat == s and t.kind is TapKind.XERI) for s in range(len(seats))]
            j = [sum(1 for t in taps if t.seat == s and t.kind is TapKind.JACK_XERI) for s in range(len(seats))]
            by_player = EntryDraft(len(record.match.sides), record.match.rules, seat_sides=seats,
                                   seat_xeris=x, seat_jack_xeris=j)
            if (by_player.xeris, by_player.jack_xeris) == (list(entry.xeris), list(entry.jack_xeris)):
                draft.seat_sides, draft.seat_xeris, draft.seat_jack_xeris = seats, x, j
        return draft

    def _fill_xeris(self, record: MatchRecord) -> None:
        match = record.match
        if self.draft.per_player:
            seats = range(len(match.seats))
            self.draft.set_seat_counts([record.live.count(s, TapKind.XERI) for s in seats],
                                       [record.live.count(s, TapKind.JACK_XERI) for s in seats])
            return
        xeris, jacks = record.live.per_side([seat.side for seat in match.seats], len(match.sides))
        self.draft.xeris, self.draft.jack_xeris = list(xeris), list(jacks)

    def open_edit(self, record: MatchRecord, index: int) -> None:
        if not 0 <= index < len(record.match.hands):
            return
        self.draft = self._draft_of(record, record.match.hands[index], record.taps_of(index))
        self.reopened = None
        self.editing, self.based_on, self.hand_number, self.stale = index, record.revision, index + 1, None
        self.counting_side, self.xeris_open = 0, True
        self.app.scoreboard.opened = None
        self.session.go(Screen.ENTRY)

    def _to_scoreboard(self) -> None:
        """The form closed, back where the person came from: the scoreboard."""
        self._close()
        self.session.back()
        if self.session.screen is Screen.ENTRY:
            self.session.screen = Screen.SCOREBOARD

    def _close(self) -> None:
        self.draft, self.editing, self.based_on, self.stale, self.reopened = None, None, None, None, None

    def on_match_changed(self, record: MatchRecord) -> None:
        """Another phone changed the match while this form is open: the form says so at once, above its
        buttons, and offers to discard it or go on from the match as it is now (a save would be refused)."""
        if self.draft is None or self.session.screen is not Screen.ENTRY or record.revision == self.based_on:
            return
        before, now = self.based_on, record.revision
        if (self.editing is None and before is not None and self.stale is None
                and (before.hands, before.hand_taps, before.changes, before.abandoned)
                == (now.hands, now.hand_taps, now.changes, now.abandoned)):
            # Only taps of the hand being entered: the xeris follow them until changed here by hand (then they
            # stay as the person set them, and the form says so, with a way back to the taps).
            self.based_on = now
            if not self.draft.xeris_touched:
                self._fill_xeris(record)
            return
        self.stale = record
        self.session.notice = None

    # --- what the screen shows -------------------------------------------------------------------------
    @property
    def record(self) -> MatchRecord | None:
        return self.app.scoreboard.record

    @property
    def names(self) -> list[str]:
        return self.app.scoreboard.side_names

    @property
    def title(self) -> str:
        if self.editing is not None:
            return self.tr("entry.edit_title", n=self.hand_number)
        return self.tr("entry.title", n=self.hand_number)

    def problems(self) -> list[tuple[Problem, str]]:
        """The hand's problems so far, each with its sentence."""
        if not self.draft:
            return []
        return [(p, problem_text(p, self.names, self.tr)) for p in self.draft.problems()]

    def flagged(self, field: EntryField | str) -> set[int | None]:
        """The sides a problem points at in this field (None: the field as a whole)."""
        wanted = EntryField(field)
        return {p.side for p, _ in self.problems() if p.field is wanted}

    def save_reason(self) -> str | None:
        """Why Save is disabled, in words; None when the hand can be saved."""
        if not self.draft:
            return None
        missing = self.draft.missing()
        if missing and missing[0] == TYPED:
            return self.typed_problem()
        if missing:
            return self.tr(missing[0], card=self.draft.rules.two.label)
        problems = self.problems()
        return problems[0][1] if problems else None

    def typed_problem(self) -> str | None:
        """Why a typed number of captured cards is not taken, naming the field it was typed in."""
        found = self.draft.cards.problem() if self.draft else None
        if found is None:
            return None
        key, values = found
        names = self.names
        if "sides" in values:
            return self.tr(key, sides=join_names([names[s] for s in values["sides"]], self.tr), n=values["n"],
                           total=values["total"])
        return self.tr(key, **{**values, "side": names[values["side"]]})

    def problems_line(self) -> str:
        """The first problem in words, and how many more there are."""
        problems = self.problems()
        more = len(problems) - 1
        return problems[0][1] + (" " + self.tr.n("entry.more_problems", more) if more else "")

    @intent
    def show_problems(self) -> None:
        """Every problem of the hand, in full, over the screen."""
        text = "\n\n".join(text for _, text in self.problems())
        self.session.detail = Detail(self.tr("entry.problems_title"), text, ident="problems")

    @intent
    def show_preview(self) -> None:
        """The hand's preview in full, over the screen."""
        preview = self.preview()
        if preview is not None:
            self.session.detail = Detail(self.title, preview.text, ident="preview")

    def preview(self) -> Preview | None:
        """The points of the hand as entered, with each side's total after it; None until it can be scored."""
        draft, record = self.draft, self.record
        entry = draft.entry() if draft else None
        if entry is None or record is None:
            return None
        try:
            score = score_hand(entry, draft.rules, draft.sides)
        except InvalidHand:
            return None
        tr, st = self.tr, self.app.scoreboard.standing
        # One arrow meaning everywhere: old → new, with the words hand and total (the arrow meant hand points →
        # total for a new hand, old hand → new hand in an edit, and said "20 → 20" where nothing changed).
        if self.editing is None:
            parts = [tr("entry.preview_side", side=name, points=p, before=t, total=t + p)
                     for name, p, t in zip(self.names, score.points, st.totals)]
        else:
            before = st.scores[self.editing].points if self.editing < len(st.scores) else score.points
            parts = [tr("entry.preview_edit", side=name, before=b, points=p, total_before=t, total=t - b + p)
                     if b != p else tr("entry.preview_same", side=name, points=p, total=t)
                     for name, b, p, t in zip(self.names, before, score.points, st.totals)]
        winner = (tr("entry.preview_winner", side=self.names[score.winner]) if score.winner is not None
                  else tr("entry.preview_tie"))
        # What the hand does first: two lines at 360 px cut the end, and it hid that this hand ends the match.
        return Preview((self._what_it_does(entry, st) or winner) + " — " + " · ".join(parts), score.points)

    def _what_it_does(self, entry, before) -> str | None:
        """What saving this hand does to the match, when it does more than add points: it ends the match
        (and who wins it), or two sides pass the target together and it is played on to the next."""
        match = self.record.match
        try:
            changed = record_hand(match, entry) if self.editing is None else edit_hand(match, self.editing, entry)
            after = standing(changed)
        except (InvalidHand, MatchError):
            return None
        tr = self.tr
        if after.is_over and not before.is_over:
            if after.winner is None:
                return tr("entry.preview_match_drawn")
            side = match.sides[after.winner]
            return tr("entry.preview_match_won.team" if side.players else "entry.preview_match_won", side=side.name)
        if after.extensions > before.extensions:
            return tr("entry.preview_extension", first=before.target, target=after.target)
        return None

    def counting_title(self) -> str:
        rules = self.draft.rules
        return self.tr("entry.counting", ranks=" ".join(r.value for r in rules.counting_ranks),
                       total=rules.counting_cards_in_deck)

    def counting_status(self, side: int) -> str:
        """A side's counting cards in words: the number, or `11 (filled in)` for the side worked out."""
        value = self.draft.counting.values[side]
        if value is None:
            return "–"
        return self.tr("entry.auto_value", n=value) if self.draft.counting.is_auto(side) else str(value)

    def counting_range(self) -> range:
        return range(self.draft.rules.counting_cards_in_deck + 1)

    def two_label(self) -> str:
        return self.draft.rules.two.label

    def ten_label(self) -> str:
        return TEN_OF_DIAMONDS.label

    def xeri_rows(self) -> list[XeriRow]:
        """The xeri steppers: one row per player when the form gives xeris per player (a partnership), else
        one per side."""
        d = self.draft
        if d.per_player:
            seats = self.record.match.seats
            return [XeriRow(i, seat.player, seat.side, d.seat_xeris[i], d.seat_jack_xeris[i])
                    for i, seat in enumerate(seats)]
        return [XeriRow(i, name, i, d.xeris[i], d.jack_xeris[i]) for i, name in enumerate(self.names)]

    def xeris_summary(self) -> str:
        """The xeris in one line, while the steppers are folded away."""
        tr, per_player = self.tr, self.draft.per_player
        parts = [tr("entry.xeris_of_side", side=shown_player(row.name) if per_player else row.name, counts=", ".join(
                    tr.n(key, n) for key, n in (("entry.xeri_count", row.xeris), ("entry.jack_xeri_count",
                                                                                 row.jack_xeris)) if n))
                 for row in self.xeri_rows() if row.xeris or row.jack_xeris]
        return " · ".join(parts) if parts else tr("entry.no_xeris")

    def exact_cards(self) -> list[tuple[Card, int | None, str]]:
        """Exact mode: each counting and special card, the side holding it, and its label for screen readers."""
        out = []
        for c in self.draft.scoring_cards():
            holder = self.draft.held.get(c)
            who = self.names[holder] if holder is not None else self.tr("entry.nobody")
            out.append((c, holder, self.tr("entry.card_label", card=c.label, side=who)))
        return out

    def exact_counts(self) -> list[str]:
        rules = self.draft.rules
        return [self.tr("entry.exact_count", side=name,
                        n=sum(1 for c, s in self.draft.held.items() if s == i and rules.is_counting(c)))
                for i, name in enumerate(self.names)]

    @property
    def dealer_last_reminder(self) -> bool:
        return bool(self.draft and self.draft.rules.dealer_last_card_no_xeri)

    def stale_line(self) -> str | None:
        """Why the save was refused, when another phone changed the match meanwhile."""
        if self.stale is None:
            return None
        saved = len(self.stale.match.hands)
        if self.editing is None and saved >= self.hand_number:
            return self.tr("entry.stale_saved", n=self.hand_number)
        replaced = self._replaced(self.stale.revision)
        if replaced is not None:
            return self.tr("entry.stale_replaced", n=replaced + 1)
        return self.tr("entry.stale_changed")

    def _replaced(self, now: Revision) -> int | None:
        """The hand the group's version replaced since the form opened (nothing undone or edited), if that
        is what changed."""
        before = self.based_on
        if before is None or now.changes != before.changes or len(now.hands) != len(before.hands):
            return None
        return next((i for i, (a, b) in enumerate(zip(before.hands, now.hands)) if a != b), None)

    def reopen_label(self) -> str:
        if self.stale is not None and self.editing is None:
            return self.tr("entry.reopen", n=len(self.stale.match.hands) + 1)
        return self.tr("entry.reopen_same")

    # --- taps ----------------------------------------------------------------------------------------
    def _tapped(self) -> None:
        self.session.notice = None

    def _next_counting_side(self, after: int) -> int:
        """The next side (from `after`) whose count is not yet given: picking fills in the sides in turn."""
        counting, n = self.draft.counting, self.draft.sides
        for k in range(n):
            side = (after + k) % n
            if side not in counting.order and not counting.is_auto(side):
                return side
        return after % n

    @intent
    def set_most(self, side: int) -> None:
        """Who has most cards (`TIE` for a tie). Over captured cards already typed: kept when they say the
        same, else asked before they are forgotten."""
        d = self.draft
        if d.show_counts and d.cards.order:
            if d.majority() == side:
                self._tapped()
                return
            counts = " · ".join(f"{self.names[s]} {d.cards.shown(s)}" for s in range(d.sides) if d.cards.shown(s))
            self.session.ask("confirm.drop_counts", lambda: self._set_most(side), ident="confirm-drop-counts",
                             counts=counts)
            return
        self._set_most(side)

    def _set_most(self, side: int) -> None:
        self.draft.set_most(side)
        self._tapped()

    @intent
    def type_cards(self, side: int, text: str) -> None:
        """The exact number of captured cards of a side, as typed."""
        self.draft.type_cards(side, text)
        self._tapped()

    @intent
    def toggle_counts(self) -> None:
        self.draft.show_counts = not self.draft.show_counts
        if not self.draft.show_counts:
            self.draft.cards.clear()

    @intent
    def pick_counting_side(self, side: int) -> None:
        """Which side's counting cards the number picker sets."""
        self.counting_side = side

    @intent
    def set_counting(self, side: int, n: int) -> None:
        """`n` counting cards for `side`; with more than two sides the picker moves on to the next side."""
        self.draft.set_counting(side, n)
        if self.draft.sides > 2:
            self.counting_side = self._next_counting_side(side + 1)
        self._tapped()

    @intent
    def set_ten(self, side: int) -> None:
        self.draft.set_ten(side)
        self._tapped()

    @intent
    def set_two(self, side: int) -> None:
        self.draft.set_two(side)
        self._tapped()

    @intent
    def open_xeris(self) -> None:
        self.xeris_open = True

    @intent
    def step(self, kind: TapKind, index: int, delta: int) -> None:
        """One more (+1) or one fewer (-1) xeri or jack xeri for a side, or for a player (`index` a seat) when
        the form gives them per player (a partnership)."""
        if self.draft.per_player:
            self.draft.step_seat(kind is TapKind.JACK_XERI, index, delta)
        elif kind is TapKind.XERI:
            self.draft.step_xeris(index, delta)
        else:
            self.draft.step_jack_xeris(index, delta)
        self.xeris_open = True
        self._tapped()

    @intent
    def set_exact(self, exact: bool) -> None:
        self.draft.exact = bool(exact)

    @intent
    def tap_card(self, code: str) -> None:
        """Exact mode: give the card to the next side."""
        self.draft.tap_card(parse_card(code))
        self._tapped()

    @intent
    def leave(self) -> None:
        """Back to the scoreboard; what was typed for a new hand is kept for End hand."""
        if self.draft is not None and self.editing is None and self.record is not None and self.stale is None:
            self._kept = (self.record.id, self.hand_number, self.draft, self.reopened)
        self._to_scoreboard()

    @intent
    def use_taps(self) -> None:
        """The xeris from the live taps again, after they were changed here by hand."""
        if self.draft is not None and self.record is not None and self.editing is None:
            self.draft.xeris_touched = False
            self._fill_xeris(self.record)

    def xeris_note(self) -> str:
        """Where the xeris come from: the live taps, or this form (then the taps no longer change them)."""
        if self.editing is None and self.draft is not None and self.draft.xeris_touched:
            return self.tr("entry.xeris_changed")
        return self.tr("entry.xeris_note")

    @intent
    def discard(self) -> None:
        """Drop this form (after another phone saved first) and go back to the scoreboard."""
        self._kept = None
        self._to_scoreboard()

    def forget(self, match_id: str) -> None:
        """What was typed for the hand in progress of `match_id` is gone (the hand was put back by Redo)."""
        if self._kept is not None and self._kept[0] == match_id:
            self._kept = None

    def reopened_line(self) -> str | None:
        """What the form is, when it reopened a hand just undone."""
        if self.reopened is None or self.stale is not None:
            return None
        return self.tr("entry.reopened", n=self.hand_number)

    @intent(writes=True)
    def discard_reopened(self) -> None:
        """Leave the reopened hand out: its live taps are taken back (against the match as this form showed it),
        and the scoreboard is on the hand in progress, where Redo can still put the hand back."""
        if self.reopened is None or self.record is None:
            return
        record = self.services.table.clear_taps(self.record.id, expected=self.based_on)
        n = self.hand_number
        self._kept = None
        self.app.scoreboard.discarded(record)
        self._to_scoreboard()
        self.session.say("notice.discarded", n=n)

    @intent
    def reopen(self) -> None:
        """Go on from the match as it is now: the same hand with the taps made meanwhile, or the next hand."""
        current = self.stale or self.record
        self.stale = None
        if current is None:
            return
        self.app.scoreboard.record = current
        if self.editing is not None:
            self.based_on = current.revision
        elif len(current.match.hands) + 1 == self.hand_number:
            self.based_on = current.revision          # the same hand: keep what was typed, take the new taps
            if not self.draft.xeris_touched:
                self._fill_xeris(current)
        else:   # another phone saved this hand: on to the scoreboard of the hand in progress, where its taps
            self._kept = None   # are made (an empty entry opened for a hand nobody had played yet)
            self._to_scoreboard()
        self.session.notice = None

    def recover(self, exc: Exception) -> bool:
        if isinstance(exc, StaleWrite):
            # Nothing typed is lost: the form stays as it is and offers to discard it or go on from the
            # match as it is now; the scoreboard behind it is brought up to date.
            self.stale = exc.current
            self.app.scoreboard.record = exc.current
            self.session.notice = None      # the strip says it (`stale_line`), above Discard and Reopen
            return True
        return super().recover(exc)

    def _taps(self):
        """Who made each xeri of the hand as the form says it (the live taps, corrected), kept with the hand;
        None where the form cannot say (a partnership hand corrected per side)."""
        d, record = self.draft, self.record
        if record.match.rules.partnerships and not d.per_player:
            return None
        live = record.live.taps if self.editing is None else (record.taps_of(self.editing) or ())
        return d.seat_taps(live)

    @intent(writes=True)
    def save(self) -> None:
        """Save the hand (or the edit) against the version of the match the form was opened on."""
        if not self.draft or not self.record or self.stale is not None:
            return
        entry = self.draft.entry()
        reason = self.save_reason()
        if entry is None or reason:
            self.session.say("notice.plain", Tone.PROBLEM, text=reason)
            return
        table = self.services.table
        before = None
        try:
            if self.editing is None:
                record = table.record_hand(self.record.id, entry, expected=self.based_on, taps=self._taps())
                index = len(record.match.hands) - 1
            else:
                index = self.editing
                before = self.app.scoreboard.standing.scores[index].points
                record = table.edit_hand(self.record.id, index, entry, expected=self.based_on, taps=self._taps())
        except MatchOver as exc:
            if self.editing is None:
                raise
            self.session.say("notice.edit_ends_match", Tone.PROBLEM, hand=exc.decided_at + 1)
            return
        self._kept = None
        self._close()
        self.app.scoreboard.saved(record, index, before)
        s = self.session
        s.screen = Screen.SCOREBOARD
        if s.trail and s.trail[-1] is Screen.SCOREBOARD:
            s.trail.pop()
        s.notice = None
