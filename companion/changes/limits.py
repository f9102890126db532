"""The bounds of the group's documents, in one place: what a document may hold, and what one round of sync
may read (a server cannot push a device past them). Pure values, no I/O."""

from __future__ import annotations

FORMAT = 1
"""The version of the documents' shape: a document of a newer shape is kept, never read."""
MAX_SLOTS = 1_000
"""The highest slot a hand may have (as many as hands a match may hold)."""
MAX_BODY_CHARS = 64 * 1024
"""The longest body a document may have, as JSON: the largest the app writes (a start with its rules and
four sides' names, a hand with 200 taps) is a few kilobytes. A longer one is not read, so a hostile server
cannot fill this device's disk with documents that are otherwise well formed."""
MAX_CLOCK = 2**53
"""The highest logical clock a document may carry (JSON's exact integers)."""
SEND_BATCH = 200
"""Documents sent in one request."""
RECEIVE_BATCH = 500
"""Documents asked for in one page of the group's feed."""
MAX_KEPT_BYTES = 200 * 1024 * 1024
"""The most a device keeps of its group's documents: 200 MB, twenty times a club's decade (a match of 20
hands is about 30 KB of documents; a club's decade, 3,000 matches, about 100 MB). A server that sends more
(a flood of well-formed documents) stops the round with a sentence once it is past it; what was kept stays,
and the device's own matches are not touched."""
MAX_PAGES = 400
"""The most pages one round reads (200,000 documents, a club's twenty years): a server that never says it is
done is cut off with a sentence; what was read is kept, and the next round goes on from there."""
