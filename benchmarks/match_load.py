"""One match played through a real hall by N socket clients (``qipai loadtest --match``).

Starts ``qipai serve`` as its own process (so the clients' CPU is not the server's) on a
fresh SQLite file with one regular match of N places (打立出局 to at most 30 players, then a
瑞士 final of two rounds: the shape of the shipped ``zhengdian``, as a regular match so that
it starts when full), runs ``qipai loadtest --match`` with N clients, prints
its JSON summary (``match_finished``, ``latency_ms`` from an action sent to its broadcast),
then audits the ledger.

    .venv/bin/python benchmarks/match_load.py --clients 300

The machine is shared and noisy: repeat a run and quote the median.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from hall_load import QIPAI, free_port, wait_ready

MATCH = """
[[match]]
id = "load"
name = "压力测试赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = {players}
rule_changes = {{ all_pass = "forced" }}
decision_seconds = 30

[[match.stage]]
kind = "knockout"
start_score = 1000
base = 10
line = 600
advance = {advance}
max_rounds = 12

[[match.stage.rise]]
after_rounds = 2
base = 20
line = 800

[[match.stage]]
kind = "swiss"
rounds = 2
hands = 1
carry_percent = 20
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--think", type=float, default=0.0)
    arguments = parser.parse_args()
    players = arguments.clients
    advance = max(3, min(30, players // 2 // 3 * 3))
    with tempfile.TemporaryDirectory() as folder:
        matches = Path(folder) / "matches.toml"
        matches.write_text(MATCH.format(players=players, advance=advance), encoding="utf-8")
        db = f"sqlite:///{Path(folder) / 'hall.db'}"
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        serve = [*QIPAI, "serve", "--port", str(port), "--db", db, "--bot-delay", "0"]
        serve += ["--no-limits", "--matches", str(matches)]
        with subprocess.Popen(serve, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as hall:
            try:
                wait_ready(url)
                load = [*QIPAI, "loadtest", "--url", url, "--clients", str(players)]
                load += ["--match", "load", "--duration", "600", "--think", str(arguments.think)]
                subprocess.run(load, check=False)
            finally:
                hall.terminate()
                hall.wait(60)
        subprocess.run([*QIPAI, "audit", "--db", db], check=False)


if __name__ == "__main__":
    sys.exit(main())
