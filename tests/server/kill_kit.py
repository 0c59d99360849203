"""Three hall processes as one hall, one killed (SIGKILL) while bot clients play: the
scenario of ``test_server_three_nodes.py``, which ``benchmarks/cluster_kill.py`` runs
again and again (it must never fail).

Three ``qipai serve --redis`` processes on one PostgreSQL and one Redis; ``qipai
loadtest`` spreads its clients over the three URLs.  Mid-run the node that owns the room
(every hand is played there, whatever node a client's socket reaches) is killed.  Its
hands in play are voided by another node (stakes back, no penalty), the room moves, and
every client resumes: those whose socket was on the dead node reconnect to another one,
the others are told through their own node.  The loadtest reports no error, its clients'
coins match their results, hands go on after the kill, ``qipai audit`` is clean (which
includes: every hand settled or voided once, zero-sum), and no hand of the dead node is
left in play.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from nodes_kit import Cluster, cluster
from process_kit import CLI, audit_cli, kill
from sqlalchemy import func, select

from qipai.store import Store
from qipai.store.schema import hand_seats, hands, transactions

ROOMS = """
[[room]]
id = "k-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
bot_wait = 0.2
"""
CLIENTS = 9
"""Three per node."""


def three_nodes_play_on_when_one_is_killed(tmp_path: Path) -> dict[str, Any]:
    """The scenario: its loadtest's summary (raises ``AssertionError`` at the first
    check that fails)."""
    with cluster(["n1", "n2", "n3"], ROOMS, tmp_path, "three") as hall:
        owner = hall.owner("k-ddz")
        assert owner is not None
        load = _loadtest(hall, seconds=16)
        _wait_for_hands(hall, 5)
        killed_at = time.time()
        kill(hall.nodes[owner].process)
        summary = _summary(load)
        assert summary["errors"] == 0, summary["error_codes"]
        assert summary["coins_conserved"], _histories(hall, summary["coins_unexplained"])
        # a hand settled as its node died may reach its players through history only
        assert summary["hands_unseen"] <= CLIENTS
        assert summary["reconnects"] >= CLIENTS // 3  # the dead node's clients
        assert summary["resume_seconds"]["max"] < 15, summary["resume_seconds"]
        # the room moved (held by none for a moment whenever it changes hands)
        hall.wait("the room moved", lambda: hall.owner("k-ddz") not in (None, owner))
        _nothing_left_in_play(hall, owner)
        assert _hands_after(hall, killed_at) >= CLIENTS // 3  # play went on
        hall.wait("the last hands over", lambda: _playing(hall) == 0)  # the clients left
        result = audit_cli(hall.db_url)
        assert result.returncode == 0, result.stdout + _in_play(hall)
        return summary


def _loadtest(hall: Cluster, seconds: int) -> subprocess.Popen[str]:
    urls = [arg for url in hall.urls for arg in ("--url", url)]
    command = [sys.executable, "-c", CLI, "loadtest", *urls, "--clients", str(CLIENTS)]
    command += ["--duration", str(seconds), "--seed", "3"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _summary(load: subprocess.Popen[str]) -> dict[str, Any]:
    output, _ = load.communicate(timeout=240)
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    assert load.returncode == 0 or not summary["coins_conserved"], output
    return summary


def _histories(hall: Cluster, unexplained: dict[str, int]) -> str:
    """The hands of the clients whose coins their results do not explain (a failure's
    message)."""
    lines = [f"unexplained: {unexplained}"]
    with Store.open(hall.db_url) as store:
        for user in unexplained:
            for row in store.history(int(user), limit=200):
                lines.append(f"{user}: {row}")
    return "\n".join(lines)


def _wait_for_hands(hall: Cluster, count: int) -> None:
    """Until ``count`` hands are settled."""
    with Store.open(hall.db_url) as store:

        def settled() -> bool:
            with store.read() as connection:
                query = select(func.count()).where(hands.c.status == "settled")
                return int(connection.execute(query).scalar_one()) >= count

        hall.wait(f"{count} hands settled", settled, seconds=60)


def _hands_after(hall: Cluster, when: float) -> int:
    """Hands settled that started after ``when`` (seconds since the epoch)."""
    with Store.open(hall.db_url) as store, store.read() as connection:
        started = select(hands.c.started_at).where(hands.c.status == "settled")
        return sum(row[0].timestamp() > when for row in connection.execute(started))


def _in_play(hall: Cluster) -> str:
    """The hands in play and their players (a failure's message)."""
    with Store.open(hall.db_url) as store, store.read() as connection:
        query = (
            select(hands.c.id, hands.c.node, hands.c.started_at, hand_seats.c.user_id)
            .join_from(hands, hand_seats, hand_seats.c.hand_id == hands.c.id)
            .where(hands.c.status == "playing")
        )
        return "\n".join(map(str, connection.execute(query).all())) + f"\nnow {time.time()}"


def _playing(hall: Cluster) -> int:
    """Hands in play now."""
    with Store.open(hall.db_url) as store, store.read() as connection:
        query = select(func.count()).where(hands.c.status == "playing")
        return int(connection.execute(query).scalar_one())


def _nothing_left_in_play(hall: Cluster, node: str) -> None:
    """The dead node's hands are all settled or voided, each once."""
    with Store.open(hall.db_url) as store, store.read() as connection:
        playing = select(func.count()).where(hands.c.node == node, hands.c.status == "playing")
        assert connection.execute(playing).scalar_one() == 0
        outcomes = (
            select(transactions.c.hand_id, func.count())
            .where(transactions.c.kind.in_(["settle", "void"]))
            .group_by(transactions.c.hand_id)
            .having(func.count() > 1)
        )
        assert connection.execute(outcomes).all() == []
