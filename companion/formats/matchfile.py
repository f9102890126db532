"""The match file (`docs/match-file.md`): UTF-8 JSON documents <-> engine `Match` values."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

from ..engine.cards import CardError, parse_card
from ..engine.entry import HandEntry, InvalidHand, Problem
from ..engine.match import Match, MatchError, MatchOver, Side, standing
from ..engine.rules import Goal, RulesError
from ..engine.scoring import score_hand
from ..i18n.explain import problem_text
from .presets import resolve_rules, rules_spec

FORMAT = "xeri-match"
VERSION = 1
HAND_KEYS = {"cards", "most_cards", "counting", "xeris", "jack_xeris", "ten_of_diamonds", "two", "held"}
TOP_KEYS = {"format", "version", "rules", "sides", "goal", "first_dealer", "hands", "meta"}


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
    return tuple(value)


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
        if not isinstance(data["held"], list) or not all(isinstance(s, list) for s in data["held"]):
            raise MatchFileError(f"{where}: 'held' is a list of card lists, one per side")
        try:
            held = tuple(tuple(parse_card(c) for c in side) for side in data["held"])
        except CardError as exc:
            raise MatchFileError(f"{where}: {exc}") from None
    return HandEntry(
        xeris=_per_side(data["xeris"], "xeris", where),
        jack_xeris=_per_side(data["jack_xeris"], "jack_xeris", where),
        cards=_per_side(data["cards"], "cards", where) if "cards" in data else None,
        most_cards=data.get("most_cards"),
        counting=_per_side(data["counting"], "counting", where) if not exact else None,
        ten_of_diamonds=data.get("ten_of_diamonds"),
        two=data.get("two"),
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


def side_from_dict(data: Any, where: str) -> Side:
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise MatchFileError(f"{where} is an object with a 'name'")
    unknown = set(data) - {"name", "players"}
    if unknown:
        raise MatchFileError(f"{where} has no field {sorted(unknown)[0]!r}")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise MatchFileError(f"{where}: 'players' is a list of names")
    return Side(data["name"], tuple(players))


def side_to_dict(side: Side) -> dict[str, Any]:
    return {"name": side.name, "players": list(side.players)} if side.players else {"name": side.name}


def match_from_dict(doc: Any, rules_override: str | None = None) -> Match:
    """A match from its document; every hand is checked, and the first impossible one is reported."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise MatchFileError(f'this is not a Xeri match file (it needs "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise MatchFileError(f"match file version {doc.get('version')!r} is not known; this app reads version {VERSION}")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise MatchFileError(f"match files have no field {sorted(unknown)[0]!r}")
    try:
        rules = resolve_rules(rules_override if rules_override is not None else doc.get("rules", "classic"))
        if rules_override is not None and not isinstance(doc.get("rules", "classic"), str):
            # Keep the variant switches the table chose; only the preset changes.
            rules = resolve_rules({**doc["rules"], "preset": rules_override})
        sides_doc = doc.get("sides")
        if not isinstance(sides_doc, list):
            raise MatchFileError("'sides' is a list of sides")
        sides = tuple(side_from_dict(s, f"side {i + 1}") for i, s in enumerate(sides_doc))
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


def loads(text: str, rules_override: str | None = None) -> Match:
    """A match from the text of a match file."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MatchFileError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return match_from_dict(doc, rules_override)


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
