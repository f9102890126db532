"""The Sync screen's view model and the conflict screen's, without a page and without a server (a connector
that answers as the server would): what the person types, tries, joins and chooses, in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import flet as ft
import pytest

from tests.loop import run
from companion import bootstrap
from companion.net.qr import table_info
from companion.sync.errors import SyncError, SyncSays
from companion.sync.runner import CouchConnector, Status
from companion.ui.viewmodel import Access, AppModel, Screen, Session
from tests.screens import ScreenPhone, walk
from tests.service.shared_db import SharedDatabase
from tests.storage.builders import Clock, hand_for, new_match
from tests.ui.vm import start


@dataclass
class Found:
    reachable: bool = True
    signed_in: bool | None = True
    database: bool | None = True
    may_create: bool = False
    cors: bool | None = None
    version: str | None = "3.3"
    problem: SyncError | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


class Answers(CouchConnector):
    """The connector's reading of addresses, with the server's answers made up."""

    def __init__(self) -> None:
        self.answer = Found()
        self.created = False

    async def check(self, address, create=False):
        if create and self.answer.may_create:
            self.created = True
            return Found()
        return self.answer


@pytest.fixture
def phone(tmp_path):
    parts = bootstrap.build(bootstrap.open_folder(tmp_path / "data"), clock=Clock())
    connector = Answers()
    parts.services.group.connector = connector
    app = AppModel(parts.services, session=Session(parts.services))
    app.connector = connector
    yield app, parts
    parts.close()


def test_an_address_that_is_not_one_is_said_in_words_and_nothing_is_tried(phone):
    app, _ = phone
    app.sync.open()
    app.sync.set_field("server", "http://example.com")
    app.sync.set_field("database", "club")
    app.sync.test()
    assert "is not an HTTPS address" in app.session.notice.text and app.sync.found is None


def test_test_says_each_step_and_join_keeps_the_group_only_when_it_works(phone):
    app, parts = phone
    app.sync.open()
    for name, value in (("server", "https://couch.example"), ("database", "club"), ("user", "anna"),
                        ("password", "s3cret")):
        app.sync.set_field(name, value)
    app.connector.answer = Found(problem=SyncError(SyncSays.WRONG_CREDENTIALS, server="https://couch.example"),
                                 signed_in=False, database=None)
    app.sync.join()
    assert app.sync.group() is None
    assert any("does not accept this user name and password" in line for line in app.sync.found.lines)
    app.connector.answer = Found()
    app.sync.join()
    assert app.sync.group() == "anna @ https://couch.example/club"
    assert app.session.notice.text.startswith("Joined anna @ https://couch.example/club")
    assert "s3cret" not in app.sync.group() and app.sync.password == ""
    link = app.sync.join_link()
    assert link.endswith("#join=https%3A%2F%2Fanna%3As3cret%40couch.example%2Fclub")


def test_a_missing_database_is_offered_to_be_created_when_the_user_may(phone):
    app, _ = phone
    app.sync.open()
    app.sync.paste("https://anna:pw@couch.example/club")
    assert (app.sync.server, app.sync.database, app.sync.user) == ("https://couch.example", "club", "anna")
    app.connector.answer = Found(database=False, may_create=True,
                                 problem=SyncError(SyncSays.NO_DATABASE, server="https://couch.example",
                                                   database="club"))
    app.sync.test()
    assert app.sync.found.may_create and not app.sync.found.ok
    app.sync.test(create=True)
    assert app.connector.created and app.sync.found.ok


@pytest.mark.parametrize("access", list(Access))
def test_the_join_qr_and_leave_are_for_a_phone_that_keeps_score_never_for_a_watcher(phone, access):
    app, parts = phone
    app.sync.open()
    app.sync.paste("https://anna:s3cret@couch.example/club")
    app.sync.join()
    other = AppModel(parts.services, session=Session(parts.services, access=access))
    other.sync.open()                                           # a watcher reaches the Sync screen…
    drawn = ScreenPhone(other)
    assert other.session.screen is Screen.SYNC and "anna @ https://couch.example/club" in drawn.screen_text()
    shown = drawn.by_id_count("sync-show-qr"), drawn.by_id_count("sync-leave")
    other.sync.show_join_qr()
    other.sync.ask_leave()
    if access is Access.WATCHER:                               # …and sees neither, and is refused either
        assert shown == (0, 0)
        assert other.session.detail is None and other.session.question is None
        assert other.sync.join_link() is None and other.session.notice.text.startswith("This phone can only watch")
        assert "s3cret" not in drawn.screen_text() and app.sync.group() is not None
    else:
        assert shown == (1, 1)
        assert other.session.detail.ident == "join-qr" and "s3cret" in other.sync.join_link()
        other.confirm()
        assert app.sync.group() is None


def test_a_join_link_fills_the_fields_and_leaving_forgets_the_group(phone):
    app, _ = phone
    app.sync.open()
    app.sync.paste("https://xeri.example/#join=https%3A%2F%2Fben%3Apw%40couch.example%2Fthursdays")
    assert (app.sync.user, app.sync.password, app.sync.database) == ("ben", "pw", "thursdays")
    app.sync.join()
    assert app.sync.group() is not None
    app.sync.ask_leave()
    app.confirm()
    assert app.sync.group() is None and "left the group" in app.session.notice.text


def saved_apart(tmp_path, names=("", "")):
    """Devices A and B of one group, one match; each saved its own hand 2 while apart; A knows both now. `names`:
    the names A and B go by in the group."""
    shared = SharedDatabase()
    devices = []
    for name in ("a", "b"):
        parts = bootstrap.build(bootstrap.open_folder(tmp_path / name), clock=Clock())
        devices.append(parts)
    a, b = devices
    m = a.services.table.start(new_match(hands=1)).id
    for parts in (a, b, a, b):
        run(parts.services.sync.once(shared))
    for parts, name in zip(devices, names):
        if name:
            parts.services.library.update_settings(device_name=name)
    a.services.table.record_hand(m, hand_for(5))
    b.services.table.record_hand(m, hand_for(6))
    for parts in (a, b, a):
        run(parts.services.sync.once(shared))
    return shared, devices, m


def test_two_versions_of_a_hand_are_shown_side_by_side_and_the_choice_counts(tmp_path):
    shared, devices, m = saved_apart(tmp_path)
    a, b = devices
    app = AppModel(a.services, session=Session(a.services))
    app.scoreboard.open()
    assert app.sync.conflicts(m) == [(1, 2)]
    app.sync.open_conflict(m, 1)
    assert app.screen is Screen.CONFLICT and app.sync.conflict_title() == "Hand 2: choose"
    versions = app.sync.versions()
    assert len(versions) == 2 and versions[0].title.startswith("Version 1 · saved ")
    assert versions[0].points != versions[1].points and versions[0].sides[0].lines
    chosen = a.services.sync.conflicts(m)[0].versions[1].entry
    app.sync.keep([versions[1].id])
    assert app.sync.conflicts(m) == [] and app.screen is Screen.SCOREBOARD
    assert app.scoreboard.match.hands[1] == chosen == a.services.table.get(m).match.hands[1]
    for parts in (a, b):
        run(parts.services.sync.once(shared))
    assert b.services.table.get(m).match.hands[1] == chosen and b.services.sync.conflicts(m) == ()
    for parts in devices:
        parts.close()


def test_a_versions_time_is_shown_in_the_devices_time_zone(monkeypatch):
    import time

    from companion.ui.viewmodel.sync import _clock_time

    monkeypatch.setenv("TZ", "Europe/Athens")
    time.tzset()
    try:
        assert _clock_time("2026-12-01T19:15:03Z") == "21:15"            # Athens is UTC+2 in December
        assert _clock_time("2026-12-01Tbroken") == "broke"                # a broken stamp: no traceback
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_in_step_is_said_only_when_the_last_round_checked_it(phone):
    import time

    from companion.sync.runner import Status

    app, _ = phone
    app.sync.open()
    app.sync.paste("https://anna:pw@couch.example/club")
    app.sync.join()
    said = {}
    for in_step in (False, True):
        app.session.sync_status = lambda in_step=in_step: Status("ok", time.time() - 3, in_step=in_step)
        said[in_step] = app.sync.status()[0]
    assert said == {False: "Catching up with the group: what another phone wrote meanwhile is being read.",
                    True: "In step with the group (3 seconds ago)."}


def test_a_join_link_typed_character_by_character_is_kept_says_nothing_until_join_and_then_fills_the_fields(phone):
    """The join-link field took only a paste: each keystroke was read as a whole address, said to be wrong,
    and the field emptied by the redraw. Now what is typed stays, and the fields fill once it reads as one."""
    app, _ = phone
    app.sync.open()
    link = "https://anna:pw@couch.example/club"
    drawn = ScreenPhone(app)
    for i in range(1, len(link) + 1):
        drawn.type("sync-paste", link[:i])        # the field holds what was typed, redrawn after each key
        assert app.session.notice is None, link[:i]
    assert (app.sync.server, app.sync.database, app.sync.user) == ("https://couch.example", "club", "anna")
    assert app.session.notice is None
    app.sync.join()
    assert app.sync.group() is not None


def test_an_incomplete_link_is_said_on_join_and_the_error_goes_once_the_link_reads(phone):
    app, _ = phone
    app.sync.open()
    app.sync.paste("https://anna:pw@")
    assert app.session.notice is None
    app.sync.join()
    assert app.session.notice is not None and app.sync.group() is None      # said now, in words
    app.sync.paste("https://anna:pw@couch.example/club")
    assert app.session.notice is None and app.sync.database == "club"


def wrong_password_tested(app) -> None:
    """The Sync screen, a server that refuses the password (and says no version), and Test pressed."""
    app.sync.open()
    app.sync.paste("https://anna:wrong@couch.example/club")
    app.connector.answer = Found(version=None, signed_in=False, database=None,
                                 problem=SyncError(SyncSays.WRONG_CREDENTIALS, server="https://couch.example"))
    app.sync.test()


def test_a_server_that_answered_without_its_version_is_said_to_answer_with_no_question_mark(phone):
    app, _ = phone
    wrong_password_tested(app)
    assert app.sync.found.lines[0] == "The server answers." and "?" not in " ".join(app.sync.found.lines)


def joined(parts, table=None, address="http://127.0.0.1:8550/") -> AppModel:
    app = AppModel(parts.services, session=Session(parts.services, table=table))
    app.session.app_address = address
    app.sync.open()
    app.sync.paste("https://anna:s3cret@couch.example/club")
    app.sync.join()
    return app


def test_a_laptop_serving_the_network_puts_its_network_address_in_the_join_link_not_its_loopback(phone):
    _, parts = phone
    app = joined(parts, table=table_info("http://192.168.1.20:8550/", "K7P2QX"))
    assert app.sync.join_link().startswith("http://192.168.1.20:8550/#join=https%3A%2F%2Fanna")
    app.sync.show_join_qr()
    assert "serves the app to itself only" not in app.session.detail.text


def test_a_laptop_serving_only_itself_says_a_phone_cannot_open_its_join_link(phone):
    _, parts = phone
    app = joined(parts)
    app.sync.show_join_qr()
    assert "another phone cannot open this link" in app.session.detail.text


def test_copy_the_join_link_puts_it_on_the_clipboard_and_says_it_holds_the_password(phone):
    _, parts = phone
    app = joined(parts, address="https://xeri.example/")
    copied: list[str] = []

    def clipboard(text, done, failed):
        copied.append(text)
        app.session.say(done)

    app.session.copy_text = clipboard
    ScreenPhone(app).tap("sync-copy-link")
    assert copied == [app.sync.join_link()] and "holds the group's password" in app.session.notice.text


@pytest.mark.parametrize("status, kind, words", [
    (Status("ok", at=1.0, in_step=True), "done", "In step with the group"),
    (Status("ok", at=1.0, waiting=2), "waiting", "2 changes waiting to be sent"),
    (Status("failing", at=None, waiting=1), "off", "Not syncing yet"),
    (Status("ok", at=1.0, conflicts=1, in_step=True), "choose", "1 hand to choose"),
    (Status("syncing", at=1.0), "catching", "Catching up with the group"),
])
def test_the_sync_mark_says_where_the_device_stands_on_home_and_the_scoreboard_and_opens_sync(phone, status, kind,
                                                                                               words):
    _, parts = phone
    app = joined(parts)
    app.session.sync_status = lambda: status
    mark = app.sync.mark()
    assert mark.kind == kind and mark.words.startswith(words) and mark.problem == (kind in ("off", "choose"))
    app.home()
    drawn = ScreenPhone(app)
    node, _ = drawn.node("sync-mark")
    button = node.content
    assert (button.width, button.height) == (48, 48)     # the same size in every state: nothing moves
    assert node.label == mark.words
    start(app)
    ScreenPhone(app).tap("sync-mark")
    assert app.screen is Screen.SYNC


def test_a_failing_round_says_since_when_in_the_devices_time(phone, monkeypatch):
    _, parts = phone
    app = joined(parts)
    at = datetime(2026, 12, 5, 21, 5).timestamp()
    app.session.sync_status = lambda: Status("failing", at=at)
    assert app.sync.mark().words.startswith("Not syncing since 21:05")


def test_no_mark_outside_a_group(phone):
    app, _ = phone
    app.session.sync_status = lambda: Status("off")
    assert app.sync.mark() is None and ScreenPhone(app).by_id_count("sync-mark") == 0


def test_on_a_phone_the_versions_come_one_at_a_time_what_differs_is_marked_and_keep_stays_in_view(tmp_path):
    _, devices, m = saved_apart(tmp_path)
    a, _ = devices
    app = AppModel(a.services, session=Session(a.services))
    app.session.viewport = (390, 844)
    app.scoreboard.open()
    app.sync.open_conflict(m, 1)
    versions = app.sync.versions()
    assert sorted(v.where for v in versions) == ["saved on another device", "saved on this device"]
    theirs = [v.where for v in versions].index("saved on another device")   # B's hand: hand_for(6)
    assert versions[0].differs and versions[0].differs == versions[1].differs    # the same lines, on both
    unchanged = {(side.side, line.label) for side in versions[0].sides for line in side.lines} - versions[0].differs
    assert unchanged, "some lines are alike in both versions, and are not marked"
    phone = ScreenPhone(app)
    assert phone.by_id_count("keep-version-0") == 1 and phone.by_id_count("keep-version-1") == 0
    assert phone.text_of("version-1-points") == versions[1].points          # the switch shows both scores
    assert "differs" in phone.screen_text()
    phone.tap("show-version-1")
    assert phone.by_id_count("keep-version-1") == 1 and phone.by_id_count("keep-version-0") == 0
    assert versions[1].where in phone.screen_text()
    phone.tap(f"show-version-{theirs}")
    phone.tap(f"keep-version-{theirs}")
    assert app.sync.conflicts(m) == [] and a.services.table.get(m).match.hands[1] == hand_for(6)
    for parts in devices:
        parts.close()


def test_sideways_both_versions_and_both_keeps_are_side_by_side(tmp_path):
    _, devices, m = saved_apart(tmp_path)
    a, _ = devices
    app = AppModel(a.services, session=Session(a.services))
    app.session.viewport = (844, 390)
    app.sync.open_conflict(m, 1)
    phone = ScreenPhone(app)
    assert all(phone.by_id_count(i) == 1 for i in ("version-0", "version-1", "keep-version-0", "keep-version-1"))
    assert phone.by_id_count("keep-both") == 1 and "two different hands" in phone.text_of("keep-both")
    for parts in devices:
        parts.close()


def test_join_with_a_wrong_password_says_so_where_the_eye_is(phone):
    """Join after a failed Test did nothing visible (the card already said it): it says so in the strip."""
    app, _ = phone
    wrong_password_tested(app)
    app.sync.join()
    assert app.sync.group() is None
    assert app.session.notice.text.startswith("Not joined: the server at https://couch.example does not accept")


def test_the_device_name_field_keeps_a_name_and_refuses_one_that_cannot_be(phone):
    _, parts = phone
    app = joined(parts)
    drawn = ScreenPhone(app)
    drawn.type("sync-device-name", "Anna's phone")
    assert "device_name" not in parts.services.library.settings()     # typing writes nothing ...
    field = next(c for c, _ in walk(drawn.node("sync-device-name")[0]) if isinstance(c, ft.TextField))
    field.on_blur()                                                   # ... leaving the field keeps it
    assert parts.services.library.settings()["device_name"] == "Anna's phone"
    drawn.type("sync-device-name", "x" * 41)
    assert app.sync.device_name_problem() == "A name has at most 40 characters."
    app.sync.keep_device_name()
    assert parts.services.library.settings()["device_name"] == "Anna's phone"      # the last good one stays


def test_a_version_saved_on_a_named_device_says_its_name(tmp_path):
    _, devices, m = saved_apart(tmp_path, names=("", "Ben's phone"))
    a, _ = devices
    app = AppModel(a.services, session=Session(a.services))
    app.sync.open_conflict(m, 1)
    assert {v.where for v in app.sync.versions()} == {"saved on this device", "saved on Ben's phone"}
    for parts in devices:
        parts.close()


def test_a_match_stopped_on_a_named_phone_of_the_same_device_says_its_name(phone):
    _, parts = phone
    parts.services.library.update_settings(device_name="Anna's laptop")
    a = joined(parts)
    b = AppModel(parts.services, session=Session(parts.services))
    a.session.announce = lambda msg: b.scoreboard.refresh(msg["match"], msg["replaces"])
    start(a)
    run(parts.services.sync.once(SharedDatabase()))     # the group knows the match: its stop is a document
    b.scoreboard.open()
    a.scoreboard.ask_abandon()
    a.confirm()
    assert b.session.notice.text.startswith("Anna's laptop stopped the match Anna · Ben")
