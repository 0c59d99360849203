"""Benchmark: three hall processes, one killed (SIGKILL) while bot clients play.

    .venv/bin/python benchmarks/cluster_kill.py [--runs 5]

Runs the scenario of ``tests/server/kill_kit.py`` ``--runs`` times (three ``qipai serve
--redis`` processes on a fresh PostgreSQL database and Redis prefix, ``qipai loadtest``
over the three URLs, the node owning the room killed after five hands) and prints, per
run, whether every check held and the loadtest's figures: reconnects, how long clients
took to resume (seconds from the socket closing to queued or seated again), hands voided,
messages refused while the node was lost, hands whose result reached the client through
its history only.  Needs PostgreSQL and Redis (``QIPAI_TEST_POSTGRES``,
``QIPAI_TEST_REDIS``) and HAProxy-free loopback ports.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from kill_kit import three_nodes_play_on_when_one_is_killed

SHOWN = ("reconnects", "resume_seconds", "hands_voided", "node_refusals", "hands_unseen", "hands")


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    held = 0
    for run in range(args.runs):
        folder = Path(tempfile.mkdtemp(prefix="qipai-kill-"))
        try:
            summary = three_nodes_play_on_when_one_is_killed(folder)
        except AssertionError as failure:  # the nodes' logs are kept
            failed = {"run": run, "ok": False, "logs": str(folder), "failure": str(failure)[:300]}
            print(json.dumps(failed))
            continue
        shutil.rmtree(folder)
        held += 1
        print(json.dumps({"run": run, "ok": True, **{key: summary[key] for key in SHOWN}}))
    print(f"{held} of {args.runs} runs held every check")


if __name__ == "__main__":
    main()
