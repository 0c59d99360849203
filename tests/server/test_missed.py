"""Frames kept for absent players (:mod:`qipai.server.run.missed`): what a returning client
is sent, once."""

from __future__ import annotations

import asyncio

from qipai.cluster.players import MISSED_FRAMES
from qipai.hall.frames import HandOver, HandVoided, OutFrame, Snapshot
from qipai.server.run.missed import MISSED_SECONDS, KeptHere, RecentEndings


def _ending(table: int, n: int) -> list[OutFrame]:
    snapshot = Snapshot(
        table=table, n=n, seat=0, room="r", hand="h", commitment="c", players=[], view=None,
        deadline=None, entropy_deadline=None,
    )  # fmt: skip
    over = HandOver(
        table=table, n=n, hand="h", result=[0], points=[0], rake=[0], fees=[0], limited=[0],
        coins=[0], winners=[], escaper=None, voided=False, seed="1", record=None,
    )  # fmt: skip
    return [snapshot, over]


def _voided(hand: str) -> HandVoided:
    return HandVoided(hand=hand, table=1, reason="restart")


def test_kept_frames_are_taken_once_and_expire() -> None:
    now = [0.0]
    kept = KeptHere(lambda: now[0])
    kept.keep(1, [_voided("a")])
    kept.keep(1, _ending(5, 40))
    kept.keep(2, _ending(6, 9))
    assert [type(f) for f in asyncio.run(kept.take(1))] == [HandVoided, Snapshot, HandOver]
    assert asyncio.run(kept.take(1)) == []  # once
    now[0] = MISSED_SECONDS + 1
    assert asyncio.run(kept.take(2)) == []  # too old


def test_a_player_keeps_only_his_newest_frames() -> None:
    kept = KeptHere()
    for hand in range(MISSED_FRAMES):
        kept.keep(1, [_voided(str(hand))])
    frames = asyncio.run(kept.take(1))
    assert len(frames) == MISSED_FRAMES
    assert frames[-1] == _voided(str(MISSED_FRAMES - 1))


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
