"""A whole match played in-process by bots: ``qipai match simulate``.

Pure: the hands are dealt from seeds drawn from the caller's seed, every seat is played
by the game's quick bot (the registry's :attr:`~qipai.registry.GameType.quick_bot`:
a game's fastest bot, fit for thousands of hands), and the run is
driven exactly as the hall drives it: :meth:`~qipai.hall.match.match.MatchRun.seat`, a hand at
each seating, :meth:`~qipai.hall.match.match.MatchRun.finish_hand`.  Hands are played one after
the other (the hall plays them at once; the order of results within a batch is the only
difference, and knockout seatings are random anyway).  The command line times it.

>>> from qipai.hall.match.config import default_matches
>>> [tiyan] = [m for m in default_matches() if m.id == "tiyan-9"]
>>> result = simulate(tiyan, players=9, seed=1)
>>> result.hands, len(result.standings), sum(result.prizes.values())
(9, 9, 900)
>>> [(r.entrants, r.advanced, r.ended_by.value) for r in result.stages]
[(9, 3, 'hands_played'), (3, 3, 'hands_played')]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from qipai.errors import IllegalActionError
from qipai.hall.match.config import MatchConfig
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import StageReport, Standing
from qipai.registry import GameRules, HandSetup, SomeGame, SomeState


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """A simulated run: its size, its final standings and the prizes paid."""

    players: int
    hands: int
    standings: tuple[Standing, ...]
    prizes: dict[str, int]
    """Coins by player, for the prize-winning ranks."""
    stages: tuple[StageReport, ...] = ()
    """Each stage's entrants, advancers, hands per player and end."""


def simulate(config: MatchConfig, *, players: int, seed: int) -> SimulationResult:
    """Play a run of ``config`` with ``players`` bots (``p1``…) to its end.

    :raises IllegalActionError: ``not_enough_players`` / ``match_full`` for a count the
        match does not take; ``match_stuck`` if the run stops dealing before its end (a
        bug, never expected).
    """
    rng = random.Random(seed)
    run = MatchRun(config, f"{config.id}#sim", random.Random(rng.getrandbits(64)))
    for number in range(1, players + 1):
        run.register(f"p{number}")
    run.start()
    game, rules = config.game_type, (config.game_rules(), config.game_rules(forced=True))
    while not run.is_over:
        seatings = run.seat()
        if not seatings:
            raise IllegalActionError("match_stuck", f"no hand to deal after {run.hands} hands")
        for seating in seatings:
            scores = [run.score(p) for p in seating.players]
            points = play_hand(game, rules[seating.forced], scores, rng)
            run.finish_hand(seating.hand, points or (), voided=points is None)
    standings = tuple(run.standings())
    return SimulationResult(players, run.hands, standings, run.prizes(), run.reports)


def play_hand(
    game: SomeGame, rules: GameRules, scores: list[int], rng: random.Random
) -> tuple[int, ...] | None:
    """One hand played by the game's bot at every seat (``scores``: the seats' match
    scores): its points, or ``None`` for a hand the game gives up on (endless redeals:
    the match deals it again, forced)."""
    setup: HandSetup[SomeState] = HandSetup(
        seed=rng.getrandbits(64), balances=tuple(max(s, 0) for s in scores)
    )
    state = game.play_out(game.new_hand(rules, setup))
    return tuple(state.returns()) if state.is_terminal else None
