"""Benchmark: the ``strong`` Zha Jin Hua and Showhand bots against ``simple``, in chips per hand.

    .venv/bin/python benchmarks/poker_bots.py [--hands 10000] [--seed 0] [--players 4]
        [--game zhajinhua --game showhand]

For each game, two tables of ``--hands`` hands each, every deal from seed ``--seed + i``:

* Heads-up, duplicate deals: ``--hands / 2`` deals, each played twice by
  :func:`qipai.bots.arena.compare` (strong on seat 0 against simple, then the seats
  swapped), so the luck of the cards cancels out.  The unit of sampling is the pair: strong's
  net over both hands of a deal.
* ``--players`` seats (default 4): one strong seat against simple ones, the strong seat
  rotating with the hand number (hand ``i``: seat ``i mod players``); every hand is a new
  table whose dealer is drawn from the hand's seed, as in the hall.  The unit is one hand.

Each table prints strong's mean chips per hand with its 95% confidence interval (the
normal approximation over the units; a pair's figures are halved to read per hand) and the
percentiles of strong's decision time.  The hand tables are built before
the clock (the first decision of a process builds them).  Chips are the engines' zero-sum
returns, before the hall's rake.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from qipai.bots.arena import GAMES, compare, play_hand, seat_policies
from qipai.bots.duel import DecisionTimes, PairPoints, Timed


def heads_up(game: str, hands: int, seed: int, strong: Timed[Any, Any]) -> list[int]:
    """Strong's net per duplicate deal against simple: ``hands / 2`` deals."""
    simple = seat_policies(game, "simple", 1)[0]
    return [
        compare(game, "yifa", strong, simple, deals=1, seed=seed + deal).points[0]
        for deal in range(hands // 2)
    ]


def table(game: str, hands: int, seed: int, players: int, strong: Timed[Any, Any]) -> list[int]:
    """Strong's net per hand at a table of ``players``, its seat rotating, simple elsewhere."""
    spec = GAMES[game]
    rules = spec.get_rules("yifa")
    simple = seat_policies(game, "simple", 1)[0]
    nets = []
    for number in range(hands):
        seat = number % players
        policies = [strong if s == seat else simple for s in range(players)]
        state = spec.start(rules, seed + number, players, number, None)
        nets.append(play_hand(state, policies).returns()[seat])
    return nets


def report(title: str, values: Sequence[int], per_unit: int, strong: Timed[Any, Any]) -> list[str]:
    """Strong's chips per hand with the interval (``per_unit`` hands a value), and its
    decision times."""
    points = PairPoints.of(values)  # one value a unit: the mean and its normal interval
    mean, (low, high) = points.mean / per_unit, points.interval
    return [
        title,
        f"  strong {mean:+.2f} chips/hand, 95% CI [{low / per_unit:+.2f}, {high / per_unit:+.2f}]",
        f"  {DecisionTimes.of(strong.seconds)}",
    ]


def benchmark(game: str, hands: int, seed: int, players: int) -> list[str]:
    """The report lines of both tables of ``game``."""
    warm = seat_policies(game, "strong", 2)
    play_hand(GAMES[game].start(GAMES[game].get_rules("yifa"), seed, 2, 0, None), warm)
    strong = Timed(seat_policies(game, "strong", 1, seed)[0], [])
    pairs = heads_up(game, hands, seed, strong)
    lines = report(
        f"{game} heads-up: {len(pairs)} duplicate deals ({2 * len(pairs)} hands)",
        pairs,
        2,
        strong,
    )
    strong = Timed(seat_policies(game, "strong", 1, seed)[0], [])
    nets = table(game, hands, seed, players, strong)
    title = f"{game} {players} seats: {hands} hands, 1 strong vs {players - 1} simple"
    return [*lines, *report(title, nets, 1, strong)]


def main() -> None:
    """Play both tables of each game and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", action="append", choices=["zhajinhua", "showhand"])
    arguments = parser.parse_args()
    for game in arguments.game or ["zhajinhua", "showhand"]:
        start = time.perf_counter()
        lines = benchmark(game, arguments.hands, arguments.seed, arguments.players)
        print("\n".join(lines))
        print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
