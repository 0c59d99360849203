"""A PettingZoo AEC environment for any registered game and preset.

``QipaiAECEnv(game, rules)`` plays one hand per episode, agents ``player_0`` to
``player_{n-1}`` (the seats).  The dealer's paced steps (Dou Dizhu's caishen, huanle, jj)
run inside; where several seats choose at the same time (加倍 in huanle and jj) they are
asked one after another, lowest pending seat first.  ``agent_selection`` is always the
seat to act.  Actions a seat may take out of turn are not offered.

Actions: ``Discrete(max_actions)`` (default :data:`MAX_ACTIONS`); index ``i`` is the
``i``-th of the acting seat's legal actions in the engine's order (:meth:`QipaiAECEnv.legal_actions`
lists their texts).  The legal actions change at every step, so the observation carries
``action_mask`` (``int8``, 1 for the indices that are legal now; all 0 for a seat that is
not to act).  A seat with more legal actions than ``max_actions`` (a caishen lead with
wildcards can have thousands) is offered the first ``max_actions`` only.

Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector
is :func:`qipai.envs.encoding.encode` of the seat's own view (its layout is there).

Rewards: 0 until the hand is over, then each seat's ``returns()`` (points or chips).
``terminations`` are set for every agent at the end; ``truncations`` for every agent when
the game calls the hand stalled (Dou Dizhu: more than 20 deals with nobody bidding).

Seeds: ``reset(seed=s)`` (or the constructor's ``seed``) seeds a generator that draws each
hand's seed, so the same seed and actions give the same episodes.

>>> env = QipaiAECEnv("zhajinhua", "yifa", seats=3, seed=7)
>>> env.reset(seed=7)
>>> env.agent_selection, env.legal_actions()[:2]
('player_0', ['look', 'call'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from qipai.envs.encoding import HIGH, SeatView, encode, observation_size
from qipai.registry import GameState, HandSetup, game_type

MAX_ACTIONS = 4096
"""The default size of the action space: more than any shipped game offers but a rare
caishen lead."""
STACK = 1000
"""The default chips (the balances) each seat starts a hand with."""

Observation = dict[str, npt.NDArray[np.generic]]
"""An agent's observation: its vector (``observation``) and its ``action_mask``."""


class QipaiAECEnv(AECEnv):  # type: ignore[misc]
    """One hand of ``game`` under the preset ``rules`` per episode (module docstring).

    ``seats``: the table size (default: the game's); ``stack``: each seat's balance at the
    start of a hand; ``max_actions``: the size of the action space.
    """

    metadata = {"render_modes": ["ansi"], "name": "qipai_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str = "doudizhu",
        rules: str = "jj",
        seats: int | None = None,
        seed: int | None = None,
        *,
        stack: int = STACK,
        max_actions: int = MAX_ACTIONS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = game_type(game)
        self.rules = self.game.get_rules(rules)
        self.seats = self.game.default_seats if seats is None else seats
        low, high = self.game.seats
        if not low <= self.seats <= high:
            raise ValueError(f"{game} is played by {low} to {high} seats, not {self.seats}")
        self.stack = stack
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.seats)]
        size = observation_size(self.game.name, self.seats)
        observation = spaces.Box(0.0, HIGH, (size,), np.float32)
        mask = spaces.Box(0, 1, (max_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(max_actions) for agent in self.possible_agents}
        self._rng = random.Random(seed)
        self.state: GameState[object, SeatView] | None = None
        """The hand in play (``None`` until the first :meth:`reset`)."""
        self.hand_seed = 0
        self.acting: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: the vector and the mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(max_actions)``: an index into the acting seat's legal actions."""
        return self.action_spaces[agent]

    # --- the episode ---

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Deal a new hand (its seed drawn from the generator, reseeded by ``seed``)."""
        del options
        if seed is not None:
            self._rng = random.Random(seed)
        self.hand_seed = self._rng.randrange(2**31)
        balances = (self.stack,) * self.seats
        self.state = self.game.new_hand(self.rules, HandSetup(self.hand_seed, balances))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._advance()

    def step(self, action: int | None) -> None:
        """Play the acting seat's legal action number ``action`` (``None`` for an agent
        whose hand is over).

        :raises ValueError: an index that is no legal action now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: an action index, not None")
        legal = self._legal()
        index = int(action)
        if not 0 <= index < len(legal):
            raise ValueError(f"action {index} is no legal action index now ({len(legal)} legal)")
        self.play(self._seat(agent), legal[index])
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def play(self, seat: int, action: object) -> None:
        """Apply the engine's ``action`` for ``seat`` (the acting seat), then run the
        dealer and set the rewards if the hand ended (the single-agent wrapper plays its
        bots through it)."""
        self._hand().apply(action, seat)
        self._advance()

    def _advance(self) -> None:
        """Deal the dealer's steps; select the seat to act, or end the episode."""
        game, state = self.game, self._hand()
        while not state.is_terminal and not game.is_stalled(state):
            step = game.deal_step(state)
            if step is None:
                break
            state.apply(step)
        if state.is_terminal or game.is_stalled(state):
            self.acting = None
            ended = state.is_terminal
            returns = state.returns() if ended else (0,) * self.seats
            for seat, agent in enumerate(self.agents):
                self.rewards[agent] = float(returns[seat])
                self.terminations[agent] = ended
                self.truncations[agent] = not ended
            self.agent_selection = self.agents[0]
            return
        self.acting = game.seat_to_act(state)
        self.agent_selection = self.possible_agents[self._acting_seat()]

    def _hand(self) -> GameState[object, SeatView]:
        if self.state is None:
            raise RuntimeError("no hand dealt: reset() first")
        return self.state

    def _acting_seat(self) -> int:
        if self.acting is None:
            raise RuntimeError("no seat is to act")
        return self.acting

    def _seat(self, agent: str) -> int:
        return int(agent.rpartition("_")[2])

    def _legal(self) -> Sequence[object]:
        if self.acting is None:
            return ()
        return self.game.actions(self._hand(), self.acting)[: self.max_actions]

    def legal_actions(self) -> list[str]:
        """The texts of the acting seat's actions, in index order."""
        return [str(action) for action in self._legal()]

    def acting_seats(self) -> tuple[int, ...]:
        """Every seat to act now (several while they choose at the same time)."""
        if self.acting is None:
            return ()
        return self.game.deciding(self._hand()) or (self.acting,)

    # --- what an agent sees ---

    def observe(self, agent: str) -> Observation:
        """The agent's vector and its action mask (zeros unless it is to act)."""
        seat = self._seat(agent)
        vector = encode(
            self.game.name, self._hand().view(seat), self.seats, self.acting_seats(), self.stack
        )
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if seat == self.acting:
            mask[: len(self._legal())] = 1
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str:
        """The hand as text: the acting seat and its legal actions, or the returns."""
        state = self._hand()
        if state.is_terminal:
            return f"{self.game.name} hand {self.hand_seed}: returns {state.returns()}"
        head = f"{self.game.name} hand {self.hand_seed}: player_{self.acting} to act"
        return head + ": " + " | ".join(self.legal_actions()[:20])

    def close(self) -> None:
        """Nothing to release."""
