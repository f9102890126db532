"""Known players (`players.json`) and the settings (`settings.json`) of a data folder."""

from __future__ import annotations

import unicodedata
import uuid
from typing import Any, Iterable, Mapping

from tinydb import Query
from tinydb.table import Document

from ..service.ports import NoSuchPlayer, PlayerError
from ..service.records import Player
from .documents import DEFAULT_SETTINGS, check_setting, player_doc, player_from_doc, settings_doc, settings_from_doc
from .folder import DAMAGE, DOC_ID, PLAYERS_TABLE, SETTINGS_TABLE, DataFolder, db, put_doc, reason, replace_all


def sort_key(name: str) -> str:
    """How names sort: Greek names are typed with and without accents (Άννα, Αννα), so sort them together."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def clean_name(name: str) -> str:
    clean = " ".join(str(name).split())
    if not clean:
        raise PlayerError("a player needs a name")
    return clean


class PlayerBook:
    """Every known player by id, kept in memory and written through to `players.json`."""

    def __init__(self, folder: DataFolder):
        self.folder = folder
        self.path = folder.path / "players.json"
        self.players: dict[str, Player] = {}
        self.version = 0
        """Moves on when a name changes: what was built from the old names must be built again."""
        self._names: dict[str, str] | None = None

    def load(self, referred: Iterable[tuple[str, str]]) -> None:
        """Read `players.json`; every (id, name) a stored match refers to is known, even if the file was lost."""
        if self.path.exists():
            try:
                self.players = {p.id: p for p in (player_from_doc(dict(doc))
                                                    for doc in db(self.path).table(PLAYERS_TABLE).all())}
            except DAMAGE as exc:
                self.folder.set_aside(self.path, reason(exc))
        missing: dict[str, Player] = {}
        for pid, name in referred:
            if pid not in self.players and pid not in missing:
                missing[pid] = Player(pid, name)
        self._changed()
        if missing:
            self.players.update(missing)
            docs = [player_doc(p) for p in missing.values()]
            self.folder.write(self.path, PLAYERS_TABLE, lambda t: t.insert_multiple(docs), self._docs)

    def _docs(self) -> list[dict[str, Any]]:
        return [player_doc(p) for p in sorted(self.players.values(), key=lambda p: p.id)]

    def _changed(self) -> None:
        self._names = None

    def names(self) -> dict[str, str]:
        """Player id -> today's name (kept until a player is added or renamed)."""
        if self._names is None:
            self._names = {p.id: p.name for p in self.players.values()}
        return self._names

    def sorted(self) -> list[Player]:
        return sorted(self.players.values(), key=lambda p: (sort_key(p.name), p.name, p.id))

    def find(self, name: str) -> Player | None:
        key = name.casefold()
        return min((p for p in self.players.values() if p.name.casefold() == key), key=lambda p: p.id, default=None)

    def id_of(self, name: str) -> str:
        """The id of the player called `name` (case does not matter); a new player if there is none."""
        clean = clean_name(name)
        found = self.find(clean)
        if found is not None:
            return found.id
        player = Player(uuid.uuid4().hex, clean)
        self.players[player.id] = player
        self._changed()
        try:
            self.folder.write(self.path, PLAYERS_TABLE, lambda t: t.insert(player_doc(player)), self._docs)
        except BaseException:
            del self.players[player.id]
            self._changed()
            raise
        return player.id

    def rename(self, player_id: str, name: str) -> bool:
        """Give a player a new name; returns False when the name was already theirs."""
        player = self.players.get(player_id)
        if player is None:
            raise NoSuchPlayer(f"there is no player with id {player_id!r}")
        clean = clean_name(name)
        other = self.find(clean)
        if other is not None and other.id != player_id:
            raise PlayerError(f"there is already a player called {other.name!r}")
        if clean == player.name:
            return False
        self.players[player_id] = Player(player_id, clean)
        self._changed()
        doc = player_doc(self.players[player_id])
        try:
            self.folder.write(self.path, PLAYERS_TABLE,
                              lambda t: t.update(replace_all(doc), Query().id == player_id) or t.insert(doc),
                              self._docs)
        except BaseException:
            self.players[player_id] = player
            self._changed()
            raise
        self.version += 1
        return True


class SettingsFile:
    """The settings, kept in memory and written through to `settings.json`."""

    def __init__(self, folder: DataFolder):
        self.folder = folder
        self.path = folder.path / "settings.json"
        self.values: dict[str, Any] = dict(DEFAULT_SETTINGS)

    def load(self) -> None:
        if not self.path.exists():
            return
        try:
            doc = db(self.path).table(SETTINGS_TABLE).get(doc_id=DOC_ID)
            if doc is not None:
                self.values = settings_from_doc(dict(doc))
        except DAMAGE as exc:
            self.folder.set_aside(self.path, reason(exc))

    def update(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        for key, value in changes.items():
            check_setting(key, value)
        values = {**self.values, **changes}
        if values != self.values:
            doc = settings_doc(values)
            self.folder.write(self.path, SETTINGS_TABLE, lambda t: put_doc(t, DOC_ID, doc),
                              lambda: [Document(doc, doc_id=DOC_ID)])
            self.values = values
        return dict(self.values)
