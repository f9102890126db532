"""The child of the crash test: opens the store and saves hands in a loop until it is killed.

It prints `saved <match id> <hands>` after every save that returned, and `created <match id>` after
every new match, flushing each line, so the parent knows exactly what the store said was saved.
"""

from __future__ import annotations

import sys

from companion.engine import Goal, LiveHand
from companion.storage import Store
from companion.engine.live import TapKind

from tests.storage.builders import hand_for, new_match
from tests.play import play, keep_live

HANDS_PER_MATCH = 12


def main(folder: str) -> None:
    store = Store(folder)
    print("ready", flush=True)  # the parent reads this line before it starts the clock on a kill
    record = play(store).unfinished()
    while True:
        if record is None or record.finished:
            record = play(store).start(new_match(goal=Goal(hands=HANDS_PER_MATCH)))
            print(f"created {record.id}", flush=True)
        n = len(record.match.hands)
        keep_live(store, record.id, LiveHand().tap(n % 2, TapKind.XERI))
        record = play(store).record_hand(record.id, hand_for(n))
        print(f"saved {record.id} {len(record.match.hands)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
