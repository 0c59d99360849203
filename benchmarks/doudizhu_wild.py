"""Benchmark: caishen (财神) wildcard lead generation on hands it has not seen before.

    .venv/bin/python benchmarks/doudizhu_wild.py [--hands 200] [--seed 1]

Each hand is 18 random natural cards plus both jokers and ``W`` (a landlord's 21 cards,
the most wildcard readings a hand can have).  Prints the median time of the first lead
generation of a hand (later calls for the same hand are served from a cache) and the
median number of leads.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qipai.games.doudizhu import PASS, RULES, moves_for
from qipai.games.doudizhu.combos import from_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = RULES["caishen"]
    rng = random.Random(args.seed)
    deck = list("3456789TJQKA2" * 4)
    hands = [from_text("".join(rng.sample(deck, 18)) + "BRW") for _ in range(args.hands)]
    moves_for(from_text("3"), PASS, rules)  # build the natural tables before the clock
    seconds, leads = [], []
    for hand in hands:
        start = time.perf_counter()
        found = moves_for(hand, PASS, rules)
        seconds.append(time.perf_counter() - start)
        leads.append(len(found))
    print(f"{args.hands} caishen hands of 21 cards with B, R and W, first sight of each:")
    print(
        f"median {statistics.median(seconds) * 1000:.1f} ms, {statistics.median(leads):.0f} leads"
    )


if __name__ == "__main__":
    main()
