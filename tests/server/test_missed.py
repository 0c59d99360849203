"""Frames kept for absent players (:mod:`qipai.server.missed`): what a returning client
is sent, once."""

from __future__ import annotations

import asyncio

from qipai.cluster.players import MISSED_FRAMES
from qipai.server.missed import MISSED_SECONDS, KeptHere, RecentEndings


def _ending(table: int, n: int) -> list[dict[str, object]]:
    return [
        {"type": "snapshot", "table": table, "n": n},
        {"type": "hand_over", "table": table, "n": n},
    ]


def test_kept_frames_are_taken_once_and_expire() -> None:
    now = [0.0]
    kept = KeptHere(lambda: now[0])
    kept.keep(1, [{"type": "hand_voided", "hand": "a"}])
    kept.keep(1, _ending(5, 40))
    kept.keep(2, _ending(6, 9))
    assert [f["type"] for f in asyncio.run(kept.take(1))] == [
        "hand_voided",
        "snapshot",
        "hand_over",
    ]
    assert asyncio.run(kept.take(1)) == []  # once
    now[0] = MISSED_SECONDS + 1
    assert asyncio.run(kept.take(2)) == []  # too old


def test_a_player_keeps_only_his_newest_frames() -> None:
    kept = KeptHere()
    for hand in range(MISSED_FRAMES):
        kept.keep(1, [{"type": "hand_voided", "hand": str(hand)}])
    frames = asyncio.run(kept.take(1))
    assert len(frames) == MISSED_FRAMES
    assert frames[-1]["hand"] == str(MISSED_FRAMES - 1)


def test_a_recent_ending_goes_to_a_client_that_missed_it() -> None:
    recent = RecentEndings()
    recent.note(1, _ending(5, 40))
    assert recent.unseen(1, {"5": 40}) == []  # he had it
    assert recent.unseen(1, {"7": 3}) == []  # another table: not his concern
    assert recent.unseen(1, {"5": 33}) == _ending(5, 40)  # short of the end
    assert recent.unseen(1, {"5": 33}) == []  # once


def test_an_ending_sent_with_the_kept_frames_is_not_sent_again() -> None:
    recent = RecentEndings()
    recent.note(1, _ending(5, 40))
    recent.forget_if_in(1, _ending(7, 40))  # another table's ending: his is still owed
    recent.forget_if_in(1, _ending(5, 39))  # an earlier hand's
    recent.forget_if_in(1, [])
    assert recent.unseen(1, {"5": 33}) == _ending(5, 40)
    recent.note(1, _ending(5, 40))
    recent.forget_if_in(1, _ending(5, 40))  # sent with what was kept for him
    assert recent.unseen(1, {"5": 33}) == []
