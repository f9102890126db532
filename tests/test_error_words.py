"""Errors in words: an error a person can meet says what is wrong in the person's language, with its numbers;
every sentence an error can say is in every catalog, with the same English as the code that raises it."""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import re
import string
import zipfile
from pathlib import Path

import pytest

import companion.formats.archive as archive
from companion.service import Backups
from companion.engine import Goal, HandEntry, Match, RuleSet, RulesError, Side, parse_card
from companion.engine.match import MatchOver, standing
from companion.engine.messages import Message, SaidError, Says
from companion.formats.matchfile import loads
from companion.formats.presets import preset
from companion.history.whatif import what_if
from companion.i18n import LANGUAGES, Translator, catalog
from companion.i18n.fmt import integer

ROOT = Path(__file__).resolve().parent.parent
OTHERS = [code for code in LANGUAGES if code != "en"]
KEPT = {"JSON", "Xeri", "UTF", "zip"}
"""Latin words a translated error may keep: names of formats and of the game (see i18n_allowlist.json)."""
TITLES = {"el": ["Κλασική"], "ko": ["클래식"], "tr": ["Klasik"]}


def families() -> list[type[Says]]:
    """Every family of error sentences the app defines: each module that declares one is imported first (a
    test's own families are left out)."""
    for path in sorted((ROOT / "companion").rglob("*.py")):
        if re.search(r"^class \w+\(Says\):", path.read_text(encoding="utf-8"), re.MULTILINE):
            importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    found, todo = [], [Says]
    while todo:
        for family in todo.pop().__subclasses__():
            todo.append(family)
            if family.__module__.startswith("companion."):
                found.append(family)
    return found


def sentence_faults(families: list[type[Says]], catalogs: dict[str, dict[str, str]]) -> list[str]:
    """What is wrong with the families' sentences: a key a catalog lacks, English that differs from the code's,
    two members of one English (an enum makes the second an alias: its key would be lost)."""
    out = []
    for family in families:
        aliases = sorted(set(family.__members__) - {m.name for m in family})
        out += [f"{family.__name__}.{name}: the same English as another member" for name in aliases]
        for member in family:
            out += [f"{lang}: no {member.key}" for lang, words in catalogs.items() if member.key not in words]
            if catalogs["en"].get(member.key, member.value) != member.value:
                out.append(f"{member.key}: en.json says {catalogs['en'][member.key]!r}, the code {member.value!r}")
    return out


def test_every_sentence_an_error_can_say_is_in_every_catalog_with_the_codes_english():
    assert len(families()) >= 10
    assert sentence_faults(families(), {lang: catalog(lang) for lang in LANGUAGES}) == []


def test_the_sentence_check_can_fail():
    class Stray(Says):
        __prefix__ = "error.stray"
        NOWHERE = "no catalog says this"
        AGAIN = "no catalog says this"

    class Moved(Says):
        __prefix__ = "error.match"
        OVER = "the match ended"

    catalogs = {lang: catalog(lang) for lang in LANGUAGES}
    assert sentence_faults([Stray], catalogs) == ["Stray.AGAIN: the same English as another member"] + [
        f"{lang}: no error.stray.nowhere" for lang in LANGUAGES]
    assert sentence_faults([Moved], catalogs) == [
        "error.match.over: en.json says 'the match is over: no more hands can be recorded', the code 'the match ended'"]


def test_an_error_that_says_what_is_wrong_is_raised_with_a_sentence_never_with_words():
    with pytest.raises(TypeError):
        RulesError("a rule set is a JSON object")
    assert str(RulesError(Message("error.rules.not_an_object", "a rule set is a JSON object"))) == \
        "a rule set is a JSON object"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def raise_sites(sources: dict[str, str]) -> list[tuple[str, str, set[str], bool]]:
    """(where, `FamilySays.MEMBER`, the value names given, given with `**`) of every `X(FamilySays.MEMBER, …)`
    and `FamilySays.MEMBER.of(…)` in `sources` (file name → code)."""
    found = []
    for name, code in sources.items():
        for node in ast.walk(ast.parse(code)):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "of":
                said = node.func.value
            else:
                said = node.args[0] if node.args else None
            if (isinstance(said, ast.Attribute) and isinstance(said.value, ast.Name)
                    and said.value.id.endswith("Says") and said.attr.isupper()):
                given = {k.arg for k in node.keywords if k.arg}
                found.append((f"{name}:{node.lineno}", f"{said.value.id}.{said.attr}", given,
                              any(k.arg is None for k in node.keywords)))
    return found


def raise_faults(sources: dict[str, str]) -> tuple[list, list]:
    """Raises of a sentence no family has, and raises that leave out a value their sentence names."""
    members = {f"{family.__name__}.{m.name}": m.value for family in families() for m in family}
    sites = raise_sites(sources)
    unknown = [(where, said) for where, said, _, _ in sites if said not in members]
    missing = [(where, said, sorted(placeholders(members[said]) - given)) for where, said, given, spread in sites
               if said in members and not spread and placeholders(members[said]) - given]
    return unknown, missing


def test_every_raise_gives_each_value_its_sentence_names():
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "companion").rglob("*.py"))}
    assert len(raise_sites(sources)) > 40
    assert raise_faults(sources) == ([], [])


def test_the_raise_check_can_fail():
    code = "raise RulesError(RulesSays.TARGET_TOO_HIGH, target=5)\nraise MatchError(MatchSays.GONE)\n"
    assert raise_faults({"x.py": code}) == ([("x.py:2", "MatchSays.GONE")],
                                            [("x.py:1", "RulesSays.TARGET_TOO_HIGH", ["max"])])


# --- each family, said in each language ------------------------------------------------------------------

def sentences(message: Message) -> list[Message]:
    """A message and the sentences nested in its values (a rule set's title is a name, not a sentence)."""
    keys = {m.key for family in families() for m in family}
    nested = [v.message if isinstance(v, SaidError) else v for v in message.values.values()]
    return [message] + [s for v in nested if isinstance(v, Message) and v.key in keys for s in sentences(v)]


def template_words(message: Message) -> set[str]:
    """The English words of a message's sentences, their values left out."""
    text = " ".join(re.sub(r"\{[^}]*\}", " ", m.english) for m in sentences(message))
    return set(re.findall(r"[A-Za-z]{3,}", text)) - KEPT


def english_left(error: SaidError, said: str) -> list[str]:
    """The English words of the error's sentences still in `said`, once the values it holds as they are
    (a field name, a name, a parser's words) are taken out."""
    for message in sentences(error.message):
        for value in message.values.values():
            if isinstance(value, str):
                said = said.replace(value, " ")
    return sorted(w for w in template_words(error.message) if re.search(rf"\b{w}\b", said, re.IGNORECASE))


def caught(action) -> SaidError:
    """The error `action` raises, or returns (an import reports its errors instead of raising them)."""
    try:
        result = action()
    except SaidError as exc:
        return exc
    assert isinstance(result, SaidError), "no error was raised"
    return result


def two_hands() -> tuple[HandEntry, HandEntry]:
    """Two hands a side wins by 282 to 22: the first decides a race to 151 or a match of one hand."""
    big = HandEntry(cards=(26, 26), counting=(10, 10), xeris=(13, 0), jack_xeris=(0, 0), ten_of_diamonds=0, two=1)
    return big, big


def classic_file(*hands, **changes) -> str:
    hand = {"cards": [30, 22], "counting": [12, 8], "xeris": [0, 0], "jack_xeris": [0, 0], "ten_of_diamonds": 0,
            "two": 1}
    return json.dumps({"format": "xeri-match", "version": 1, "rules": "classic", "goal": {"target": 151},
                       "sides": [{"name": "Anna"}, {"name": "Ben"}], "hands": [{**hand, **h} for h in hands],
                       **changes})


LONG_XERIS = "[0, " + "9" * 5000 + "]"
"""Ben's xeris written with 5,000 digits: more than Python turns into an int."""


class Library:
    """Just enough of the service's library for an import that reads no match."""

    def batch(self):
        return contextlib.nullcontext()


def refused_import(files) -> SaidError:
    report = Backups(Library()).import_files(files)
    assert report.imported == [] and len(report.failed) == 1
    return report.failed[0][1]


def many_entries() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for k in range(11):
            zf.writestr(f"matches/{k}.json", "{}")
    return buffer.getvalue()


def too_big_entry() -> SaidError:
    return caught(lambda: archive._read_capped(io.BytesIO(b" " * (archive.MAX_ENTRY_BYTES + 1)), "big.json"))


def counted_match() -> Match:
    """A classic match of one counted hand: it says who took the 2♣, not who took the 2♠."""
    return Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")), goal=Goal(hands=3), hands=two_hands()[:1])


ERRORS = {
    # family: (how to meet it, what each language's words must hold, beside the values every language shares)
    "card": (lambda: parse_card("11H"), {}, ["'11H'", "C D H S", "♣ ♦ ♥ ♠"]),
    "rules": (lambda: Goal(target=20000), {lang: [integer(10000, lang)] for lang in LANGUAGES}, ["20000"]),
    "rules in a rule set": (lambda: RuleSet.from_dict({**preset("classic").to_dict(), "direction": "sideways"}),
                            {}, ["direction", "'sideways'", "'clockwise'", "'anticlockwise'"]),
    "preset": (lambda: preset("poker"), {}, ["'poker'", "classic, plain"]),
    "match": (lambda: Match.new(preset("classic"), [Side("Anna"), Side("Ben"), Side("Chris")]), TITLES, ["2", "3"]),
    "match over": (lambda: standing(Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")),
                                          goal=Goal(hands=1), hands=two_hands())), {}, ["1", "2"]),
    "match file": (lambda: loads(classic_file({}, {}, {"cards": [5200, 0]})),
                   {"en": ["hand 3"], "el": ["χέρι 3"], "ko": ["3라운드"], "tr": ["3. el"]}, ["'cards'", "5200", "52"]),
    "match file, side": (lambda: loads(classic_file(sides=[{"name": "Anna"}, {"name": "x" * 41}])),
                         {"en": ["side 2"], "el": ["πλευρά 2"], "ko": ["2번 편"], "tr": ["2. taraf"]}, ["41", "40"]),
    "match file, JSON": (lambda: loads('{"format": "xeri-match",\n  "version": }'), {}, ["2", "14", "Expecting value"]),
    "match file, a long number": (lambda: loads(classic_file({"xeris": [0, 7]}).replace("[0, 7]", LONG_XERIS)),
                                  {lang: [integer(5000, lang)] for lang in LANGUAGES}, ["Ben"]),
    "archive": (lambda: refused_import([("many.zip", many_entries())]), {}, ["11", "10"]),
    "archive, size": (too_big_entry, {}, ["big.json", "4 MB"]),
    "archive, text": (lambda: refused_import([("b.json", b"\xff\xfe")]), {}, ["UTF-8"]),
    "what if": (lambda: what_if(counted_match(), preset("greek-online")), {}, ["2♣", "2♠"]),
}


@pytest.fixture
def few_entries(monkeypatch):
    monkeypatch.setattr(archive, "MAX_ENTRIES", 10)


@pytest.mark.parametrize("family", list(ERRORS))
@pytest.mark.parametrize("lang", OTHERS)
def test_each_family_of_errors_says_what_is_wrong_in_the_persons_language_with_its_values(family, lang, few_entries):
    meet, words, values = ERRORS[family]
    error = caught(meet)
    said = Translator(lang).say(error)
    assert english_left(error, said) == [], said
    assert said != str(error)
    for value in values + words.get(lang, []):
        assert value in said, (value, said)
    for value in words.get("en", []):
        assert value in str(error)


def test_the_english_left_check_can_fail():
    error = caught(lambda: Match.new(preset("classic"), [Side("Anna"), Side("Ben"), Side("Chris")]))
    assert english_left(error, "με τους κανόνες «Κλασική» παίζουν 2 sides, όχι 3") == ["sides"]
    assert english_left(error, str(error)) == sorted(template_words(error.message))
    error = caught(lambda: loads(classic_file({}, {}, {"cards": [5200, 0]})))
    assert english_left(error, "3. el: 'cards' of side 1 is 5200") == ["side"]       # a sentence nested in another
    assert english_left(error, "hand 3: 1번 편의 'cards' 값이 5200입니다") == ["hand"]


def test_a_hands_problems_are_said_in_the_persons_language_naming_the_hand_and_the_side():
    error = caught(lambda: loads(classic_file({}, {"cards": [43, 9], "counting": [11, 9]})))
    assert str(error) == "hand 2: Ben captured 9 cards but holds 10 counting and special cards."
    assert Translator("ko").say(error) == "2라운드: Ben: 획득한 카드는 9장인데 가진 점수 카드와 특수 카드는 10장입니다."
    assert Translator("tr").say(error).startswith("2. el: Ben: 9 kağıt toplamış")


def test_a_rule_sets_name_is_said_by_its_title_and_a_name_no_catalog_knows_as_it_is():
    odd = RuleSet.from_dict({**preset("classic").to_dict(), "name": "house"})
    error = caught(lambda: Match.new(odd, [Side("A"), Side("B"), Side("C")]))
    assert Translator("el").say(error).startswith("με τους κανόνες «house» παίζουν 2 πλευρές")
    assert str(caught(lambda: Match.new(preset("classic"), [Side("A")]))).startswith("classic rules are played by 2")


def test_a_match_over_says_where_it_ended_and_still_keeps_the_hand_as_a_number():
    error = caught(lambda: standing(Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")),
                                          goal=Goal(hands=1), hands=two_hands())))
    assert isinstance(error, MatchOver) and error.decided_at == 0
    assert str(error) == "the match was decided at hand 1, but 2 hands are recorded"
    assert Translator("el").say(error) == "η παρτίδα κρίθηκε στο χέρι 1, αλλά είναι καταγραμμένα 2 χέρια"
