"""The node that runs the matches killed with SIGKILL mid-run (three ``qipai serve
--redis`` processes, real PostgreSQL and Redis): the node that takes the matches over
carries the run on from its last finished hand to its end; its player, whose socket is
on the third node, plays on there to ``match_over``; the hand in play is voided (not
counted), no hand is settled twice, every finished hand is kept, and ``qipai audit`` is
clean."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from match_kit import (
    BOT_DELAY,
    HANDS,
    MATCHES,
    final_scores_sum,
    hand_counts,
    run_state,
    saved_hands,
    until,
)
from nodes_kit import Cluster, cluster
from process_kit import audit_cli, kill
from wire_kit import guests, of_type

from qipai.client.connection import HallClient
from qipai.cluster.placement import preferred
from qipai.server.run.node import MATCHES as MATCHES_LEASE

pytestmark = pytest.mark.postgres

ROOMS = '[[room]]\nid = "r1"\nname = "斗地主"\ngame = "doudizhu"\nrules = "yifa"\n'


async def _play_through_the_kill(hall: Cluster, runner: str, url: str) -> dict[str, object]:
    """A player on ``url`` registers, plays, and goes on playing after ``runner`` (the
    matches' node) is killed, until ``match_over``: that frame."""
    async with HallClient(url) as client, guests(client, 1) as [player]:
        headers = {"authorization": f"Bearer {player.session.token}"}
        async with httpx.AsyncClient(timeout=30) as http:
            answer = await http.post(f"{url}/api/matches/crash-trio/register", headers=headers)
        assert answer.status_code == 200, answer.text
        await player.until(of_type("match_started"))
        playing = asyncio.create_task(player.play_out(until=of_type("match_over"), timeout=150))
        await asyncio.to_thread(until, lambda: saved_hands(hall.db_url) >= 2, "second hand")
        await asyncio.to_thread(kill, hall.nodes[runner].process)
        assert 1 <= hand_counts(hall.db_url)["settled"] < HANDS  # killed mid-run
        return await playing


def test_a_match_goes_on_at_another_node_when_its_node_is_killed(tmp_path: Path) -> None:
    matches = tmp_path / "matches.toml"
    matches.write_text(MATCHES, encoding="utf-8")
    options = ("--matches", str(matches), *BOT_DELAY)
    with cluster(["n1", "n2", "n3"], ROOMS, tmp_path, "match_takeover", *options) as hall:
        hall.wait("a node running the matches", lambda: hall.holder(MATCHES_LEASE) is not None)
        runner = hall.holder(MATCHES_LEASE)
        assert runner is not None
        rest = [name for name in hall.nodes if name != runner]
        taker = preferred(MATCHES_LEASE, rest)
        [third] = [name for name in rest if name != taker]
        over = asyncio.run(_play_through_the_kill(hall, runner, hall.nodes[third].url))
        assert over["rank"] in (1, 2, 3)
        assert hall.holder(MATCHES_LEASE) == taker
        assert run_state(hall.db_url) == "finished"
        played = hand_counts(hall.db_url)
        assert played["settled"] == HANDS, played  # nothing played twice, nothing lost
        assert played["playing"] == 0
        total, expected = final_scores_sum(hall.db_url)
        assert total == expected
        audited = audit_cli(hall.db_url)
        assert audited.returncode == 0, audited.stdout + audited.stderr
