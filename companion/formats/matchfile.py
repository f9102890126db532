"""The match file (`docs/match-file.md`): UTF-8 JSON documents <-> engine `Match` values."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Mapping

from ..engine.cards import DECK_SIZE, CardError, parse_card
from ..engine.entry import HandEntry, InvalidHand, Problem
from ..engine.limits import MAX_HANDS, MAX_NAME, LongNumber, is_whole, shown
from ..engine.match import Match, MatchError, MatchOver, Side, standing
from ..engine.rules import Goal, RulesError
from ..engine.scoring import score_hand
from ..i18n.explain import problem_text
from .presets import resolve_rules, rules_spec

FORMAT = "xeri-match"
VERSION = 1
HAND_KEYS = {"cards", "most_cards", "counting", "xeris", "jack_xeris", "ten_of_diamonds", "two", "held"}
TOP_KEYS = {"format", "version", "rules", "sides", "goal", "first_dealer", "hands", "meta"}
MAX_FILE_CHARS = 4 * 1024 * 1024
"""The longest match file read: 1,000 hands card by card take about 600 KB, so no real file comes near."""
MAX_DIGITS = 15
"""The longest number a match file may write: no count, point value or target has more than 5 digits."""
_NOT_IN_A_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters, which would break the score sheet's lines, and lone surrogates (JSON can write
"\\ud800"), which are not text: no UTF-8 output can print them."""


class MatchFileError(ValueError):
    """A match file that cannot be read: the message names the hand, the side and the problem."""

    def __init__(self, message: str, hand: int | None = None, problems: tuple[Problem, ...] = ()):
        super().__init__(message)
        self.hand = hand
        """The 0-based index of the hand at fault, if a hand is."""
        self.problems = problems
        """The engine's problems with that hand, if it is impossible."""


def _per_side(value: Any, key: str, where: str) -> tuple:
    if not isinstance(value, list):
        raise MatchFileError(f"{where}: {key!r} is a list with one number per side")
    for i, number in enumerate(value):
        # Small numbers out of place get the engine's sentence; a number no pile can hold is stopped here.
        if is_whole(number) and abs(number) > DECK_SIZE:
            raise MatchFileError(f"{where}: {key!r} of side {i + 1} is {shown(number)}, more than the "
                                 f"{DECK_SIZE} cards of a deck")
    return tuple(value)


def _side_index(value: Any, key: str, where: str) -> Any:
    if is_whole(value) and abs(value) > DECK_SIZE:
        raise MatchFileError(f"{where}: {key!r} is {shown(value)}, which is no side")
    return value


def hand_from_dict(data: Any, where: str = "hand") -> HandEntry:
    """A hand entry from its JSON form (no scoring checks: see `match_from_dict`)."""
    if not isinstance(data, Mapping):
        raise MatchFileError(f"{where} is not a JSON object")
    unknown = set(data) - HAND_KEYS
    if unknown:
        raise MatchFileError(f"{where} has no field {sorted(unknown)[0]!r}")
    for key in ("xeris", "jack_xeris"):
        if key not in data:
            raise MatchFileError(f"{where} needs {key!r} (one number per side; 0 for none)")
    if "cards" in data and "most_cards" in data:
        raise MatchFileError(f"{where} gives both 'cards' and 'most_cards': give one")
    if "cards" not in data and "most_cards" not in data:
        raise MatchFileError(f"{where} needs 'cards' (per side) or 'most_cards' (a side, or null for a tie)")
    exact = "held" in data
    if exact and any(k in data for k in ("counting", "ten_of_diamonds", "two")):
        raise MatchFileError(f"{where}: 'held' replaces 'counting', 'ten_of_diamonds' and 'two'")
    if not exact and any(k not in data for k in ("counting", "ten_of_diamonds", "two")):
        missing = next(k for k in ("counting", "ten_of_diamonds", "two") if k not in data)
        raise MatchFileError(f"{where} needs {missing!r} (or 'held' in exact mode)")
    held = None
    if exact:
        if (not isinstance(data["held"], list) or not all(isinstance(s, list) for s in data["held"])
                or len(data["held"]) > 4 or any(len(s) > DECK_SIZE for s in data["held"])):
            raise MatchFileError(f"{where}: 'held' is a list of card lists, one per side")
        try:
            held = tuple(tuple(parse_card(c) for c in side) for side in data["held"])
        except CardError as exc:
            raise MatchFileError(f"{where}: {exc}") from None
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


def side_from_dict(data: Any, where: str, limit_names: bool = True) -> Side:
    """A side from its JSON form; with `limit_names`, every name is checked (see `check_name`)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise MatchFileError(f"{where} is an object with a 'name'")
    unknown = set(data) - {"name", "players"}
    if unknown:
        raise MatchFileError(f"{where} has no field {shown(sorted(unknown)[0])}")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or len(players) > 2:
        raise MatchFileError(f"{where}: 'players' is a list of names (the two partners)")
    if limit_names:
        for name in (data["name"], *players):
            check_name(name, where)
    return Side(data["name"], tuple(players))


def is_plain_text(name: str) -> bool:
    """False for a name holding a control character or a lone surrogate (see `_NOT_IN_A_NAME`)."""
    return _NOT_IN_A_NAME.search(name) is None


def check_name(name: str, where: str) -> None:
    """Refuse a name longer than `MAX_NAME` characters, or holding control characters or lone surrogates."""
    if len(name) > MAX_NAME:
        raise MatchFileError(f"{where}: the name {shown(name)} has {len(name):,} characters; "
                             f"a name has at most {MAX_NAME}")
    if not is_plain_text(name):
        raise MatchFileError(f"{where}: the name {shown(name)} holds a control character or broken text "
                             "(a lone surrogate); write it as plain text")


def name_key(name: str) -> str:
    """What makes two names the same player: case and runs of spaces do not count (as for stored players)."""
    return " ".join(name.split()).casefold()


def _check_distinct(sides: tuple[Side, ...]) -> None:
    """Two sides, or two players, of one name would be one player in the history: refuse them."""
    for what, names in (("sides", [s.name for s in sides]), ("players", [p for s in sides for p in s.players])):
        seen: set[str] = set()
        for name in names:
            if name_key(name) in seen:
                raise MatchFileError(f"two {what} are both called {shown(name)}: every {what[:-1]} needs "
                                     "a different name")
            seen.add(name_key(name))


def side_to_dict(side: Side) -> dict[str, Any]:
    return {"name": side.name, "players": list(side.players)} if side.players else {"name": side.name}


def match_from_dict(doc: Any, rules_override: str | None = None, *, limit_names: bool = True) -> Match:
    """A match from its document; every hand is checked, and the first impossible one is reported.

    `limit_names=False` reads a document this app stored before names were limited in length and kept
    apart (see `check_name`): such a match still opens. Files from outside are always checked.
    """
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise MatchFileError(f'this is not a Xeri match file (it needs "format": "{FORMAT}")')
    version = doc.get("version")
    if type(version) is not int or version != VERSION:  # true and 1.0 equal 1 in Python, but are not 1
        raise MatchFileError(f"match file version {shown(version)} is not known; this app reads version {VERSION}")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise MatchFileError(f"match files have no field {shown(sorted(unknown)[0])}")
    try:
        rules = resolve_rules(rules_override if rules_override is not None else doc.get("rules", "classic"))
        if rules_override is not None and not isinstance(doc.get("rules", "classic"), str):
            # Keep the variant switches the table chose; only the preset changes.
            rules = resolve_rules({**doc["rules"], "preset": rules_override})
        sides_doc = doc.get("sides")
        if not isinstance(sides_doc, list):
            raise MatchFileError("'sides' is a list of sides")
        if len(sides_doc) > 4:
            raise MatchFileError(f"'sides' lists {len(sides_doc):,} sides; Xeri is played by 2, 3 or 4")
        sides = tuple(side_from_dict(s, f"side {i + 1}", limit_names) for i, s in enumerate(sides_doc))
        if limit_names:
            _check_distinct(sides)
        goal = Goal.from_dict(doc["goal"]) if doc.get("goal") is not None else rules.goal
        first = doc.get("first_dealer", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise MatchFileError("'first_dealer' is a seat number")
        match = Match(rules=rules, sides=sides, goal=goal, first_dealer=first)
    except (RulesError, MatchError) as exc:
        raise MatchFileError(str(exc)) from None
    hands_doc = doc.get("hands", [])
    if not isinstance(hands_doc, list):
        raise MatchFileError("'hands' is a list of hands")
    if len(hands_doc) > MAX_HANDS:
        raise MatchFileError(f"the file holds {len(hands_doc):,} hands; a match holds at most {MAX_HANDS:,}")
    names = [s.name for s in sides]
    hands = []
    for i, h in enumerate(hands_doc):
        try:
            entry = hand_from_dict(h, f"hand {i + 1}")
        except MatchFileError as exc:
            raise MatchFileError(str(exc), hand=i) from None
        try:
            score_hand(entry, rules, len(sides))
        except InvalidHand as exc:
            said = " ".join(problem_text(p, names) for p in exc.problems)  # each is a sentence
            raise MatchFileError(f"hand {i + 1}: {said}", hand=i, problems=exc.problems) from None
        hands.append(entry)
    match = Match(rules=rules, sides=sides, goal=goal, first_dealer=first, hands=tuple(hands))
    if rules_override is None:
        try:
            standing(match)
        except MatchOver as exc:
            raise MatchFileError(f"hand {exc.decided_at + 2}: {exc}", hand=exc.decided_at + 1) from None
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
    if meta:
        doc["meta"] = dict(meta)
    return doc


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: JSON readers differ on which of two wins, so a
    second `"cards"` could hide the first from one reader and not another."""
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise MatchFileError(f"the key {shown(key)} is given twice in one object; give each key once")
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
        raise MatchFileError(f"the file is {len(text):,} characters long; no match file is longer than "
                             f"{MAX_FILE_CHARS:,}")
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_short_int)
    except json.JSONDecodeError as exc:
        raise MatchFileError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise MatchFileError("the JSON is nested too deeply to be a match file") from None


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
