"""A running match saved and carried on: :meth:`MatchRun.snapshot` and :meth:`MatchRun.restore`.

The hall saves a run after each finished hand; a process that takes the matches over (or the
same hall started again) restores it.  A run restored between hands must go on exactly as
the run that was never saved (same seatings, same scores, same standings); the hands in play
when it was saved are dealt again.
"""

from __future__ import annotations

import json
import random

import pytest

from qipai.errors import InvalidActionError
from qipai.hall.match.config import MatchConfig, MatchKind, StageKind, default_matches
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import Seating, Standing


def _points(seating: Seating) -> tuple[int, ...]:
    """A hand's points decided by its number alone (the same in both runs compared)."""
    draw = random.Random(seating.hand)
    winner, stake = draw.randrange(len(seating.players)), draw.choice((1, 2, 4, 8))
    others = len(seating.players) - 1
    return tuple(stake * others if seat == winner else -stake for seat in range(others + 1))


def _entrants(match: MatchConfig) -> int:
    if match.kind is MatchKind.REGULAR:
        return match.players
    return max(match.min_players, 30) // match.table_seats * match.table_seats


def _play(match: MatchConfig, *, saved_between_rounds: bool) -> tuple[list[Standing], int]:
    """Play a run to its end, a batch of seatings at a time; the final standings and how
    many times it was restored."""
    run = MatchRun(match, f"{match.id}#1", random.Random(7))
    for number in range(1, _entrants(match) + 1):
        run.register(f"p{number}")
    run.start()
    restored = 0
    while not run.is_over:
        for seating in run.seat():
            run.finish_hand(seating.hand, _points(seating))
        if saved_between_rounds and not run.is_over:
            run = MatchRun.restore(match, json.loads(json.dumps(run.snapshot())))
            restored += 1
    return run.standings(), restored


@pytest.mark.parametrize("match", default_matches(), ids=lambda match: match.id)
def test_a_run_restored_after_every_batch_of_hands_ends_as_the_one_never_saved(
    match: MatchConfig,
) -> None:
    kept, _ = _play(match, saved_between_rounds=False)
    carried_on, restored = _play(match, saved_between_rounds=True)
    assert restored >= 2
    assert carried_on == kept


@pytest.mark.parametrize("match", default_matches(), ids=lambda match: match.id)
def test_the_hands_in_play_when_saved_are_dealt_again_to_the_same_players(
    match: MatchConfig,
) -> None:
    run = MatchRun(match, f"{match.id}#1", random.Random(3))
    for number in range(1, _entrants(match) + 1):
        run.register(f"p{number}")
    run.start()
    first = run.seat()
    run.finish_hand(first[0].hand, _points(first[0]))
    run.seat()  # whatever can be dealt now is: every table in play
    in_play = run.in_play()
    scores = {p: run.score(p) for p in run.registered}
    restored = MatchRun.restore(match, run.snapshot())
    assert restored.in_play() == {}
    assert {p: restored.score(p) for p in restored.registered} == scores
    again = restored.seat()
    seated = sorted(p for seating in again for p in seating.players)
    assert seated == sorted(p for players in in_play.values() for p in players)
    if match.stages[0].kind is not StageKind.KNOCKOUT:  # knockout reseats at random
        assert sorted(s.players for s in again) == sorted(in_play.values())
    assert min(seating.hand for seating in again) == run.hands + 1  # numbers never reused


def test_a_snapshot_of_another_version_or_match_is_refused() -> None:
    tiyan, *_ = default_matches()
    run = MatchRun(tiyan, "x#1", random.Random(1))
    for number in range(tiyan.players):
        run.register(f"p{number}")
    run.start()
    data = run.snapshot()
    with pytest.raises(InvalidActionError) as version:
        MatchRun.restore(tiyan, {**data, "version": 0})
    assert version.value.code == "bad_snapshot"
    with pytest.raises(InvalidActionError) as stage:
        MatchRun.restore(tiyan, {**data, "stage": {**data["stage"], "index": 9}})
    assert stage.value.code == "bad_snapshot"
