"""The hand entry: what the table captured, checked as it is tapped in, saved against the version of
the match the form was opened on."""

from __future__ import annotations

from ...engine.cards import Card, parse_card
from ...engine.entry import EntryField, Problem
from ...engine.live import TapKind
from ...engine.match import MatchOver
from ...i18n.explain import problem_text
from ...service import MatchRecord, Revision, StaleWrite
from .draft import TIE, EntryDraft
from .session import Screen, Session, Tone, ViewModel, intent

__all__ = ["EntryModel", "TIE"]


class EntryModel(ViewModel):
    """The form of one hand: a new hand, or a recorded one being edited."""

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
        session.on_home.append(self._close)

    # --- opening and closing ---------------------------------------------------------------------------
    def open_new(self, record: MatchRecord) -> None:
        match = record.match
        seat_sides = [seat.side for seat in match.seats]
        xeris, jacks = record.live.per_side(seat_sides, len(match.sides))
        self.draft = EntryDraft(len(match.sides), match.rules, xeris=list(xeris), jack_xeris=list(jacks))
        self.editing, self.based_on, self.hand_number = None, record.revision, len(match.hands) + 1
        self.session.go(Screen.ENTRY)

    def open_edit(self, record: MatchRecord, index: int) -> None:
        if not 0 <= index < len(record.match.hands):
            return
        self.draft = EntryDraft.from_entry(record.match.hands[index], record.match.rules)
        self.editing, self.based_on, self.hand_number = index, record.revision, index + 1
        self.app.table.opened = None
        self.session.go(Screen.ENTRY)

    def _close(self) -> None:
        self.draft, self.editing, self.based_on = None, None, None

    def on_match_changed(self, record: MatchRecord) -> None:
        """Another phone changed the match while this form is open: say so where the person looks."""
        if self.draft is not None and self.session.screen is Screen.ENTRY and record.revision != self.based_on:
            self.session.say("notice.changed_elsewhere", Tone.PROBLEM)

    # --- what the screen shows -------------------------------------------------------------------------
    @property
    def record(self) -> MatchRecord | None:
        return self.app.table.record

    @property
    def names(self) -> list[str]:
        return self.app.table.side_names

    @property
    def title(self) -> str:
        if self.editing is not None:
            return self.tr("entry.edit_title", n=self.hand_number)
        return self.tr("entry.title", n=self.hand_number)

    @property
    def rules(self):
        return self.draft.rules

    def problems(self) -> list[tuple[Problem, str]]:
        """The hand's problems so far, each with its sentence."""
        if not self.draft:
            return []
        return [(p, problem_text(p, self.names, self.tr)) for p in self.draft.problems()]

    def problems_for(self, *fields: EntryField | str) -> list[tuple[str, str]]:
        """(code, sentence) of the problems pointing at these fields."""
        wanted = {EntryField(f) for f in fields}
        return [(p.code.value, text) for p, text in self.problems() if p.field in wanted]

    def other_problems(self) -> list[str]:
        shown = {EntryField.CARDS, EntryField.MOST_CARDS, EntryField.COUNTING, EntryField.TEN_OF_DIAMONDS,
                 EntryField.TWO, EntryField.XERIS, EntryField.JACK_XERIS, EntryField.HELD}
        return [text for p, text in self.problems() if p.field not in shown]

    def save_reason(self) -> str | None:
        """Why Save is disabled, in words; None when the hand can be saved."""
        if not self.draft:
            return None
        missing = self.draft.missing()
        if missing:
            return self.tr(missing[0], card=self.draft.rules.two.label)
        problems = self.problems()
        return problems[0][1] if problems else None

    def counting_title(self) -> str:
        rules = self.draft.rules
        return self.tr("entry.counting", ranks=" ".join(r.value for r in rules.counting_ranks),
                       total=rules.counting_cards_in_deck)

    def counting_status(self, side: int) -> str:
        value = self.draft.counting.values[side]
        if value is None:
            return "–"
        return self.tr("entry.auto_value", n=value) if self.draft.counting.is_auto(side) else str(value)

    def two_label(self) -> str:
        return self.draft.rules.two.label

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

    # --- taps ----------------------------------------------------------------------------------------
    def _tapped(self) -> None:
        self.session.notice = None

    @intent
    def set_most(self, side: int) -> None:
        """Who has most cards (`TIE` for a tie)."""
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
    def set_counting(self, side: int, n: int) -> None:
        self.draft.set_counting(side, n)
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
    def step(self, kind: TapKind | str, side: int, delta: int) -> None:
        """One more (+1) or one fewer (-1) xeri or jack xeri for a side."""
        if TapKind(kind) is TapKind.XERI:
            self.draft.step_xeris(side, delta)
        else:
            self.draft.step_jack_xeris(side, delta)
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
        """Back to the scoreboard; the form is dropped."""
        self._close()
        self.session.back()
        if self.session.screen is Screen.ENTRY:
            self.session.screen = Screen.MATCH

    def recover(self, exc: Exception) -> bool:
        if isinstance(exc, StaleWrite):
            # Nothing typed is lost: the form stays as it is, the scoreboard behind it is brought up to date.
            self.app.table.record = exc.current
            self.session.say("notice.stale_entry", Tone.PROBLEM)
            return True
        return super().recover(exc)

    @intent(writes=True)
    def save(self) -> None:
        """Save the hand (or the edit) against the version of the match the form was opened on."""
        if not self.draft or not self.record:
            return
        entry = self.draft.entry()
        reason = self.save_reason()
        if entry is None or reason:
            self.session.say("notice.plain", Tone.PROBLEM, text=reason)
            return
        table = self.services.table
        try:
            if self.editing is None:
                record = table.record_hand(self.record.id, entry, expected=self.based_on)
                index = len(record.match.hands) - 1
            else:
                index = self.editing
                record = table.edit_hand(self.record.id, index, entry, expected=self.based_on)
        except MatchOver as exc:
            if self.editing is None:
                raise
            self.session.say("notice.edit_ends_match", Tone.PROBLEM, hand=exc.decided_at + 1)
            return
        self._close()
        self.app.table.saved(record, index)
        s = self.session
        s.screen = Screen.MATCH
        if s.trail and s.trail[-1] is Screen.MATCH:
            s.trail.pop()
        s.notice = None
