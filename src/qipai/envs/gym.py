"""A Gymnasium single-agent environment: one seat learns, the game's bots play the others.

``QipaiSingleAgentEnv(game, rules, seat=0)`` runs a :class:`~qipai.envs.aec.QipaiAECEnv`
and plays every other seat itself: ``opponent="bot"`` with the game's registry bot
(:meth:`~qipai.registry.GameType.bot_action`), ``"random"`` with a uniformly random legal
action (seeded with the episode).  Observations, the action space and ``action_mask`` are
the AEC environment's (see :mod:`qipai.envs.aec`); the mask is also in ``info``.

``step(index)`` plays the learning seat's legal action number ``index`` (an index past the
legal ones, which a mask-blind agent may pick, is taken modulo their number) then the other
seats until it is the learning seat's turn again or the hand is over; the reward is the
seat's ``returns()`` at the end, 0 before.  ``terminated`` at the end of the hand,
``truncated`` when the game calls it stalled.  A hand that ends before the learning seat
ever acts (everybody else folded first) is dealt again by ``reset``.

>>> env = QipaiSingleAgentEnv("showhand", "yifa", seat=1)
>>> observation, info = env.reset(seed=3)
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((135,), True)
"""

from __future__ import annotations

import random
from typing import SupportsFloat

import gymnasium

from qipai.envs.aec import MAX_ACTIONS, STACK, Observation, QipaiAECEnv

OPPONENTS = ("bot", "random")
"""Who plays the other seats."""
MAX_REDEALS = 100
"""Hands ``reset`` deals at most while each ends before the learning seat acts."""


class QipaiSingleAgentEnv(gymnasium.Env[Observation, int]):
    """Seat ``seat`` of ``game`` under ``rules`` against ``opponent`` (module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str = "doudizhu",
        rules: str = "jj",
        seat: int = 0,
        opponent: str = "bot",
        *,
        seats: int | None = None,
        stack: int = STACK,
        max_actions: int = MAX_ACTIONS,
        render_mode: str | None = None,
    ) -> None:
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent is one of {', '.join(OPPONENTS)}: {opponent!r}")
        self.env = QipaiAECEnv(game, rules, seats, stack=stack, max_actions=max_actions)
        if not 0 <= seat < self.env.seats:
            raise ValueError(f"seat {seat} is not at a table of {self.env.seats}")
        self.seat = seat
        self.agent = f"player_{seat}"
        self.opponent = opponent
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space(self.agent)
        self.action_space = self.env.action_space(self.agent)
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        """A new hand, played by the other seats up to the learning seat's first turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        for deal in range(MAX_REDEALS):
            self.env.reset(seed=seed if deal == 0 else None, options=options)
            self._play_others()
            if self.env.acting == self.seat:
                break
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, object]]:
        """Play the seat's legal action number ``action``, then the others."""
        if self.env.acting != self.seat:
            raise ValueError("the hand is over: reset")
        self.env.step(int(action) % len(self.env.legal_actions()))
        self._play_others()
        terminated = self.env.terminations[self.agent]
        truncated = self.env.truncations[self.agent]
        reward = self.env.rewards[self.agent] if terminated else 0.0
        return self._observe(), reward, terminated, truncated, self._info()

    def _play_others(self) -> None:
        env = self.env
        while env.acting is not None and env.acting != self.seat:
            seat = env.acting
            if self.opponent == "bot":
                action = env.game.bot_action(env.state, seat)
            else:
                action = self._rng.choice(env.game.actions(env.state, seat))
            env.play(seat, action)

    def _observe(self) -> Observation:
        return self.env.observe(self.agent)

    def _info(self) -> dict[str, object]:
        mask = self.env.observe(self.agent)["action_mask"]
        return {"action_mask": mask, "hand_seed": self.env.hand_seed}

    def legal_actions(self) -> list[str]:
        """The texts of the seat's legal actions now, in index order."""
        return self.env.legal_actions() if self.env.acting == self.seat else []

    def render(self) -> str:
        """The AEC environment's text."""
        text: str = self.env.render()
        return text

    def close(self) -> None:
        """Nothing to release."""
