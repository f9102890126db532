"""A match as the changes made to it: what two phones did apart adds up by one rule, whatever order the
documents arrive in; nothing is lost, nothing counts twice, and two versions of one hand are a conflict."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.live import LiveHand, Tap, TapKind
from companion.records import MatchRecord, TrailAction
from companion.changes import changes_since
from companion import changes as ch
from tests.storage.builders import IMPOSSIBLE, hand_for, new_match

MATCH = "ab" * 16
NOW = "2026-12-01T20:00:00.000Z"


def at(n: int) -> str:
    return f"2026-12-01T20:{n // 60:02d}:{n % 60:02d}.000Z"


def record(hands: int = 0, live=(), abandoned=False, trail=()) -> MatchRecord:
    return MatchRecord(id=MATCH, match=new_match(hands=hands), created=NOW, abandoned=abandoned,
                       player_ids=(("a",), ("b",)), live=LiveHand(tuple(live)), trail=tuple(trail))


class Device:
    """A phone's view: the documents it knows, and its own match record."""

    def __init__(self, name: str, docs=(), skew: int = 0):
        self.name, self.skew = name, skew
        """Seconds this device's own clock is off (wall time only: its documents carry logical clocks)."""
        self.docs: dict[str, ch.Change] = {c.id: c for c in docs}
        self.sent = 0
        self.clock = itertools.count(1)

    def project(self) -> ch.Projection:
        return ch.project(self.docs.values())

    def record(self) -> MatchRecord:
        return ch.record_of(self.project(), MATCH, (("a",), ("b",)))

    def write(self, rec: MatchRecord) -> list[ch.Change]:
        """The device's match is now `rec`: the changes that say so."""
        out = []
        for _ in range(3):
            new = changes_since(self.project(), rec, False, at(next(self.clock) + self.skew), self.name, self.sent)
            if not new:
                break
            new = ch.stamped(self.docs.values(), new)                   # as the service writes them
            self.sent += sum(1 for c in new if c.kind is ch.Kind.TAP)
            self.docs.update((c.id, c) for c in new)
            out += new
        return out

    def hear(self, other: Device) -> None:
        self.docs.update(other.docs)


def test_a_device_s_match_written_as_changes_adds_back_up_to_the_same_match():
    a = Device("A")
    rec = record(hands=3, live=[Tap(0, TapKind.XERI), Tap(1, TapKind.JACK_XERI)])
    a.write(rec)
    back = a.record()
    assert back.match == rec.match and back.live == rec.live and back.hand_taps == (None, None, None)
    assert a.write(rec) == []                                      # said once: nothing more to say


def test_a_change_sent_twice_counts_once_and_order_of_arrival_does_not_matter():
    a = Device("A")
    a.write(record(hands=4))
    docs = list(a.docs.values())
    for seed in range(5):
        random.Random(seed).shuffle(docs)
        assert ch.record_of(ch.project(docs + docs[:2]), MATCH, (("a",), ("b",))).match == new_match(hands=4)


def test_hands_saved_on_two_phones_in_turn_both_count():
    a = Device("A")
    a.write(record(hands=2))
    b = Device("B", a.docs.values())
    b.write(replace(b.record(), match=new_match(hands=3)))         # B saves hand 3
    a.hear(b)
    a.write(replace(a.record(), match=new_match(hands=4)))         # A, up to date, saves hand 4
    b.hear(a)
    assert b.record().match == new_match(hands=4) and b.project().conflicts == ()


def test_the_same_hand_saved_the_same_way_on_two_phones_apart_is_one_hand():
    a = Device("A")
    a.write(record(hands=2))
    b = Device("B", a.docs.values())
    a.write(replace(a.record(), match=new_match(hands=3)))
    b.write(replace(b.record(), match=new_match(hands=3)))
    a.hear(b)
    assert len(a.record().match.hands) == 3 and a.project().conflicts == ()


def test_a_conflict_is_looked_for_only_where_two_versions_of_a_hand_stand_side_by_side():
    a = Device("A")
    a.write(record(hands=3))
    edited = a.record().match
    a.write(replace(a.record(), match=replace(edited, hands=(hand_for(9),) + edited.hands[1:])))  # an edit
    assert not ch.may_conflict(a.docs.values()) and a.project().conflicts == ()
    b = Device("B", a.docs.values())
    base = a.record().match
    a.write(replace(a.record(), match=replace(base, hands=base.hands + (hand_for(7),))))
    b.write(replace(b.record(), match=replace(base, hands=base.hands + (hand_for(8),))))
    a.hear(b)
    assert ch.may_conflict(a.docs.values()) and len(a.project().conflicts) == 1


def test_the_same_hand_saved_differently_on_two_phones_apart_is_a_conflict_until_the_table_chooses():
    a = Device("A")
    a.write(record(hands=2))
    b = Device("B", a.docs.values())
    base = a.record().match
    a.write(replace(a.record(), match=replace(base, hands=base.hands + (hand_for(7),))))
    b.write(replace(b.record(), match=replace(base, hands=base.hands + (hand_for(8),))))
    a.hear(b)
    b.hear(a)
    pa, pb = a.project(), b.project()
    assert len(pa.conflicts) == 1 and pa.conflicts == pb.conflicts            # both phones see the same
    conflict = pa.conflicts[0]
    assert conflict.index == 2 and {v.entry for v in conflict.versions} == {hand_for(7), hand_for(8)}
    first, other = conflict.versions
    assert first.change.order < other.change.order
    assert a.record().match.hands[2] == first.entry                          # the earlier counts for now
    # The table keeps the other: the first stays in the trail; one hand 3, never two.
    keep, drop = other, first
    c = ch.choice(MATCH, conflict.slot, (keep.id,), (drop.id,), at(99), "A")
    a.docs[c.id] = c
    chosen = a.record()
    assert chosen.match.hands[2] == keep.entry and len(chosen.match.hands) == 3
    assert a.project().conflicts == ()
    assert any(t.action is TrailAction.EDIT and t.before == drop.entry and t.after == keep.entry
               for t in chosen.trail)


def test_the_table_may_keep_both_versions_in_turn():
    a = Device("A")
    a.write(record(hands=1))
    b = Device("B", a.docs.values())
    base = a.record().match
    a.write(replace(a.record(), match=replace(base, hands=base.hands + (hand_for(7),))))
    b.write(replace(b.record(), match=replace(base, hands=base.hands + (hand_for(8),))))
    a.hear(b)
    first, second = a.project().conflicts[0].versions
    c = ch.choice(MATCH, first.slot, (first.id, second.id), (), at(99), "A")
    a.docs[c.id] = c
    assert a.record().match.hands[1:] == (first.entry, second.entry) and a.project().conflicts == ()


def test_an_edit_and_an_undo_travel_and_the_trail_keeps_what_was():
    a = Device("A")
    a.write(record(hands=3))
    rec = a.record()
    edited = replace(rec.match, hands=(rec.match.hands[0], hand_for(9), rec.match.hands[2]))
    a.write(replace(rec, match=edited))
    b = Device("B", a.docs.values())
    assert b.record().match.hands[1] == hand_for(9)
    a.write(replace(a.record(), match=replace(edited, hands=edited.hands[:2])))    # undo hand 3
    b.hear(a)
    got = b.record()
    assert len(got.match.hands) == 2
    assert [t.action for t in got.trail] == [TrailAction.EDIT, TrailAction.UNDO]
    # Saved again after the undo, the same hand 3 is a new version: it counts.
    a.write(replace(a.record(), match=edited))
    assert a.record().match.hands == edited.hands


def test_taps_from_two_phones_add_up_and_an_undone_tap_is_gone_everywhere():
    a = Device("A")
    a.write(record(hands=1))
    b = Device("B", a.docs.values())
    a.write(replace(a.record(), live=LiveHand((Tap(0, TapKind.XERI),))))
    b.write(replace(b.record(), live=LiveHand((Tap(0, TapKind.XERI), Tap(1, TapKind.JACK_XERI)))))
    a.hear(b)
    assert sorted((t.seat, t.kind.value) for t in a.record().live.taps) == [(0, "xeri"), (0, "xeri"),
                                                                            (1, "jack_xeri")]
    b.hear(a)
    taps = b.record().live.taps
    b.write(replace(b.record(), live=LiveHand(tuple(t for t in taps if t.kind is TapKind.XERI))))
    a.hear(b)
    assert [t.kind for t in a.record().live.taps] == [TapKind.XERI, TapKind.XERI]


def test_taps_count_in_the_order_tapped_by_logical_clock_whatever_the_phones_clocks_say():
    a = Device("A", skew=3600)                                        # an hour ahead
    a.write(record(hands=1))
    b = Device("B", a.docs.values())
    a.write(replace(a.record(), live=LiveHand((Tap(0, TapKind.XERI),))))
    b.hear(a)                                                         # B taps after it saw A's tap
    b.write(replace(b.record(), live=LiveHand((Tap(0, TapKind.XERI), Tap(1, TapKind.JACK_XERI)))))
    a.hear(b)
    for phone in (a, b):
        assert [(t.seat, t.kind) for t in phone.record().live.taps] == [(0, TapKind.XERI), (1, TapKind.JACK_XERI)]
    # Taken back on A, the last tap goes: B's jack xeri, though A's clock calls its own xeri the later.
    a.write(replace(a.record(), live=LiveHand((Tap(0, TapKind.XERI),))))
    b.hear(a)
    assert [(t.seat, t.kind) for t in b.record().live.taps] == [(0, TapKind.XERI)]


def test_a_tap_meant_for_a_hand_already_saved_elsewhere_does_not_change_that_hand():
    a = Device("A")
    a.write(record(hands=1))
    b = Device("B", a.docs.values())
    a.write(replace(a.record(), match=new_match(hands=2)))                    # A saved hand 2
    b.write(replace(b.record(), live=LiveHand((Tap(0, TapKind.XERI),))))      # B tapped for hand 2
    a.hear(b)
    p = a.project()
    assert a.record().match == new_match(hands=2) and a.record().live.taps == () and len(p.late) == 1


def test_stopping_and_taking_up_again_the_latest_says():
    a = Device("A")
    a.write(record(hands=1))
    a.write(replace(a.record(), abandoned=True))
    b = Device("B", a.docs.values())
    assert b.record().abandoned
    b.write(replace(b.record(), abandoned=False))
    a.hear(b)
    assert not a.record().abandoned


def test_a_hostile_document_is_refused_in_words_and_a_hand_that_cannot_be_right_does_not_count():
    for bad in [{"_id": 5}, {"format": 1, "_id": "x.hand.1", "match": "ab" * 16, "kind": "hand", "at": NOW,
                               "device": "B", "body": {"slot": -1, "entry": {}}},
                {"format": 99, "match": "x"}, "text", {"format": 1, "_id": "y.start", "match": "x", "kind": "start",
                                                      "at": NOW, "device": "B", "body": {}}]:
        with pytest.raises(ch.ChangeError):
            ch.from_doc(bad)
    a = Device("A")
    a.write(record(hands=1))
    impossible = ch.hand(MATCH, 1, IMPOSSIBLE, None, None, NOW, "B")
    good = ch.from_doc(json.loads(json.dumps(impossible.to_doc())))
    assert good == impossible
    a.docs[good.id] = good
    p = a.project()
    assert len(a.record().match.hands) == 1 and len(p.unreadable) == 1
    assert "60" in str(p.unreadable[0])                      # says which numbers cannot be right


@settings(max_examples=60, deadline=None)
@given(seq=st.lists(st.sampled_from(["save", "undo", "edit", "tap", "untap", "stop"]), max_size=25),
       seed=st.integers(0, 1000))
def test_any_sequence_on_one_device_written_as_changes_adds_back_up_to_it(seq, seed):
    rng = random.Random(seed)
    a = Device("A")
    rec = record()
    a.write(rec)
    n = 0
    for step in seq:
        hands = rec.match.hands
        if step == "save":
            n += 1
            rec = replace(rec, match=replace(rec.match, hands=hands + (hand_for(n),)), live=LiveHand())
        elif step == "undo" and hands:
            rec = replace(rec, match=replace(rec.match, hands=hands[:-1]))
        elif step == "edit" and hands:
            i = rng.randrange(len(hands))
            n += 1
            rec = replace(rec, match=replace(rec.match, hands=hands[:i] + (hand_for(n),) + hands[i + 1:]))
        elif step == "tap":
            rec = replace(rec, live=rec.live.tap(rng.randrange(2), rng.choice(list(TapKind))))
        elif step == "untap":
            rec = replace(rec, live=rec.live.undo())
        elif step == "stop":
            rec = replace(rec, abandoned=not rec.abandoned)
        a.write(rec)
        back = a.record()
        assert back.match.hands == rec.match.hands
        assert sorted((t.seat, t.kind.value) for t in back.live.taps) == sorted(
            (t.seat, t.kind.value) for t in rec.live.taps)
        assert back.abandoned == rec.abandoned
