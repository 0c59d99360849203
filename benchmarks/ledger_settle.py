"""How fast the ledger settles hands, one transaction each, as the hall does.

Registers 300 players, then starts and settles Dou Dizhu-shaped hands (three seats, one of
them a bot, a 5 % rake on the winners) through :class:`qipai.store.Store`, one hand a
transaction and 20 (the hall's group commit under load), on a new SQLite file and on a
new PostgreSQL database, and prints hands settled per second
(median of the repeats) beside the hall's own peak rate of finished hands, so the ratio
says how far settlement is from being the bottleneck.

    .venv/bin/python benchmarks/ledger_settle.py [--hands 2000] [--repeat 3] [--hall-rate 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from databases import fresh_database
from qipai.store import HandSettlement, HandStart, Store

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def settle_rate(url: str, hands: int, seed: int, batch: int) -> float:
    """Hands started and settled per second, ``batch`` hands a transaction (as the hall's
    group commit does under load)."""
    rng = random.Random(seed)
    with Store.open(url) as store:
        users = [store.register(f"p{i}", "x", grant=10**9, now=NOW) for i in range(300)]
        began = time.perf_counter()
        for first in range(0, hands, batch):
            pairs = [_hand(f"h{n}", rng, users) for n in range(first, min(hands, first + batch))]
            store.start_hands([start for start, _ in pairs])
            store.settle_hands([settlement for _, settlement in pairs])
        return hands / (time.perf_counter() - began)


def _hand(hand_id: str, rng: random.Random, users: list[int]) -> tuple[HandStart, HandSettlement]:
    seats = (*rng.sample(users, 2), None)
    start = HandStart(hand_id, "r", "doudizhu", "yifa", 1, "0" * 64, seats, NOW)
    points = rng.choice(((12, -6, -6), (-12, 6, 6)))
    rake = tuple(p * 5 // 100 if p > 0 else 0 for p in points)
    net = tuple(p - r for p, r in zip(points, rake, strict=True))
    winners = tuple(seat for seat, p in enumerate(points) if p > 0)
    return start, HandSettlement(hand_id, net, rake, (0, 0, 0), points, winners, "{}", NOW)


def main() -> None:
    """Print the rates."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hall-rate", type=float, default=40.0, help="hall's peak hands/s")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("sqlite", "postgresql"):
            for batch in (1, 20):
                rates = [
                    settle_rate(
                        fresh_database(kind, Path(folder), f"ledger{batch}_{n}"),
                        args.hands,
                        n,
                        batch,
                    )
                    for n in range(args.repeat)
                ]
                rate = statistics.median(rates)
                print(
                    f"{kind:<10} {batch:3} hands/transaction {rate:8.0f} hands settled/s "
                    f"(median of {args.repeat} x {args.hands}; "
                    f"{rate / args.hall_rate:.0f}x the hall's {args.hall_rate:g}/s)"
                )


if __name__ == "__main__":
    main()
