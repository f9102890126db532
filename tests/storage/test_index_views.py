"""The index's kept views (#27): the history in its order, the matches in play, the players seen and the
history's key, kept by `put` and `pop` alone, always what the entries say when worked out from scratch."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.storage.index import Index, history_order, is_empty, is_history

IDS = [f"{n:02x}" * 16 for n in range(12)]
PLAYERS = ["p1", "p2", "p3", "p4"]

entries = st.fixed_dictionaries({
    "id": st.sampled_from(IDS),
    "fingerprint": st.sampled_from(["f1", "f2"]),
    "status": st.sampled_from(["playing", "won", "drawn"]),
    "abandoned": st.booleans(),
    "hands": st.integers(0, 2),
    "created": st.sampled_from(["2026-01-01T10:00:00.000Z", "2026-01-02T10:00:00.000Z"]),
    "finished": st.sampled_from([None, "2026-01-01T12:00:00.000Z", "2026-01-03T12:00:00.000Z"]),
    "updated": st.sampled_from(["2026-01-01T10:00:00.000Z", "2026-02-01T10:00:00.000Z"]),
    "figures": st.sampled_from([None, [1, 2, 3], [1, 2, 4]]),
    "player_ids": st.lists(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=2), min_size=2, max_size=3),
})
steps = st.lists(st.one_of(st.tuples(st.just("put"), entries), st.tuples(st.just("pop"), st.sampled_from(IDS))),
                 max_size=40)


def from_scratch(found: dict[str, dict]) -> tuple:
    history = sorted((e for e in found.values() if is_history(e)), key=history_order, reverse=True)
    return ([e["id"] for e in history], sum(map(is_empty, history)),
            {e["id"] for e in found.values() if e["status"] == "playing" and not e["abandoned"]},
            set(Counter(p for e in found.values() for ids in e["player_ids"] for p in ids)))


def views(index: Index) -> tuple:
    return ([e["id"] for e in index.history()], index.empty_count(), {e["id"] for e in index.playing()},
            index.seen())


@given(steps)
def test_the_kept_views_are_what_the_entries_say_after_any_puts_and_pops(ops):
    index, found = Index(), {}
    for op, value in ops:
        if op == "put":
            index.put(dict(value))
            found[value["id"]] = value
        else:
            index.pop(value)
            found.pop(value, None)
        assert views(index) == from_scratch(found)
        assert index.history_size() == len(views(index)[0])
        assert index.history_size(empty=False) == index.history_size() - index.empty_count()
    again = Index()                                  # the same entries, put in another order, from nothing
    for entry in reversed(list(found.values())):
        again.put(dict(entry))
    assert again.history_key() == index.history_key()


@given(entries, entries)
def test_the_history_key_changes_with_a_history_match_and_only_with_one(a, b):
    index = Index()
    index.put(dict(a))
    before = index.history_key()
    index.put({**a, "updated": "2027-01-01T00:00:00.000Z"})
    assert index.history_key() == before                # a live tap: the figures are the same
    for change in ({"fingerprint": "f3"}, {"finished": "2027-01-01T00:00:00.000Z"}, {"figures": [9]},
                   {"player_ids": [["p9"], ["p8"]]}, {"abandoned": not a["abandoned"]}):
        changed = {**a, **change}
        index.put(changed)
        assert (index.history_key() != before) == (is_history(a) or is_history(changed)), change
        index.put(dict(a))
    index.put(dict(a))
    assert index.history_key() == before               # back as it was: the same key
    if b["id"] != a["id"]:
        index.put(dict(b))
        assert (index.history_key() != before) == is_history(b)
        index.pop(b["id"])
        assert index.history_key() == before
