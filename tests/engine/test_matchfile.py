"""The match file (docs/match-file.md): reading, refusing, writing, and the shipped examples."""

import json
import re
from pathlib import Path

import pytest

from companion.engine import Goal, Status, finish_now, parse_card, standing
from companion.formats.matchfile import MatchFileError, dumps, hand_from_dict, hand_to_dict, loads, match_from_dict, match_to_dict

from .builders import exact_hand, held, match, rules, teams, won_by

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"


def doc(**changes) -> dict:
    """A sound classic match document with one hand, changed as given."""
    base = {
        "format": "xeri-match", "version": 1, "rules": "classic",
        "sides": [{"name": "Anna"}, {"name": "Ben"}],
        "goal": {"target": 151, "extension": 251}, "first_dealer": 0,
        "hands": [hand_doc()],
    }
    return {**base, **changes}


def hand_doc(**changes) -> dict:
    base = {"cards": [30, 22], "counting": [12, 8], "xeris": [1, 2], "jack_xeris": [0, 0],
            "ten_of_diamonds": 0, "two": 1}
    return {k: v for k, v in {**base, **changes}.items() if v != "-"}


def refused(document, rules_override=None) -> MatchFileError:
    with pytest.raises(MatchFileError) as error:
        match_from_dict(document, rules_override)
    return error.value


# --- reading --------------------------------------------------------------------------------------

def test_a_sound_document_becomes_a_match():
    m = match_from_dict(doc())
    assert (m.rules, [s.name for s in m.sides], m.goal, m.first_dealer) == (
        rules("classic"), ["Anna", "Ben"], Goal(151, 251), 0)
    assert m.hands[0].cards == (30, 22) and m.hands[0].ten_of_diamonds == 0


def test_rules_goal_first_dealer_and_hands_have_defaults():
    m = match_from_dict({"format": "xeri-match", "version": 1, "sides": [{"name": "Anna"}, {"name": "Ben"}]})
    assert (m.rules.name, m.goal, m.first_dealer, m.hands) == ("classic", rules("classic").goal, 0, ())
    assert match_from_dict(doc(rules="plain", goal=None, hands=[])).goal == rules("plain").goal


def test_rules_may_be_a_preset_with_overrides():
    m = match_from_dict(doc(rules={"preset": "classic", "jack_xeri_points": 25}))
    assert m.rules == rules("classic", jack_xeri_points=25)
    assert match_to_dict(m)["rules"] == {"preset": "classic", "jack_xeri_points": 25}


def test_partnership_sides_list_their_players():
    m = match_from_dict(doc(rules="partnership", goal={"hands": 7}, sides=[
        {"name": "Anna & Chris", "players": ["Anna", "Chris"]}, {"name": "Ben & Dora", "players": ["Ben", "Dora"]}]))
    assert m.sides == teams()
    assert [seat.player for seat in m.seats] == ["Anna", "Ben", "Chris", "Dora"]


def test_a_hand_may_say_only_who_had_most_cards_or_null_for_a_tie():
    for most in (1, None):
        entry = hand_from_dict(hand_doc(cards="-", most_cards=most))
        assert (entry.cards, entry.most_cards) == (None, most)


def test_an_exact_hand_lists_the_cards_held_by_code_or_symbol():
    entry = hand_from_dict({"cards": [30, 22], "xeris": [0, 0], "jack_xeris": [0, 0],
                            "held": [["10♦", "as"], ["2C"]]})
    assert entry.held == ((parse_card("10D"), parse_card("AS")), (parse_card("2C"),))
    assert hand_to_dict(entry)["held"] == [["10D", "AS"], ["2C"]]


def test_the_meta_object_is_accepted_and_written_back_as_given():
    meta = {"place": "Καφενείο", "tags": ["summer", 2024]}
    m = match_from_dict(doc(meta=meta))
    assert match_to_dict(m, meta)["meta"] == meta
    assert "meta" not in match_to_dict(m)


def test_a_rules_override_rescores_under_another_preset_and_keeps_the_variant_switches():
    assert match_from_dict(doc(), "plain").rules == rules("plain")
    m = match_from_dict(doc(rules={"preset": "classic", "jack_xeri_points": 25}), "plain")
    assert m.rules == rules("plain", jack_xeri_points=25)


def test_a_rules_override_may_end_the_match_earlier_without_refusing_the_file():
    hands = [hand_doc(cards=[26, 26], counting=[10, 10], xeris=[0, 0], jack_xeris=[2, 0])] * 2
    document = doc(goal={"target": 60}, hands=hands)
    assert standing(match_from_dict(document)).decided_at == 1
    with_25 = match_from_dict(doc(goal={"target": 60}, hands=hands,
                                  rules={"preset": "classic", "jack_xeri_points": 25}), "classic")
    assert standing(with_25, strict=False).hands_after_end == 1


# --- refusing -------------------------------------------------------------------------------------

@pytest.mark.parametrize("changes, said", [
    ({"format": "something-else"}, 'this is not a Xeri match file (it needs "format": "xeri-match")'),
    ({"version": 2}, "match file version 2 is not known; this app reads version 1"),
    ({"score": 3}, "match files have no field 'score'"),
    ({"rules": "poker"}, "there are no 'poker' rules; known rule sets: classic, plain, greek-online, partnership, pisti"),
    ({"rules": {"preset": "classic", "name": "mine"}}, "the name of a rule set comes from its preset"),
    ({"rules": {"preset": "classic", "joker_points": 5}}, "rule sets have no setting 'joker_points'"),
    ({"rules": {"jack_xeri_points": 25}}, 'rules are a preset name or an object {"preset": "classic", …}'),
    ({"sides": "Anna, Ben"}, "'sides' is a list of sides"),
    ({"sides": [{"name": "Anna"}]}, "classic rules are played by 2 sides, not 1"),
    ({"sides": [{"name": "Anna"}, {"nom": "Ben"}]}, "side 2 is an object with a 'name'"),
    ({"sides": [{"name": "Anna"}, {"name": "Ben", "age": 9}]}, "side 2 has no field 'age'"),
    ({"goal": {"hands": 0}}, "a match of 0 hands cannot be played: agree on 1 or more"),
    ({"goal": {"rounds": 3}}, "a goal has no field 'rounds'"),
    ({"first_dealer": 2}, "there is no seat 2 to deal first; seats are 0 to 1"),
    ({"first_dealer": "Anna"}, "'first_dealer' is a seat number"),
    ({"hands": {"1": {}}}, "'hands' is a list of hands"),
])
def test_a_document_that_is_not_a_match_is_refused_saying_why(changes, said):
    assert str(refused(doc(**changes))) == said


@pytest.mark.parametrize("changes, said", [
    ({"xeris": "-"}, "hand 1 needs 'xeris' (one number per side; 0 for none)"),
    ({"most_cards": 0}, "hand 1 gives both 'cards' and 'most_cards': give one"),
    ({"cards": "-"}, "hand 1 needs 'cards' (per side) or 'most_cards' (a side, or null for a tie)"),
    ({"two": "-"}, "hand 1 needs 'two' (or 'held' in exact mode)"),
    ({"held": [["2C"], []]}, "hand 1: 'held' replaces 'counting', 'ten_of_diamonds' and 'two'"),
    ({"cards": 52}, "hand 1: 'cards' is a list with one number per side"),
    ({"bonus": 1}, "hand 1 has no field 'bonus'"),
])
def test_a_hand_of_the_wrong_shape_is_refused_naming_the_hand(changes, said):
    error = refused(doc(hands=[hand_doc(), hand_doc(**changes)]))
    assert str(error) == said.replace("hand 1", "hand 2")
    assert error.hand == 1


def test_a_card_that_does_not_exist_is_refused_naming_the_hand():
    bad = {"cards": [30, 22], "xeris": [0, 0], "jack_xeris": [0, 0], "held": [["11H"], []]}
    error = refused(doc(hands=[bad]))
    assert str(error).startswith("hand 1: '11H' is not a card")
    assert error.hand == 0


def test_an_impossible_hand_is_refused_naming_the_hand_the_side_and_the_problem():
    error = refused(doc(hands=[hand_doc(), hand_doc(cards=[43, 9], counting=[11, 9], xeris=[0, 0])]))
    assert str(error) == "hand 2: Ben captured 9 cards but holds 10 counting and special cards."
    assert error.hand == 1
    assert [p.code for p in error.problems] == ["too_few_cards"]


def test_every_problem_of_the_impossible_hand_is_said():
    error = refused(doc(hands=[hand_doc(cards=[30, 20], counting=[12, 9])]))
    assert str(error) == ("hand 1: Anna and Ben captured 50 cards; a deck has 52. "
                          "Anna and Ben have 21 counting cards; the deck has 20 (A K Q J 10).")


def test_hands_after_the_deciding_hand_are_refused_naming_the_first_of_them():
    big = hand_doc(cards=[26, 26], counting=[10, 10], xeris=[13, 0])
    error = refused(doc(hands=[big, big, big]))
    assert str(error) == "hand 3: the match was decided at hand 2, but 3 hands are recorded"
    assert error.hand == 2


def test_a_deciding_hand_after_a_draw_is_read_and_a_hand_after_it_refused():
    one, other = hand_to_dict(won_by(0)), hand_to_dict(won_by(1))
    m = match_from_dict(doc(goal={"hands": 2}, hands=[one, other, other]))
    assert (standing(m).status, standing(m).winner) == (Status.WON, 1)
    assert str(refused(doc(goal={"hands": 2}, hands=[one, other, other, one]))).startswith("hand 4: ")
    assert str(refused(doc(rules={"preset": "classic", "deciding_hand": False}, goal={"hands": 2},
                           hands=[one, other, other]))).startswith("hand 3: ")


def test_a_match_finished_early_says_so_and_is_refused_while_no_side_is_sure_to_win():
    one = hand_to_dict(won_by(0))
    m = match_from_dict(doc(goal={"hands": 3}, hands=[one, one], finished_early=True))
    assert (m.finished_early, standing(m).status, standing(m).decided_at) == (True, Status.WON, 1)
    assert str(refused(doc(goal={"hands": 3}, hands=[one], finished_early=True))) == (
        "'finished_early' says the table finished the match early, but no side is sure to win after its last hand")
    assert str(refused(doc(goal={"hands": 3}, hands=[one, one], finished_early="yes"))) == (
        "'finished_early' is true or false, not 'yes'")


def test_text_that_is_not_json_is_refused_with_the_line_and_column():
    with pytest.raises(MatchFileError, match=r"not valid JSON \(line 2, column 1"):
        loads('{"format": "xeri-match",\n}')


# --- writing and round trips ----------------------------------------------------------------------

def test_a_match_written_and_read_back_is_the_same_match():
    m = match(goal=Goal(hands=5), hands=[won_by(0), exact_hand(held(rules("classic"), Ben=["2C", "AS"]))])
    assert loads(dumps(m)) == m


def test_a_match_finished_early_or_settled_by_a_deciding_hand_is_written_and_read_back_the_same():
    early = finish_now(match(goal=Goal(hands=5), hands=[won_by(0)] * 3))
    assert match_to_dict(early)["finished_early"] is True
    assert loads(dumps(early)) == early
    assert "finished_early" not in match_to_dict(match(goal=Goal(hands=5), hands=[won_by(0)] * 3))
    decided = match(rules("plain", deciding_hand=False), goal=Goal(hands=1), hands=[won_by(0)])
    assert match_to_dict(decided)["rules"] == {"preset": "plain", "deciding_hand": False}
    assert loads(dumps(decided)) == decided
    deciding = match(goal=Goal(hands=2), hands=[won_by(0), won_by(1), won_by(0)])
    assert loads(dumps(deciding)) == deciding


def test_the_written_file_is_pretty_utf8_json_of_version_1():
    text = dumps(match_from_dict(doc(sides=[{"name": "Νίκος"}, {"name": "Μαρία"}])))
    assert "Νίκος" in text and "\\u" not in text
    assert json.loads(text)["format"] == "xeri-match" and json.loads(text)["version"] == 1
    assert text.startswith("{\n")


def test_a_document_read_and_written_again_is_unchanged():
    document = doc(meta={"note": "first game"}, hands=[hand_doc(), hand_doc(cards="-", most_cards=None)])
    assert match_to_dict(match_from_dict(document), document["meta"]) == document


# --- the shipped examples -------------------------------------------------------------------------

def example(name: str):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    return json.loads(text), loads(text)


def test_every_example_loads_scores_and_round_trips():
    paths = sorted(EXAMPLES.glob("*.json"))
    assert len(paths) >= 4
    for path in paths:
        document, m = example(path.name)
        standing(m)
        assert match_to_dict(m, document.get("meta")) == document, path.name


def test_the_classic_example_is_one_hand_of_a_race_to_151():
    _, m = example("classic-151.json")
    st = standing(m)
    assert (st.totals, st.status, st.needs) == ((26, 29), Status.PLAYING, (125, 122))


def test_the_partnership_example_is_won_on_hands_by_the_team_with_fewer_points():
    _, m = example("partnership-hands.json")
    st = standing(m)
    assert (st.totals, st.hands_won, st.status, st.winner) == ((67, 85), (2, 1), Status.WON, 0)
    assert [m.seats[m.dealer_of(h)].player for h in range(3)] == ["Anna", "Ben", "Chris"]


def test_the_greek_online_example_has_three_players_and_jack_xeris_on_any_card():
    _, m = example("greek-online.json")
    st = standing(m)
    assert [s.name for s in m.sides] == ["Νίκος", "Μαρία", "Γιώργος"]
    assert (st.totals, st.hands_won, st.status) == ((45, 46, 39), (1, 1, 0), Status.PLAYING)


def test_the_exact_mode_example_scores_the_cards_held():
    _, m = example("exact-hand.json")
    assert m.hands[0].is_exact
    assert standing(m).totals == (27, 38)


def test_the_example_in_the_match_file_documentation_loads_and_round_trips():
    text = (ROOT / "docs" / "match-file.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, re.S)
    document = json.loads(block)
    m = match_from_dict(document)
    assert standing(m).totals == (87, 95)
    assert match_to_dict(m, document["meta"]) == document


# --- a strict reader: nothing a file says is taken two ways ------------------------------------------

@pytest.mark.parametrize("version", ["true", "1.0", '"1"'])
def test_a_version_that_only_equals_1_in_python_is_refused(version):
    text = json.dumps(doc()).replace('"version": 1', f'"version": {version}')
    with pytest.raises(MatchFileError, match="match file version .* is not known"):
        loads(text)


def test_a_key_given_twice_is_refused_rather_than_the_last_one_winning():
    text = json.dumps(doc()).replace('"cards": [30, 22]', '"cards": [60, -8], "cards": [30, 22]')
    with pytest.raises(MatchFileError, match="^the key 'cards' is given twice in one object; give each key once$"):
        loads(text)


@pytest.mark.parametrize("sides, said", [
    ([{"name": "Anna"}, {"name": "anna"}], "two sides are both called 'anna'"),
    ([{"name": "Anna"}, {"name": " ANNA "}], "two sides are both called ' ANNA '"),
])
def test_two_sides_of_one_name_are_refused_whatever_the_case(sides, said):
    assert str(refused(doc(sides=sides))).startswith(said)


def test_two_partners_of_one_name_are_refused():
    document = doc(rules="partnership", goal={"hands": 7}, hands=[],
                   sides=[{"name": "Reds", "players": ["Anna", "Ben"]}, {"name": "Blues", "players": ["Chris", "ben"]}])
    assert str(refused(document)).startswith("two players are both called 'ben'")


def test_a_partnership_left_unnamed_is_kept_as_its_players_whole_and_an_unnamed_single_side_is_refused():
    long = "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλος"[:40]
    document = doc(rules="partnership", goal={"hands": 7}, hands=[],
                   sides=[{"name": "", "players": [long, "Νίκος"]}, {"name": "Blues", "players": ["Chris", "Dora"]}])
    m = match_from_dict(document)
    assert [s.name for s in m.sides] == [f"{long} & Νίκος", "Blues"]        # never cut, nothing stored for it
    assert match_to_dict(m)["sides"][0] == {"name": "", "players": [long, "Νίκος"]}
    assert loads(dumps(m)) == m
    assert "side 1" in str(refused(doc(sides=[{"name": ""}, {"name": "Ben"}])))


def test_a_byte_order_mark_before_the_json_is_accepted():
    assert loads("\ufeff" + json.dumps(doc())) == loads(json.dumps(doc()))


def test_json_nested_a_thousand_deep_is_refused_in_words():
    with pytest.raises(MatchFileError, match="^the JSON is nested too deeply to be a match file$"):
        loads('{"format": "xeri-match", "meta": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_a_number_of_five_thousand_digits_is_refused_naming_its_field():
    text = json.dumps(doc(first_dealer=0)).replace('"first_dealer": 0', '"first_dealer": ' + "7" * 5000)
    with pytest.raises(MatchFileError, match="^'first_dealer' is a seat number$"):
        loads(text)
    text = json.dumps(doc()).replace('"xeris": [1, 2]', '"xeris": [1, ' + "9" * 5000 + "]")
    with pytest.raises(MatchFileError, match="^hand 1: Ben's xeris must be a whole number, not a number of 5,000 digits.$"):
        loads(text)


def test_a_count_no_pile_can_hold_is_refused_naming_the_hand_the_field_and_the_side():
    with pytest.raises(MatchFileError, match=r"^hand 1: 'cards' of side 2 is 5200, more than the 52 cards of a deck$"):
        match_from_dict(doc(hands=[hand_doc(cards=[30, 5200])]))


@pytest.mark.parametrize("name, said", [
    ("A" * 41, "the name 'AAAA"),
    ("Anna\ud800", "holds a control character, an invisible or direction-changing character, or broken text"),
    ("Anna\nBen", "holds a control character, an invisible or direction-changing character, or broken text"),
])
def test_a_name_too_long_or_not_plain_text_is_refused(name, said):
    error = str(refused(doc(sides=[{"name": name}, {"name": "Ben"}])))
    assert error.startswith("side 1: ") and said in error and len(error) < 200


def test_a_fifty_megabyte_name_is_refused_at_once_with_a_short_message():
    with pytest.raises(MatchFileError) as error:
        loads(json.dumps(doc(sides=[{"name": "x" * 3_000_000}, {"name": "Ben"}])))
    assert "has 3,000,000 characters; a name has at most 40" in str(error.value) and len(str(error.value)) < 200
    with pytest.raises(MatchFileError, match="the file is 52,428,8.. characters long"):
        loads('{"format": "xeri-match", "sides": [{"name": "' + "x" * 50 * 1024 * 1024 + '"}]}')


def test_a_match_stored_before_names_were_limited_still_opens():
    document = doc(sides=[{"name": "A" * 60}, {"name": "a" * 60}])
    assert [s.name for s in match_from_dict(document, limit_names=False).sides] == ["A" * 60, "a" * 60]
