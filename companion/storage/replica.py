"""The shared documents this device knows, and how it reaches its group: the `Replica` of `service.sync`,
kept in the data folder's `sync/` beside the matches.

- `sync/matches/<match id>.json`: every document known about one match, and which are not sent yet;
- `sync/state.json`: this device's id in the group, the mark of the group's history it synced with, how
  far the shared database was read (the checkpoint), the stamp each match had when its changes were last
  taken, the matches whose news from the group is not stored yet;
- `sync/group.json`: the group's address, user and password, readable by this device's user only. It is
  never exported: a backup or a match file carries matches only. `forget` removes it and what was known of
  the group.

Every file is replaced whole (written beside, fsynced, renamed, its folder synced before the write returns,
also inside a batch of the store's writes): a device killed in the middle of a write keeps the file as it
was, and the round starts again from there; what the state says (the checkpoint) is never durable before
the documents it counts.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from .. import changes as ch
from .files import CorruptFile, disk_faults, dump_bytes, read_json, write_atomic, write_many

log = logging.getLogger(__name__)

SYNC = "sync"
"""The folder of the data folder that holds what sync knows."""


class FolderReplica:
    """What this device knows of its group's shared documents, in a folder (see the module)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._lock = threading.RLock()
        self._docs: dict[str, dict[str, Any]] = {}
        """Per match, loaded when first asked: {"docs": {id: doc}, "unsent": [id, ...]}."""
        self._read_docs: dict[str, dict[str, ch.Change]] = {}
        """Per match, its documents read (`known`), once: every change to a match the group knows asks for them."""
        self._files: set[str] | None = None
        """The matches with a file of documents, listed from the folder once, then kept up to date here."""
        self._sizes: dict[str, int] | None = None
        """The bytes of each match's file of documents, read from the folder once, then kept up to date here."""
        self._state = self._read(self.folder / "state.json") or {}
        self._state_kept = isinstance(self._state.get("device"), str)
        """Whether state.json holds this device's name: it is written with the first document kept, not when
        the app opens (a device in no group writes nothing here, and an import on a full disk is told as one)."""
        if not self._state_kept:
            self._state = {"device": uuid.uuid4().hex[:16], "checkpoint": None, "compared": {}, "unsent": []}

    # --- the files ------------------------------------------------------------------------------------
    def _read(self, path: Path) -> dict[str, Any] | None:
        if not path.exists():
            return None
        try:
            data = read_json(path)
        except (CorruptFile, OSError, ValueError) as exc:
            # Only a cache of what the group holds: start again from the group (the checkpoint goes with it).
            log.warning("%s could not be read (%s): what it knew is read again from the group", path, exc)
            return None
        return data if isinstance(data, dict) else None

    def _disk(self, doing: str) -> AbstractContextManager[None]:
        return disk_faults(doing, self.folder.parent)

    def _write(self, path: Path, data: Any) -> None:
        with self._disk("keep what the group shared"):
            path.parent.mkdir(parents=True, exist_ok=True)
            write_many([(path, dump_bytes(data))], folders_now=True)

    def _write_state(self) -> None:
        self._write(self.folder / "state.json", self._state)
        self._state_kept = True

    def _match(self, match_id: str) -> dict[str, Any]:
        found = self._docs.get(match_id)
        if found is None:
            data = self._read(self.folder / "matches" / f"{match_id}.json") or {}
            docs: dict[str, Any] = data["docs"] if isinstance(data.get("docs"), dict) else {}
            unsent = [i for i in data.get("unsent", []) if i in docs] if isinstance(data.get("unsent"), list) else []
            found = {"docs": docs, "unsent": unsent}
            self._docs[match_id] = found
        return found

    def _save_matches(self, match_ids: Iterable[str]) -> None:
        """Several matches' files at once (a page of what the group wrote): synced together, far quicker than
        one by one, each file still whole or as it was after a crash."""
        folder = self.folder / "matches"
        items = [(folder / f"{m}.json", dump_bytes(self._docs[m])) for m in sorted(match_ids)]
        if not items:
            return
        if not self._state_kept:  # the device's name first: its documents carry it
            self._write_state()
        with self._disk("keep what the group shared"):
            folder.mkdir(parents=True, exist_ok=True)
            write_many(items, folders_now=True)
        if self._files is not None:
            self._files |= {path.stem for path, _ in items}
        if self._sizes is not None:
            self._sizes.update((path.stem, len(data)) for path, data in items)

    # --- Replica ----------------------------------------------------------------------------------------
    @property
    def device(self) -> str:
        return str(self._state["device"])

    def known(self, match_id: str) -> list[ch.Change]:
        with self._lock:
            read = self._read_docs.get(match_id)
            if read is None:
                read = {}
                for ident, doc in self._match(match_id)["docs"].items():
                    try:
                        read[ident] = ch.from_doc(doc)
                    except ch.ChangeError as exc:  # kept as it came, and left out of the match
                        log.info("%s", exc)
                self._read_docs[match_id] = read
            return list(read.values())

    def _note_read(self, change: ch.Change) -> None:
        """A document kept: the match's documents already read (`known`) have it too."""
        read = self._read_docs.get(change.match)
        if read is not None:
            read[change.id] = change

    def keep(self, changes: Iterable[ch.Change], sent: bool) -> list[ch.Change]:
        with self._lock:
            fresh: list[ch.Change] = []
            touched: set[str] = set()
            for change in changes:
                entry = self._match(change.match)
                if change.id in entry["docs"]:
                    if sent and change.id in entry["unsent"]:  # it came back from the group: it is there
                        entry["unsent"].remove(change.id)
                        touched.add(change.match)
                    if sent and entry["docs"][change.id] != change.to_doc():
                        # Another device wrote the same document first (the same hand saved the same way): the
                        # group's copy is the one every device adds up, down to its clock and device.
                        entry["docs"][change.id] = change.to_doc()
                        self._note_read(change)
                        touched.add(change.match)
                        fresh.append(change)
                    continue
                entry["docs"][change.id] = change.to_doc()
                self._note_read(change)
                if not sent:
                    entry["unsent"].append(change.id)
                touched.add(change.match)
                fresh.append(change)
            arrived = {c.match for c in fresh} if sent else set()
            if arrived - set(self._state.get("settle", [])):
                # Which matches have news to store, written before the news itself: a device killed before
                # it stored them stores them next time, whatever the checkpoint says by then.
                self._state["settle"] = sorted(arrived | set(self._state.get("settle", [])))
                self._write_state()
            self._save_matches(touched)
            unsent = sorted({*self._state["unsent"], *(m for m in touched if self._docs[m]["unsent"])}
                            - {m for m in touched if not self._docs[m]["unsent"]})
            if unsent != self._state["unsent"]:
                self._state["unsent"] = unsent
                self._write_state()
            return fresh

    def to_settle(self) -> set[str]:
        """Matches whose documents arrived from the group and that were not stored here since."""
        value = self._state.get("settle", [])
        return {m for m in value if isinstance(m, str)} if isinstance(value, list) else set()

    def settled(self, match_ids: Iterable[str]) -> None:
        with self._lock:
            left = sorted(self.to_settle() - set(match_ids))
            if left != self._state.get("settle", []):
                self._state["settle"] = left
                self._write_state()

    def unsent(self, limit: int) -> list[ch.Change]:
        with self._lock:
            out: list[ch.Change] = []
            for match_id in self._state["unsent"]:
                entry = self._match(match_id)
                for ident in entry["unsent"]:
                    try:
                        out.append(ch.from_doc(entry["docs"][ident]))
                    except ch.ChangeError:
                        continue
                    if len(out) >= limit:
                        return out
            return out

    def _dequeue(self, ids: Iterable[str]) -> bool:
        """Take these documents out of the queue to send (their matches' files written); whether the state's
        list of matches with something to send changed (the caller writes the state)."""
        by_match: dict[str, set[str]] = {}
        for ident in ids:
            by_match.setdefault(ident.split(".", 1)[0], set()).add(ident)
        for match_id, gone in sorted(by_match.items()):
            entry = self._match(match_id)
            entry["unsent"] = [i for i in entry["unsent"] if i not in gone]
        self._save_matches(by_match)
        unsent = [m for m in self._state["unsent"] if self._match(m)["unsent"]]
        changed = unsent != self._state["unsent"]
        self._state["unsent"] = unsent
        return changed

    def mark_sent(self, ids: Iterable[str]) -> None:
        with self._lock:
            if self._dequeue(ids):
                self._write_state()

    def refuse(self, reasons: Mapping[str, str]) -> None:
        with self._lock:
            self._dequeue(reasons)
            refused = self.refused()
            refused.update({i: str(why)[:200] for i, why in reasons.items()})
            self._state["refused"] = dict(sorted(refused.items()))
            self._write_state()

    def refused(self) -> dict[str, str]:
        value = self._state.get("refused")
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}

    def matches(self) -> set[str]:
        with self._lock:
            if self._files is None:  # once: every round asks, and listing a folder of 1,000 files costs
                folder = self.folder / "matches"
                self._files = {p.stem for p in folder.glob("*.json")} if folder.is_dir() else set()
            return set(self._files)  # every keep writes its matches' files, and adds them to it

    def kept_bytes(self) -> int:
        with self._lock:
            if self._sizes is None:  # once, as `matches`: then every file written says its size
                self._sizes = {}
                folder = self.folder / "matches"
                for path in folder.glob("*.json") if folder.is_dir() else ():
                    try:
                        self._sizes[path.stem] = path.stat().st_size
                    except OSError:
                        continue
            return sum(self._sizes.values())

    def _text(self, key: str) -> str | None:
        value = self._state.get(key)
        return value if isinstance(value, str) else None

    def _set_text(self, key: str, value: str) -> None:
        with self._lock:
            if value != self._state.get(key):
                self._state[key] = value
                self._write_state()

    @property
    def mark(self) -> str | None:
        return self._text("mark")

    def set_mark(self, mark: str) -> None:
        self._set_text("mark", mark)

    def start_over(self, mark: str) -> None:
        with self._lock:
            everything = sorted(self.matches())
            for match_id in everything:
                entry = self._match(match_id)
                entry["unsent"] = sorted(entry["docs"])
            self._save_matches(everything)   # the documents to send first, then the state that says so
            self._state.update(mark=mark, checkpoint=None, refused={},
                               unsent=[m for m in everything if self._docs[m]["unsent"]])
            self._write_state()

    @property
    def checkpoint(self) -> str | None:
        return self._text("checkpoint")

    def set_checkpoint(self, seq: str) -> None:
        self._set_text("checkpoint", seq)

    def compared(self, match_id: str) -> str | None:
        value = self._state["compared"].get(match_id)
        return value if isinstance(value, str) else None

    def set_compared(self, stamps: Mapping[str, str]) -> None:
        with self._lock:
            self._state["compared"].update(stamps)
            self._write_state()

    def forget(self) -> None:
        """Forget the group: every document known, the checkpoint, the comparisons (the device keeps its id)."""
        with self._lock, self._disk("forget the group"):
            for path in (self.folder / "matches").glob("*.json"):
                path.unlink(missing_ok=True)
            self._docs.clear()
            self._read_docs.clear()
            self._files, self._sizes = set(), {}
            self._state = {"device": self.device, "checkpoint": None, "compared": {}, "unsent": [], "settle": [],
                           "mark": None, "refused": {}}
            self._write_state()


class GroupFile:
    """The group this device syncs with: its address with the user and password (`sync/group.json`).

    Kept apart from the settings and from every export: only this device's data folder holds it, and
    `forget` removes it."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / "group.json"

    def address(self) -> str | None:
        """The group's address as it was given (`https://user:password@host/database`), or None."""
        if not self.path.exists():
            return None
        self._private()
        try:
            data = read_json(self.path)
        except (CorruptFile, OSError, ValueError) as exc:
            log.warning("%s could not be read (%s): the group must be joined again", self.path, exc)
            return None
        value = data.get("address") if isinstance(data, dict) else None
        return value if isinstance(value, str) else None

    def _private(self) -> None:
        """A file an older version wrote readable by every user of the machine is made this user's only."""
        try:
            if self.path.stat().st_mode & 0o077:
                os.chmod(self.path, 0o600)
        except OSError as exc:  # not ours to change (another user's folder): reading it still works
            log.warning("%s could not be made private (%s)", self.path, exc)

    def keep(self, address: str) -> None:
        with disk_faults("keep the group's address", self.path.parent.parent):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, dump_bytes({"address": address}), private=True)   # it holds the password

    def forget(self) -> None:
        with disk_faults("forget the group's address", self.path.parent.parent):
            self.path.unlink(missing_ok=True)
