"""Zha Jin Hua 扎金花: the hand ranking and the betting hand (2-6 players), pure and seeded.

The names most callers need, from the modules that define them:

>>> compare("2h3d5c", "AsAhAd"), category("AsKsQs")
(1, 'straight_flush')
>>> state = State.new("yifa", seed=1, players=4)
>>> state.pot, len(state.legal_actions()) > 0
(4, True)
"""

from __future__ import annotations

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.zhajinhua.actions import (
    ACTION_TYPES,
    Action,
    AutoCall,
    Call,
    Compare,
    Fold,
    Look,
    Raise,
)
from qipai.games.zhajinhua.hands import category, compare, evaluate
from qipai.games.zhajinhua.rules import RULES, DealerRule, Rules, get_rules
from qipai.games.zhajinhua.state import State, Step, replay
from qipai.games.zhajinhua.view import View

__all__ = [
    "ACTION_TYPES",
    "RULES",
    "Action",
    "AutoCall",
    "Call",
    "Compare",
    "DealerRule",
    "Fold",
    "IllegalActionError",
    "InvalidActionError",
    "Look",
    "Raise",
    "Rules",
    "State",
    "Step",
    "View",
    "category",
    "compare",
    "evaluate",
    "get_rules",
    "replay",
]
