"""The sync domain, on its own floor: a match as the changes made to it. The documents a group's phones
share, how they add up to a match, and which changes a device's own match holds that the shared ones do
not yet.

Every document says one thing that happened and is never changed afterwards ("append, don't rewrite"): a
match started, a hand saved (or a new version of one), a hand taken back, a live tap, a tap taken back, a
match stopped or taken up again, a choice between two versions of a hand. Two phones never write the same
document about different things, so a replicating database never has to pick a winner between them; what
two phones did apart adds up by the rules of `project`:

- different hands, taps and edits all count, in slot order (a hand's slot is its place in the match when
  it was saved); a version withdrawn (undone, or not chosen) stays in the trail;
- two versions of the same hand that say the same thing are one hand, never two;
- two versions of the same hand that differ are a `Conflict`: the earlier counts until the table chooses
  (one of them, or both in turn), and the other is shown beside it;
- a tap counts for the hand in progress; one meant for a hand already saved does not change that hand;
- stopping or taking up a match: the latest says (by logical clock, `Change.clock`; never by a device's own
  clock).

A device never edits these documents by hand. Each use case that changes a match the group knows writes
the documents that say it (`outbox`: a save, an edit, an undo, a tap, a tap taken back, stopped or taken up
again) in the same atomic write as the match, in the match's own file; a round takes them as written. Only
a match the group was never told of (started here, imported, kept from before the device joined) is told
whole, by `changes_since`, which makes its documents from the match itself. A document sent twice has the
same id, so it counts once.

The package is pure code below the service and storage (tests/test_layering.py): `documents` (making and
reading them), `projection` (adding them up), `outbox` (what each use case says), `diff` (a match the group never
heard of, as documents), `stored` (a stored match beside what they add up to), `limits` (their bounds and a
round's).
"""

from __future__ import annotations

from .diff import changes_since
from . import outbox
from .documents import (MATCH_ID, Change, ChangeError, ChangeSays, Kind, choice, from_doc, hand, named, stamped,
                        start, status, tap, undo, untap)
from .limits import (FORMAT, MAX_BODY_CHARS, MAX_CLOCK, MAX_KEPT_BYTES, MAX_PAGES, MAX_SLOTS, RECEIVE_BATCH,
                     SEND_BATCH)
from .stored import behind, merged_trail, same_record, unsaid
from .projection import (Conflict, Projection, Version, is_start_readable, live_of, match_of, may_conflict,
                         names_of, project, record_of)

__all__ = ["FORMAT", "MATCH_ID", "MAX_BODY_CHARS", "MAX_CLOCK", "MAX_KEPT_BYTES", "MAX_PAGES", "MAX_SLOTS",
           "RECEIVE_BATCH", "SEND_BATCH", "Change", "ChangeError", "ChangeSays", "Conflict", "Kind", "Projection",
           "Version", "behind", "changes_since", "choice", "from_doc", "hand", "is_start_readable", "live_of",
           "match_of", "may_conflict", "merged_trail", "named", "names_of", "outbox", "project", "record_of",
           "same_record", "stamped", "start", "status", "tap", "undo", "unsaid", "untap"]
