"""The scoreboard of the match in play: totals, who deals, live xeri taps, the hands, and the end."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...engine.entry import HandEntry
from ...engine.live import Tap, TapKind
from ...engine.match import Match, Standing, Status
from ...engine.names import shown_player, shown_side
from ...formats.sheet import sheet_text
from ...i18n.explain import goal_text
from ...service import DamagedMatch, MatchRecord, NoSuchMatch, Revision, StaleWrite
from .session import Detail, Screen, Session, Tone, ViewModel, intent
from .picture import SheetPicture, sheet_picture
from .sheet import BreakdownSide, HandRow, breakdown, extension_event, hand_rows


@dataclass(frozen=True)
class SideBox:
    """One side's box on the scoreboard."""

    name: str
    players: str | None
    """The partners' names, when the team has a name of its own."""
    total: int
    label: str
    """The total in words, for screen readers."""
    needs: str | None
    hands_won: str
    is_winner: bool


@dataclass(frozen=True)
class SeatTaps:
    """One player's live xeri buttons."""

    seat: int
    side: int
    player: str
    xeris: int
    jack_xeris: int
    xeri_label: str
    jack_xeri_label: str
    shown: str = ""
    """The player's name as a button shows it (a long one by its first name; the labels say it whole)."""


@dataclass(frozen=True)
class Undone:
    """The hand this phone undid last, for Redo: the match as the undo left it, and the hand as it was saved."""

    match: str
    revision: Revision
    entry: HandEntry
    taps: tuple[Tap, ...] | None


class ScoreboardModel(ViewModel):
    """The match in play, shared by the scoreboard and the hand entry."""

    def __init__(self, session: Session, app):
        super().__init__(session)
        self.app = app
        self.deciding: tuple[str, int] | None = None
        """The drawn match (its id and hands) whose deciding hand this phone chose to play: the hand is at the table
        (set before the match is picked: a phone that was playing one comes back to it, `_kept_place`)."""
        self.record: MatchRecord | None = self._kept_place() or self.services.table.unfinished()
        self.opened: int | None = None
        """The hand whose breakdown is open on the scoreboard."""
        self.flash: int | None = None
        """The hand just saved, which the status strip names for a moment (a tap there shows its breakdown)."""
        self.flash_before: tuple[int, ...] | None = None
        """When the hand just saved was an edit: its points before, for "19 : 26 → 9 : 36"."""
        self.undone: Undone | None = None
        """The hand this phone undid last (Redo puts it back while the match is as the undo left it)."""
        session.on_home.append(self._forget_view)

    def _kept_place(self) -> MatchRecord | None:
        """Where this phone was (`Session.place`): the match it followed when it was last used, while that is
        still in play, and its scoreboard when it was at the table (a reload or a restart comes back there)."""
        place = self.session.place
        if place is None or not place.following:
            return None
        try:
            record = self.services.table.get(place.following)
        except (NoSuchMatch, DamagedMatch):
            return None
        if record.abandoned:
            return None
        if self.services.table.standing(record).is_over:
            # Over, unless drawn with its deciding hand at the table (the table chose to play it before the reload).
            if not (place.deciding and place.at_table and place.deciding == len(record.match.hands)
                    and self.services.table.standing(record).deciding_hand):
                return None
            self.deciding = (record.id, len(record.match.hands))
        if place.at_table:
            self.session.trail, self.session.screen = [Screen.HOME], Screen.SCOREBOARD
        return record

    # --- what the screens show -----------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        return self.record.match if self.record else None

    @property
    def standing(self) -> Standing | None:
        """Where the match stands: worked out once per version of the match, however often it is asked."""
        return self.services.table.standing(self.record) if self.record else None

    @property
    def in_play(self) -> bool:
        """True when there is a match and it is not over."""
        return self.record is not None and not self.standing.is_over

    @property
    def at_hand(self) -> bool:
        """True when a hand is being played: the match is in play, or drawn and this phone chose to play its
        deciding hand (End hand and the xeri buttons are on the scoreboard)."""
        if self.record is None:
            return False
        st = self.standing
        return not st.is_over or (st.deciding_hand and self.deciding == (self.record.id, len(self.match.hands)))

    @property
    def deciding_offered(self) -> bool:
        """True when the match is drawn and the rule set lets the table agree on a deciding hand."""
        return self.record is not None and self.standing.deciding_hand and not self.at_hand

    def sure_line(self) -> str | None:
        """Who is sure to win a match over an agreed number of hands before its last hand, while it is in play."""
        st = self.standing
        if not st.may_finish_now or st.sure_winner is None:
            return None
        side = self.match.sides[st.sure_winner]
        return self.tr("match.sure_winner.team" if side.players else "match.sure_winner", side=side.name)

    def finish_offer(self) -> str | None:
        """What the status strip offers once a side is sure to win, before the next hand's first tap: finish now
        or play on (a tap on the strip asks)."""
        st = self.standing
        if self.record is None or not st.may_finish_now or st.sure_winner is None or self.record.live.taps:
            return None
        return self.tr("match.finish_offer", side=self.match.sides[st.sure_winner].name)

    @property
    def side_names(self) -> list[str]:
        # A team left unnamed is called after its players, shortened to fit a screen (never in what is stored).
        return [shown_side(s.title, s.players) for s in self.match.sides] if self.match else []

    @property
    def title(self) -> str:
        """The header: the hand being played (the boxes below name the sides)."""
        if self.standing.is_over:
            return self.tr("match.deciding_title") if self.at_hand else self.tr("match.over_title")
        return self.tr("match.title", n=len(self.match.hands) + 1)

    def goal_line(self) -> str:
        """The goal in force, and under a hands goal how many hands are left."""
        st = self.standing
        text = goal_text(self.match.goal, self.tr, st.target)
        if st.hands_left is not None and not st.is_over:
            sure = self.sure_line()
            text += (" · " + sure if sure else "") + " · " + self.tr.n("status.hands_left", st.hands_left)
        elif st.status is Status.WON and st.hands_left:   # finished once decided, before its last hand
            text += " · " + self.tr("match.finished_early", played=len(self.match.hands), hands=self.match.goal.hands)
        elif self.at_hand:
            text += " · " + self.tr("match.deciding_line")
        return text

    def goal_short(self) -> str:
        """The goal in a few words, on one line: `first to 151, then 251`, `7 hands · 2 hands to play.`"""
        st, goal, tr = self.standing, self.match.goal, self.tr
        if goal.is_race and not st.extensions:
            return tr("goal.race_short", target=goal.target, extension=goal.extension)
        if goal.hands is not None and st.hands_left is not None and not st.is_over:
            sure = self.sure_line()   # decided before the last hand: who is sure to win, in the goal's place
            return f"{sure or tr.n('history.goal_hands', goal.hands)} · {tr.n('status.hands_left', st.hands_left)}"
        return self.goal_line()

    @property
    def extended(self) -> bool:
        """True once two sides passed the target together and the match is played on to a higher one."""
        return bool(self.standing.extensions)

    def summary_line(self) -> str:
        """The rules, the goal and the hands played, for the home screen."""
        tr, match = self.tr, self.match
        return (f"{tr(f'rules.{match.rules.name}.title')} · {self.goal_line()} · "
                f"{tr.n('home.hands_played', len(match.hands))}")

    def boxes(self, compact: bool = False) -> list[SideBox]:
        tr, st = self.tr, self.standing
        out = []
        names = self.side_names
        for i, side in enumerate(self.match.sides):
            players = None
            if side.players and side.title and side.title != " & ".join(side.players):   # a team given a name
                players = " & ".join(side.players)
            needs = tr("match.needs", points=st.needs[i]) if st.needs is not None and not st.is_over else None
            won = tr.n("match.hands_won_short" if compact else "match.hands_won", st.hands_won[i])
            out.append(SideBox(names[i], players, st.totals[i], tr("match.total_label", side=side.name,
                                                                     points=st.totals[i]),
                               needs, won, st.winner == i))
        return out

    def described(self, record: MatchRecord) -> dict[str, str]:
        """A match in a few words, for a question or a notice about it: its sides, score and hands played."""
        st = self.services.table.standing(record)
        return {"sides": " · ".join(side.name for side in record.match.sides),
                "score": " : ".join(str(t) for t in st.totals),
                "played": self.tr.n("home.hands_played", len(record.match.hands))}

    def deal_line(self) -> str:
        st, seats = self.standing, self.match.seats
        return self.tr("match.deals", dealer=shown_player(seats[st.next_dealer].player),
                       leader=shown_player(seats[st.next_leader].player))

    def seats(self) -> list[SeatTaps]:
        tr, live = self.tr, self.record.live
        out = []
        for i, seat in enumerate(self.match.seats):
            x, jx = live.count(i, TapKind.XERI), live.count(i, TapKind.JACK_XERI)
            out.append(SeatTaps(i, seat.side, seat.player, x, jx, tr("match.xeri_label", player=seat.player, n=x),
                                tr("match.jack_xeri_label", player=seat.player, n=jx), shown_player(seat.player)))
        return out

    def taps_line(self) -> str:
        return self.tr.n("match.taps", len(self.record.live.taps))

    def seat_count(self, seat: int, kind: TapKind) -> int:
        return self.record.live.count(seat, kind) if self.record else 0

    def hand_rows(self) -> list[HandRow]:
        return hand_rows(self.match, self.standing, self.tr)

    def breakdown(self, index: int) -> list[BreakdownSide]:
        return breakdown(self.match, self.standing.scores[index], self.tr)

    def saved_line(self) -> str | None:
        """What the status strip says of the hand just saved: its points and who won it (an edit: old → new)."""
        if self.flash is None or self.flash >= len(self.standing.scores):
            return None
        score = self.standing.scores[self.flash]
        points = " : ".join(str(p) for p in score.points)
        # A sentence of its own (after "Hand 1 saved: 12 : 12."): it starts with a capital where the language has one.
        winner = (self.tr("match.saved_winner", side=self.match.sides[score.winner].name) if score.winner is not None
                  else self.tr("match.saved_tie"))
        if self.flash_before is not None:
            before = " : ".join(str(p) for p in self.flash_before)
            return self.tr("match.edited", n=self.flash + 1, before=before, points=points, winner=winner)
        event = extension_event(self.match, self.standing, self.flash, self.tr)
        if event:   # the hand sent the match on to the next target: said with it
            return self.tr("match.saved_extended", n=self.flash + 1, points=points, winner=winner, event=event)
        return self.tr("match.saved", n=self.flash + 1, points=points, winner=winner)

    def over_title(self) -> str:
        st = self.standing
        if st.status is Status.WON:
            side = self.match.sides[st.winner]
            return self.tr("over.winner.team" if side.players else "over.winner", side=side.name)
        return self.tr("over.drawn")

    def share_text(self) -> str:
        """The whole score sheet as plain text (shared as a file)."""
        return sheet_text(self.record.match, self.tr) if self.record else ""

    def picture(self) -> SheetPicture | None:
        """The match as a picture for the group's chat (`viewmodel.picture`)."""
        return sheet_picture(self.record, self.standing, self.tr) if self.record else None

    # --- keeping in step with the other phones -------------------------------------------------------
    def _forget_view(self) -> None:
        """Forget what belonged to the match on screen: an opened hand, a saved hand's flash."""
        self.opened = self.flash = self.flash_before = None

    def _changed(self, replaces: str | None = None) -> None:
        """Tell the other sessions (phones at the same table) that the match in play changed; `replaces`
        names the match it takes over from (a rematch), so the phones showing that one follow."""
        if self.session.announce is not None and self.record is not None:
            self.session.announce({"match": self.record.id, "replaces": replaces})

    def _fresh(self) -> None:
        """Read the match in play again: another phone may have changed it."""
        if self.record is not None:
            self.record = self.services.table.get(self.record.id)

    def recover(self, exc: Exception) -> bool:
        if isinstance(exc, StaleWrite):
            self.record = exc.current
            self.session.say("notice.stale", Tone.PROBLEM)
            return True
        return super().recover(exc)

    @intent(person=False)
    def refresh(self, match_id: str, replaces: str | None = None) -> None:
        """Another session changed match `match_id` (or started it in place of `replaces`): show it as stored now."""
        s = self.session
        if self.record is not None and replaces is not None and self.record.id == replaces:
            self.record = self.services.table.get(match_id)     # a rematch: follow the table to the new match
            self._forget_view()
            if s.screen is Screen.ENTRY:
                self.app.entry.leave()
            old = self.services.table.get(replaces)
            if old.finished:
                s.say("notice.rematch_elsewhere")
            else:   # the match this phone showed was stopped unfinished for the new one: say which, as it was
                s.say("notice.new_elsewhere", **self.described(old))
            return
        if self.record is not None and self.record.id != match_id:
            return
        if self.record is None and s.screen is not Screen.HOME:
            return
        record = self.services.table.get(match_id)
        if record.abandoned:
            if self.record is not None:   # stopped elsewhere: said, never a silent drop to home
                self.record = None
                if s.screen is Screen.ENTRY:
                    self.app.entry.leave()
                if s.screen is Screen.SCOREBOARD:
                    s.home()
                by = self.services.sync.stopped_by(match_id) if self.services.sync is not None else ""
                if by:
                    s.say("notice.stopped_by", Tone.PROBLEM, name=by, **self.described(record))
                else:
                    s.say("notice.stopped_elsewhere", Tone.PROBLEM, **self.described(record))
            return
        self.record = record
        self.app.entry.on_match_changed(record)

    def own(self) -> MatchRecord | None:
        """This phone's own match, as stored now, while it is in play (not over, not stopped): the one a new
        match or a match taken up again would leave. Another table's match is never this phone's to stop."""
        try:
            self._fresh()
        except (NoSuchMatch, DamagedMatch):   # deleted, or set aside, since this phone showed it
            self.record = None
        if self.record is None or self.record.abandoned or not self.in_play:
            return None
        return self.record

    # --- intents -------------------------------------------------------------------------------------
    @intent
    def follow(self, match_id: str) -> None:
        """Follow another match in play (another table's, or one this phone left): its scoreboard."""
        self.record = self.services.table.get(match_id)
        self._forget_view()
        self.session.go(Screen.SCOREBOARD)

    @intent
    def open(self) -> None:
        """Continue the match in play."""
        self._fresh()
        if self.record:
            self.session.go(Screen.SCOREBOARD)

    def go_on(self) -> None:
        """Go on with the match in play (the answer "Continue it" to a new match asked for meanwhile)."""
        self._fresh()
        if self.record is not None and self.in_play:
            s = self.session
            s.trail, s.screen = [Screen.HOME], Screen.SCOREBOARD

    @intent(writes=True)
    def tap(self, seat: int, kind: TapKind = TapKind.XERI) -> None:
        """A xeri (or jack xeri) of the player at `seat`, as it happens."""
        if not self.record:
            return
        self.record = self.services.table.tap(self.record.id, seat, kind, hand=len(self.record.match.hands))
        self._changed()
        self.flash = None
        self.session.say(f"notice.tap.{kind.value}", player=self.match.seats[seat].player,
                         n=self.record.live.count(seat, kind))

    @intent(writes=True)
    def undo_tap(self) -> None:
        if self.record and self.record.live.taps:
            last = self.record.live.taps[-1]
            self.record = self.services.table.undo_tap(self.record.id, expected=self.record.revision)
            self._changed()
            self.session.say(f"notice.untap.{last.kind.value}", player=self.match.seats[last.seat].player)

    @intent(writes=True)
    def end_hand(self) -> None:
        """The hand is over: open the entry, prefilled from the live taps."""
        self._fresh()
        if self.at_hand:
            self.flash = None
            self.app.entry.open_new(self.record)

    @intent
    def show_breakdown(self, index: int | None) -> None:
        self.opened = None if index == self.opened else index
        self.flash = None

    @intent
    def show_saved(self) -> None:
        """The hand just saved, line by line, over the screen."""
        if self.flash is not None:
            self.session.detail = Detail(self.saved_line(), sides=tuple(self.breakdown(self.flash)), ident="flash")

    @intent(person=False)
    def fade_flash(self, shown: int) -> None:
        """The saved hand's breakdown has been shown long enough: give the screen back to the next hand."""
        if self.flash == shown and self.session.screen is Screen.SCOREBOARD and self.session.detail is None:
            self.flash = self.flash_before = None

    @intent(writes=True)
    def ask_undo(self) -> None:
        """Ask before undoing the last hand; the answer undoes the hand the question named, or nothing
        (another phone may save a hand while the question is open)."""
        shown = self.record.revision
        self.session.ask("confirm.undo", lambda: self.undo_last_hand(shown), n=len(self.match.hands))

    @intent(writes=True)
    def ask_edit(self, index: int) -> None:
        self.session.ask("confirm.edit", lambda: self.app.entry.open_edit(self.record, index), n=index + 1)

    @intent
    def play_deciding_hand(self) -> None:
        """The table agreed to settle the draw with a deciding hand: play it (saving it decides the match)."""
        self._fresh()
        if self.record is not None and self.standing.deciding_hand:
            self.deciding = (self.record.id, len(self.match.hands))
            self.flash = None
            self.session.say("notice.deciding_hand")

    @intent
    def keep_draw(self) -> None:
        """No deciding hand after all: the draw stands."""
        self.deciding = None

    @intent(writes=True)
    def ask_finish(self) -> None:
        """Ask whether to finish the match now that a side is sure to win, or play the hands left on."""
        if self.record is None or self.standing.sure_winner is None or not self.standing.may_finish_now:
            return
        shown, st = self.record.revision, self.standing
        side = self.match.sides[st.sure_winner]
        self.session.ask("confirm.decided.team" if side.players else "confirm.decided", lambda: self.finish_now(shown),
                         ident="decided", answers=("over.finish_now", "over.play_on"), side=side.name,
                         won=" – ".join(str(n) for n in st.hands_won))

    @intent(writes=True)
    def finish_now(self, shown: Revision | None = None) -> None:
        """Finish the match now, won by the side sure to win (as `shown`, a revision, when given)."""
        if self.record is not None:
            self.record = self.services.table.finish_now(self.record.id, expected=shown or self.record.revision)
            self._changed()
            self.flash = None

    @intent(writes=True)
    def ask_abandon(self) -> None:
        """Ask before stopping the match; the answer stops it only as it was when asked."""
        shown = self.record.revision
        self.session.ask("confirm.abandon", lambda: self.abandon(shown))

    @intent(writes=True)
    def undo_last_hand(self, shown=None) -> None:
        """Undo the last hand of the match as `shown` (a revision; by default the one on screen): it opens again
        in the entry, filled in as saved, its live taps back, to be saved again (as it was or corrected) or
        discarded; Redo puts it back as it was while nothing else happened."""
        if self.record and self.record.match.hands:
            n = len(self.record.match.hands)
            was = self.record.match.hands[-1]
            taps = self.record.taps_of(n - 1)
            self.record = self.services.table.undo_hand(self.record.id, expected=shown or self.record.revision)
            self._changed()
            self.flash = self.opened = None
            self.undone = Undone(self.record.id, self.record.revision, was, taps)
            self.app.entry.open_undone(self.record, was)
            self.session.say("notice.undone", n=n)

    @property
    def can_redo(self) -> bool:
        """Whether Redo can put back the hand undone last: nothing happened to the match since."""
        u = self.undone
        return u is not None and self.record is not None and (u.match, u.revision) == (self.record.id,
                                                                                     self.record.revision)

    def redo_label(self) -> str:
        return self.tr("match.redo_hand", n=len(self.match.hands) + 1)

    def discarded(self, record: MatchRecord) -> None:
        """The hand reopened by an undo was discarded (its taps taken back): Redo still puts it back."""
        keep, u = self.can_redo, self.undone
        self.record = record
        self._changed()
        if keep and u is not None:
            self.undone = replace(u, revision=record.revision)

    @intent(writes=True)
    def redo(self) -> None:
        """Put back the hand undone last, as it was saved (its taps too), while nothing else happened."""
        u = self.undone
        if not self.can_redo or u is None or self.record is None:
            return
        self.undone = None
        record = self.services.table.record_hand(u.match, u.entry, expected=u.revision, taps=u.taps)
        self.app.entry.forget(u.match)
        self.saved(record, len(record.match.hands) - 1)
        self.session.say("notice.redone", n=len(record.match.hands))

    @intent(writes=True)
    def abandon(self, shown: Revision | None = None) -> None:
        """Stop the match unfinished (as `shown`, a revision, when given: else as on screen)."""
        if self.record:
            self.services.table.abandon(self.record.id, expected=shown or self.record.revision)
            self._changed()
            self.record = None
            self.session.home()

    @intent(writes=True)
    def rematch(self) -> None:
        """Same sides and rules; the deal moves on from where the last match left it."""
        if not self.record:
            return
        old = self.record.id
        self.record = self.services.table.rematch(old)
        self._changed(replaces=old)
        self._forget_view()
        s = self.session
        s.trail, s.screen, s.question = [Screen.HOME], Screen.SCOREBOARD, None
        s.say("notice.started", dealer=self.match.seats[self.match.first_dealer].player)

    def started(self, record: MatchRecord, replaces: str | None = None) -> None:
        """A new match is in play (from the new-match form, or a match continued from the history), in place
        of `replaces` (stopped for it): the phones showing that one follow."""
        self.record = record
        self._changed(replaces)
        self._forget_view()
        s = self.session
        s.trail, s.screen, s.question = [Screen.HOME], Screen.SCOREBOARD, None

    def saved(self, record: MatchRecord, index: int, before: tuple[int, ...] | None = None) -> None:
        """A hand was saved from the entry (`before`: its points before, for an edit): name it for a moment."""
        self.record = record
        self._changed()
        self.flash, self.flash_before = index, before
        self.opened = None
