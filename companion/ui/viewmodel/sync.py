"""Sync with other phones: join a group (a CouchDB database), try it, see how syncing goes, show the join
link, leave; and the table's choice when two phones saved the same hand differently."""

from __future__ import annotations

import time
from datetime import datetime
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ...engine.limits import MAX_NAME
from ...engine.names import NameProblem, problem_of, tidy
from ...engine.scoring import score_hand
from ...net.hosts import is_loopback
from ...net.qr import qr_png
from ...engine.messages import SaidError
from .session import Detail, Screen, Session, Tone, ViewModel, intent
from .sheet import BreakdownSide, breakdown

JOIN = "#join="
"""How a join link carries the group's address after the app's own: `https://app.example/#join=https%3A…`. A
fragment never leaves the phone: no server (the app's host) sees the password."""
MAX_FIELD = 512
"""What a field keeps of what is typed or pasted: far more than any address, never a pasted book."""


@dataclass(frozen=True)
class Found:
    """What a *Test* found, in words."""

    ok: bool
    lines: tuple[str, ...]
    """Each step that went well, then the problem, if any."""
    may_create: bool = False
    """The database is missing and this user may create it: offer to."""


@dataclass(frozen=True)
class VersionView:
    """One version of a hand two phones saved differently, as the table compares them."""

    id: str
    title: str
    """`Version 1 · saved 20:15`."""
    points: str
    """`16 : 9`."""
    sides: tuple[BreakdownSide, ...]
    """Line by line."""
    short: str = ""
    """`Version 1`, for the switch between versions."""
    where: str = ""
    """Saved on this device, or on another."""
    differs: frozenset[tuple[int, str]] = frozenset()
    """The lines (side, label) that say something else in another version: the ones to look at."""


@dataclass(frozen=True)
class Mark:
    """Where this device stands with its group, for the small mark on home and the scoreboard."""

    kind: str
    """`done` (in step), `waiting` (changes to send), `off` (the last round failed), `choose` (a hand saved
    differently on two devices), `catching` (a round runs, or the group has more to read)."""
    words: str
    """The same in a sentence, for the screen reader and the tooltip."""
    problem: bool = False


class SyncModel(ViewModel):
    """The Sync screen (see the module)."""

    def __init__(self, session: Session, app: Any):
        super().__init__(session)
        self.app = app
        self.server = ""
        self.database = ""
        self.user = ""
        self.password = ""
        self.busy: str | None = None
        """What runs (`test`, `join`), shown instead of its button."""
        self.found: Found | None = None
        """What the last *Test* found."""
        self.link = ""
        """What is typed or pasted in the join-link field, kept as it is while it is not a link yet."""
        self.name_typed: str | None = None
        """What is typed in the device-name field (None: the name kept, as it is)."""
        self.conflict: tuple[str, int] | None = None
        """The hand (match id, slot) whose versions the conflict screen shows."""
        self.shown = 0
        """The version a narrow conflict screen shows (the others one tap away)."""

    # --- what the screen shows ---------------------------------------------------------------------------
    @property
    def available(self) -> bool:
        """Sync is there on this device (it keeps its data in a folder of its own)."""
        return self.services.group is not None

    def group(self) -> str | None:
        """The group this device is in (server, database, user; never the password), or None."""
        group = self.services.group
        return group.shown() if group is not None else None

    def status(self) -> tuple[str, Tone]:
        """How syncing goes, in words."""
        tr = self.tr
        if self.group() is None:
            return tr("sync.status.off"), Tone.INFO
        status = self.session.sync_status() if self.session.sync_status is not None else None
        if status is None:
            return tr("sync.status.starting"), Tone.INFO
        waiting = status.waiting
        if status.state == "failing" and status.problem is not None:
            return tr.n("sync.status.failing", waiting, reason=tr.say(status.problem)), Tone.PROBLEM
        if status.state in ("ok", "syncing") and status.at is not None:
            ago = max(0, int(time.time() - status.at))
            if waiting:
                line = tr.n("sync.status.waiting", waiting)
            elif status.in_step:
                line = tr.n("sync.status.ok", ago)
            else:  # the round ended well, but the device and the group did not yet agree when it checked
                line = tr("sync.status.behind")
            if status.conflicts:
                line += " " + tr.n("sync.status.conflicts", status.conflicts)
            refused = self.services.sync.refused() if self.services.sync is not None else []
            if refused:
                line += " " + tr.n("sync.status.refused", len(refused), reason=refused[0][1])
            if status.started_over is not None:
                at, what = status.started_over
                line += " " + tr("sync.status.started_over", time=datetime.fromtimestamp(at).strftime("%H:%M"),
                                 what=tr.say(what))
            return line, Tone.PROBLEM if status.conflicts or refused else Tone.INFO
        return tr("sync.status.starting"), Tone.INFO

    def mark(self) -> Mark | None:
        """The sync mark, when this device is in a group and its runner says how it goes (None otherwise)."""
        if self.group() is None or self.session.sync_status is None:
            return None
        tr, status = self.tr, self.session.sync_status()
        if status is None or status.state == "off":
            return None
        if status.conflicts:
            return Mark("choose", tr.n("sync.mark.choose", status.conflicts), True)
        if status.state == "failing":
            since = datetime.fromtimestamp(status.at).strftime("%H:%M") if status.at else None
            return Mark("off", tr("sync.mark.off_since", time=since) if since else tr("sync.mark.off"), True)
        if status.waiting:
            return Mark("waiting", tr.n("sync.mark.waiting", status.waiting))
        if status.state == "ok" and status.in_step:
            return Mark("done", tr("sync.mark.done"))
        return Mark("catching", tr("sync.mark.catching"))

    def address(self) -> str:
        """The address the fields make: `https://user:password@host/database`."""
        server = self.server.strip().rstrip("/")
        if "://" not in server and server:
            server = "https://" + server
        scheme, _, host = server.partition("://")
        who = ""
        if self.user.strip():
            who = quote(self.user.strip(), safe="") + ":" + quote(self.password, safe="") + "@"
        return f"{scheme}://{who}{host}/{quote(self.database.strip(), safe='')}" if server else ""

    def join_link(self) -> str | None:
        """The link another phone opens to join (with the password in it): only for a phone that may keep
        score (the device running the app, or a phone that gave the table code), never a watcher."""
        group = self.services.group
        link = group.link() if group is not None and self.session.can_write else None
        if link is None:
            return None
        info = self.session.table_info   # serving the network: the address other phones reach, not loopback
        return (info.url if info is not None else self.session.app_address or "") + JOIN + quote(link, safe="")

    def serves_itself_only(self) -> bool:
        """The app is served to this device alone (a laptop's own loopback): no other phone can open a link to
        it, so the join link is for pasting into another device's Sync settings."""
        if self.session.table_info is not None:
            return False
        host = urlsplit(self.session.app_address).hostname
        return host is not None and is_loopback(host)

    # --- intents -----------------------------------------------------------------------------------------
    @intent
    def open(self) -> None:
        self.found = None
        self.session.go(Screen.SYNC)

    @intent
    def set_field(self, name: str, text: str) -> None:
        if name in ("server", "database", "user", "password"):
            setattr(self, name, str(text)[:MAX_FIELD])
            self.found = None

    def device_name(self) -> str:
        """What the device-name field shows: what is typed, else the name this device goes by."""
        return self.name_typed if self.name_typed is not None else self.services.table.device_name()

    def device_name_problem(self) -> str | None:
        """Why what is typed cannot be this device's name (it is then not kept), in words; None when it can."""
        typed = self.name_typed
        problem = problem_of(typed) if typed is not None and typed.strip() else None
        if problem is NameProblem.TOO_LONG:
            return self.tr("name.too_long", max=MAX_NAME)
        if problem is NameProblem.NOT_TEXT:
            return self.tr("setup.missing.name_text")
        return None

    @intent
    def type_device_name(self, text: str) -> None:
        """What is typed in the device-name field, kept in the view model only: a write per keystroke would go
        to the writer's thread, and the redraw after it could set the field back under the next keystroke."""
        self.name_typed = str(text)[:MAX_FIELD]

    @intent(writes=True)
    def keep_device_name(self) -> None:
        """The name typed, kept as the name this device goes by in its group (empty: none) when the field is left
        or submitted, if it can be a name; signed from then on on what this device writes."""
        if self.name_typed is None or self.device_name_problem() is not None:
            return
        if tidy(self.name_typed) != self.services.table.device_name():
            self.services.library.update_settings(device_name=tidy(self.name_typed))
        self.name_typed = None

    @intent
    def paste(self, text: str) -> None:
        """What is typed or pasted in the join-link field, character by character or at once: kept as it is, and
        once it reads as a join link or an address the fields are filled from it (a problem said about the
        address before goes). Nothing is said while it is not complete yet: *Test* and *Join* say what is wrong."""
        self.link = str(text)[: 4 * MAX_FIELD]
        if self.take(self.link, quiet=True) and self.session.notice is not None \
                and self.session.notice.tone is Tone.PROBLEM:
            self.session.notice = None

    def take(self, text: str, quiet: bool = False) -> bool:
        """Fill the fields from a join link or an address; False when it is neither (said, unless `quiet`)."""
        text = text.strip()
        if JOIN in text:
            text = unquote(text.split(JOIN, 1)[1])
        group = self.services.group
        if group is None:
            return False
        try:
            address = group.connector.parse(text)
        except Exception as exc:  # said in words (unless `quiet`): what is wrong with the address
            if quiet and isinstance(exc, SaidError):
                return False
            if not self.recover(exc):
                raise
            return False
        self.server, self.database = address.server, address.database
        self.user, self.password = address.user or "", address.password or ""
        self.found = None
        return True

    def _from_link(self) -> bool:
        """Before *Test* or *Join*: fields left empty beside a typed link are filled from it, or what is wrong
        with the link is said (False)."""
        if self.server.strip() or not self.link.strip():
            return True
        return self.take(self.link)

    @intent(writes=True)
    def test(self, create: bool = False) -> None:
        """Try the address the fields make, as a round will use it (and create the database when asked)."""
        group = self.services.group
        if group is None or self.busy or not self._from_link():
            return
        address = self.address()
        try:
            group.connector.parse(address)
        except Exception as exc:  # a SaidError: what is wrong with the address, in words
            if not self.recover(exc):
                raise
            return
        self.busy, self.found = "test", None
        self.session.background_async(lambda: group.test(address, create), self._tested)

    @intent(person=False)
    def _tested(self, result: Any) -> None:
        self.busy = None
        tr = self.tr
        if isinstance(result, Exception):
            self.found = Found(False, (tr.say(result) if hasattr(result, "message") else str(result),))
            return
        lines = []
        if result.reachable:   # its version, when it said it (a server that refuses the password may not)
            lines.append(tr("sync.found.reachable", version=result.version) if result.version
                         else tr("sync.found.reachable_plain"))
        if result.signed_in:
            lines.append(tr("sync.found.signed_in"))
        if result.database:
            lines.append(tr("sync.found.database"))
        if result.problem is not None:
            lines.append(tr.say(result.problem))
            if result.database is False and result.may_create:
                lines.append(tr("sync.found.may_create"))
        else:
            lines.append(tr("sync.found.ready"))
        self.found = Found(result.ok, tuple(lines), result.database is False and result.may_create)

    @intent(writes=True)
    def join(self) -> None:
        """Join the group the fields name (tested first: an address that does not work is not kept)."""
        group = self.services.group
        if group is None or self.busy or not self._from_link():
            return
        address = self.address()
        try:
            group.connector.parse(address)
        except Exception as exc:  # said in words
            if not self.recover(exc):
                raise
            return
        self.busy, self.found = "join", None
        self.session.background_async(lambda: group.test(address), lambda result: self._joined(address, result))

    @intent(person=False)
    def _joined(self, address: str, result: Any) -> None:
        self._tested(result)
        self.busy = None
        if isinstance(result, Exception) or not result.ok:   # said where the eye is, not only in the card
            problem = None if isinstance(result, Exception) else result.problem
            reason = self.tr.say(problem) if problem is not None else (
                self.found.lines[-1] if self.found is not None and self.found.lines else "")
            self.session.say("notice.sync.not_joined", Tone.PROBLEM, reason=reason)
            return
        group = self.services.group
        assert group is not None
        group.join(address)
        self.password = ""
        self.session.say("notice.sync.joined", group=group.shown() or "")

    @intent
    def sync_now(self) -> None:
        action = self.session.page_actions.get("sync_now")
        if action is not None:
            action()
        self.session.say("notice.sync.now")

    @intent(writes=True)  # the group's password is in it: a watching phone is refused
    def show_join_qr(self) -> None:
        link = self.join_link()
        if link is not None:
            text = self.tr("sync.join_qr_text")
            if self.serves_itself_only():
                text += " " + self.tr("sync.join_qr_local", option="--host 0.0.0.0")
            self.session.detail = Detail(self.tr("sync.join_qr"), text, ident="join-qr", image=qr_png(link))

    @intent(writes=True)  # the group's password is in it: a watching phone is refused
    def copy_join_link(self) -> None:
        """The join link, copied for a message to another device of the table."""
        link = self.join_link()
        if link is None:
            return
        copy = self.session.copy_text
        if copy is None:
            self.session.say("notice.sync.copy_failed", Tone.PROBLEM)
            return
        copy(link, "notice.sync.link_copied", "notice.sync.copy_failed")

    @intent(writes=True)
    def ask_leave(self) -> None:
        self.session.ask("sync.ask_leave", self.leave, "leave-group", group=self.group() or "")

    @intent(writes=True)
    def leave(self) -> None:
        group = self.services.group
        if group is not None:
            group.leave()
            self.session.say("notice.sync.left")

    # --- two versions of one hand --------------------------------------------------------------------
    def conflicts(self, match_id: str | None) -> list[tuple[int, int]]:
        """(slot, hand number from 1) of every hand of the match two phones saved differently."""
        sync = self.services.sync
        if sync is None or match_id is None:
            return []
        return [(c.slot, c.index + 1) for c in sync.conflicts(match_id)]

    def versions(self) -> list[VersionView]:
        """The versions of the hand on the conflict screen, side by side."""
        sync = self.services.sync
        if sync is None or self.conflict is None:
            return []
        match_id, slot = self.conflict
        conflict = next((c for c in sync.conflicts(match_id) if c.slot == slot), None)
        record = self.services.table.get(match_id)
        if conflict is None:
            return []
        match, tr = record.match, self.tr
        here = sync.replica.device
        made = []
        for version in conflict.versions:
            score = score_hand(version.entry, match.rules, len(match.sides))
            made.append((version, score, tuple(breakdown(match, score, tr))))
        said = [{(side.side, line.label): (line.text, line.points) for side in sides for line in side.lines}
                for _, _, sides in made]
        out = []
        for n, (version, score, sides) in enumerate(made, start=1):
            mine = said[n - 1]
            differs = frozenset(key for key in set().union(*said)
                                if any(other.get(key) != mine.get(key) for other in said))
            where = (tr("sync.version_on", name=version.change.name) if version.change.name
                     else tr("sync.version_here" if version.change.device == here else "sync.version_elsewhere"))
            out.append(VersionView(
                version.id, tr("sync.version", n=n, time=_clock_time(version.change.at)),
                " : ".join(str(p) for p in score.points), sides, tr("sync.version_short", n=n), where, differs))
        return out

    @intent
    def show_version(self, index: int) -> None:
        """On a narrow screen, the version shown (one at a time, its Keep pinned below)."""
        self.shown = index

    def conflict_title(self) -> str:
        hand = next((n for slot, n in self.conflicts(self.conflict[0]) if slot == self.conflict[1]), None) \
            if self.conflict is not None else None
        return self.tr("sync.conflict_title", n=hand or "?")

    @intent
    def open_conflict(self, match_id: str, slot: int) -> None:
        self.conflict = (match_id, slot)
        self.shown = 0
        self.session.go(Screen.CONFLICT)

    @intent(writes=True)
    def keep(self, ids: list[str]) -> None:
        """The table's choice: these versions count, in this order; the others stay in the trail."""
        sync = self.services.sync
        if sync is None or self.conflict is None:
            return
        match_id, slot = self.conflict
        sync.choose(match_id, slot, ids)
        self.conflict = None
        self.session.back()
        self.app.scoreboard.refresh(match_id)
        if self.app.record.record is not None and self.app.record.record.id == match_id:
            self.app.record.reread()
        if self.session.announce is not None:
            self.session.announce({"match": match_id, "replaces": None})
        self.session.say("notice.sync.chosen")


def _clock_time(stamp: str) -> str:
    """`20:15` in this device's time zone, from a change's UTC stamp (`2026-12-01T19:15:03Z`)."""
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().strftime("%H:%M")
    except ValueError:
        return stamp[11:16]
