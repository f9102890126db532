"""The match file (`docs/match-file.md`): UTF-8 JSON documents <-> engine `Match` values."""

from __future__ import annotations

import hashlib
import json
from typing import Any
from collections.abc import Mapping

from ..engine.cards import DECK_SIZE, CardError, parse_card
from ..engine.entry import HandEntry, HandError, InvalidHand
from ..engine.limits import MAX_HANDS, MAX_NAME, LongNumber, is_whole, shown
from ..engine.match import Match, MatchError, MatchOver, Side, standing
from ..engine.messages import Message, Says
from ..engine.names import is_plain_text, name_key
from ..engine.rules import Goal, RulesError
from ..engine.scoring import score_hand
from ..i18n.explain import HandProblems
from .presets import resolve_rules, rules_spec

FORMAT = "xeri-match"
VERSION = 1
HAND_KEYS = {"cards", "most_cards", "counting", "xeris", "jack_xeris", "ten_of_diamonds", "two", "held"}
TOP_KEYS = {"format", "version", "rules", "sides", "goal", "first_dealer", "hands", "finished_early", "meta"}
MAX_FILE_CHARS = 4 * 1024 * 1024
"""The longest match file read: 1,000 hands card by card take about 600 KB, so no real file comes near."""
MAX_DIGITS = 15
"""The longest number a match file may write: no count, point value or target has more than 5 digits."""


class FileSays(Says):
    """Why a match file cannot be read. `where` is the place in the file (a `WhereSays`, or text); the
    file's own words (field names, `null`) are values, so no translation can change them."""

    __prefix__ = "error.file"
    AT = "{where}: {reason}"
    PER_SIDE = "{where}: {field} is a list with one number per side"
    PER_SIDE_TOO_BIG = "{where}: {field} of side {side} is {value}, more than the {deck} cards of a deck"
    NO_SUCH_SIDE = "{where}: {field} is {value}, which is no side"
    NOT_AN_OBJECT = "{where} is not a JSON object"
    NO_FIELD = "{where} has no field {field}"
    NEEDS_XERIS = "{where} needs {field} (one number per side; 0 for none)"
    CARDS_AND_MOST = "{where} gives both {cards} and {most_cards}: give one"
    CARDS_OR_MOST = "{where} needs {cards} (per side) or {most_cards} (a side, or {null} for a tie)"
    HELD_REPLACES = "{where}: {held} replaces {counting}, {ten_of_diamonds} and {two}"
    NEEDS_COUNTING = "{where} needs {field} (or {held} in exact mode)"
    HELD = "{where}: {field} is a list of card lists, one per side"
    SIDE = "{where} is an object with a {field}"
    PLAYERS = "{where}: {field} is a list of names (the two partners)"
    NAME_TOO_LONG = "{where}: the name {name} has {length} characters; a name has at most {max}"
    NAME_NOT_TEXT = ("{where}: the name {name} holds a control character, an invisible or direction-changing "
                     "character, or broken text (a lone surrogate); write it as plain text")
    SAME_SIDE_NAME = "two sides are both called {name}: every side needs a different name"
    SAME_PLAYER_NAME = "two players are both called {name}: every player needs a different name"
    NOT_A_MATCH_FILE = "this is not a Xeri match file (it needs {format})"
    VERSION = "match file version {version} is not known; this app reads version {known}"
    NO_TOP_FIELD = "match files have no field {field}"
    SIDES = "{field} is a list of sides"
    SIDES_COUNT = "{field} lists {sides} sides; Xeri is played by 2, 3 or 4"
    FIRST_DEALER = "{field} is a seat number"
    HANDS = "{field} is a list of hands"
    TOO_MANY_HANDS = "the file holds {hands} hands; a match holds at most {max}"
    KEY_TWICE = "the key {key} is given twice in one object; give each key once"
    TOO_LONG = "the file is {length} characters long; no match file is longer than {max}"
    TOO_BIG = "the file is larger than {size}; no match file is that big"
    NOT_JSON = "not valid JSON (line {line}, column {column}: {detail})"
    TOO_DEEP = "the JSON is nested too deeply to be a match file"
    FINISHED_EARLY = "{field} is {true} or {false}, not {value}"
    NOT_DECIDED = "{field} says the table finished the match early, but no side is sure to win after its last hand"


class SizeSays(Says):
    """A size of a file, as a message says it."""

    __prefix__ = "error.size"
    MB = "{n} MB"
    BYTES = "{n} bytes"


def size(n: int) -> Message:
    """`4 MB`, or `900 bytes` below a megabyte."""
    return SizeSays.MB.of(n=n // (1024 * 1024)) if n >= 1024 * 1024 else SizeSays.BYTES.of(n=n)


class WhereSays(Says):
    """A place in a match file, as a message names it."""

    __prefix__ = "error.where"
    HAND = "hand {n}"
    SIDE = "side {n}"
    A_HAND = "hand"


class MatchFileError(HandError):
    """A match file that cannot be read: the message names the hand, the side and the problem."""


_QUOTED: dict[str, Any] = {key: repr(key) for key in HAND_KEYS}
"""A hand's field names as messages quote them: `'cards'`."""

Where = str | Message
"""A place in a file as a message names it: `WhereSays.HAND.of(n=3)`, or text (the storage's own places)."""


def _per_side(value: Any, key: str, where: Where) -> tuple:
    if not isinstance(value, list):
        raise MatchFileError(FileSays.PER_SIDE, where=where, field=repr(key))
    for i, number in enumerate(value):
        # Small numbers out of place get the engine's sentence; a number no pile can hold is stopped here.
        if is_whole(number) and abs(number) > DECK_SIZE:
            raise MatchFileError(FileSays.PER_SIDE_TOO_BIG, where=where, field=repr(key), side=i + 1,
                                 value=shown(number), deck=DECK_SIZE)
    return tuple(value)


def _side_index(value: Any, key: str, where: Where) -> Any:
    if is_whole(value) and abs(value) > DECK_SIZE:
        raise MatchFileError(FileSays.NO_SUCH_SIDE, where=where, field=repr(key), value=shown(value))
    return value


def hand_from_dict(data: Any, where: Where = WhereSays.A_HAND.of()) -> HandEntry:
    """A hand entry from its JSON form (no scoring checks: see `match_from_dict`)."""
    if not isinstance(data, Mapping):
        raise MatchFileError(FileSays.NOT_AN_OBJECT, where=where)
    unknown = set(data) - HAND_KEYS
    if unknown:
        raise MatchFileError(FileSays.NO_FIELD, where=where, field=shown(sorted(unknown)[0]))
    for key in ("xeris", "jack_xeris"):
        if key not in data:
            raise MatchFileError(FileSays.NEEDS_XERIS, where=where, field=repr(key))
    if "cards" in data and "most_cards" in data:
        raise MatchFileError(FileSays.CARDS_AND_MOST, where=where, **_QUOTED)
    if "cards" not in data and "most_cards" not in data:
        raise MatchFileError(FileSays.CARDS_OR_MOST, where=where, null="null", **_QUOTED)
    exact = "held" in data
    if exact and any(k in data for k in ("counting", "ten_of_diamonds", "two")):
        raise MatchFileError(FileSays.HELD_REPLACES, where=where, **_QUOTED)
    if not exact and any(k not in data for k in ("counting", "ten_of_diamonds", "two")):
        missing = next(k for k in ("counting", "ten_of_diamonds", "two") if k not in data)
        raise MatchFileError(FileSays.NEEDS_COUNTING, where=where, field=repr(missing), held=_QUOTED["held"])
    held = None
    if exact:
        if (not isinstance(data["held"], list) or not all(isinstance(s, list) for s in data["held"])
                or len(data["held"]) > 4 or any(len(s) > DECK_SIZE for s in data["held"])):
            raise MatchFileError(FileSays.HELD, where=where, field=_QUOTED["held"])
        try:
            held = tuple(tuple(parse_card(c) for c in side) for side in data["held"])
        except CardError as exc:
            raise MatchFileError(FileSays.AT, where=where, reason=exc.message) from None
    return HandEntry(
        xeris=_per_side(data["xeris"], "xeris", where),
        jack_xeris=_per_side(data["jack_xeris"], "jack_xeris", where),
        cards=_per_side(data["cards"], "cards", where) if "cards" in data else None,
        most_cards=_side_index(data.get("most_cards"), "most_cards", where),
        counting=_per_side(data["counting"], "counting", where) if not exact else None,
        ten_of_diamonds=_side_index(data.get("ten_of_diamonds"), "ten_of_diamonds", where),
        two=_side_index(data.get("two"), "two", where),
        held=held,
    )


def hand_to_dict(entry: HandEntry) -> dict[str, Any]:
    """The JSON form of a hand entry."""
    out: dict[str, Any] = {}
    if entry.cards is not None:
        out["cards"] = list(entry.cards)
    else:
        out["most_cards"] = entry.most_cards
    if entry.held is not None:
        out["held"] = [[c.code for c in side] for side in entry.held]
    else:
        out["counting"] = list(entry.counting or ())
    out["xeris"] = list(entry.xeris)
    out["jack_xeris"] = list(entry.jack_xeris)
    if entry.held is None:
        out["ten_of_diamonds"] = entry.ten_of_diamonds
        out["two"] = entry.two
    return out


def side_from_dict(data: Any, where: Where, limit_names: bool = True) -> Side:
    """A side from its JSON form; with `limit_names`, every name is checked (see `check_name`)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise MatchFileError(FileSays.SIDE, where=where, field="'name'")
    unknown = set(data) - {"name", "players"}
    if unknown:
        raise MatchFileError(FileSays.NO_FIELD, where=where, field=shown(sorted(unknown)[0]))
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or len(players) > 2:
        raise MatchFileError(FileSays.PLAYERS, where=where, field="'players'")
    if not data["name"] and len(players) != 2:   # "" is a partnership left unnamed: called after its players
        raise MatchFileError(FileSays.SIDE, where=where, field="'name'")
    if limit_names:
        for name in (data["name"], *players):
            check_name(name, where)
    return Side(data["name"], tuple(players))


def check_name(name: str, where: Where) -> None:
    """Refuse a name longer than `MAX_NAME` characters, or one that is not plain text (`engine.names`)."""
    if len(name) > MAX_NAME:
        raise MatchFileError(FileSays.NAME_TOO_LONG, where=where, name=shown(name), length=len(name), max=MAX_NAME)
    if not is_plain_text(name):
        raise MatchFileError(FileSays.NAME_NOT_TEXT, where=where, name=shown(name))


def _check_distinct(sides: tuple[Side, ...]) -> None:
    """Two sides, or two players, of one name would be one player in the history: refuse them."""
    for says, names in ((FileSays.SAME_SIDE_NAME, [s.name for s in sides]),
                        (FileSays.SAME_PLAYER_NAME, [p for s in sides for p in s.players])):
        seen: set[str] = set()
        for name in names:
            if name_key(name) in seen:
                raise MatchFileError(says, name=shown(name))
            seen.add(name_key(name))


def side_to_dict(side: Side) -> dict[str, Any]:
    return {"name": side.title, "players": list(side.players)} if side.players else {"name": side.title}


def match_from_dict(doc: Any, rules_override: str | None = None, *, limit_names: bool = True) -> Match:
    """A match from its document; every hand is checked, and the first impossible one is reported.

    `limit_names=False` reads a document this app stored before names were limited in length and kept
    apart (see `check_name`): such a match still opens. Files from outside are always checked.
    """
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise MatchFileError(FileSays.NOT_A_MATCH_FILE, format=f'"format": "{FORMAT}"')
    version = doc.get("version")
    if type(version) is not int or version != VERSION:  # true and 1.0 equal 1 in Python, but are not 1
        raise MatchFileError(FileSays.VERSION, version=shown(version), known=VERSION)
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise MatchFileError(FileSays.NO_TOP_FIELD, field=shown(sorted(unknown)[0]))
    try:
        rules = resolve_rules(rules_override if rules_override is not None else doc.get("rules", "classic"))
        if rules_override is not None and not isinstance(doc.get("rules", "classic"), str):
            # Keep the variant switches the table chose; only the preset changes.
            rules = resolve_rules({**doc["rules"], "preset": rules_override})
        sides_doc = doc.get("sides")
        if not isinstance(sides_doc, list):
            raise MatchFileError(FileSays.SIDES, field="'sides'")
        if len(sides_doc) > 4:
            raise MatchFileError(FileSays.SIDES_COUNT, field="'sides'", sides=len(sides_doc))
        sides = tuple(side_from_dict(s, WhereSays.SIDE.of(n=i + 1), limit_names) for i, s in enumerate(sides_doc))
        if limit_names:
            _check_distinct(sides)
        goal = Goal.from_dict(doc["goal"]) if doc.get("goal") is not None else rules.goal
        first = doc.get("first_dealer", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise MatchFileError(FileSays.FIRST_DEALER, field="'first_dealer'")
        match = Match(rules=rules, sides=sides, goal=goal, first_dealer=first)
    except (RulesError, MatchError) as exc:
        raise MatchFileError(exc.message) from None
    hands_doc = doc.get("hands", [])
    if not isinstance(hands_doc, list):
        raise MatchFileError(FileSays.HANDS, field="'hands'")
    if len(hands_doc) > MAX_HANDS:
        raise MatchFileError(FileSays.TOO_MANY_HANDS, hands=len(hands_doc), max=MAX_HANDS)
    names = tuple(s.name for s in sides)
    hands = []
    for i, h in enumerate(hands_doc):
        where = WhereSays.HAND.of(n=i + 1)
        try:
            entry = hand_from_dict(h, where)
        except MatchFileError as exc:
            raise MatchFileError(exc.message, hand=i) from None
        try:
            score_hand(entry, rules, len(sides))
        except InvalidHand as exc:
            raise MatchFileError(FileSays.AT, hand=i, problems=exc.problems, where=where,
                                 reason=HandProblems(exc.problems, names)) from None
        hands.append(entry)
    early = doc.get("finished_early", False)
    if not isinstance(early, bool):
        raise MatchFileError(FileSays.FINISHED_EARLY, field="'finished_early'", true="true", false="false",
                             value=shown(early))
    match = Match(rules=rules, sides=sides, goal=goal, first_dealer=first, hands=tuple(hands), finished_early=early)
    if rules_override is None:
        try:
            st = standing(match)
        except MatchOver as exc:
            decided = exc.decided_at or 0  # a match with hands after its end was decided by one of them
            raise MatchFileError(FileSays.AT, hand=decided + 1, where=WhereSays.HAND.of(n=decided + 2),
                                 reason=exc.message) from None
        if early and not st.is_over:
            raise MatchFileError(FileSays.NOT_DECIDED, field="'finished_early'")
    return match


def match_to_dict(match: Match, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The document of a match (version 1)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_spec(match.rules),
        "sides": [side_to_dict(s) for s in match.sides],
        "goal": match.goal.to_dict(),
        "first_dealer": match.first_dealer,
        "hands": [hand_to_dict(h) for h in match.hands],
    }
    if match.finished_early:   # written only when set: a file (and its fingerprint) without it stays as it was
        doc["finished_early"] = True
    if meta:
        doc["meta"] = dict(meta)
    return doc


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: JSON readers differ on which of two wins, so a
    second `"cards"` could hide the first from one reader and not another."""
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise MatchFileError(FileSays.KEY_TWICE, key=shown(key))
        doc[key] = value
    return doc


def _short_int(text: str) -> int | LongNumber:
    digits = len(text.lstrip("-"))
    return LongNumber(digits) if digits > MAX_DIGITS else int(text)


def parse(text: str) -> Any:
    """The JSON document in the text of a match file; `MatchFileError` when it is not one.

    A UTF-8 byte-order mark (some editors write one) is skipped. Refused: text longer than any match file,
    keys given twice, and JSON nested deeper than Python can read. A number longer than any a match holds
    is kept as a `LongNumber`, which the check of its field refuses.
    """
    if len(text) > MAX_FILE_CHARS:
        raise MatchFileError(FileSays.TOO_LONG, length=len(text), max=MAX_FILE_CHARS)
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_short_int)
    except json.JSONDecodeError as exc:
        # The parser's own words (`Expecting value`) stay as it says them: they name no idea of the game.
        raise MatchFileError(FileSays.NOT_JSON, line=exc.lineno, column=exc.colno, detail=exc.msg) from None
    except RecursionError:
        raise MatchFileError(FileSays.TOO_DEEP) from None


def loads(text: str, rules_override: str | None = None) -> Match:
    """A match from the text of a match file."""
    return match_from_dict(parse(text), rules_override)


def dumps(match: Match, meta: Mapping[str, Any] | None = None) -> str:
    """The text of a match file, pretty-printed, UTF-8 safe."""
    return json.dumps(match_to_dict(match, meta), ensure_ascii=False, indent=1)


def fingerprint_of(doc: Mapping[str, Any]) -> str:
    """A digest of a match document's content (rules, sides, goal, dealer, hands; `meta` left out):
    two equal matches share it."""
    content = {k: v for k, v in doc.items() if k != "meta"}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(match: Match) -> str:
    """The digest of a match's content (see `fingerprint_of`)."""
    return fingerprint_of(match_to_dict(match))
