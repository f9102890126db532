"""Most hands won, at the table and across the group: a match finished once a side is sure to win, and a draw
settled by a deciding hand, reach every device alike (docs/decisions.md, "Most hands won")."""

from __future__ import annotations

import pytest

from companion.engine import Goal, MatchError, Status
from companion.engine.live import TapKind
from companion.engine.match import Match, Side
from companion.formats.presets import preset
from tests.engine.builders import won_by
from tests.service.devices import Device


def over(hands: int, *played) -> Match:
    """A classic match of Anna and Ben over `hands` hands, with the hands `played` (builders' `won_by`)."""
    return Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=hands),
                 hands=tuple(played))


def shared_by(device, match: Match) -> tuple[Device, Device, str]:
    a, b = device("a"), device("b")
    m = a.table.start(match).id
    a.once()
    b.once()
    return a, b, m


def test_a_match_finished_now_reaches_the_other_device_finished_and_an_undo_there_plays_it_on_here(device):
    a, b, m = shared_by(device, over(3, won_by(0)))
    a.table.record_hand(m, won_by(0))
    with pytest.raises(MatchError):   # not on B yet: there Anna can still be caught
        b.table.finish_now(m)
    a.once()
    b.once()
    assert b.table.standing(b.table.get(m)).may_finish_now
    finished = b.table.finish_now(m)
    assert finished.finished is not None and finished.match.finished_early
    b.once()
    a.once()
    here = a.table.get(m)
    st = a.table.standing(here)
    assert (here.match, st.status, st.winner, st.decided_at) == (finished.match, Status.WON, 0, 1)
    assert here.finished is not None
    a.table.undo_hand(m)
    a.once()
    b.once()
    there = b.table.get(m)
    assert (there.match, there.finished) == (a.table.get(m).match, None)
    assert not there.match.finished_early and len(there.match.hands) == 1


def test_a_deciding_hand_and_its_live_taps_reach_the_other_device(device):
    a, b, m = shared_by(device, over(2, won_by(0)))
    drawn = a.table.record_hand(m, won_by(1))
    assert a.table.standing(drawn).status is Status.DRAWN and drawn.finished is not None
    a.table.tap(m, 1, TapKind.XERI, hand=2)        # the table agreed to play a deciding hand
    a.once()
    b.once()
    assert [(t.seat, t.kind) for t in b.table.get(m).live.taps] == [(1, TapKind.XERI)]
    decided = b.table.record_hand(m, won_by(1))
    b.once()
    a.once()
    here = a.table.get(m)
    st = a.table.standing(here)
    assert (here.match, st.status, st.winner, st.hands_won) == (decided.match, Status.WON, 1, (1, 2))
    assert here.live.taps == () and here.finished is not None


def test_stopping_a_drawn_match_leaves_it_a_draw(device):
    a = device("a")
    m = a.table.start(over(2, won_by(0), won_by(1))).id
    stopped = a.table.abandon(m)
    assert not stopped.abandoned and stopped.finished is not None
    assert a.table.standing(stopped).status is Status.DRAWN


def test_a_match_finished_early_before_the_device_joined_its_group_is_told_whole(tmp_path, shared):
    alone = Device(tmp_path / "alone", None)
    m = alone.table.start(over(3, won_by(0), won_by(0))).id
    alone.table.finish_now(m)
    alone.close()
    a, b = Device(tmp_path / "alone", shared), Device(tmp_path / "b", shared)
    try:
        a.once()
        b.once()
        there = b.table.get(m)
        assert there.match.finished_early and b.table.standing(there).winner == 0
    finally:
        a.close()
        b.close()
