"""The hand being entered: what the form holds between taps, and what it still needs before Save."""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass, field

from ...engine.cards import DECK_SIZE, Card
from ...engine.entry import HandEntry, Problem, ProblemCode, validate_hand
from ...engine.live import Tap, TapKind
from ...engine.rules import RuleSet
from ...engine.tally import unique_leader

TIE = -1
"""`most` value meaning the table says most cards are tied."""
TYPED = "entry.count"
"""What `EntryDraft.missing` says when a typed number cannot be taken: `Filled.problem` says why."""
KEPT_TYPING = 12
"""What a number field keeps of what is typed: enough to show it back, never a pasted book."""


def is_count(text: str) -> bool:
    """True for a count as typed: ASCII digits only (`²` and `٣` are digits to Python, not to `int`), and no
    longer than a deck's 52 needs, so the number stays small whatever is pasted."""
    return text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 3


@dataclass
class Filled:
    """Numbers per side where the side set least recently is filled in from the total."""

    total: int
    values: list[int | None]
    order: list[int] = field(default_factory=list)
    """Sides the user set, oldest first; at most all but one, so one side is always filled in."""
    texts: dict[int, str] = field(default_factory=dict)
    """What was typed in the field of each side the user set, exactly as typed. The form shows it
    back unchanged: Flet compares a redraw with the field's own value, so echoing the typing sends
    nothing, while anything else would overwrite what the user is typing."""

    def set(self, side: int, value: int) -> None:
        self.values[side] = value
        self.texts[side] = str(value)
        if side in self.order:
            self.order.remove(side)
        self.order.append(side)
        n = len(self.values)
        while len(self.order) > n - 1:
            self.texts.pop(self.order.pop(0), None)
        self._fill()

    def type(self, side: int, text: str) -> None:
        """Text typed in the field of `side`; a whole number up to the total sets it, anything else is kept as
        typed and not taken (`problem` says why); an emptied field is not given."""
        text = (text or "").strip()[:KEPT_TYPING]
        if not text:
            self.unset(side)
            return
        if is_count(text) and int(text) <= self.total:
            self.set(side, int(text))
        else:
            self.set(side, 0)  # keeps the order of what was set; the number is not taken (see `problem`)
            self.values[side] = None
            self._fill()
        self.texts[side] = text

    def unset(self, side: int) -> None:
        """The side's number is not given any more (its field was emptied)."""
        if side in self.order:
            self.order.remove(side)
        self.texts.pop(side, None)
        self._fill()

    def problem(self) -> tuple[str, dict] | None:
        """Why what was typed cannot be taken, naming the field typed in (never the one filled in from it):
        (catalog key, values) with `side` (a side) or `sides` (the sides typed), else None."""
        for side, text in self.texts.items():
            if not is_count(text):
                return "entry.count.not_number", {"side": side, "text": text, "total": self.total}
            if int(text) > self.total:
                return "entry.count.over", {"side": side, "n": int(text), "total": self.total}
        typed = [s for s in self.order if self.values[s] is not None]
        if sum(self.values[s] for s in typed) > self.total:
            return "entry.count.sum_over", {"sides": typed, "n": sum(self.values[s] for s in typed),
                                            "total": self.total}
        return None

    def bad(self) -> list[int]:
        """The sides whose typed number `problem` refuses."""
        found = self.problem()
        if found is None:
            return []
        return found[1]["sides"] if "sides" in found[1] else [found[1]["side"]]

    def clear(self) -> None:
        self.values = [None] * len(self.values)
        self.order = []
        self.texts = {}

    def shown(self, side: int) -> str:
        """What the field of `side` shows: what was typed there, or the filled-in number."""
        if side in self.texts:
            return self.texts[side]
        return "" if self.values[side] is None else str(self.values[side])

    def _fill(self) -> None:
        n = len(self.values)
        if len(self.order) == n - 1:
            auto = next(s for s in range(n) if s not in self.order)
            known = [self.values[s] for s in self.order]
            rest = None if None in known else self.total - sum(known)
            self.values[auto] = rest if rest is not None and rest >= 0 else None   # never a negative stand-in
        else:
            for s in range(n):
                if s not in self.order:
                    self.values[s] = None

    def is_auto(self, side: int) -> bool:
        """True for the side whose number was filled in."""
        return side not in self.order and self.values[side] is not None

    @property
    def complete(self) -> bool:
        return all(v is not None for v in self.values)


@dataclass
class EntryDraft:
    """The hand-entry form: who has most cards, counting cards, special cards, xeris, or exact mode."""

    sides: int
    rules: RuleSet
    most: int | None = None
    """A side, `TIE`, or None while not said (ignored when exact card counts are given)."""
    cards: Filled | None = None
    counting: Filled | None = None
    ten: int | None = None
    two: int | None = None
    xeris: list[int] = field(default_factory=list)
    jack_xeris: list[int] = field(default_factory=list)
    exact: bool = False
    held: dict[Card, int] = field(default_factory=dict)
    show_counts: bool = False
    """True when the table counted its piles and gives the exact numbers of cards."""
    xeris_touched: bool = False
    """True once the xeris were changed on the form (then the live taps no longer fill them in)."""
    seat_sides: tuple[int, ...] = ()
    """The side of each seat, when the xeris are given per player (a partnership: two players share a side,
    and each xeri is the player's own); empty when they are given per side."""
    seat_xeris: list[int] = field(default_factory=list)
    """Each player's xeris (with `seat_sides`); the side's are their sum."""
    seat_jack_xeris: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.cards is None:
            self.cards = Filled(DECK_SIZE, [None] * self.sides)
        if self.counting is None:
            self.counting = Filled(self.rules.counting_cards_in_deck, [None] * self.sides)
        if not self.xeris:
            self.xeris = [0] * self.sides
        if not self.jack_xeris:
            self.jack_xeris = [0] * self.sides
        if self.seat_sides:
            self.seat_xeris = self.seat_xeris or [0] * len(self.seat_sides)
            self.seat_jack_xeris = self.seat_jack_xeris or [0] * len(self.seat_sides)
            self._add_up()

    @property
    def per_player(self) -> bool:
        """True when the xeris are given per player (see `seat_sides`)."""
        return bool(self.seat_sides)

    def _add_up(self) -> None:
        self.xeris = [sum(n for n, s in zip(self.seat_xeris, self.seat_sides) if s == side)
                      for side in range(self.sides)]
        self.jack_xeris = [sum(n for n, s in zip(self.seat_jack_xeris, self.seat_sides) if s == side)
                           for side in range(self.sides)]

    def set_seat_counts(self, xeris: list[int], jack_xeris: list[int]) -> None:
        """Each player's xeris and jack xeris (from the live taps, or a hand's saved taps)."""
        self.seat_xeris, self.seat_jack_xeris = list(xeris), list(jack_xeris)
        self._add_up()

    def step_seat(self, jack: bool, seat: int, delta: int) -> None:
        """One more (or fewer) xeri or jack xeri for the player at `seat`: the correction names the player."""
        counts = self.seat_jack_xeris if jack else self.seat_xeris
        counts[seat] = max(0, counts[seat] + delta)
        self._add_up()
        self.xeris_touched = True

    def seat_taps(self, live: tuple[Tap, ...] = ()) -> tuple[Tap, ...]:
        """The hand's xeris as taps, one per xeri, each with the player who made it: the live taps as tapped,
        less those taken back on the form, plus those added there. Per side when not `per_player` (a side is
        one player)."""
        if self.per_player:
            wanted = {(seat, TapKind.XERI): n for seat, n in enumerate(self.seat_xeris)}
            wanted |= {(seat, TapKind.JACK_XERI): n for seat, n in enumerate(self.seat_jack_xeris)}
        else:
            wanted = {(side, TapKind.XERI): n for side, n in enumerate(self.xeris)}
            wanted |= {(side, TapKind.JACK_XERI): n for side, n in enumerate(self.jack_xeris)}
        out, seen = [], dict.fromkeys(wanted, 0)
        for tap in live:
            key = (tap.seat, tap.kind)
            if key in seen and seen[key] < wanted[key]:
                seen[key] += 1
                out.append(tap)
        for (seat, kind), n in wanted.items():
            out += [Tap(seat, kind)] * (n - seen[(seat, kind)])
        return tuple(out)

    @classmethod
    def from_entry(cls, entry: HandEntry, rules: RuleSet) -> EntryDraft:
        """A draft holding a recorded hand, for editing."""
        n = entry.sides
        draft = cls(n, rules, xeris=list(entry.xeris), jack_xeris=list(entry.jack_xeris))
        if entry.cards is not None:
            draft.show_counts = True
            for s in range(n - 1):
                draft.cards.set(s, entry.cards[s])
        else:
            draft.most = TIE if entry.most_cards is None else entry.most_cards
        if entry.held is not None:
            draft.exact = True
            draft.held = {c: s for s, cards in enumerate(entry.held) for c in cards}
        else:
            for s in range(n - 1):
                draft.counting.set(s, entry.counting[s])
            draft.ten, draft.two = entry.ten_of_diamonds, entry.two
        return draft

    # --- taps -----------------------------------------------------------------------------------
    def set_most(self, side: int) -> None:
        self.most = side
        if self.show_counts:
            self.show_counts = False
            self.cards.clear()

    def set_cards(self, side: int, value: int) -> None:
        self.show_counts = True
        self.cards.set(side, value)

    def type_cards(self, side: int, text: str) -> None:
        """The exact number of captured cards of a side, as typed."""
        self.show_counts = True
        self.cards.type(side, text)

    def set_counting(self, side: int, value: int) -> None:
        self.counting.set(side, value)

    def set_ten(self, side: int) -> None:
        """Say which side took the 10♦."""
        self.ten = side

    def set_two(self, side: int) -> None:
        """Say which side took the special two."""
        self.two = side

    def step_xeris(self, side: int, delta: int) -> None:
        self.xeris[side] = max(0, self.xeris[side] + delta)
        self.xeris_touched = True

    def step_jack_xeris(self, side: int, delta: int) -> None:
        self.jack_xeris[side] = max(0, self.jack_xeris[side] + delta)
        self.xeris_touched = True

    def tap_card(self, card: Card) -> None:
        """Exact mode: a tap gives the card to the next side, and after the last side takes it back."""
        side = self.held.get(card)
        nxt = 0 if side is None else side + 1
        if nxt >= self.sides:
            self.held.pop(card, None)
        else:
            self.held[card] = nxt

    # --- what it says ---------------------------------------------------------------------------
    def scoring_cards(self) -> list[Card]:
        """The cards shown in exact mode: counting and special cards, in rank order."""
        return sorted(self.rules.scoring_cards, key=lambda c: c.sort_key)

    def majority(self) -> int | None:
        """The side with most cards as things stand (TIE for a tie), or None while unknown."""
        if self.show_counts:
            if not self.cards.complete:
                return None
            leader = unique_leader(self.cards.values)
            return TIE if leader is None else leader
        return self.most

    def missing(self) -> list[str]:
        """What the form still needs, as i18n keys, in the order the table says it."""
        out = []
        if self.show_counts:
            if self.cards.problem() is not None:
                out.append(TYPED)
            elif not self.cards.complete:
                out.append("entry.missing.cards_number")
        elif self.majority() is None:
            out.append("entry.missing.most")
        if self.exact:
            return out
        if not self.counting.complete:
            out.append("entry.missing.counting")
        if self.ten is None:
            out.append("entry.missing.ten")
        if self.two is None:
            out.append("entry.missing.two")
        return out

    def entry(self) -> HandEntry | None:
        """The hand entry, once every fact is given (it may still be impossible: see `problems`)."""
        if self.missing():
            return None
        cards = tuple(self.cards.values) if self.show_counts else None
        most = None
        if cards is None:
            most = None if self.most == TIE else self.most
        common: dict[str, Any] = dict(xeris=tuple(self.xeris), jack_xeris=tuple(self.jack_xeris), cards=cards,
                                      most_cards=most)
        if self.exact:
            held = tuple(tuple(sorted((c for c, s in self.held.items() if s == side), key=lambda c: c.sort_key))
                         for side in range(self.sides))
            return HandEntry(held=held, **common)
        return HandEntry(counting=tuple(self.counting.values), ten_of_diamonds=self.ten, two=self.two, **common)

    def problems(self) -> tuple[Problem, ...]:
        """Every problem of the hand as entered so far (checks that need missing facts wait)."""
        entry = self.entry()
        if entry is not None:
            return validate_hand(entry, self.rules, self.sides)
        # Check what is there already: a partial entry with stand-ins for the missing facts.
        probe = HandEntry(
            xeris=tuple(self.xeris), jack_xeris=tuple(self.jack_xeris),
            cards=tuple(self.cards.values) if self.show_counts and self.cards.complete else None,
            most_cards=0,
            counting=tuple(self.counting.values) if self.counting.complete else (0,) * self.sides,
            ten_of_diamonds=self.ten if self.ten is not None else 0, two=self.two if self.two is not None else 0,
            held=None,
        )
        ready = {ProblemCode.NEGATIVE, ProblemCode.CARDS_TOTAL, ProblemCode.TOO_MANY_XERIS,
                 ProblemCode.TOO_MANY_JACK_XERIS, ProblemCode.TOO_MANY_XERIS_TOTAL}
        if self.counting.complete:
            ready.add(ProblemCode.COUNTING_TOTAL)
        return tuple(p for p in validate_hand(probe, self.rules, self.sides) if p.code in ready)
