"""Live taps: xeris and jack xeris tapped during the hand, counted per side when the hand is entered."""

import pytest

from companion.engine import LiveHand, Tap
from companion.engine.live import TapKind

from .builders import partnership_match


def test_each_tap_is_counted_for_the_player_who_made_it():
    live = LiveHand().tap(0, TapKind.XERI).tap(1, TapKind.JACK_XERI).tap(0, TapKind.XERI)
    assert (live.count(0, TapKind.XERI), live.count(1, TapKind.JACK_XERI), live.count(1, TapKind.XERI)) == (2, 1, 0)


def test_undo_takes_back_the_last_tap_and_returns_a_new_value():
    live = LiveHand().tap(0, TapKind.XERI).tap(1, TapKind.XERI)
    assert live.undo().taps == (Tap(0, "xeri"),)
    assert len(live.taps) == 2


def test_undo_with_no_taps_changes_nothing():
    assert LiveHand().undo() == LiveHand()


def test_partners_taps_are_added_up_for_their_side():
    m = partnership_match()
    seat_sides = [seat.side for seat in m.seats]
    live = LiveHand().tap(0, TapKind.XERI).tap(2, TapKind.XERI).tap(3, TapKind.JACK_XERI).tap(1, TapKind.XERI)
    assert live.per_side(seat_sides, 2) == ((2, 1), (0, 1))


def test_a_tap_is_a_xeri_or_a_jack_xeri():
    with pytest.raises(ValueError):
        Tap(0, "pisti")


def test_taps_round_trip_through_their_json_form():
    live = LiveHand().tap(3, TapKind.JACK_XERI).tap(0, TapKind.XERI)
    assert live.to_list() == [[3, "jack_xeri"], [0, "xeri"]]
    assert LiveHand.from_list(live.to_list()) == live
