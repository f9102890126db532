"""The group's records (honours) against hand-worked histories: who holds each, ties, abandons, partnerships."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Goal, HandEntry, Item, Side, score_hand, standing
from companion.history import honours as honours_module
from companion.history import scored as scored_module
from companion.history.honours import Honour, HonourKind, Honours, honours
from companion.history.stats import player_stats, running_totals_series, score_history

from .builders import (CLASSIC, FIRST_JACK_XERI, FIRST_WINS, FIRST_XERI, GREEK, PARTNERSHIP, SECOND_WINS, TIED,
                       classic_hands, duel, evenings, hand, record, single)

# More hands worked out under classic rules (side 0, side 1); see builders.py for how a hand adds up.
SECOND_JACK_XERI = hand(cards=(22, 30), counting=(8, 12), ten=1, jack_xeris=(0, 1))    # 8+1 = 9, 3+12+1+20 = 36
SECOND_TWO_XERIS = hand(cards=(22, 30), counting=(8, 12), ten=1, xeris=(0, 2))         # 9, 3+12+1+20 = 36
FIRST_TWO_XERIS = hand(cards=(30, 22), counting=(12, 8), two=1, xeris=(2, 0))          # 3+12+1+20 = 36, 9
FIRST_TWO_JACK_XERIS = hand(cards=(30, 22), counting=(12, 8), two=1, jack_xeris=(2, 0))  # 3+12+1+40 = 56, 9

ONE_HAND = Goal(hands=1)


def date(day: str) -> str:
    return f"{day}T22:00:00+00:00"


def of(records) -> Honours:
    return honours(score_history(records))


def pair(id: str, first: tuple[str, str], second: tuple[str, str], hands, *, day: str, goal=ONE_HAND, **kw):
    """A partnership match; the side names are made of the ids, the players' names are the ids capitalised."""
    sides = [Side("&".join(ids), tuple(i.capitalize() for i in ids)) for ids in (first, second)]
    return record(id, sides, [first, second], hands, rules=PARTNERSHIP, goal=goal, day=day, **kw)


def test_the_hands_score_as_worked_out_by_hand():
    hands = (SECOND_JACK_XERI, SECOND_TWO_XERIS, FIRST_TWO_XERIS, FIRST_TWO_JACK_XERIS)
    assert [score_hand(h, CLASSIC, 2).points for h in hands] == [(9, 36), (9, 36), (36, 9), (56, 9)]


def test_an_empty_history_has_no_records():
    assert honours(()) == Honours(None, None, None, None, None)
    assert honours(()).items() == ()


def test_the_evenings_records_are_as_worked_out_by_hand():
    # r1 Anna wins on hands (15 11 26 to 10 11 9); r2 Ben (side 0) races to 30 with 15, 36 to 10, 9;
    # r3 abandoned (15 to 10); r4 in play (26 to 9) is not in the history.
    assert of(evenings()) == Honours(
        highest_hand=Honour(HonourKind.HIGHEST_HAND, 36, ("ben",), 0, "r2", date("2025-02-05"), hand=2),
        most_xeris_in_a_hand=Honour(HonourKind.MOST_XERIS_IN_A_HAND, 1, ("anna",), 0, "r1", date("2025-01-10"),
                                    hand=3),
        most_jack_xeris_in_a_hand=Honour(HonourKind.MOST_JACK_XERIS_IN_A_HAND, 1, ("ben",), 0, "r2",
                                         date("2025-02-05"), hand=2),
        # Anna won r1, Ben r2: one each, and Anna's came first.
        longest_winning_streak=Honour(HonourKind.LONGEST_WINNING_STREAK, 1, ("anna",), 0, "r1", date("2025-01-10"),
                                      from_match_id="r1"),
        # r1 is played for hands (left out); Ben led r2 from the first hand.
        biggest_comeback=None,
    )


def test_the_highest_hand_goes_to_the_first_to_score_it():
    records = [
        duel("later", [FIRST_JACK_XERI], day="2025-02-01", goal=ONE_HAND),  # 36 too, but later
        duel("early", [FIRST_WINS, FIRST_JACK_XERI, FIRST_JACK_XERI], day="2025-01-01"),  # 36 in hands 2 and 3
    ]
    assert of(records).highest_hand == Honour(HonourKind.HIGHEST_HAND, 36, ("anna",), 0, "early", date("2025-01-01"),
                                              hand=2)
    # 11 to 11: both sides scored the most in the same hand, and the first side keeps it.
    assert of([duel("tie", [TIED], goal=ONE_HAND)]).highest_hand == Honour(
        HonourKind.HIGHEST_HAND, 11, ("anna",), 0, "tie", date("2025-01-10"), hand=1)


def test_the_most_xeris_in_a_hand_counts_one_hand_not_the_match():
    m1 = duel("m1", [FIRST_XERI, FIRST_XERI, SECOND_JACK_XERI], day="2025-01-01")  # Anna 1 + 1 xeris, Ben 1 jack
    m2 = duel("m2", [FIRST_WINS, SECOND_TWO_XERIS], day="2025-01-02")                # Ben 2 xeris in hand 2
    m3 = duel("m3", [FIRST_TWO_XERIS, FIRST_TWO_JACK_XERIS], day="2025-01-03")       # Anna 2 xeris, then 2 jack
    first = of([m1])
    assert first.most_xeris_in_a_hand == Honour(HonourKind.MOST_XERIS_IN_A_HAND, 1, ("anna",), 0, "m1",
                                                date("2025-01-01"), hand=1)
    assert first.most_jack_xeris_in_a_hand == Honour(HonourKind.MOST_JACK_XERIS_IN_A_HAND, 1, ("ben",), 1, "m1",
                                                     date("2025-01-01"), hand=3)
    every = of([m3, m2, m1])
    # Anna's 2 xeris in m3 only equal Ben's in m2, which came first.
    assert every.most_xeris_in_a_hand == Honour(HonourKind.MOST_XERIS_IN_A_HAND, 2, ("ben",), 1, "m2",
                                                date("2025-01-02"), hand=2)
    assert every.most_jack_xeris_in_a_hand == Honour(HonourKind.MOST_JACK_XERIS_IN_A_HAND, 2, ("anna",), 0, "m3",
                                                     date("2025-01-03"), hand=2)
    assert every.highest_hand == Honour(HonourKind.HIGHEST_HAND, 56, ("anna",), 0, "m3", date("2025-01-03"), hand=2)


def test_without_xeris_there_is_no_xeri_record_and_no_match_is_scored_again(monkeypatch):
    history = score_history([duel("m1", [FIRST_XERI], day="2025-01-01", goal=ONE_HAND),
                             duel("m2", [FIRST_WINS, FIRST_XERI], day="2025-01-02")])
    plain = score_history([duel("p", [FIRST_WINS, SECOND_WINS, TIED])])

    def scoring(*args, **kwargs):
        raise AssertionError("the records are added up from the scored history, never scored again")

    monkeypatch.setattr(honours_module, "standing", scoring, raising=False)   # what it once itemised hands with
    monkeypatch.setattr(scored_module, "standing", scoring)
    assert (of(plain).most_xeris_in_a_hand, of(plain).most_jack_xeris_in_a_hand) == (None, None)
    assert of(plain).highest_hand is not None
    # m2's one xeri in its second hand cannot beat m1's in its first.
    assert honours(history).most_xeris_in_a_hand == Honour(HonourKind.MOST_XERIS_IN_A_HAND, 1, ("anna",), 0, "m1",
                                                           history[0].date, hand=1)


def test_a_streak_ends_on_a_loss_or_a_draw_and_abandoned_matches_neither_end_nor_extend_it():
    results = {  # day -> (hands, goal, abandoned); given out of order to show that dates decide
        "2025-01-05": ([FIRST_WINS], ONE_HAND, False), "2025-01-01": ([FIRST_WINS], ONE_HAND, False),
        "2025-01-02": ([FIRST_WINS], Goal(hands=3), True),    # abandoned with Anna ahead
        "2025-01-03": ([FIRST_WINS], ONE_HAND, False),
        "2025-01-04": ([SECOND_WINS], Goal(hands=3), True),   # abandoned with Ben ahead
        "2025-01-06": ([FIRST_WINS, SECOND_WINS], Goal(hands=2), False),  # drawn
        "2025-01-07": ([FIRST_WINS], ONE_HAND, False),
        "2025-01-08": ([SECOND_WINS], ONE_HAND, False),       # lost
        "2025-01-09": ([FIRST_WINS], ONE_HAND, False), "2025-01-10": ([FIRST_WINS], ONE_HAND, False),
        "2025-01-11": ([FIRST_WINS], ONE_HAND, False),
    }
    records = [duel(day, h, day=day, goal=goal, finished=not gone, abandoned=gone)
               for day, (h, goal, gone) in results.items()]
    # W(01) [abandoned 02, 04] W(03) W(05) D(06) W(07) L(08) W(09) W(10) W(11): 3, then 1, then 3 again.
    assert of(records).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 3, ("anna",), 0, "2025-01-05", date("2025-01-05"),
        from_match_id="2025-01-01")
    records.append(duel("2025-01-12", [FIRST_WINS], day="2025-01-12", goal=ONE_HAND))
    assert of(records).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 4, ("anna",), 0, "2025-01-12", date("2025-01-12"),
        from_match_id="2025-01-09")


def test_a_partnerships_streak_names_both_partners_until_one_of_them_wins_on():
    p1 = pair("p1", ("anna", "chris"), ("ben", "dora"), [FIRST_WINS], day="2025-03-01")
    p2 = pair("p2", ("anna", "chris"), ("ben", "dora"), [FIRST_WINS], day="2025-03-02")
    assert of([p1, p2]).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 2, ("anna", "chris"), 0, "p2", date("2025-03-02"), from_match_id="p1")
    # Anna wins on with Ben, on side 1: the streak of three is hers alone.
    p3 = pair("p3", ("chris", "dora"), ("anna", "ben"), [SECOND_WINS], day="2025-03-03")
    assert of([p1, p2, p3]).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 3, ("anna",), 1, "p3", date("2025-03-03"), from_match_id="p1")


def test_partners_with_equal_streaks_begun_apart_leave_the_record_to_the_one_begun_first():
    m1 = pair("m1", ("anna", "ben"), ("chris", "dora"), [FIRST_WINS], day="2025-03-01")
    m2 = pair("m2", ("eve", "finn"), ("gus", "hal"), [FIRST_WINS], day="2025-03-02")
    m3 = pair("m3", ("eve", "anna"), ("ben", "chris"), [FIRST_WINS], day="2025-03-03")
    assert of([m1, m2]).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 1, ("anna", "ben"), 0, "m1", date("2025-03-01"), from_match_id="m1")
    # Anna has won m1 and m3, Eve m2 and m3: two each, and Anna's streak began first.
    assert of([m1, m2, m3]).longest_winning_streak == Honour(
        HonourKind.LONGEST_WINNING_STREAK, 2, ("anna",), 0, "m3", date("2025-03-03"), from_match_id="m1")


def test_a_partnerships_hand_record_names_both_partners():
    p = pair("p", ("anna", "chris"), ("ben", "dora"), [FIRST_WINS, SECOND_TWO_XERIS], day="2025-03-01",
             goal=Goal(hands=2))
    got = of([p])
    assert got.most_xeris_in_a_hand == Honour(HonourKind.MOST_XERIS_IN_A_HAND, 2, ("ben", "dora"), 1, "p",
                                              date("2025-03-01"), hand=2)
    assert got.highest_hand == Honour(HonourKind.HIGHEST_HAND, 36, ("ben", "dora"), 1, "p", date("2025-03-01"),
                                      hand=2)
    assert got.most_jack_xeris_in_a_hand is None
    # 1 hand each: drawn, so no streak and no comeback.
    assert (got.longest_winning_streak, got.biggest_comeback) == (None, None)


def test_the_biggest_comeback_is_in_points_in_a_won_race_and_the_first_keeps_it():
    race = Goal(target=50, extension=100)
    records = [
        # Ben comes back: 15-10, 30-20, then 39-56. Ten behind after hand 2.
        duel("c1", [FIRST_WINS, FIRST_WINS, SECOND_JACK_XERI], day="2025-01-01", goal=race),
        # Played for three hands: Anna wins 2 hands to 1 from 27 points behind (9-36, 24-46, 39-56); left out.
        duel("hands", [SECOND_JACK_XERI, FIRST_WINS, FIRST_WINS], day="2025-01-02"),
        # Abandoned in a race to 151 with Anna 27 behind, then 81-54 ahead: nobody won it.
        duel("gone", [SECOND_JACK_XERI, FIRST_JACK_XERI, FIRST_JACK_XERI], day="2025-01-03",
             goal=Goal(target=151), finished=False, abandoned=True),
        # Ten behind as well, twice (10-15, 20-30, 31-41, then 67-50 past 60), but later.
        duel("c4", [SECOND_WINS, SECOND_WINS, TIED, FIRST_JACK_XERI], day="2025-01-04", goal=Goal(target=60)),
        # Five behind (10-15, 25-25, 51-34).
        duel("c5", [SECOND_WINS, FIRST_WINS, FIRST_XERI], day="2025-01-05", goal=race),
    ]
    assert of(records).biggest_comeback == Honour(HonourKind.BIGGEST_COMEBACK, 10, ("ben",), 1, "c1",
                                                  date("2025-01-01"), hand=2)
    assert of(records[1:]).biggest_comeback == Honour(HonourKind.BIGGEST_COMEBACK, 10, ("anna",), 0, "c4",
                                                      date("2025-01-04"), hand=2)
    assert of(records[1:3]).biggest_comeback is None


def test_a_winner_never_behind_made_no_comeback():
    # 11-11 (level is not behind), then 37-20 past 30.
    assert of([duel("level", [TIED, FIRST_XERI], goal=Goal(target=30))]).biggest_comeback is None


def test_at_a_table_of_three_the_comeback_is_from_behind_the_best_other_side():
    # greek-online (see test_stats): 11-5-4, then Chris takes 12 to 4 and 4: 15-9-16, past 16.
    first = HandEntry(cards=(20, 16, 16), counting=(8, 4, 4), ten_of_diamonds=0, two=1, xeris=(0, 0, 0),
                      jack_xeris=(0, 0, 0))
    third = HandEntry(cards=(16, 16, 20), counting=(4, 4, 8), ten_of_diamonds=2, two=2, xeris=(0, 0, 0),
                      jack_xeris=(0, 0, 0))
    assert (score_hand(first, GREEK, 3).points, score_hand(third, GREEK, 3).points) == ((11, 5, 4), (4, 4, 12))
    g = record("g", single("Anna", "Ben", "Chris"), [["anna"], ["ben"], ["chris"]], [first, third], rules=GREEK,
               goal=Goal(target=16))
    # After hand 1 Chris is 7 behind Anna (and only 1 behind Ben).
    assert of([g]).biggest_comeback == Honour(HonourKind.BIGGEST_COMEBACK, 7, ("chris",), 2, "g",
                                              date("2025-01-10"), hand=1)


def test_abandoned_matches_count_for_hand_records_but_not_for_streaks_or_comebacks():
    won = duel("won", [FIRST_WINS], day="2025-01-01", goal=ONE_HAND)
    # 9-36, 45-45, 101-54 in a race to 151: Anna came from 27 behind, but the match was given up.
    gone = duel("gone", [SECOND_JACK_XERI, FIRST_TWO_XERIS, FIRST_TWO_JACK_XERIS], day="2025-01-02",
                goal=Goal(target=151), finished=False, abandoned=True)
    assert of([won, gone]) == Honours(
        highest_hand=Honour(HonourKind.HIGHEST_HAND, 56, ("anna",), 0, "gone", "2025-01-02T20:00:00+00:00", hand=3),
        most_xeris_in_a_hand=Honour(HonourKind.MOST_XERIS_IN_A_HAND, 2, ("anna",), 0, "gone",
                                    "2025-01-02T20:00:00+00:00", hand=2),
        most_jack_xeris_in_a_hand=Honour(HonourKind.MOST_JACK_XERIS_IN_A_HAND, 2, ("anna",), 0, "gone",
                                         "2025-01-02T20:00:00+00:00", hand=3),
        longest_winning_streak=Honour(HonourKind.LONGEST_WINNING_STREAK, 1, ("anna",), 0, "won", date("2025-01-01"),
                                      from_match_id="won"),
        biggest_comeback=None,
    )


def test_a_match_stored_without_player_ids_holds_no_record():
    nameless = record("x", single("Anna", "Ben"), [], [FIRST_WINS, SECOND_TWO_XERIS, SECOND_WINS],
                      goal=Goal(target=30))
    assert of([nameless]) == Honours()


def test_each_record_sits_in_the_field_its_kind_names_and_items_lists_them_in_kind_order():
    got = of(evenings() + [duel("c", [SECOND_WINS, FIRST_JACK_XERI], day="2025-04-01", goal=Goal(target=40))])
    assert [h.kind for h in got.items()] == list(HonourKind)
    for kind in HonourKind:
        assert getattr(got, kind.value).kind is kind
    assert got.items()[-1] == Honour(HonourKind.BIGGEST_COMEBACK, 5, ("anna",), 0, "c", date("2025-04-01"), hand=1)
    assert of(evenings()).items() == tuple(h for h in got.items() if h.kind is not HonourKind.BIGGEST_COMEBACK)


# --- the records depend on nothing but the history ------------------------------------------------

PLAYERS = ("anna", "ben", "chris", "dora")


@st.composite
def match_specs(draw, id: str):
    hands = tuple(draw(st.lists(classic_hands(), max_size=5)))
    goal = draw(st.one_of(st.builds(lambda n: Goal(hands=n), st.integers(1, 5)),
                          st.builds(lambda t: Goal(target=t), st.integers(15, 90))))
    day = draw(st.sampled_from(("2025-01-01", "2025-01-02", "2025-01-03")))
    players = draw(st.permutations(PLAYERS))
    return id, hands, goal, day, draw(st.booleans()), draw(st.booleans()), players


def build(spec):
    """The record of a spec, built anew each time (so no standing is kept from an earlier scoring)."""
    id, hands, goal, day, finished, as_pair, players = spec
    if as_pair:
        return pair(id, players[:2], players[2:], hands, day=day, goal=goal, finished=finished,
                    abandoned=not finished)
    return duel(id, hands, day=day, goal=goal, first=players[0], second=players[1], finished=finished,
                abandoned=not finished)


@st.composite
def histories(draw):
    count = draw(st.integers(0, 8))
    return [draw(match_specs(f"m{i}")) for i in range(count)]


def most_in_a_hand_by_hand(history, matches, kind: HonourKind, item: Item | None) -> Honour | None:
    """The per-hand record worked out the long way: every hand of every match (`matches`: by id) itemised."""
    best = None
    for sm in history:
        for number, score in enumerate(standing(matches[sm.id], strict=False).scores, start=1):
            for side in range(len(score.points)):
                value = score.points[side] if item is None else score.line(side, item).count
                if (item is None or value > 0) and (best is None or value > best.value):
                    best = Honour(kind, value, sm.player_ids[side], side, sm.id, sm.date, hand=number)
    return best


def comeback_by_hand(history, matches) -> int | None:
    deepest = 0
    for sm in history:
        if sm.winner is None or not matches[sm.id].goal.is_race:
            continue
        sides = running_totals_series(matches[sm.id]).sides
        for point in range(len(sides[0])):
            others = max(s[point] for i, s in enumerate(sides) if i != sm.winner)
            deepest = max(deepest, others - sides[sm.winner][point])
    return deepest or None


@settings(max_examples=60, deadline=None)
@given(histories(), st.randoms(use_true_random=False))
def test_the_records_depend_only_on_the_history(specs, random):
    records = [build(s) for s in specs]
    matches = {r.id: r.match for r in records}
    history = score_history(records)
    got = honours(history)
    assert honours(history) == got
    shuffled = list(specs)
    random.shuffle(shuffled)
    assert honours(score_history(build(s) for s in shuffled)) == got
    # The same records the long way round.
    assert got.highest_hand == most_in_a_hand_by_hand(history, matches, HonourKind.HIGHEST_HAND, None)
    assert got.most_xeris_in_a_hand == most_in_a_hand_by_hand(history, matches, HonourKind.MOST_XERIS_IN_A_HAND,
                                                              Item.XERIS)
    assert got.most_jack_xeris_in_a_hand == most_in_a_hand_by_hand(history, matches,
                                                                   HonourKind.MOST_JACK_XERIS_IN_A_HAND, Item.JACK_XERIS)
    streak = max((player_stats(history, p).longest_streak for p in PLAYERS), default=0)
    assert (got.longest_winning_streak.value if got.longest_winning_streak else 0) == streak
    assert (got.biggest_comeback.value if got.biggest_comeback else None) == comeback_by_hand(history, matches)


def test_importing_honours_loads_neither_flet_nor_tinydb():
    code = ("import sys, companion.history.honours;"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb', 'filelock'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
