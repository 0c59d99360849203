"""qipai's Dou Dizhu bots against RLCard's rule agent, on RLCard's own game.

RLCard 1.2.0 (``rlcard``, in the ``test`` extra; the hall never needs it) ships a Dou
Dizhu game and a rule-based player, ``DouDizhuRuleAgentV1`` (its ``doudizhu-rule-v1``
model): a common outside yardstick.  :func:`rlcard_match` plays a qipai bot against it on
paired deals, like :func:`qipai.bots.duel.duel`: RLCard's deal ``i`` (seed ``seed + i``)
is played twice, the qipai bot as the landlord (RLCard's player 0, which is always the
landlord: RLCard has no auction) against two rule-agent farmers, then the rule agent as
the landlord against two qipai farmers.

The qipai bot plays through the research interface
(:func:`qipai.bots.doudizhu.choose_play`): it sees its cards, the landlord's three bottom
cards, the plays so far and RLCard's list of legal moves, and thinks in the combination
rules of a qipai preset (``jj`` by default).  Every move is checked against RLCard's legal
moves before RLCard applies it (RLCard itself would not check).  RLCard keeps no score, so
the result (a :class:`~qipai.bots.duel.DuelResult`) has win rates and decision times only.
The deals run in parallel over ``jobs`` processes, with the same figures whatever
``jobs`` is.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol, TypedDict

from qipai.bots.arena import DOUDIZHU, PairedDeal
from qipai.bots.doudizhu import choose_play, make_bot
from qipai.bots.duel import (
    Chunk,
    ChunkResult,
    DuelResult,
    chunks_of,
    run_chunks,
    summarise,
    warm_up,
)
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.rules import get_rules

RLCARD = "rlcard"
"""The name of RLCard's rule agent as an opponent, and of RLCard's arena."""
EXTRA = "test"
"""The optional extra of qipai's ``pyproject.toml`` that installs ``rlcard``."""
LANDLORD = 0
"""RLCard's landlord: always player 0."""
LANDLORD_SIDE, FARMERS_SIDE = 0, 1
"""The sides, indexed like :attr:`qipai.bots.arena.DOUDIZHU.sides`."""


class RLCardState(TypedDict):
    """What the match reads of RLCard's state of a deal for a player (its raw state)."""

    current_hand: str
    """The player's cards."""
    self: int
    """The player."""
    trace: list[tuple[int, str]]
    """The moves so far: each player and his move."""
    actions: list[str]
    """The legal moves."""


class RLCardRound(Protocol):
    """What the match reads of a deal's round."""

    seen_cards: str
    """The bottom cards 底牌, shown, until the landlord plays them."""


class RLCardGame(Protocol):
    """What the match uses of ``DoudizhuGame`` (RLCard ships no types)."""

    np_random: object
    round: RLCardRound
    winner_id: int

    def init_game(self) -> tuple[RLCardState, int]:
        """Deal: the first player's state, and that player."""
        ...

    def is_over(self) -> bool:
        """Whether the deal is over."""
        ...

    def get_state(self, player: int) -> RLCardState:
        """``player``'s state now."""
        ...

    def step(self, move: str) -> tuple[RLCardState, int]:
        """Play ``move``: the next player's state, and that player."""
        ...


class RLCardAgent(Protocol):
    """What the match uses of ``DouDizhuRuleAgentV1``."""

    def step(self, state: dict[str, RLCardState]) -> str:
        """The agent's move for ``{"raw_obs": state}``."""
        ...


@dataclass(frozen=True, slots=True)
class RLCard:
    """What the match uses of RLCard and numpy, imported when first needed."""

    numpy: ModuleType
    """The ``numpy`` module."""
    game: Callable[[], RLCardGame]
    """``rlcard.games.doudizhu.game.DoudizhuGame``."""
    agent: Callable[[], RLCardAgent]
    """``rlcard.models.doudizhu_rule_models.DouDizhuRuleAgentV1``."""


def load_rlcard() -> RLCard:
    """RLCard's Dou Dizhu game and rule agent.

    :raises InvalidActionError: ``missing_extra`` when RLCard is not installed.
    """
    try:
        numpy = importlib.import_module("numpy")
        game = importlib.import_module("rlcard.games.doudizhu.game")
        agents = importlib.import_module("rlcard.models.doudizhu_rule_models")
    except ImportError as error:
        raise InvalidActionError(
            "missing_extra",
            f"RLCard is not installed ({error.name}): pip install -e '.[{EXTRA}]' "
            "(the test extra has rlcard 1.2.0)",
        ) from None
    return RLCard(numpy, game.DoudizhuGame, agents.DouDizhuRuleAgentV1)


def rlcard_match(
    bot: str,
    *,
    rules: str = "jj",
    deals: int,
    seed: int = 0,
    jobs: int = 1,
) -> DuelResult:
    """Pit the qipai Dou Dizhu bot ``bot`` against RLCard's rule agent on ``deals`` paired
    RLCard deals (module docstring); A is ``bot``, B is ``rlcard``.

    ``rules`` is the qipai preset whose combination rules the bot thinks in; the moves
    are RLCard's.  The bot is seeded ``seed + i`` on deal ``i``.

    :raises InvalidActionError: ``missing_extra`` (no RLCard), ``unknown_bot``,
        ``unknown_rules``, ``bad_deals``, ``bad_jobs``.
    """
    load_rlcard()
    make_bot(bot)  # raises unknown_bot
    preset = get_rules(rules).name
    tasks = chunks_of(DOUDIZHU.name, preset, (bot, RLCARD), deals=deals, seed=seed, jobs=jobs)
    results = run_chunks(play_rlcard_chunk, tasks, jobs)
    return summarise(tasks, results, DOUDIZHU.sides, unit=None, arena=RLCARD)


def play_rlcard_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's deals on RLCard's game (a worker's job), after a warm-up."""
    warm_up(play_rlcard_deals, chunk)
    return play_rlcard_deals(chunk)


def play_rlcard_deals(chunk: Chunk) -> ChunkResult:
    """Play a chunk's deals, each from both sides, timing the bot and the rule agent."""
    rlcard = load_rlcard()
    seconds: tuple[list[float], list[float]] = ([], [])
    pairs = []
    for deal in chunk.deals:
        hand = RLCardHand(rlcard, chunk.names[0], chunk.rules, chunk.seed + deal, seconds)
        as_landlord = hand.play(LANDLORD_SIDE)
        as_farmers = hand.play(FARMERS_SIDE)
        won = ((as_landlord, as_farmers), (not as_farmers, not as_landlord))
        pairs.append(PairedDeal(won, (0, 0)))
    return ChunkResult(pairs, seconds)


@dataclass(frozen=True, slots=True)
class RLCardHand:
    """One RLCard deal, to be played with the qipai bot on either side."""

    rlcard: RLCard
    """RLCard's classes."""
    bot: str
    """The qipai bot's name."""
    rules: str
    """The preset the bot thinks in."""
    seed: int
    """The deal's seed: RLCard's deal, the rule agent's and the bot's randomness."""
    seconds: tuple[list[float], list[float]]
    """Where the bot's and the rule agent's decision times go."""

    def play(self, side: int) -> bool:
        """Play the deal with the qipai bot on ``side`` (0: the landlord, 1: the farmers);
        whether the bot's side won.

        :raises IllegalActionError: ``illegal_move``: a move not in RLCard's legal moves.
        """
        game = self.rlcard.game()
        game.np_random = self.rlcard.numpy.random.RandomState(self.seed)
        agent = self.rlcard.agent()
        with seeded_numpy(self.rlcard.numpy, self.seed):
            _, player = game.init_game()
            bottom = game.round.seen_cards  # RLCard removes them as the landlord plays them
            while not game.is_over():
                state = _ordered(game.get_state(player))
                ours = _side(player) == side
                start = time.perf_counter()
                move = self._choose(state, bottom) if ours else agent.step({"raw_obs": state})
                self.seconds[0 if ours else 1].append(time.perf_counter() - start)
                _, player = game.step(_checked(move, state["actions"]))
        return _side(game.winner_id) == side

    def _choose(self, state: RLCardState, bottom: str) -> str:
        return choose_play(
            state["current_hand"],
            state["self"],
            LANDLORD,
            [(seat, move) for seat, move in state["trace"]],
            bottom,
            legal=state["actions"],
            rules=self.rules,
            bot=self.bot,
            seed=self.seed,
        )


def _side(player: int) -> int:
    return LANDLORD_SIDE if player == LANDLORD else FARMERS_SIDE


def _ordered(state: RLCardState) -> RLCardState:
    """The state with its legal moves sorted: RLCard lists them from a set of strings, in
    an order that changes with each process's string hashing (``PYTHONHASHSEED``), and
    the rule agent's choices depend on that order."""
    return {**state, "actions": sorted(state["actions"])}


def _checked(move: str, legal: list[str]) -> str:
    if move not in legal:
        raise IllegalActionError("illegal_move", f"{move!r} is not one of RLCard's moves {legal}")
    return str(move)


@contextmanager
def seeded_numpy(numpy: ModuleType, seed: int) -> Iterator[None]:
    """Seed numpy's global generator (the rule agent draws from it) with ``seed``, and give
    the caller's state back afterwards."""
    saved = numpy.random.get_state()
    numpy.random.seed(seed)
    try:
        yield
    finally:
        numpy.random.set_state(saved)
