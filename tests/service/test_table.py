"""The matches in play through the service: create, play, undo and edit with a trail, live taps, resume, abandon,
delete."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import Goal, InvalidHand, LiveHand, MatchError, MatchOver, Status, standing
from companion.service import StaleWrite
from companion.storage import NoSuchMatch, Store, StoreClosed
from companion.engine.live import TapKind

from tests.storage.builders import IMPOSSIBLE, hand, hand_for, new_match, partnership_match
from tests.play import books, keep_live, play


def test_a_created_match_is_stored_with_its_sides_rules_goal_and_dealer(store, again):
    match = new_match(goal=Goal(target=151, extension=251))
    created = play(store).start(match)
    store = again(store)
    got = store.get(created.id)
    assert got == created
    assert got.match == match
    assert got.created.endswith("Z") and got.finished is None and not got.abandoned
    assert len(got.player_ids) == 2 and all(len(ids) == 1 for ids in got.player_ids)


def test_every_saved_hand_is_there_after_reopening(store, again):
    record = play(store).start(new_match())
    for n in range(12):
        record = play(store).record_hand(record.id, hand_for(n))
    store = again(store)
    assert store.get(record.id).match.hands == tuple(hand_for(n) for n in range(12))


def test_an_impossible_hand_is_refused_and_nothing_is_saved(store, again):
    record = play(store).record_hand(play(store).start(new_match()).id, hand_for(0))
    with pytest.raises(InvalidHand):
        play(store).record_hand(record.id, IMPOSSIBLE)
    store = again(store)
    assert store.get(record.id) == record


def test_a_hand_after_the_end_is_refused_and_nothing_is_saved(store, again):
    record = play(store).start(new_match(goal=Goal(hands=2)))
    record = play(store).record_hand(record.id, hand_for(0))
    record = play(store).record_hand(record.id, hand_for(1))
    assert record.finished is not None
    with pytest.raises(MatchOver):
        play(store).record_hand(record.id, hand_for(2))
    store = again(store)
    assert store.get(record.id) == record


def test_finished_is_set_when_the_deciding_hand_is_saved_and_cleared_when_it_is_undone(store, again):
    record = play(store).start(new_match(goal=Goal(hands=2)))
    record = play(store).record_hand(record.id, hand_for(0))
    assert record.finished is None
    record = play(store).record_hand(record.id, hand_for(1))
    assert record.finished is not None
    store = again(store)
    summary = store.list_matches()[0]
    assert summary.status is Status.WON and summary.finished == record.finished and summary.winner is not None
    store = again(store)
    record = play(store).undo_hand(record.id)
    assert record.finished is None
    assert store.list_matches()[0].status is Status.PLAYING


def test_undo_keeps_what_the_hand_was_and_when(store, again, clock):
    record = play(store).start(new_match())
    record = play(store).record_hand(record.id, hand_for(0))
    record = play(store).record_hand(record.id, hand_for(1))
    record = play(store).undo_hand(record.id)
    store = again(store)
    got = store.get(record.id)
    assert got.match.hands == (hand_for(0),)
    (entry,) = got.trail
    assert (entry.action, entry.hand, entry.before, entry.after) == ("undo", 1, hand_for(1), None)
    assert entry.at.startswith("2025-03-01T20:00:")


def test_an_undone_hand_is_open_again_with_its_taps_and_saved_again_the_trail_says_both(store, again):
    """Undo reopens the hand: its live taps are back, and saving it again (as it was, or corrected) is said in the
    trail beside the undo; a hand put back is never a new hand to the trail."""
    record = play(store).start(new_match())
    record = play(store).record_hand(record.id, hand_for(0))
    record = play(store).tap(record.id, 0, TapKind.XERI)
    record = play(store).tap(record.id, 1, TapKind.JACK_XERI)
    taps = record.live.taps
    record = play(store).record_hand(record.id, replace(hand_for(1), xeris=(1, 0), jack_xeris=(0, 1)))
    assert record.live.taps == ()
    record = play(store).undo_hand(record.id)
    assert record.live.taps == taps                       # open again, with the taps it was saved with
    store = again(store)
    record = play(store).record_hand(record.id, replace(hand_for(1), xeris=(1, 0), jack_xeris=(0, 1)))
    assert [(t.action, t.hand) for t in record.trail] == [("undo", 1), ("redo", 1)]
    assert record.trail[1].before == record.trail[1].after == record.match.hands[1]
    assert record.taps_of(1) == taps
    # Undone again and corrected: a second pair, the redo naming what it replaced.
    record = play(store).undo_hand(record.id)
    record = play(store).record_hand(record.id, replace(hand_for(5), xeris=(1, 0), jack_xeris=(0, 1)))
    assert [t.action for t in record.trail] == ["undo", "redo", "undo", "redo"]
    assert record.trail[3].before == replace(hand_for(1), xeris=(1, 0), jack_xeris=(0, 1))
    assert record.trail[3].after == replace(hand_for(5), xeris=(1, 0), jack_xeris=(0, 1))
    # The next hand, never undone, is no redo.
    record = play(store).record_hand(record.id, hand_for(2))
    assert [t.action for t in record.trail] == ["undo", "redo", "undo", "redo"]
    assert again(store).get(record.id).trail == record.trail


def test_clearing_the_taps_of_a_reopened_hand_takes_them_all_back_and_a_stale_screen_is_refused(store):
    record = play(store).start(new_match())
    record = play(store).tap(record.id, 0, TapKind.XERI)
    shown = play(store).tap(record.id, 0, TapKind.XERI)
    record = play(store).record_hand(record.id, replace(hand_for(0), xeris=(2, 0), jack_xeris=(0, 0)))
    record = play(store).undo_hand(record.id)
    assert len(record.live.taps) == 2
    play(store).tap(record.id, 1, TapKind.XERI)       # another phone tapped meanwhile
    with pytest.raises(StaleWrite):
        play(store).clear_taps(record.id, expected=record.revision)
    now = store.get(record.id)
    cleared = play(store).clear_taps(record.id, expected=now.revision)
    assert cleared.live.taps == () and cleared.match.hands == () and shown.live.taps != ()


def test_undo_with_no_hand_is_refused(store):
    record = play(store).start(new_match())
    with pytest.raises(MatchError):
        play(store).undo_hand(record.id)
    assert store.get(record.id).trail == ()


def test_an_edit_keeps_what_the_hand_was_what_it_became_and_when(store, again):
    record = play(store).start(new_match())
    for n in range(3):
        record = play(store).record_hand(record.id, hand_for(n))
    edited = hand(cards=(40, 12), counting=(15, 5), xeris=(0, 0))
    record = play(store).edit_hand(record.id, 1, edited)
    record = play(store).edit_hand(record.id, 1, hand_for(1))
    store = again(store)
    got = store.get(record.id)
    assert got.match.hands == tuple(hand_for(n) for n in range(3))
    first, second = got.trail
    assert (first.action, first.hand, first.before, first.after) == ("edit", 1, hand_for(1), edited)
    assert (second.before, second.after) == (edited, hand_for(1))
    assert first.at < second.at


def test_an_impossible_edit_is_refused_and_leaves_no_trail(store, again):
    record = play(store).record_hand(play(store).start(new_match()).id, hand_for(0))
    with pytest.raises(InvalidHand):
        play(store).edit_hand(record.id, 0, IMPOSSIBLE)
    with pytest.raises(MatchError):
        play(store).edit_hand(record.id, 5, hand_for(0))
    store = again(store)
    assert store.get(record.id) == record


def test_an_edit_that_changes_nothing_leaves_no_trail(store):
    record = play(store).record_hand(play(store).start(new_match()).id, hand_for(0))
    assert play(store).edit_hand(record.id, 0, hand_for(0)).trail == ()


def test_live_taps_are_kept_and_the_unfinished_match_reopens_mid_hand(store, again):
    record = play(store).start(new_match())
    record = play(store).record_hand(record.id, hand_for(0))
    live = LiveHand().tap(0, TapKind.XERI).tap(1, TapKind.JACK_XERI).tap(0, TapKind.XERI)
    record = keep_live(store, record.id, live)
    store = again(store)
    resumed = play(store).unfinished()
    assert resumed == record
    assert resumed.live == live and resumed.match.hands == (hand_for(0),)


def test_saving_the_hand_clears_the_live_taps(store, again):
    record = play(store).start(new_match())
    keep_live(store, record.id, LiveHand().tap(0, TapKind.XERI))
    record = play(store).record_hand(record.id, hand_for(0))
    store = again(store)
    assert store.get(record.id).live == LiveHand()


def test_live_taps_for_a_seat_not_at_the_table_are_refused(store):
    record = play(store).start(new_match())
    with pytest.raises(MatchError):
        play(store).tap(record.id, 2, TapKind.XERI)
    assert store.get(record.id).live == LiveHand()


def test_live_taps_on_a_finished_match_are_refused(store):
    record = play(store).start(new_match(goal=Goal(hands=1)))
    record = play(store).record_hand(record.id, hand_for(0))
    with pytest.raises(MatchOver):
        play(store).tap(record.id, 0, TapKind.XERI)


def test_unfinished_is_the_most_recently_played_match_still_playing_and_not_abandoned(store, again):
    assert play(store).unfinished() is None
    older = play(store).start(new_match("Anna", "Ben"))
    newer = play(store).start(new_match("Chris", "Dora"))
    done = play(store).start(new_match("Eva", "Fay", goal=Goal(hands=1)))
    play(store).record_hand(done.id, hand_for(0))
    store = again(store)
    assert play(store).unfinished().id == newer.id
    play(store).record_hand(older.id, hand_for(0))
    store = again(store)
    assert play(store).unfinished().id == older.id
    play(store).abandon(older.id)
    store = again(store)
    assert play(store).unfinished().id == newer.id


def test_an_abandoned_match_can_be_resumed(store, again):
    record = play(store).start(new_match())
    play(store).abandon(record.id)
    store = again(store)
    assert store.get(record.id).abandoned and store.list_matches()[0].abandoned
    assert play(store).unfinished() is None
    play(store).resume(record.id)
    store = again(store)
    assert not store.get(record.id).abandoned
    assert play(store).unfinished().id == record.id


def test_playing_a_hand_of_an_abandoned_match_resumes_it(store):
    record = play(store).start(new_match())
    play(store).abandon(record.id)
    assert not play(store).record_hand(record.id, hand_for(0)).abandoned


def test_a_finished_match_is_not_marked_abandoned(store):
    record = play(store).start(new_match(goal=Goal(hands=1)))
    record = play(store).record_hand(record.id, hand_for(0))
    assert play(store).abandon(record.id) == record


def test_list_matches_reads_the_index_newest_first(store, again):
    first = play(store).start(new_match("Anna", "Ben"))
    play(store).record_hand(first.id, hand_for(0))
    play(store).record_hand(first.id, hand_for(1))
    second = play(store).start(partnership_match())
    store = again(store)
    newest, oldest = store.list_matches()
    assert newest.id == second.id and oldest.id == first.id
    assert newest.sides == ("Blue", "Red") and newest.members == (("Anna", "Chris"), ("Ben", "Dora"))
    assert newest.rules == "partnership" and dict(newest.goal) == {"hands": 7}
    assert newest.hands == 0 and newest.totals == (0, 0) and newest.status is Status.PLAYING
    record = store.get(first.id)
    assert oldest.sides == ("Anna", "Ben") and oldest.hands == 2
    assert oldest.player_ids == record.player_ids
    from companion.engine import standing

    assert oldest.totals == standing(record.match).totals
    assert oldest.created == record.created and oldest.updated >= record.created


def test_a_match_created_with_hands_has_them_checked(store):
    match = new_match(hands=3)
    assert play(store).start(match).match.hands == match.hands
    from dataclasses import replace

    with pytest.raises(InvalidHand):
        play(store).start(replace(match, hands=match.hands + (IMPOSSIBLE,)))


def test_a_deleted_match_goes_to_the_bin_and_can_be_restored_until_the_store_closes(store, folder):
    keep = play(store).start(new_match("Anna", "Ben"))
    gone = play(store).record_hand(play(store).start(new_match("Chris", "Dora")).id, hand_for(0))
    store.delete(gone.id)
    assert [m.id for m in store.list_matches()] == [keep.id]
    with pytest.raises(NoSuchMatch):
        store.get(gone.id)
    assert (folder / "bin" / f"{gone.id}.json").exists()
    assert store.restore(gone.id) == gone
    assert {m.id for m in store.list_matches()} == {keep.id, gone.id}
    store.delete(gone.id)
    store.close()
    assert not (folder / "bin" / f"{gone.id}.json").exists()
    with Store(folder) as reopened:
        assert [m.id for m in reopened.list_matches()] == [keep.id]
        with pytest.raises(NoSuchMatch):
            reopened.restore(gone.id)


def test_unknown_ids_say_there_is_no_such_match(store):
    for call in (store.get, play(store).undo_hand, store.delete, play(store).abandon, store.restore,
                 books(store).export_match):
        with pytest.raises(NoSuchMatch):
            call("0" * 32)
    with pytest.raises(LookupError):
        play(store).record_hand("not-an-id", hand_for(0))


def test_a_closed_store_refuses_to_work_and_can_be_closed_twice(store):
    store.close()
    store.close()
    with pytest.raises(StoreClosed):
        store.list_matches()
    with pytest.raises(StoreClosed):
        play(store).start(new_match())


def test_the_store_is_a_context_manager(folder):
    with Store(folder) as store:
        play(store).start(new_match())
    assert store.closed
    with Store(folder) as store:
        assert len(store.list_matches()) == 1


def test_store_without_a_folder_uses_the_data_folder(_private_data_dir):
    with Store() as store:
        play(store).start(new_match())
        assert store.folder == _private_data_dir
    assert list((_private_data_dir / "matches").glob("*.json"))


def test_timestamps_are_iso_8601_utc(folder):
    from datetime import datetime

    with Store(folder) as store:
        record = play(store).start(new_match(goal=Goal(hands=1)))
        record = play(store).record_hand(record.id, hand_for(0))
    for value in (record.created, record.finished):
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        assert value.endswith("Z") and parsed.utcoffset().total_seconds() == 0


def test_a_hand_saved_scores_only_that_hand_and_writes_the_match_file_once(store, monkeypatch):
    import companion.engine.match as engine_match
    import companion.storage.files as files
    import companion.storage.store as store_module

    table = play(store)
    record = table.start(new_match())
    for n in range(6):
        record = table.record_hand(record.id, hand_for(n))
    table.standing(store.get(record.id))        # what the scoreboard showed before the save
    calls = {"scored": 0, "serialised": 0, "written": []}
    score, serialise, write = engine_match.score_hand, store_module.match_to_dict, files.write_atomic

    def counting_score(*args, **kwargs):
        calls["scored"] += 1
        return score(*args, **kwargs)

    def counting_serialise(*args, **kwargs):
        calls["serialised"] += 1
        return serialise(*args, **kwargs)

    def counting_write(path, data):
        calls["written"].append(path.parent.name)
        return write(path, data)

    monkeypatch.setattr(engine_match, "score_hand", counting_score)
    monkeypatch.setattr(store_module, "match_to_dict", counting_serialise)
    monkeypatch.setattr(files, "write_atomic", counting_write)
    saved = table.record_hand(record.id, hand_for(6))
    assert calls["scored"] == 1                          # the new hand; the six before were scored already
    assert calls["serialised"] == 1                      # one document, whose digest the index also keeps
    assert calls["written"].count("matches") == 1        # the match file, once
    assert calls["written"].count("index") <= 1          # and its index bucket, at most once
    assert table.standing(saved).totals == standing(saved.match).totals
    assert len(saved.match.hands) == 7


def test_a_save_from_a_screen_that_showed_an_older_version_is_refused_and_changes_nothing(store):
    table = play(store)
    record = table.start(new_match())
    shown = record.revision                       # phone 1 opens the hand entry
    record = table.record_hand(record.id, hand_for(0), expected=shown)   # phone 2 saves that hand first
    with pytest.raises(StaleWrite) as refused:
        table.record_hand(record.id, hand_for(1), expected=shown)       # phone 1's save comes too late
    assert refused.value.current == store.get(record.id) == record
    with pytest.raises(StaleWrite):
        table.undo_hand(record.id, expected=shown)
    with pytest.raises(StaleWrite):
        table.edit_hand(record.id, 0, hand_for(2), expected=shown)
    assert store.get(record.id).match.hands == (hand_for(0),)


def test_a_live_tap_made_while_the_form_was_open_makes_the_form_stale(store):
    table = play(store)
    record = table.start(new_match())
    shown = record.revision
    table.tap(record.id, 1, TapKind.XERI, hand=0)        # another phone taps a xeri the form does not have
    with pytest.raises(StaleWrite):
        table.record_hand(record.id, hand_for(0), expected=shown)


def test_taps_from_several_phones_add_up_but_a_tap_meant_for_a_saved_hand_is_refused(store):
    table = play(store)
    record = table.start(new_match())
    table.tap(record.id, 0, TapKind.XERI, hand=0)
    table.tap(record.id, 1, TapKind.JACK_XERI, hand=0)   # a second phone, same hand: both count
    assert store.get(record.id).live.per_side([0, 1], 2) == ((1, 0), (0, 1))
    table.record_hand(record.id, hand_for(0))
    with pytest.raises(StaleWrite):
        table.tap(record.id, 0, TapKind.XERI, hand=0)    # hand 1 is saved: this tap belongs nowhere
    assert store.get(record.id).live == LiveHand()


def test_undoing_a_tap_another_phone_has_since_outdone_is_refused(store):
    table = play(store)
    record = table.start(new_match())
    record = table.tap(record.id, 0, TapKind.XERI, hand=0)
    shown = record.revision
    table.tap(record.id, 1, TapKind.XERI, hand=0)         # the other phone's tap is now the last one
    with pytest.raises(StaleWrite):
        table.undo_tap(record.id, expected=shown)
    assert len(store.get(record.id).live.taps) == 2


def test_who_made_each_xeri_is_kept_with_the_hand_as_the_entry_said_it_and_must_add_up(store, again):
    from companion.engine.live import Tap

    record = play(store).start(partnership_match())
    entry = hand_for(1)                                  # xeris (1, 0): side 0 is Anna (seat 0) and Chris (seat 2)
    with pytest.raises(MatchError):                      # a xeri named for Ben (seat 1, side 1): does not add up
        play(store).record_hand(record.id, entry, taps=(Tap(1, TapKind.XERI),))
    saved = play(store).record_hand(record.id, entry, taps=(Tap(2, TapKind.XERI),))
    store = again(store)
    assert store.get(saved.id).taps_of(0) == (Tap(2, TapKind.XERI),)
    edited = play(store).edit_hand(saved.id, 0, entry, taps=(Tap(0, TapKind.XERI),))   # it was Anna's after all
    assert edited.taps_of(0) == (Tap(0, TapKind.XERI),) and edited.trail[-1].before == entry
