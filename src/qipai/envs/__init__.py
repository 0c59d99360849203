"""Learning environments over the game registry (the optional extra ``rl``).

:func:`make_aec` gives a PettingZoo AEC environment of any registered game and preset
(:mod:`qipai.envs.aec`), every seat an agent; :func:`make_gym` a Gymnasium environment of
one seat against the game's bots (:mod:`qipai.envs.gym`), also registered with Gymnasium
as :data:`GYM_ID`.  The observation vector is :mod:`qipai.envs.encoding`'s.  This package
sits above the registry; nothing in the hall imports it.

>>> env = make_aec("doudizhu", "yifa", seed=1)
>>> env.reset(seed=1)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
>>> import gymnasium
>>> gymnasium.make(GYM_ID, game="zhajinhua", rules="yifa").unwrapped.seat
0
"""

from __future__ import annotations

import gymnasium
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from qipai.envs.aec import MAX_ACTIONS, STACK, QipaiAECEnv
from qipai.envs.gym import QipaiSingleAgentEnv

GYM_ID = "qipai/SingleSeat-v0"
"""The Gymnasium id of :class:`QipaiSingleAgentEnv` (``gymnasium.make(GYM_ID, game=...)``)."""

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="qipai.envs.gym:QipaiSingleAgentEnv")


def make_aec(
    game: str = "doudizhu",
    rules: str = "jj",
    seats: int | None = None,
    seed: int | None = None,
    *,
    stack: int = STACK,
    max_actions: int = MAX_ACTIONS,
    render_mode: str | None = None,
) -> AECEnv:
    """A :class:`QipaiAECEnv` (its ``seats``, ``seed``, ``stack``...) in PettingZoo's
    order-enforcing wrapper."""
    env = QipaiAECEnv(
        game, rules, seats, seed, stack=stack, max_actions=max_actions, render_mode=render_mode
    )
    return wrappers.OrderEnforcingWrapper(env)


def make_gym(
    game: str = "doudizhu",
    rules: str = "jj",
    seat: int = 0,
    opponent: str = "bot",
    *,
    seats: int | None = None,
    stack: int = STACK,
    max_actions: int = MAX_ACTIONS,
    render_mode: str | None = None,
) -> QipaiSingleAgentEnv:
    """A :class:`QipaiSingleAgentEnv` (``seat``, ``opponent``, ``seats``...)."""
    return QipaiSingleAgentEnv(
        game, rules, seat, opponent,
        seats=seats, stack=stack, max_actions=max_actions, render_mode=render_mode,
    )  # fmt: skip


__all__ = [
    "GYM_ID",
    "MAX_ACTIONS",
    "STACK",
    "QipaiAECEnv",
    "QipaiSingleAgentEnv",
    "make_aec",
    "make_gym",
]
