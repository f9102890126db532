"""The pure Xeri engine: cards, rule sets, hand entries, scoring and match standing.

Never imports flet, tinydb, os, time or random: every value is frozen and every function returns a new value.
"""

from .cards import DECK, DECK_SIZE, Card, CardError, Rank, Suit, TEN_OF_DIAMONDS, card_name, parse_card
from .entry import HandEntry, InvalidHand, Problem, check_hand, validate_hand
from .live import LiveHand, Tap
from .match import Match, MatchError, MatchOver, Seat, Side, Standing, Status, edit_hand, record_hand, standing, undo_hand, with_rules
from .rules import Direction, Goal, RuleSet, RulesError
from .scoring import ITEMS, HandScore, Line, hand_winner, score_hand

__all__ = [
    "DECK", "DECK_SIZE", "Card", "CardError", "Rank", "Suit", "TEN_OF_DIAMONDS", "card_name", "parse_card",
    "HandEntry", "InvalidHand", "Problem", "check_hand", "validate_hand", "LiveHand", "Tap",
    "Match", "MatchError", "MatchOver", "Seat", "Side", "Standing", "Status",
    "edit_hand", "record_hand", "standing", "undo_hand", "with_rules",
    "Direction", "Goal", "RuleSet", "RulesError", "ITEMS", "HandScore", "Line", "hand_winner", "score_hand",
]
