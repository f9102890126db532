"""Known players (`players.json`) and the settings (`settings.json`) of a data folder."""

from __future__ import annotations

import logging
import unicodedata
import uuid
from typing import Any
from collections.abc import Callable, Iterable, Mapping

from tinydb import Query
from tinydb.table import Document

from ..engine.limits import shown
from ..engine.names import NameSays, PlayerError, check_name, name_key
from ..service.ports import NoSuchPlayer
from ..records import Player
from .documents import DEFAULT_SETTINGS, check_setting, player_doc, player_from_doc, settings_doc, settings_from_doc
from .folder import (DAMAGE, DOC_ID, PLAYERS_TABLE, SETTINGS_TABLE, DataFolder, db, put_doc, reason, replace_all,
                     write_table)

log = logging.getLogger(__name__)


def sort_key(name: str) -> str:
    """How names sort: Greek names are typed with and without accents (Άννα, Αννα), so sort them together."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _key(name: str) -> str:
    return name_key(name)


class PlayerBook:
    """Every known player by id, kept in memory and written through to `players.json`."""

    def __init__(self, folder: DataFolder, deferred: Callable[[], bool] = lambda: False):
        self.folder = folder
        self.path = folder.path / "players.json"
        self.players: dict[str, Player] = {}
        self.version = 0
        """Moves on when a name changes: what was built from the old names must be built again."""
        self._names: dict[str, str] | None = None
        self._keys: dict[str, str] | None = None
        """Name (casefolded) -> the player's id: finding a player never walks every player."""
        self._deferred = deferred
        """True while the store writes in a batch: a new player then waits in memory for `save_if_held`."""
        self._held = False

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
            self._changed()
            if self.folder.read_only:
                return
            try:
                self.save()
            except OSError as exc:  # a full disk must not stop the app: the next open completes them again
                log.warning("players.json could not be completed (%s)", exc)

    def _docs(self) -> list[dict[str, Any]]:
        return [player_doc(p) for p in sorted(self.players.values(), key=lambda p: p.id)]

    def save(self) -> None:
        """Write every known player from memory, at once."""
        write_table(self.path, PLAYERS_TABLE, self._docs())
        self._held = False

    def save_if_held(self) -> None:
        """Write the players a batch kept in memory; if the disk refuses, the next open completes them."""
        if self._held:
            try:
                self.save()
            except OSError as exc:
                log.warning("players.json could not be written (%s); the next open completes it", exc)

    def _changed(self) -> None:
        self._names = None
        self._keys = None

    def _by_key(self) -> dict[str, str]:
        if self._keys is None:
            keys: dict[str, str] = {}
            for p in sorted(self.players.values(), key=lambda p: p.id):
                keys.setdefault(_key(p.name), p.id)
            self._keys = keys
        return self._keys

    def names(self) -> dict[str, str]:
        """Player id -> today's name (kept until a player is added or renamed)."""
        if self._names is None:
            self._names = {p.id: p.name for p in self.players.values()}
        return self._names

    def sorted(self) -> list[Player]:
        return sorted(self.players.values(), key=lambda p: (sort_key(p.name), p.name, p.id))

    def find(self, name: str) -> Player | None:
        found = self._by_key().get(_key(name))
        return self.players[found] if found is not None else None

    def id_of(self, name: str) -> str:
        """The id of the player called `name` (case does not matter); a new player if there is none."""
        clean = check_name(name)
        found = self.find(clean)
        if found is not None:
            return found.id
        player = Player(uuid.uuid4().hex, clean)
        self.players[player.id] = player
        # Kept up to date in place (not built again): an import adds thousands of players one by one.
        if self._names is not None:
            self._names[player.id] = clean
        if self._keys is not None:
            self._keys.setdefault(_key(clean), player.id)
        if self._deferred():
            self._held = True
            return player.id
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
        clean = check_name(name)
        other = self.find(clean)
        if other is not None and other.id != player_id:
            raise PlayerError(NameSays.TAKEN, name=shown(other.name))
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

    def save(self) -> None:
        """Write the settings from memory, at once."""
        write_table(self.path, SETTINGS_TABLE, [settings_doc(self.values)])

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
