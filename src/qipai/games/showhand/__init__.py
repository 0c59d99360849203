"""Showhand 梭哈: five-card stud with 28 cards for 2-4 players, as a pure engine.

The names most callers need, from the modules that define them:

>>> compare("AsAhAcAd8s", "KsKhKcKdAs")
1
>>> state = State.new("yifa", seed=1, players=3)
>>> state.phase.name, state.round, len(state.legal_actions()) > 0
('BET', 1, True)
"""

from __future__ import annotations

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.showhand.actions import (
    ACTION_TYPES,
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Open,
    Raise,
    ShowHand,
    Swap,
)
from qipai.games.showhand.hands import category, compare, evaluate, evaluate_partial
from qipai.games.showhand.rules import RULES, Rules, get_rules
from qipai.games.showhand.state import DECK, Phase, State, Step, replay
from qipai.games.showhand.view import View

__all__ = [
    "ACTION_TYPES",
    "DECK",
    "RULES",
    "Action",
    "Bet",
    "Call",
    "Check",
    "Fold",
    "IllegalActionError",
    "InvalidActionError",
    "Keep",
    "Open",
    "Phase",
    "Raise",
    "Rules",
    "ShowHand",
    "State",
    "Step",
    "Swap",
    "View",
    "category",
    "compare",
    "evaluate",
    "evaluate_partial",
    "get_rules",
    "replay",
]
