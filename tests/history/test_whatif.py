"""What if: a stored match rescored under other rules, beside the result as played."""

from __future__ import annotations

import pytest

from companion.engine import Goal, Match, Status
from companion.formats.presets import preset
from companion.history.whatif import WhatIfError, what_if

from .builders import CLASSIC, GREEK, PARTNERSHIP, hand, race_to_50, single


def test_what_if_25_point_jack_xeris_ends_the_race_a_hand_earlier_and_leaves_the_match_alone():
    match = race_to_50()
    result = what_if(match, CLASSIC.with_overrides(jack_xeri_points=25))
    assert result.stored_points == ((36, 9), (10, 15), (15, 10))
    assert result.rescored_points == ((41, 9), (10, 15), (15, 10))
    assert result.totals == ((61, 34), (51, 24))
    assert result.winners == (0, 0) and not result.winner_changed
    assert (result.stored.decided_at, result.rescored.decided_at, result.hands_after_end) == (2, 1, 1)
    assert result.stored_rules == CLASSIC and result.rules.jack_xeri_points == 25
    assert match == race_to_50()


def test_what_if_plain_rules_give_the_hand_and_the_match_to_the_other_side():
    # Classic: 3 + 13 + 1 + 1 = 18 against 7 + a jack xeri of 20 = 27. Plain: the jack xeri is worth 10, so 18-17.
    match = Match(rules=CLASSIC, sides=single("Anna", "Ben"), goal=Goal(hands=1),
                  hands=(hand(cards=(30, 22), counting=(13, 7), jack_xeris=(0, 1)),))
    result = what_if(match, preset("plain"))
    assert (result.stored_points, result.rescored_points) == (((18, 27),), ((18, 17),))
    assert result.winners == (1, 0) and result.winner_changed
    assert result.goal == Goal(hands=1)  # the stored goal, not the plain preset's 7 hands
    # Under another goal the same hand decides nothing yet.
    longer = what_if(match, preset("plain"), goal=Goal(hands=5))
    assert (longer.rescored.status, longer.rescored.hands_left, longer.hands_after_end) == (Status.PLAYING, 4, 0)
    assert longer.winners == (1, None) and longer.winner_changed


def test_what_if_refuses_rules_the_stored_hands_cannot_be_read_under():
    match = race_to_50()
    with pytest.raises(WhatIfError) as error:
        what_if(match, GREEK.with_overrides(two="2C"))  # counted 20 counting cards; greek-online counts 16
    assert error.value.hand == 0 and "counting_total" in [p.code for p in error.value.problems]
    with pytest.raises(WhatIfError, match="partnership"):
        what_if(match, PARTNERSHIP)  # two single players are no partnerships
    with pytest.raises(WhatIfError, match="2♠"):
        what_if(match, CLASSIC.with_overrides(two="2S"))  # the hands say who took the 2♣
    with pytest.raises(WhatIfError, match="2♠"):
        what_if(match, GREEK)
