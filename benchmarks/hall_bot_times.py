"""Benchmark: how long the hall's Dou Dizhu bot takes to decide.

    .venv/bin/python benchmarks/hall_bot_times.py [--hands 60] [--rules huanle] [--seed 1000]

Plays ``--hands`` hands (hand ``i`` dealt from seed ``--seed + i``) with the registry's
bot at every seat (the strong player with the hall's search budget, ``HALL_WORLDS`` and
``HALL_BUDGET`` in ``qipai.registry.doudizhu``), timing every decision, and prints the
percentiles.  The hall runs every table on one event loop, so these are the pauses a
bot's decision puts on it.  The move tables are built before the clock.
"""

from __future__ import annotations

import argparse

from qipai.bots.duel import DecisionTimes, Timed
from qipai.bots.turns import play_out
from qipai.games.doudizhu import State
from qipai.registry import game_type


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--rules", default="huanle")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    game = game_type("doudizhu")
    game.warm_up()
    seconds: list[float] = []
    bot = Timed(game.bot, seconds)
    for number in range(args.hands):
        play_out(State.new(args.rules, seed=args.seed + number), [bot, bot, bot])
    print(f"hall bot, {args.hands} {args.rules} hands: {DecisionTimes.of(seconds)}")


if __name__ == "__main__":
    main()
