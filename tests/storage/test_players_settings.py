"""Known players (stable ids, renames that keep history) and settings."""

from __future__ import annotations

import pytest

from companion.storage import DEFAULT_SETTINGS, NoSuchPlayer, Player, PlayerError

from .builders import hand_for, new_match, partnership_match
from tests.play import play, books


def test_creating_a_match_makes_its_players_known(store, again):
    record = play(store).start(new_match("Anna", "Ben"))
    store = again(store)
    players = store.players()
    assert [p.name for p in players] == ["Anna", "Ben"]
    assert record.player_ids == tuple((p.id,) for p in players)


def test_a_player_is_found_by_name_whatever_the_case_and_spacing(store, again):
    anna = store.player_id("Anna")
    store = again(store)
    assert store.player_id("anna") == anna
    assert store.player_id("  ANNA ") == anna
    assert store.player_id("Anna Maria") != anna
    assert [p.name for p in store.players()] == ["Anna", "Anna Maria"]


def test_a_new_match_with_a_known_player_refers_to_the_same_id_and_takes_the_stored_spelling(store):
    first = play(store).start(new_match("Anna", "Ben"))
    second = play(store).start(new_match("anna", "Chris"))
    assert second.player_ids[0] == first.player_ids[0]
    assert second.match.sides[0].name == "Anna"


def test_players_are_sorted_by_name_ignoring_case_and_accents(store):
    for name in ("dora", "Ben", "Ánna", "Zoe", "Όλγα", "Άννα", "Βασίλης"):
        store.player_id(name)
    assert [p.name for p in store.players()] == ["Ánna", "Ben", "dora", "Zoe", "Άννα", "Βασίλης", "Όλγα"]


def test_an_empty_name_is_refused(store):
    with pytest.raises(PlayerError):
        store.player_id("   ")


def test_renaming_a_player_keeps_their_matches_which_show_the_new_name(store, again):
    record = play(store).start(new_match("Anna", "Ben"))
    play(store).record_hand(record.id, hand_for(0))
    anna = record.player_ids[0][0]
    store.rename_player(anna, "Anya")
    store = again(store)
    assert store.get(record.id).match.sides[0].name == "Anya"
    assert store.list_matches()[0].sides == ("Anya", "Ben")
    assert store.player_id("anya") == anna
    assert Player(anna, "Anya") in store.players()
    assert '"name": "Anya"' in books(store).export_match(record.id)
    # Playing on writes the new name; the id never changed.
    again_record = play(store).record_hand(record.id, hand_for(1))
    assert again_record.player_ids[0] == (anna,) and again_record.match.sides[0].name == "Anya"


def test_renaming_a_partner_renames_the_member_and_keeps_the_team_name(store, again):
    record = play(store).start(partnership_match())
    chris = record.player_ids[0][1]
    store.rename_player(chris, "Christos")
    store = again(store)
    side = store.get(record.id).match.sides[0]
    assert side.name == "Blue" and side.players == ("Anna", "Christos")
    assert store.list_matches()[0].members[0] == ("Anna", "Christos")


def test_renaming_to_another_players_name_is_refused(store):
    anna, ben = store.player_id("Anna"), store.player_id("Ben")
    with pytest.raises(PlayerError):
        store.rename_player(ben, "ANNA")
    store.rename_player(anna, "anna")  # a change of case is the same player
    assert [p.name for p in store.players()] == ["anna", "Ben"]
    with pytest.raises(NoSuchPlayer):
        store.rename_player("0" * 32, "Zoe")


def test_settings_start_from_the_defaults(store):
    assert store.settings() == dict(DEFAULT_SETTINGS)
    assert store.settings() == {"language": "en", "theme": "system", "last_rules": "", "keep_awake": True,
                                "language_chosen": False}


def test_changed_settings_are_kept(store, again):
    assert store.update_settings(language="el", keep_awake=False)["language"] == "el"
    store = again(store)
    assert store.settings() == {**DEFAULT_SETTINGS, "language": "el", "keep_awake": False}
    store.update_settings(theme="dark", last_rules="partnership")
    store = again(store)
    assert store.settings() == {"language": "el", "theme": "dark", "last_rules": "partnership", "keep_awake": False,
                                "language_chosen": False}


def test_settings_of_the_wrong_type_or_not_plain_data_are_refused(store):
    with pytest.raises(ValueError):
        store.update_settings(keep_awake="yes")
    with pytest.raises(ValueError):
        store.update_settings(language=None)
    with pytest.raises(ValueError):
        store.update_settings(sound=object())
    assert store.settings() == dict(DEFAULT_SETTINGS)


def test_a_new_setting_is_kept_too(store, again):
    store.update_settings(font_scale=1.25)
    store = again(store)
    assert store.settings()["font_scale"] == 1.25


def test_the_settings_returned_are_a_copy(store):
    store.settings()["language"] = "el"
    assert store.settings()["language"] == "en"


@pytest.mark.parametrize("stored, chosen", [({"language": "el"}, True), ({"language": "en", "theme": "dark"}, False),
                                            ({"theme": "dark"}, False),
                                            ({"language": "en", "language_chosen": True}, True)])
def test_a_language_stored_before_phones_spoke_their_own_counts_as_chosen(stored, chosen):
    from companion.storage.documents import settings_from_doc

    assert settings_from_doc({"schema": 1, **stored})["language_chosen"] is chosen
