"""Errors that say what is wrong as a catalog key and its values, so every layer can word them in any language.

The engine may read no catalog, so an error's English stands beside the code that raises it, as the value
of a `Says` member; the catalogs hold the same sentence under the member's key (a test keeps the English
the same), and the app says it in the person's language with `Translator.say`.
"""

from __future__ import annotations

import enum
import string
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping


@dataclass(frozen=True)
class Message:
    """A sentence (or a phrase) to say: a catalog key, the English for it, and the values it names."""

    key: str
    """The catalog key: `error.rules.target_too_high`."""
    english: str
    """The English template, for `str()` and for a key no catalog holds."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """The values the template names: numbers, text as a file wrote it, or other messages (said in turn)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def __str__(self) -> str:
        return english(self)


class Says(enum.Enum):
    """The sentences of one family of errors: each member's value is its English template, its catalog key
    `<__prefix__>.<member name in lower case>`. A new sentence is one more member plus its catalog entries."""

    __prefix__ = "error"

    @property
    def key(self) -> str:
        return f"{type(self).__prefix__}.{self.name.lower()}"

    def of(self, **values: Any) -> Message:
        """The sentence with its values."""
        return Message(self.key, self.value, values)


@enum.unique
class JoinSays(Says):
    """Words that join values into one."""

    __prefix__ = "join"
    OR = "{first} or {last}"


class SaidError(ValueError):
    """An error a person reads: `message` says what is wrong (a catalog key and its values); `str()` is its
    English. Raise it with a `Says` member and the values its template names, or with a `Message` (an error
    passed on from another)."""

    def __init__(self, says: Says | Message, /, **values: Any):
        if isinstance(says, Says):
            says = says.of(**values)
        elif not isinstance(says, Message) or values:
            raise TypeError(f"{type(self).__name__} takes a Says member and its values, or a Message")
        self.message = says
        """What the error says."""
        super().__init__(english(says))


def said(value: Any) -> Any:
    """What a value says in a message: an error that carries a message, that message; else the value."""
    return value.message if isinstance(value, SaidError) else value


def either(values: list | tuple) -> Any:
    """`2`, `2 or 4`, `2, 3 or 4`: the values as one phrase, joined with the language's "or"."""
    words = [str(v) for v in values]
    if len(words) <= 1:
        return "".join(words)
    return JoinSays.OR.of(first=", ".join(words[:-1]), last=words[-1])


class _Kept(dict):
    """Values for a template: a name the values lack stays as it is written, never a crash."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with `values` put in; a placeholder without a value stays as it is."""
    try:
        return string.Formatter().vformat(template, (), _Kept(values))
    except (IndexError, ValueError):
        return template


def english(message: Message) -> str:
    """The message in English: its template, each value in English (a whole number grouped: 10,000)."""
    return fill(message.english, {name: _english(value) for name, value in message.values.items()})


def _english(value: Any) -> str:
    value = said(value)
    if isinstance(value, Message):
        return english(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)
