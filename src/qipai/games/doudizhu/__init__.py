"""Dou Dizhu 斗地主: five rule sets as a pure, deterministic engine.

The names most callers need, from the modules that define them:

>>> [str(m) for m in legal_moves("3345", "4")]
['pass', '5']
>>> state = State.new("yifa", seed=1)
>>> state.phase.name, state.current_player is not None
('BID', True)
"""

from __future__ import annotations

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.actions import Action, Play
from qipai.games.doudizhu.combos import PASS, Kind, Move, parse_move, readings
from qipai.games.doudizhu.legal import (
    HAND_SIZE,
    check_hand,
    is_valid_move,
    legal_moves,
    moves_for,
)
from qipai.games.doudizhu.rules import RULES, Rules, get_rules
from qipai.games.doudizhu.state import State, replay
from qipai.games.doudizhu.view import View

__all__ = [
    "HAND_SIZE",
    "PASS",
    "RULES",
    "Action",
    "IllegalActionError",
    "InvalidActionError",
    "Kind",
    "Move",
    "Play",
    "Rules",
    "State",
    "View",
    "check_hand",
    "get_rules",
    "is_valid_move",
    "legal_moves",
    "moves_for",
    "parse_move",
    "readings",
    "replay",
]
