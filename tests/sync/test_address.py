"""A group's address: read from one URL, plain HTTP only for this device, and the password never shown."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.i18n import LANGUAGES, Translator
from companion.sync import CouchAddress, SyncError, SyncSays
from companion.sync.address import is_local


def refused(text: str) -> SyncError:
    with pytest.raises(SyncError) as caught:
        CouchAddress.from_url(text)
    return caught.value


def test_an_address_gives_the_server_the_database_the_user_and_the_password():
    address = CouchAddress.from_url("https://anna:s3cret@couch.example.org:6984/club")
    assert address == CouchAddress("https://couch.example.org:6984", "club", "anna", "s3cret")
    assert address.url == "https://couch.example.org:6984/club"


def test_the_user_the_password_and_the_database_are_percent_decoded():
    address = CouchAddress.from_url("https://anna%40home:p%3Ass%2Fw%40rd%20x@couch.example.org/xeri%2Fthursdays")
    assert (address.user, address.password, address.database) == ("anna@home", "p:ss/w@rd x", "xeri/thursdays")
    assert address.url == "https://couch.example.org/xeri%2Fthursdays"


def test_an_address_without_a_user_signs_no_one_in():
    address = CouchAddress.from_url("https://couch.example.org/club")
    assert (address.user, address.password) == (None, None)


@pytest.mark.parametrize("url", ["http://anna:pw@localhost:5984/club", "http://127.0.0.1:5984/club",
                                 "http://[::1]:5984/club", "http://127.0.0.2/club"])
def test_plain_http_is_allowed_to_this_device_only(url):
    assert CouchAddress.from_url(url).server.startswith("http://")


@pytest.mark.parametrize("url", ["http://anna:pw@couch.example.org/club", "http://192.168.1.20:5984/club",
                                 "http://localhost.example.org/club"])
def test_plain_http_to_another_machine_is_refused_before_any_request(url):
    error = refused(url)
    assert error.reason == SyncSays.NOT_HTTPS
    assert "pw" not in str(error)


@pytest.mark.parametrize("name", ["Club", "1club", "_users", "club night", "club!", "x" * 239])
def test_a_database_name_must_follow_couchdbs_rule(name):
    error = refused(f"https://couch.example.org/{name}")
    assert error.reason == SyncSays.BAD_DATABASE_NAME


@pytest.mark.parametrize("name", ["club", "a", "xeri_2026$(x)+y-z/w", "x" * 238])
def test_every_name_couchdbs_rule_allows_is_taken(name):
    assert CouchAddress.from_url(f"https://couch.example.org/{name.replace('/', '%2F')}").database == name


@pytest.mark.parametrize("url, reason", [
    ("couch.example.org/club", SyncSays.NOT_AN_ADDRESS),
    ("ftp://couch.example.org/club", SyncSays.NOT_AN_ADDRESS),
    ("https:///club", SyncSays.NOT_AN_ADDRESS),
    ("https://couch.example.org:99999/club", SyncSays.NOT_AN_ADDRESS),
    ("https://couch.example.org/club?x=1", SyncSays.NOT_AN_ADDRESS),
    ("https://:secret@couch.example.org/club", SyncSays.NOT_AN_ADDRESS),
    ("https://couch.example.org" + "/x" * 2000, SyncSays.NOT_AN_ADDRESS),
    ("https://couch.example.org", SyncSays.NO_DATABASE_NAMED),
    ("https://couch.example.org/", SyncSays.NO_DATABASE_NAMED),
    ("https://anna@couch.example.org/club", SyncSays.NO_PASSWORD),
    ("https://anna:@couch.example.org/club", SyncSays.NO_PASSWORD),
])
def test_what_is_wrong_with_an_address_is_said(url, reason):
    assert refused(url).reason == reason


def test_is_local_knows_this_device_by_name_and_by_loopback_address():
    assert [is_local(h) for h in ("localhost", "LOCALHOST.", "app.localhost", "127.0.0.1", "127.9.9.9", "::1",
                                  "[::1]")] == [True] * 7
    assert [is_local(h) for h in ("example.org", "10.0.0.1", "::2", "localhost.example.org", "")] == [False] * 5


SECRET = st.text(min_size=1, max_size=30).map(lambda s: "Zq9!" + s)
"""A password that cannot be found by accident in the rest of an address's text."""


@given(user=st.text(min_size=1, max_size=20), password=SECRET)
def test_any_user_and_password_survive_the_address_and_the_password_is_never_shown(user, password):
    address = CouchAddress("https://couch.example.org", "club", user, password)
    again = CouchAddress.from_url(address.with_credentials())
    assert again == address
    for text in (str(address), repr(address), address.url, repr([address]), f"{address}"):
        assert password not in text


def test_the_password_is_in_no_error_an_address_can_raise():
    password = "Zq9!hunter2"
    for url in (f"http://anna:{password}@couch.example.org/club", f"https://anna:{password}@couch.example.org/Club",
                f"https://anna:{password}@couch.example.org/", f"https://anna:{password}@couch.example.org:x/club"):
        error = refused(url)
        assert password not in str(error) and password not in repr(error)
        assert all(password not in str(value) for value in error.message.values.values())
        assert all(password not in Translator(lang).say(error) for lang in LANGUAGES)


def test_an_address_error_is_said_in_every_language_with_its_values():
    error = refused("http://couch.example.org/club")
    assert str(error).startswith("http://couch.example.org is not an HTTPS address")
    for lang in LANGUAGES:
        said = Translator(lang).say(error)
        assert "http://couch.example.org" in said and "HTTPS" in said
