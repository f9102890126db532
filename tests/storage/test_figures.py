"""The history's figures kept with each match's index entry (#27): written with each save of a finished or
abandoned match, gained once by an old folder's index, put right when an entry is damaged, and always the
history the match files score to, so the history is built without reading a match file."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Goal, HandEntry, Match, TapKind
from companion.engine.live import Tap
from companion.history.scored import FIGURES, figures_doc, score_history, score_record
from companion.storage import Store
from companion.storage.documents import entry_check

from .builders import Clock, hand_for, new_match, partnership_match
from tests.engine.strategies import matches
from tests.play import play


def entries(folder) -> dict[str, dict]:
    """Every index entry on disk, by match id."""
    out = {}
    for bucket in (folder / "index").glob("*.json"):
        out.update({e["id"]: e for e in json.loads(bucket.read_text(encoding="utf-8"))["matches"].values()})
    return out


def rewrite_entries(folder, change) -> None:
    """`change(entry)` applied to every index entry on disk, each sealed again as the app that wrote it would."""
    for bucket in (folder / "index").glob("*.json"):
        data = json.loads(bucket.read_text(encoding="utf-8"))
        for entry in data["matches"].values():
            change(entry)
            entry["check"] = entry_check(entry)
        bucket.write_text(json.dumps(data), encoding="utf-8")


def counting_reads(monkeypatch) -> list[str]:
    """The ids of the match files the store reads from now on."""
    read: list[str] = []
    real = Store._read_match

    def reading(self, path):
        read.append(path.stem)
        return real(self, path)

    monkeypatch.setattr(Store, "_read_match", reading)
    return read


def three_matches(folder) -> tuple[str, str, str]:
    """A match won, one abandoned, one in play."""
    with Store(folder, clock=Clock()) as store:
        table = play(store)
        won = table.start(replace(new_match(goal=Goal(hands=3)), hands=(hand_for(0), hand_for(1), hand_for(2))))
        stopped = table.start(new_match("Chris", "Dora", hands=2))
        table.abandon(stopped.id)
        playing = table.start(new_match("Eleni", "Fotis", hands=1))
        return won.id, stopped.id, playing.id


def test_each_save_of_a_finished_or_abandoned_match_writes_its_figures_and_a_match_in_play_has_none(folder):
    won, stopped, playing = three_matches(folder)
    on_disk = entries(folder)
    with Store(folder) as store:
        for match_id in (won, stopped):
            assert on_disk[match_id]["figures"] == figures_doc(score_record(store.get(match_id)))
        assert "figures" not in on_disk[playing]
        # An edit of a finished match writes its figures again with the match.
        record = play(store).edit_hand(won, 0, hand_for(5))
        assert entries(folder)[won]["figures"] == figures_doc(score_record(record))
        assert entries(folder)[won]["figures"] != on_disk[won]["figures"]


def test_the_history_is_built_from_the_index_without_reading_a_match_file(folder, monkeypatch):
    won, stopped, _ = three_matches(folder)
    with Store(folder) as store:
        expected = score_history(store.get(m) for m in (won, stopped))
    read = counting_reads(monkeypatch)
    with Store(folder) as store:
        assert score_history(store.list_scored()) == expected
    assert read == []


def test_an_old_index_without_figures_gains_them_once_from_the_match_files(folder, monkeypatch):
    won, stopped, playing = three_matches(folder)
    kept = entries(folder)
    rewrite_entries(folder, lambda e: e.pop("figures", None))     # as the app wrote its index before #27
    read = counting_reads(monkeypatch)
    with Store(folder) as store:
        assert sorted(read) == sorted([won, stopped])             # the match in play needs none: not read
        assert store.damaged == []
        assert len(store.list_scored()) == 2
    assert entries(folder) == {m: {**e, "stamp": entries(folder)[m]["stamp"]} for m, e in kept.items()}
    read.clear()
    with Store(folder) as store:
        store.list_scored()
    assert read == []                                             # once, never again


def test_figures_of_another_version_are_worked_out_again(folder, monkeypatch):
    won, stopped, _ = three_matches(folder)
    rewrite_entries(folder, lambda e: e["figures"].__setitem__(0, FIGURES - 1) if "figures" in e else None)
    read = counting_reads(monkeypatch)
    with Store(folder) as store:
        assert sorted(read) == sorted([won, stopped]) and store.damaged == []
    assert {e["figures"][0] for e in entries(folder).values() if "figures" in e} == {FIGURES}


def test_a_flipped_byte_in_the_figures_is_seen_and_the_bucket_rebuilt(folder):
    won, _, _ = three_matches(folder)
    with Store(folder) as store:
        expected = score_history(store.list_scored())
    bucket = folder / "index" / f"{won[:2]}.json"
    text = bucket.read_text(encoding="utf-8")
    figures = json.dumps(entries(folder)[won]["figures"], separators=(",", ":"))
    assert figures in text
    version, partnerships, sides, hands, won_first = figures[1:].split(",")[:5]
    start = f"[{version},{partnerships},{sides},{hands},{won_first},"
    assert figures.startswith(start)      # the first side's hands won, 2, becomes 12: still valid JSON
    bucket.write_text(text.replace(figures, figures.replace(start, start[:-len(won_first) - 1] + f"1{won_first},")),
                      encoding="utf-8")
    with Store(folder) as store:
        assert [d.path for d in store.damaged] == [bucket]
        assert score_history(store.list_scored()) == expected


def test_figures_that_cannot_be_read_are_scored_from_the_match_file_and_put_right(folder, monkeypatch):
    """An entry whose checksum fits but whose figures are not figures (only a wrong app could write one): the
    history still comes out right, from that one match file, and the entry is mended."""
    won, stopped, _ = three_matches(folder)
    with Store(folder) as store:
        expected = score_history(store.list_scored())
    rewrite_entries(folder, lambda e: e.update(figures=e["figures"][:-1]) if e["id"] == won else None)
    read = counting_reads(monkeypatch)
    with Store(folder) as store:
        assert read == [] and store.damaged == []
        assert score_history(store.list_scored()) == expected
        assert read == [won]
    assert entries(folder)[won]["figures"] == figures_doc(expected[[s.id for s in expected].index(won)])


def test_a_partnership_keeps_who_made_each_xeri(folder):
    with Store(folder, clock=Clock()) as store:
        table = play(store)
        record = table.start(partnership_match(Goal(hands=1)))
        entry = HandEntry(cards=(30, 22), counting=(12, 8), xeris=(2, 0), jack_xeris=(0, 0), ten_of_diamonds=0,
                          two=1)
        record = table.record_hand(record.id, entry, taps=(Tap(0, TapKind.XERI), Tap(2, TapKind.XERI)))
        assert record.finished is not None
    with Store(folder) as store:
        (scored,) = store.list_scored()
        assert scored.partnerships and scored.seat_taps == ((1, 0, 1), (0, 0, 1), (1, 0, 1), (0, 0, 1))
        assert scored == score_record(store.get(record.id))


def taps_for(match: Match, entry: HandEntry, rnd: random.Random) -> tuple[Tap, ...] | None:
    """Who made the hand's xeris: a seat of the right side for each, or None (not said) one time in four."""
    if rnd.random() < 0.25:
        return None
    taps = []
    for side in range(len(match.sides)):
        seats = [i for i, seat in enumerate(match.seats) if seat.side == side]
        taps += [Tap(rnd.choice(seats), TapKind.XERI) for _ in range(entry.xeris[side])]
        taps += [Tap(rnd.choice(seats), TapKind.JACK_XERI) for _ in range(entry.jack_xeris[side])]
    return tuple(taps)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(matches(max_hands=6), st.integers(0, 6), st.booleans()), min_size=1, max_size=4),
       st.randoms(use_true_random=False))
def test_the_history_from_the_index_is_the_history_scored_from_the_match_files(tmp_path_factory, specs, rnd):
    """Any matches, of any rules and table, some hands given at the start and the others saved one by one (with
    who made each xeri, or not), some abandoned: the history from the index equals the match files scored."""
    folder = tmp_path_factory.mktemp("figures")
    with Store(folder, clock=Clock()) as store:
        table = play(store)
        for match, later, abandon in specs:
            first = max(0, len(match.hands) - later)
            record = table.start(replace(match, hands=match.hands[:first]))
            for entry in match.hands[first:]:
                record = table.record_hand(record.id, entry, taps=taps_for(record.match, entry, rnd))
            if abandon and record.finished is None:
                table.abandon(record.id)
        written = score_history(store.list_scored())
    with Store(folder) as store:
        history = [s for s in store.list_matches() if s.is_history]
        assert score_history(store.list_scored()) == written == score_history(store.get(s.id) for s in history)
