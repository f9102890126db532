"""The rule-set presets shipped in `data/rules/` (see `companion.resources`), found by name, with overrides on top."""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from collections.abc import Mapping

from ..engine.limits import shown
from ..engine.messages import Says
from ..engine.rules import RuleSet, RulesError
from ..resources import read_shipped, shipped

ORDER = ("classic", "plain", "greek-online", "partnership", "pisti")
"""The presets in the order the app offers them."""


class PresetSays(Says):
    """Why a match file's rules name no preset."""

    __prefix__ = "error.preset"
    UNKNOWN = "there are no {name} rules; known rule sets: {known}"
    NOT_A_SPEC = "rules are a preset name or an object {example}"
    NAME_FROM_PRESET = "the name of a rule set comes from its preset"
    NOT_FROM_A_PRESET = "rules must start from a known preset, not {name}"


LANGUAGE_FIRST = {"tr": "pisti", "ko": "partnership"}
"""The game a language's players usually mean, offered first in that language: Pişti is the Turkish
relative; the Korean rule text is the four-player partnership game (see docs/decisions.md)."""


@cache
def _found() -> tuple[str, ...]:
    found = shipped("rules")
    return tuple(n for n in ORDER if n in found) + tuple(n for n in found if n not in ORDER)


def preset_names(lang: str | None = None) -> tuple[str, ...]:
    """Every preset name, the usual ones first (in `lang`, that language's own game first)."""
    names = _found()
    first = LANGUAGE_FIRST.get(lang or "")
    return (first, *(n for n in names if n != first)) if first in names else names


@cache
def preset(name: str) -> RuleSet:
    """The preset called `name`; `RulesError` names the known ones when there is none."""
    # Only the shipped names reach the file system: a name from a file may be anything (a path, a NUL).
    if not isinstance(name, str) or name not in preset_names():
        raise RulesError(PresetSays.UNKNOWN, name=shown(name), known=", ".join(preset_names()))
    return RuleSet.from_dict(json.loads(read_shipped("rules", name)))


def resolve_rules(spec: str | Mapping[str, Any]) -> RuleSet:
    """A rule set from its match-file form: a preset name, or `{"preset": name, field: value, …}`."""
    if isinstance(spec, str):
        return preset(spec)
    if not isinstance(spec, Mapping) or not isinstance(spec.get("preset"), str):
        raise RulesError(PresetSays.NOT_A_SPEC, example='{"preset": "classic", …}')
    overrides = {k: v for k, v in spec.items() if k != "preset"}
    if "name" in overrides:
        raise RulesError(PresetSays.NAME_FROM_PRESET)
    return preset(spec["preset"]).with_overrides(**overrides) if overrides else preset(spec["preset"])


def rules_spec(rules: RuleSet) -> str | dict[str, Any]:
    """The match-file form of a rule set: its preset name, plus the fields it overrides."""
    try:
        base = preset(rules.name)
    except RulesError:
        raise RulesError(PresetSays.NOT_FROM_A_PRESET, name=shown(rules.name)) from None
    overrides = rules.overrides_from(base)
    return {"preset": rules.name, **overrides} if overrides else rules.name
