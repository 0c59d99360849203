"""Benchmark: what spectators 观战 cost the hall's core, per hand.

    PYTHONPATH=src .venv/bin/python benchmarks/spectators.py [--spectators 200]
        [--hands 5] [--runs 5]

One cash table of ``doudizhu-yifa`` that plays on (a player in 托管 and two bots) is played
for ``--hands`` hands by the core alone (:class:`tests/hall/core_kit.World`: no sockets, the
store answering at once, the clock jumping to each wake-up), once with nobody watching and
once with ``--spectators`` watching from the start; each ``--runs`` times.  Printed: the
median CPU time (``time.process_time``: the machine may be shared) per hand spent in
:meth:`HallCore.handle` (the world's own bookkeeping left
out) of each, their ratio, and the frames each spectator was sent
per hand against the player's (the same table, the same seed: the players' frames are the
same with or without spectators, but for ``spectator_count``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hall"))

from core_kit import World, room

from qipai.hall import commands as c
from qipai.hall import effects as e

KEEPS = room("doudizhu-yifa", id="keeps", regroup=False)


def run(spectators: int, hands: int, seed: int) -> tuple[float, World]:
    """Seconds the core spent on ``hands`` hands with ``spectators`` watching."""
    world = World([KEEPS], seed=seed)
    world.join(1, KEEPS.id)
    world.pass_time(1.0)
    live = world.core.table_of(1)
    assert live is not None
    for user in range(100, 100 + spectators):
        world.core.player(user, f"w{user}")
        world.handle(c.Spectate(user, table=live.number))
    spent = 0.0
    handle = world.core.handle

    def timed(command: c.Command, now: float) -> list[e.Effect]:
        nonlocal spent
        started = time.process_time()
        try:
            return handle(command, now)
        finally:
            spent += time.process_time() - started

    world.core.handle = timed  # type: ignore[method-assign]
    while len(world.settled) < hands:
        world.answer_all()
        if not world.advance():
            world.pass_time(1.0)
    return spent, world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    alone, crowd = [], []
    for seed in range(args.runs):  # interleaved: a slower moment of the machine hits both
        run(0, args.hands, seed)  # warm up: the bots' caches hold these deals' hands now
        alone.append(run(0, args.hands, seed)[0] / args.hands)
        seconds, world = run(args.spectators, args.hands, seed)
        crowd.append(seconds / args.hands)
    base, watched = statistics.median(alone), statistics.median(crowd)
    print(f"core time per hand, median of {args.runs} runs of {args.hands} hands:")
    print(f"  0 spectators:   {base * 1000:8.2f} ms")
    print(f"  {args.spectators} spectators: {watched * 1000:8.2f} ms   ratio {watched / base:.2f}")
    if args.spectators:
        mine = len(world.frames(1)) / args.hands
        theirs = len(world.frames(100)) / args.hands
        print(f"frames per hand: the player {mine:.1f}, each spectator {theirs:.1f}")


if __name__ == "__main__":
    main()
