"""打立出局 at every size: the stage ends with exactly its advance count, its rounds are
hands per player, its line keeps rising and eliminating, a player below a risen line goes
out at once, and a hand is scored at the base it was dealt at."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from run_kit import knockout, started

from qipai.errors import InvalidActionError
from qipai.hall.match.config import default_matches, match_by_id
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import Eliminated, EndedBy, Seating
from qipai.hall.match.sim import simulate


def landlord_wins(seating: Seating) -> tuple[int, ...]:
    return (2, -1, -1)


def level(seating: Seating) -> tuple[int, ...]:
    return (0, 0, 0)


@pytest.mark.parametrize("seed", range(4))
def test_the_shipped_knockout_ends_with_exactly_its_advance_count(seed: int) -> None:
    """300 entrants of ``zhengdian``: the preliminary keeps exactly 30 (it ended by its
    advance count, not a limit), and every finalist played as many hands as every other,
    give or take one (those who played the fewest are seated first)."""
    match = match_by_id(default_matches(), "zhengdian")
    result = simulate(match, players=300, seed=seed)
    first = result.stages[0]
    assert (first.entrants, first.advanced, first.ended_by) == (300, 30, EndedBy.ADVANCE_REACHED)
    assert first.advanced_hands.max - first.advanced_hands.min <= 1
    assert first.advanced_hands.min >= first.rounds
    finalists = [s for s in result.standings if not s.out]
    assert len(finalists) == 30 and all(s.stage == 1 for s in finalists)
    out_in_the_knockout = [s for s in result.standings if s.stage == 0]
    assert len(out_in_the_knockout) == 270 and all(s.out for s in out_in_the_knockout)


def test_rounds_are_hands_per_player_still_in() -> None:
    """The base rises "after 2 rounds": once the players still in have played two hands
    each, however many went out meanwhile (a round is not hands / current tables)."""
    match = knockout(line=990, advance=6, rise=(2, 20, 995))
    run = started(match, 30)
    played: Counter[str] = Counter()
    alive = set(run.registered)
    while run.stage_index == 0:
        for seating in run.seat():
            mean = sum(played[p] for p in alive) / len(alive)
            assert (seating.base == 20) == (mean >= 2), (seating, mean)
            for notice in run.finish_hand(seating.hand, landlord_wins(seating)):
                if isinstance(notice, Eliminated):
                    alive -= set(notice.players)
            played.update(seating.players)
    assert run.reports[0].ended_by is EndedBy.ADVANCE_REACHED


def test_the_line_keeps_rising_until_the_advance_count_is_reached() -> None:
    """Nobody ever loses a point: the schedule's last line (995) never reaches anyone, but
    past it the line rises 50 % every 2 rounds and ends the stage at its advance count."""
    match = knockout(line=990, advance=6, rise=(2, 20, 995))
    run = started(match, 30)
    lines = []
    while run.stage_index == 0:
        for seating in run.seat():
            lines.append(run.line())
            run.finish_hand(seating.hand, level(seating))
    report = run.reports[0]
    assert (report.advanced, report.ended_by) == (6, EndedBy.ADVANCE_REACHED)
    assert report.rounds == 4 and max(lines) == 995  # at round 4 the line is 1,493
    assert match.stages[0].schedule(4) == (20, 1493)


def test_an_operators_round_limit_ends_the_stage_and_says_so() -> None:
    match = knockout(line=990, advance=6, base=1, extra="max_rounds = 2\nrise_percent = 0")
    run = started(match, 30)
    while run.stage_index == 0:
        for seating in run.seat():
            run.finish_hand(seating.hand, level(seating))
    assert run.hands == 20 and run.players_left() == 6
    assert run.reports[0].ended_by is EndedBy.MAX_ROUNDS


def test_a_knockout_that_could_run_for_ever_is_a_config_error() -> None:
    with pytest.raises(ValueError, match="line must keep rising"):
        knockout(line=400, advance=6, extra="rise_percent = 0")
    with pytest.raises(ValueError, match="line must keep rising"):
        knockout(line=0, advance=6)
    knockout(line=400, advance=6, extra="rise_percent = 0\nmax_rounds = 9")  # the operator's


def _waiting(run: MatchRun) -> set[str]:
    """The players still in and not at a hand in play."""
    seated = {p for players in run.in_play().values() for p in players}
    return {s.player for s in run.standings() if not s.out} - seated


@pytest.mark.parametrize("seed", range(6))
def test_a_player_waiting_below_a_risen_line_is_out_at_once(seed: int) -> None:
    """Seated as the hall seats (after every finished hand), hands ending one by one: once
    the line has risen, nobody waiting to be seated is below it while the stage still
    knocks out — he went out when it rose, without playing another hand."""
    match = knockout(line=900, advance=3, rise=(1, 10, 1001))
    run = started(match, 8, seed)
    draw = random.Random(seed)
    pending = list(run.seat())
    while pending and run.stage_index == 0:
        seating = pending.pop(draw.randrange(len(pending)))
        run.finish_hand(seating.hand, level(seating))
        if run.stage_index != 0:
            break
        if run.players_left() > 3:
            assert all(run.score(p) >= run.line() for p in _waiting(run)), run.line()
        pending += run.seat()
    assert run.reports[0].ended_by is EndedBy.ADVANCE_REACHED


def test_a_hand_is_scored_at_the_base_it_was_dealt_at() -> None:
    """Hand 3 is dealt at base 10; the base becomes 20 before it ends: it scores at 10."""
    match = knockout(line=1, advance=3, rise=(1, 20, 2))
    run = started(match, 6)
    first, second = run.seat()
    run.finish_hand(first.hand, level(first))
    [third] = run.seat()  # the first table's players again, at base 10
    assert third.base == 10 and set(third.players) == set(first.players)
    run.finish_hand(second.hand, level(second))  # every player has played one hand
    assert run.base() == 20 and run.hand_base(third.hand) == 10  # what match_update says
    before = [run.score(p) for p in third.players]
    run.finish_hand(third.hand, (2, -1, -1))
    after = [run.score(p) for p in third.players]
    assert [a - b for a, b in zip(after, before, strict=True)] == [20, -10, -10]
    with pytest.raises(InvalidActionError, match="unknown_hand"):
        run.hand_base(third.hand)  # scored: no longer in play


def test_a_small_field_keeps_half_in_whole_tables_exactly() -> None:
    match = match_by_id(default_matches(), "zhengdian")
    for players in (6, 7, 8, 45, 100):
        report = simulate(match, players=players, seed=players).stages[0]
        assert report.advanced == min(30, players // 2 // 3 * 3)
        assert report.ended_by is EndedBy.ADVANCE_REACHED


def hands_of(seatings: Sequence[Seating]) -> Counter[str]:
    return Counter(p for s in seatings for p in s.players)


def test_those_who_played_fewest_are_seated_first() -> None:
    """Seven players: the one left out of the first two tables is seated first."""
    match = knockout(line=1, advance=3)
    run = started(match, 7, seed=3)
    first = run.seat()
    [waiting] = set(run.registered) - set(hands_of(first))
    run.finish_hand(first[0].hand, level(first[0]))
    [next_table] = run.seat()
    assert waiting in next_table.players
