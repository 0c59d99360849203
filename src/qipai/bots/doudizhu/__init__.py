"""Dou Dizhu bots: 托管, a random and a greedy player (:mod:`.simple`), the strong player
(:mod:`.strong`, built on :mod:`.decompose` and :mod:`.endgame`), and the research
interface :func:`choose_play` (:mod:`.research`) that plays any of them from text."""

from __future__ import annotations

from qipai.bots.doudizhu.research import BOTS, choose_play, make_bot
from qipai.bots.doudizhu.simple import (
    GreedyPolicy,
    Policy,
    RandomPolicy,
    TrusteePolicy,
    decline,
    drive_to_decision,
    hand_strength,
)
from qipai.bots.doudizhu.strong import StrongPolicy

__all__ = [
    "BOTS",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "StrongPolicy",
    "TrusteePolicy",
    "choose_play",
    "decline",
    "drive_to_decision",
    "hand_strength",
    "make_bot",
]
