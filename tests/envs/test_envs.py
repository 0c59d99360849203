"""The learning environments: PettingZoo's and Gymnasium's own checkers on every game and
preset, whole hands of random masked play whose rewards are the engine's returns, seeded
episodes that repeat, and the hall never importing them."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from qipai.envs import GYM_ID, QipaiAECEnv, QipaiSingleAgentEnv, make_aec, make_gym
from qipai.envs.aec import STACK
from qipai.envs.encoding import CARD_SLOTS, card_index, encode, observation_size
from qipai.registry import HandSetup, game_names, game_type

PRESETS = [(game, preset) for game in game_names() for preset in game_type(game).presets]
SRC = Path(__file__).resolve().parents[2] / "src" / "qipai"


def test_every_shipped_preset_is_covered() -> None:
    assert set(PRESETS) >= {
        ("doudizhu", name) for name in ("yifa", "caishen", "huanle", "zhengtu", "jj")
    } | {("zhajinhua", "yifa"), ("showhand", "yifa")}


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # the dict with the mask
@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_pettingzoo_api(game: str, preset: str) -> None:
    api_test(make_aec(game, preset, seed=3), num_cycles=300)


@pytest.mark.parametrize(
    ("game", "preset", "seat"),
    [("doudizhu", "jj", 0), ("doudizhu", "caishen", 2), ("zhajinhua", "yifa", 1),
     ("showhand", "yifa", 0)],
)  # fmt: skip
def test_gymnasium_checker(game: str, preset: str, seat: int) -> None:
    check_env(QipaiSingleAgentEnv(game, preset, seat=seat), skip_render_check=True)


def play_out(env: QipaiAECEnv, seed: int) -> tuple[list[tuple[int, str]], dict[str, float]]:
    """A hand of uniformly random masked actions: each (seat, action text), each agent's
    summed rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    played: list[tuple[int, str]] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert env.agent_selection == f"player_{env.acting}"
        index = int(rng.choice(np.flatnonzero(mask)))
        played.append((int(env.acting or 0), env.legal_actions()[index]))
        env.step(index)
    assert env.agents == []
    return played, totals


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_random_play_rewards_are_the_returns(game: str, preset: str) -> None:
    gtype = game_type(game)
    for seed in range(4):
        env = QipaiAECEnv(game, preset)
        played, totals = play_out(env, seed)
        assert env.state.is_terminal
        returns = env.state.returns()
        assert totals == {f"player_{s}": float(r) for s, r in enumerate(returns)}
        # the texts, replayed on a fresh hand of the same seed, end with the same returns
        state = gtype.new_hand(env.rules, HandSetup(env.hand_seed, (env.stack,) * env.seats))
        for seat, text in played:
            while (step := gtype.deal_step(state)) is not None:
                state.apply(step)
            state.apply(gtype.parse(text), seat)
        assert state.is_terminal and state.returns() == returns
        assert any(returns)


@pytest.mark.parametrize("game", ["doudizhu", "zhajinhua", "showhand"])
def test_same_seed_same_episode(game: str) -> None:
    first = play_out(QipaiAECEnv(game, "yifa"), 11)
    assert play_out(QipaiAECEnv(game, "yifa"), 11) == first
    assert play_out(QipaiAECEnv(game, "yifa"), 12) != first
    one, other = make_gym(game, "yifa", seat=1), make_gym(game, "yifa", seat=1)
    a, _ = one.reset(seed=5)
    b, _ = other.reset(seed=5)
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize(("game", "preset"), [("doudizhu", "huanle"), ("showhand", "yifa")])
@pytest.mark.parametrize("opponent", ["bot", "random"])
def test_single_seat_against_bots(game: str, preset: str, opponent: str) -> None:
    env = make_gym(game, preset, seat=1, opponent=opponent)
    rng = random.Random(0)
    for hand in range(3):
        observation, info = env.reset(seed=hand)
        assert env.env.acting == 1
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            assert len(legal) == len(env.legal_actions()) > 0
            assert np.array_equal(info["action_mask"], observation["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += float(reward)
            done = terminated or truncated
        assert total == env.env.state.returns()[1]
        assert not observation["action_mask"].any()


def test_observation_shows_own_cards_and_only_them() -> None:
    env = QipaiAECEnv("doudizhu", "yifa", seed=2)
    env.reset()
    seat = int(env.acting or 0)
    vector = env.observe(f"player_{seat}")["observation"]
    hand = env.state.view(seat).hand
    assert vector[:CARD_SLOTS].sum() == len(hand) == 17
    assert all(vector[card_index(card)] == 1 for card in hand)
    other = (seat + 1) % 3
    assert not np.array_equal(env.observe(f"player_{other}")["observation"][:CARD_SLOTS],
                              vector[:CARD_SLOTS])  # fmt: skip
    assert vector.dtype == np.float32 and env.observation_space("player_0").contains(
        env.observe("player_0")
    )


def test_a_view_of_another_game_is_refused_by_name() -> None:
    env = QipaiAECEnv("doudizhu", "yifa", seed=2)
    env.reset()
    view = env.state.view(0)
    for game in ("zhajinhua", "showhand"):
        with pytest.raises(TypeError, match=rf"not a qipai\.games\.{game}\.view view: a View"):
            encode(game, view, 3, (), STACK)
    assert encode("doudizhu", view, 3, (), STACK).shape == (observation_size("doudizhu", 3),)


def test_simultaneous_choices_are_asked_one_after_another() -> None:
    env = QipaiAECEnv("doudizhu", "jj", seed=0)
    env.reset(seed=0)
    asked: set[int] = set()
    for _ in range(200):
        deciding = env.game.deciding(env.state)
        if deciding:
            assert env.acting == deciding[0]
            assert env.acting_seats() == deciding
            asked.add(deciding[0])
        if env.state.is_terminal:
            break
        env.step(0)
    assert len(asked) >= 2


def test_illegal_indices() -> None:
    env = QipaiAECEnv("zhajinhua", "yifa", seed=1)
    env.reset()
    with pytest.raises(ValueError, match="no legal action"):
        env.step(len(env.legal_actions()))
    gym_env: Any = make_gym("zhajinhua", "yifa")
    gym_env.reset(seed=1)
    gym_env.step(4000)  # a mask-blind agent's index wraps round
    with pytest.raises(ValueError, match="seats"):
        QipaiAECEnv("doudizhu", "yifa", seats=4)


def test_gymnasium_registration() -> None:
    env = gymnasium.make(GYM_ID, game="showhand", rules="yifa", seat=1)
    observation, _ = env.reset(seed=0)
    assert observation["action_mask"].any()


def test_nothing_but_the_envs_imports_them() -> None:
    importers = []
    for path in SRC.rglob("*.py"):
        if "envs" in path.relative_to(SRC).parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(name == "qipai.envs" or name.startswith("qipai.envs.") for name in names):
                importers.append(str(path.relative_to(SRC)))
    assert importers == []
