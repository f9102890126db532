"""The hand in progress: xeris and jack xeris tapped as they happen, before the hand is entered."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from collections.abc import Sequence

from .limits import shown


class TapKind(enum.StrEnum):
    """What a live tap records."""

    XERI = "xeri"
    JACK_XERI = "jack_xeri"


@dataclass(frozen=True)
class Tap:
    """One live tap: a player at `seat` made a xeri or a jack xeri."""

    seat: int
    """The seat of the player who made it."""
    kind: TapKind
    """A xeri or a jack xeri (given as a kind or its value)."""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", TapKind(self.kind))
        except ValueError:
            raise ValueError(f"a tap is a xeri or a jack_xeri, not {shown(self.kind)}") from None


@dataclass(frozen=True)
class LiveHand:
    """The taps of the hand being played, in order; undo takes back the last."""

    taps: tuple[Tap, ...] = ()
    """Every tap so far."""

    def tap(self, seat: int, kind: TapKind) -> LiveHand:
        """One more tap."""
        return replace(self, taps=self.taps + (Tap(seat, kind),))

    def undo(self) -> LiveHand:
        """Without the last tap (unchanged when there is none)."""
        return replace(self, taps=self.taps[:-1])

    def count(self, seat: int, kind: TapKind) -> int:
        """How many of `kind` the player at `seat` made."""
        return sum(1 for t in self.taps if t.seat == seat and t.kind == kind)

    def per_side(self, seat_sides: Sequence[int], sides: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Xeris and jack xeris per side, given the side of each seat."""
        xeris, jacks = [0] * sides, [0] * sides
        for t in self.taps:
            if 0 <= t.seat < len(seat_sides):
                (xeris if t.kind is TapKind.XERI else jacks)[seat_sides[t.seat]] += 1
        return tuple(xeris), tuple(jacks)

    def to_list(self) -> list[list]:
        """JSON form: `[[seat, kind], …]`."""
        return [[t.seat, t.kind.value] for t in self.taps]

    @classmethod
    def from_list(cls, data: Sequence) -> LiveHand:
        """From the JSON form."""
        return cls(tuple(Tap(int(seat), TapKind(kind)) for seat, kind in data))
