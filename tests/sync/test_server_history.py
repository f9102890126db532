"""A server is not trusted to be the one a device knew (#23): against the real server, a group's database
wiped and made again, or another group's database at the same address, is noticed by every device, said
in words, and read again from the start with everything the device holds sent again, so that the devices
end with the same matches and a new device gets every one of them.

Before this, both devices kept their old checkpoint while the new database counted from 1: the second
device missed the new database's first documents and took later ones as its own, the two showed
different scores, and both said they were in step.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import Translator
from companion.service.sync import RoundStopped
from tests.sync.devices import a_round, a_round_with, cli_sync, history, open_device, sheets, shared_docs, synced

pytestmark = [pytest.mark.slow]

EN = Translator("en")


def made_again(couch) -> None:
    """The group's database deleted and created again, empty (a server reinstalled, a database restored)."""
    couch.ok("DELETE", f"/{couch.db}")
    couch.create_database(couch.db)


def test_a_database_wiped_and_made_again_is_noticed_and_every_device_ends_with_every_match(couch, tmp_path: Path):
    couch.create_database(couch.db)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    url = couch.url_for()
    before = history(a, 3)
    a_round(a, url)
    assert sheets(b) == {} and a_round(b, url).stored == set(before)

    made_again(couch)
    after = history(a, 2)                             # A goes on; B knows only what was there before
    said_a = a_round(a, url)
    said_b = synced(b, url)                           # the command line, as a person would run it
    a_round(a, url)                                   # what B sent again (nothing new to A)
    every = before | after
    assert sheets(a) == every and sheets(b) == every
    assert said_a.started_over and "not the history this device synced with" in EN.say(said_a.started_over)
    assert "note: the group's database is not the history this device synced with" in said_b, said_b
    starts = {d["match"] for d in shared_docs(couch).values() if d.get("kind") == "start"}
    assert starts == set(every)                       # the new database holds every match again
    assert a_round(c, url).stored == set(every)       # a new device gets all of them
    assert sheets(c) == every
    assert not a_round(a, url).started_over           # once noticed, the next rounds go on as usual


def test_another_groups_database_at_the_address_is_another_history(couch, tmp_path: Path):
    """A device whose group's address now leads to a database another group filled (a name reused): it is
    noticed, the device reads it from the start and sends what it has."""
    couch.create_database(couch.db)
    a, b = tmp_path / "a", tmp_path / "b"
    url = couch.url_for()
    mine = history(a, 2)
    a_round(a, url)
    made_again(couch)
    theirs = history(b, 2)
    a_round(b, url)                                   # B's group now fills the database
    said = a_round(a, url)
    a_round(b, url)
    assert sheets(a) == mine | theirs == sheets(b)
    assert said.started_over


REFUSES_THIRD_HANDS = """function (doc) {
  if (doc.kind === "hand" && doc.body && doc.body.slot === 2) { throw({forbidden: "no third hands here"}); }
}"""
"""A server's own rule (a design document's validation) that refuses some of what the app sends."""


def test_documents_the_server_refuses_are_said_and_never_hold_back_the_ones_behind_them(couch, tmp_path: Path):
    """Before (#23): a refused document was dropped without a word and sending stopped at the first short
    batch, so a few refused documents at the head of the outbox held back everything behind them."""
    couch.create_database(couch.db)
    couch.ok("PUT", f"/{couch.db}/_design/rules", {"validate_doc_update": REFUSES_THIRD_HANDS})
    a = tmp_path / "a"
    made = history(a, 150, hands=lambda i: 4)        # 750 documents: four batches, a third hand in every one
    said = cli_sync(a, couch.url_for())
    assert said.returncode == 0, said.stderr
    docs = shared_docs(couch)
    hands = [d for d in docs.values() if d.get("kind") == "hand"]
    assert len(hands) == 150 * 3                      # every hand but the third of each match, in one run
    assert "the group's server refused 150 changes of this device" in said.stderr, said.stderr
    assert "no third hands here" in said.stderr
    again = cli_sync(a)
    assert "sent 0 changes" in again.stdout, again.stdout   # refused ones are not sent again each round
    assert "refused 150 changes" in again.stderr            # and still said: the device holds them
    assert len(sheets(a)) == len(made)


def test_a_deletion_taken_back_reaches_every_device_and_a_new_one(couch, tmp_path: Path):
    """Found by the model test (tests/service/test_convergence.py) and by the probe: a match deleted, synced,
    then brought back from the bin ("Undo") was never said to the group (nothing compares a match that comes
    back as it was), so the other devices kept it deleted while this one showed it (#23)."""
    couch.create_database(couch.db)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    url = couch.url_for()
    made = history(a, 2)
    kept, gone = sorted(made)
    a_round(a, url)
    a_round(b, url)
    with open_device(a) as parts:
        parts.services.library.delete(gone)
        a_round_with(parts, url)                      # the deletion reaches the group…
        a_round(b, url)
        assert set(sheets(b)) == {kept}               # …and B
        parts.services.library.restore(gone)          # then the table takes it back, before the app closes
        a_round_with(parts, url)
    a_round(b, url)
    a_round(c, url)
    assert sheets(a) == sheets(b) == sheets(c) == made


def test_a_feed_that_never_ends_or_goes_backwards_stops_the_round_in_words_and_changes_nothing(hostile, tmp_path):
    """Before (#23): a feed that never ended cost 10,000 pages a round, one whose checkpoint went back
    14,633 pages in a minute, and the screen said "In step" all the while."""
    a = tmp_path / "a"
    history(a, 2)
    url = hostile.database_url()
    a_round(a, url)                                   # while it behaves: everything sent
    before = sheets(a)
    hostile.misbehave("pages_forever", path="/club/_changes")
    with pytest.raises(RoundStopped) as endless:
        a_round(a, url)
    assert "kept saying more is coming after 400 pages" in EN.say(endless.value)
    assert hostile.pages == 400
    hostile.misbehave("backwards", path="/club/_changes")
    with pytest.raises(RoundStopped) as backwards:
        a_round(a, url)
    assert "went back in its own feed" in EN.say(backwards.value)
    assert sheets(a) == before


def test_a_server_that_floods_the_device_stops_the_round_at_the_bound_in_words(hostile, tmp_path, monkeypatch):
    """Before (#23): 500 new well-formed 30 KB documents a page, "pending" always 1, wrote 753 MB into the
    data folder in 30 s. Now the round stops once the device keeps more than `MAX_KEPT_BYTES` of the group
    (a page past it at most; 2 MB here, 200 MB for people), in words, and the device's own matches are as
    they were."""
    import companion.service.sync as service_sync
    from companion import changes as ch
    from tests.storage.builders import new_match

    monkeypatch.setattr(service_sync, "MAX_KEPT_BYTES", 2 * 2**20)
    a = tmp_path / "a"
    own = history(a, 2)
    url = hostile.database_url()
    a_round(a, url)
    template = ch.start("0" * 32, new_match(), "2026-12-01T20:00:00.000Z", "flood").to_doc()
    hostile.misbehave("flood", path="/club/_changes", template=template, rows=50, pad=30_000)
    with pytest.raises(RoundStopped) as full:
        a_round(a, url)
    said = EN.say(full.value)
    assert "keeps at most 2 MB of the group's history and it holds 2 MB" in said, said
    assert hostile.pages == 2                         # 1.5 MB a page: two pages read, no third asked for
    kept = sum(f.stat().st_size for f in (a / "sync").rglob("*") if f.is_file())
    assert 2 * 2**20 < kept < 4 * 2**20
    with pytest.raises(RoundStopped):                 # and the next round stops at once, asking for nothing
        a_round(a, url)
    assert hostile.pages == 2
    mine = sheets(a)
    assert all(mine[m] == own[m] for m in own) and len(mine) == len(own) + 100


def test_a_database_restored_from_an_older_copy_with_its_mark_is_read_again_and_refilled(couch, tmp_path: Path):
    """A copy of the database's files put back (its local documents with it, so the mark is the same) is
    behind this device's checkpoint: the device starts over with it, as with a new mark."""
    couch.create_database(couch.db)
    a, b = tmp_path / "a", tmp_path / "b"
    url = couch.url_for()
    made = history(a, 6)
    a_round(a, url)
    mark = couch.ok("GET", f"/{couch.db}/_local/xeri-group")["mark"]
    made_again(couch)
    couch.ok("PUT", f"/{couch.db}/_local/xeri-group", {"mark": mark})   # the old copy's mark, and little else
    said = a_round(a, url)
    assert said.started_over
    a_round(b, url)
    assert sheets(b) == made == sheets(a)
