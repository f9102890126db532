"""The one rule for who is ahead: a side leads only when no other side has as much."""

from __future__ import annotations

from collections.abc import Iterable


def unique_leader(values: Iterable[int]) -> int | None:
    """The index of the strictly largest value, or None when the largest is shared (or there is none).

    Most cards, a hand's winner and the winner of a hands goal all follow this rule.
    """
    best, leader, shared = None, None, False
    for index, value in enumerate(values):
        if best is None or value > best:
            best, leader, shared = value, index, False
        elif value == best:
            shared = True
    return None if shared else leader
