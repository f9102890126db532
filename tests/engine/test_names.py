"""A name's rules, once: what a name may hold, when two names are one player, how a typed name is kept."""

from __future__ import annotations

import pytest

from companion.engine.limits import MAX_NAME
from companion.engine.names import NameProblem, PlayerError, check_name, is_plain_text, name_key, problem_of, tidy
from companion.i18n import Translator


@pytest.mark.parametrize("name", ["Anna", "Κωνσταντίνος", "민준", "Çağrı", "👩\u200d👩\u200d👧",
                                  "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "نیما\u200cجان",
                                  "A" * MAX_NAME])
def test_ordinary_names_emoji_sequences_and_joined_words_are_plain_text(name):
    assert problem_of(name) is None
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["Ann\u202ea", "\u200bBen", "Ben\u200e", "An\u00adna", "\ufeffAnna", "A\u2066B",
                                  "A\x00", "A\x1b[31m", "\ud800",
                                  # Characters that draw nothing though they are letters or marks: a name of
                                  # Hangul fillers looks empty, and tags outside a flag hide a second name.
                                  "\u3164", "민\u3164준", "\uffa0", "\u115f\u1160", "\u2800", "An\u034fna",
                                  "Anna\U000e0041\U000e007f", "\U000e0067\U000e0062"])
def test_control_direction_and_invisible_characters_are_refused_in_words(name):
    assert not is_plain_text(name)
    assert problem_of(name) is NameProblem.NOT_TEXT
    with pytest.raises(PlayerError) as caught:
        check_name(name)
    english = str(caught.value)
    assert "invisible or direction-changing character" in english
    assert "\u202e" not in english and "\u200b" not in english  # the message shows the name escaped, never raw
    assert Translator("el").say(caught.value).startswith("το όνομα")


def test_a_typed_name_keeps_one_space_between_words_and_none_at_the_ends():
    assert tidy("  Anna \n  Maria\t") == "Anna Maria"
    assert check_name(" Anna\u00a0 Maria ") == "Anna Maria"


def test_empty_and_too_long_names_are_told_apart():
    assert problem_of(" \n ") is NameProblem.EMPTY
    assert problem_of("A" * (MAX_NAME + 1)) is NameProblem.TOO_LONG
    with pytest.raises(PlayerError, match=f"has {MAX_NAME + 1} characters; a name has at most {MAX_NAME}"):
        check_name("A" * (MAX_NAME + 1))
    with pytest.raises(PlayerError, match="^a player needs a name$"):
        check_name("   ")


def test_case_and_spaces_do_not_make_another_player():
    assert name_key("  anna  MARIA") == name_key("Anna Maria")
    assert name_key("Ánna") != name_key("Anna")  # an accent is part of a Greek name
