"""The pure Xeri engine: cards, rule sets, hand entries, scoring and match standing.

Never imports anything outside the standard library, nor os, time or random: every value is frozen and
every function returns a new value.
"""

from .cards import DECK, DECK_SIZE, Card, CardError, Rank, Suit, TEN_OF_DIAMONDS, parse_card
from .entry import EntryField, HandEntry, InvalidHand, Problem, ProblemCode, check_hand, validate_hand
from .live import LiveHand, Tap, TapKind
from .match import (Match, MatchError, MatchOver, Seat, Side, Standing, Status, edit_hand, finish_now, record_hand,
                    standing, undo_hand, with_rules)
from .rules import Direction, Goal, RuleSet, RulesError
from .scoring import ITEMS, HandScore, Item, Line, Note, hand_winner, score_hand
from .tally import unique_leader

__all__ = [
    "DECK", "DECK_SIZE", "Card", "CardError", "Rank", "Suit", "TEN_OF_DIAMONDS", "parse_card",
    "EntryField", "HandEntry", "InvalidHand", "Problem", "ProblemCode", "check_hand", "validate_hand",
    "LiveHand", "Tap", "TapKind",
    "Match", "MatchError", "MatchOver", "Seat", "Side", "Standing", "Status",
    "edit_hand", "finish_now", "record_hand", "standing", "undo_hand", "with_rules",
    "Direction", "Goal", "RuleSet", "RulesError", "ITEMS", "HandScore", "Item", "Line", "Note", "hand_winner",
    "score_hand", "unique_leader",
]
