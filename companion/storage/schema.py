"""The schema version of stored documents, and the migrations that bring older documents up to it."""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping

SCHEMA = 1
"""The schema version this app writes; every stored document carries it as `"schema"`."""

KINDS = ("match", "summary", "player", "settings")
"""The kinds of stored document: a match file, an index entry, a known player, the settings."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]

MIGRATIONS: dict[str, dict[int, Migration]] = {kind: {} for kind in KINDS}
"""For each kind, `version -> function` turning a document of that version into one of the next.

To change a document's shape: raise `SCHEMA` by one, add the function for the old version here for
every kind that changed, and add a frozen data folder of the old version under
`tests/storage/fixtures/schema-<old>/` (the tests open every fixture folder and compare it with its
`expected.json`).
"""


class SchemaError(ValueError):
    """A document without a usable schema version."""


class TooNew(SchemaError):
    """A document written by a newer version of the app than this one."""

    def __init__(self, version: int, current: int):
        super().__init__(f"written by a newer version of Xeri Companion (schema {version}); "
                         f"this version reads up to schema {current}")
        self.version = version
        """The document's schema version."""


def migrate(kind: str, doc: Any, migrations: Mapping[str, Mapping[int, Migration]] | None = None,
            current: int | None = None) -> dict[str, Any]:
    """`doc` brought up to the current schema, one version at a time (a new dict; `doc` is untouched)."""
    migrations = MIGRATIONS if migrations is None else migrations
    current = SCHEMA if current is None else current
    if not isinstance(doc, dict):
        raise SchemaError(f"a {kind} document is a JSON object")
    version = doc.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SchemaError(f"the {kind} document has no schema version")
    if version > current:
        raise TooNew(version, current)
    doc = dict(doc)
    while version < current:
        step = migrations.get(kind, {}).get(version)
        if step is not None:
            doc = step(doc)
        version += 1
        doc["schema"] = version
    return doc
