"""The match engine: registrations, scoring (积分最小化), knockout, fixed and Swiss stages,
carry-over, tie rules, final standings and prizes, driven by crafted hand results."""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Sequence

import pytest
from run_kit import started

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.rules import AllPass
from qipai.hall.match.coins import match_points
from qipai.hall.match.config import MatchConfig, load_matches
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import Eliminated, Finished, RunState, StageStarted
from qipai.hall.match.standings import LastHand, rank_players

HEADER = """
[[match]]
id = "t"
name = "t"
kind = "{kind}"
game = "doudizhu"
rules = "jj"
players = {players}
minimise = {minimise}
bots = {bots}
{extra}
"""


def config(stages: str, *, players: int = 9, kind: str = "regular", minimise: bool = False,
           bots: bool = False, extra: str = "", prizes: str = "") -> MatchConfig:  # fmt: skip
    head = HEADER.format(
        kind=kind, players=players, minimise=str(minimise).lower(), bots=str(bots).lower(),
        extra=extra,
    )  # fmt: skip
    [match] = load_matches(head + textwrap.dedent(stages) + textwrap.dedent(prizes))
    return match


def landlord_wins(seats: Sequence[str], points: int = 2) -> tuple[int, ...]:
    """The first seat won as landlord: +2×points, −points each farmer."""
    return (2 * points, -points, -points)


FIXED_TWO = """
[[match.stage]]
kind = "fixed"
hands = 2
base = 10
advance = 3
[[match.stage]]
kind = "fixed"
hands = 1
base = 100
carry_percent = 50
carry_cap = 300
"""


# --- the rules' scoring ---------------------------------------------------------------------


def test_farmer_is_base_times_multiplier_and_landlord_the_farmers_sum() -> None:
    """"农民得分=胜负参数×基数×倍数": a hand's points (the engine's, ×倍数) times the base."""
    assert match_points((-8, 4, 4), 25, (0, 0, 0), minimise=False) == (-200, 100, 100)


@pytest.mark.parametrize(
    ("points", "scores", "paid"),
    [
        ((20, -20, 0), (30, 1000, 500), (30, -30, 0)),  # the winner holds 30: pays 30
        ((-14, 14, 0), (120, 1000, 500), (-120, 120, 0)),  # the loser holds 120: pays 120
    ],
)
def test_the_rules_two_minimisation_examples(
    points: tuple[int, ...], scores: tuple[int, ...], paid: tuple[int, ...]
) -> None:
    """"在****当前桌面分值、输家当前桌面分值和该玩家应该支付分值三者之间按照数值最低的一个进行支付"."""
    assert match_points(points, 10, scores, minimise=True) == paid
    assert match_points(points, 10, scores, minimise=False) == tuple(10 * p for p in points)


# --- registration -----------------------------------------------------------------------


def test_registration_errors_change_nothing() -> None:
    run = MatchRun(config(FIXED_TWO), "t#1", random.Random(0))
    assert run.register("ann") == 1
    with pytest.raises(IllegalActionError, match="already_registered"):
        run.register("ann")
    with pytest.raises(IllegalActionError, match="not_registered"):
        run.unregister("bob")
    for number in range(8):
        run.register(f"p{number}")
    with pytest.raises(IllegalActionError, match="match_full"):
        run.register("late")
    assert run.registered[0] == "ann" and len(run.registered) == 9
    run.start()
    with pytest.raises(IllegalActionError, match="match_closed"):
        run.register("later")
    with pytest.raises(IllegalActionError, match="match_closed"):
        run.unregister("ann")
    assert len(run.registered) == 9 and run.state is RunState.RUNNING


def test_a_regular_match_starts_only_full_and_bots_fill_only_where_allowed() -> None:
    run = MatchRun(config(FIXED_TWO), "t#1", random.Random(0))
    run.register("ann")
    with pytest.raises(IllegalActionError, match="not_enough_players"):
        run.start()
    with pytest.raises(IllegalActionError, match="no_bots"):
        run.fill_with_bots()
    with_bots = MatchRun(config(FIXED_TWO, bots=True), "t#2", random.Random(0))
    with_bots.register("ann")
    assert with_bots.fill_with_bots() == [f"bot:{n}" for n in range(1, 9)]
    with_bots.start()
    assert with_bots.state is RunState.RUNNING


def test_numbers_are_never_reused_after_a_withdrawal() -> None:
    run = MatchRun(config(FIXED_TWO), "t#1", random.Random(0))
    assert [run.register(p) for p in ("a", "b")] == [1, 2]
    run.unregister("a")
    assert run.register("c") == 3 and run.register("a") == 4


# --- fixed stages, carry-over, standings, prizes -----------------------------------------------


def test_fixed_tables_keep_their_players_for_their_hands_then_the_top_advance() -> None:
    run = started(config(FIXED_TWO), 9)
    first = run.seat()
    assert len(first) == 3 and run.seat() == []  # one hand per table at a time
    tables = {s.table: s.players for s in first}
    for seating in first:
        run.finish_hand(seating.hand, landlord_wins(seating.players))
    second = run.seat()
    assert {s.table: s.players for s in second} == tables  # the same players again
    notices = []
    for seating in second:
        notices += run.finish_hand(seating.hand, landlord_wins(seating.players))
    # every landlord (seat 0) won 2 × 2 × 10 twice: 1080; the farmers lost 20 twice: 960
    winners = [players[0] for players in tables.values()]
    stage = next(n for n in notices if isinstance(n, StageStarted))
    assert sorted(stage.players) == sorted(winners)
    out = next(n for n in notices if isinstance(n, Eliminated))
    assert len(out.players) == 6
    # 带分: 50 % of 1080 = 540, capped at 300; the final starts at 1000 + 300
    assert [run.score(p) for p in winners] == [1300, 1300, 1300]


def test_the_final_ranks_finalists_then_those_out_and_prizes_follow_the_ranks() -> None:
    prizes = """
    [[match.prize]]
    ranks = [1, 1]
    coins = 90
    [[match.prize]]
    ranks = [2, 4]
    coins = 10
    """
    run = started(config(FIXED_TWO, prizes=prizes, extra="guarantee = 120"), 9)
    while not run.is_over:
        for seating in run.seat():
            run.finish_hand(seating.hand, landlord_wins(seating.players))
    standings = run.standings()
    assert [s.rank for s in standings] == list(range(1, 10))
    assert sorted(s.player for s in standings) == sorted(f"p{n}" for n in range(1, 10))
    assert [s.out for s in standings] == [False] * 3 + [True] * 6
    champion = standings[0].player
    assert run.prizes() == {
        champion: 90, standings[1].player: 10, standings[2].player: 10, standings[3].player: 10
    }  # fmt: skip
    with pytest.raises(IllegalActionError, match="match_not_running"):
        run.seat()


def test_bad_results_are_refused_and_change_nothing() -> None:
    run = started(config(FIXED_TWO), 9)
    seating = run.seat()[0]
    with pytest.raises(InvalidActionError, match="unknown_hand"):
        run.finish_hand(999, (0, 0, 0))
    with pytest.raises(InvalidActionError, match="bad_points"):
        run.finish_hand(seating.hand, (1, 1, 1))
    with pytest.raises(InvalidActionError, match="bad_points"):
        run.finish_hand(seating.hand, (0, 0))
    assert seating.hand in run.in_play()
    assert {run.score(p) for p in seating.players} == {1000}


# --- knockout ---------------------------------------------------------------------------------

KNOCKOUT = """
[[match.stage]]
kind = "knockout"
base = 10
line = 990
advance = 6
max_rounds = 30
[[match.stage.rise]]
after_rounds = 2
base = 20
line = 995
[[match.stage]]
kind = "fixed"
hands = 1
"""


def test_knockout_eliminates_below_the_line_keeps_its_number_and_rises() -> None:
    run = started(config(KNOCKOUT, players=30, kind="scheduled", extra="min_players = 12"), 30)
    assert (run.base(), run.line()) == (10, 990)
    seen_bases, out_total, rounds = set(), 0, 0
    while run.stage_index == 0:
        seatings = run.seat()
        assert seatings or run.in_play(), "the stage stalled"
        for seating in seatings:
            seen_bases.add(seating.base)
            rounds = max(rounds, seating.round)
            for notice in run.finish_hand(seating.hand, landlord_wins(seating.players)):
                if isinstance(notice, Eliminated) and notice.stage == 0:
                    assert all(run.score(p) < 995 for p in notice.players)
                    out_total += len(notice.players)
    assert seen_bases == {10, 20} and rounds >= 3  # the base rose after 2 rounds
    assert out_total == 30 - 6 and run.players_left() == 6  # exactly the stage's keep


def test_knockout_reseats_players_among_the_remaining_after_every_hand() -> None:
    level = KNOCKOUT.replace("max_rounds = 30", "max_rounds = 30\nrise_percent = 0")
    run = started(config(level, players=30, kind="scheduled", extra="min_players = 12"), 30)
    groups = set()
    for _ in range(6):
        for seating in run.seat():
            groups.add(frozenset(seating.players))
            run.finish_hand(seating.hand, (0, 0, 0))  # nobody falls: only reseating
    assert len(groups) > 10 * 2  # 60 hands, and far more than the first 10 tables


def test_a_small_knockout_keeps_at_most_half_in_whole_tables() -> None:
    run = started(config(KNOCKOUT, players=30, kind="scheduled", extra="min_players = 12"), 12)
    while run.stage_index == 0:
        for seating in run.seat():
            run.finish_hand(seating.hand, landlord_wins(seating.players))
    assert run.players_left() == 6


def test_knockout_ends_after_its_rounds_ranking_by_score() -> None:
    stages = KNOCKOUT.replace("max_rounds = 30", "max_rounds = 2")
    run = started(config(stages, players=30, kind="scheduled", extra="min_players = 12"), 30)
    while run.stage_index == 0:
        for seating in run.seat():
            run.finish_hand(seating.hand, (0, 0, 0))  # nobody ever falls below the line
    assert run.hands == 20 and run.players_left() == 6


# --- Swiss ---------------------------------------------------------------------------------

SWISS = """
[[match.stage]]
kind = "swiss"
rounds = 3
hands = 1
base = 1
"""


def test_swiss_seats_by_score_in_threes_and_avoids_repeated_meetings() -> None:
    run = started(config(SWISS), 9, seed=4)
    first = run.seat()
    met = {frozenset((a, b)) for s in first for a in s.players for b in s.players if a < b}
    for seating in first:
        run.finish_hand(seating.hand, landlord_wins(seating.players, points=len(seating.players)))
    second = run.seat()
    landlords = {s.players[0] for s in first}
    tables = sorted(second, key=lambda s: s.table)
    assert set(tables[0].players) == landlords  # the three best scores sit together
    repeats = sum(
        frozenset((a, b)) in met for s in second for a in s.players for b in s.players if a < b
    )
    assert repeats == 0  # three landlords first, then the farmers mixed across tables


def test_swiss_ties_follow_registration_only() -> None:
    run = started(config(SWISS), 9)
    for seating in run.seat():
        run.finish_hand(seating.hand, (0, 0, 0))
    second = sorted(run.seat(), key=lambda s: s.table)
    # all level: registration order, reordered only to avoid repeated meetings
    assert second[0].players[0] == "p1"


# --- ties ----------------------------------------------------------------------------------


def test_the_last_hands_winner_ranks_first_among_tied_players() -> None:
    """判定一 then 判定二 in a fixed stage (not Swiss)."""
    one = """
    [[match.stage]]
    kind = "fixed"
    hands = 1
    base = 1
    """
    run = started(config(one, players=3), 3)
    [seating] = run.seat()
    a, b, c = seating.players
    notices = run.finish_hand(seating.hand, (2, -1, -1))
    final = next(n for n in notices if isinstance(n, Finished)).standings
    assert [s.player for s in final] == [a, *sorted((b, c), key=lambda p: int(p[1:]))]


def test_ties_across_tables_rank_by_each_players_own_last_hand() -> None:
    """Registered a, b, c, all level: c beat a at their table, b lost at another.  判定一
    read for each player alone, by what his own last hand gave him: c won his (+40), a
    lost 20 and b 40 in theirs: c, a, b."""
    scores = {"a": 1000, "b": 1000, "c": 1000}
    numbers = {"a": 1, "b": 2, "c": 3}
    last = {"a": LastHand(7, -20), "b": LastHand(8, -40), "c": LastHand(7, 40)}
    assert rank_players("abc", scores, numbers, last) == ["c", "a", "b"]
    # b lost less than a: the last hands separate them (判定二 only for the same points)
    last["b"] = LastHand(8, -5)
    assert rank_players("abc", scores, numbers, last) == ["c", "b", "a"]
    # a hand that moved nothing for him ranks between a win and a loss
    last["a"] = LastHand(7, 0)
    assert rank_players("abc", scores, numbers, last) == ["c", "a", "b"]
    assert rank_players("abc", scores, numbers, last, last_hand_rule=False) == ["a", "b", "c"]


def test_a_ruled_tie_compares_the_last_hands_points_not_only_who_won() -> None:
    """判定二: "无胜负关系（得到的分数一样）": +80 beats +20; only the same points fall to
    registration order."""
    scores = {"a": 500, "b": 500, "c": 500, "d": 500}
    numbers = {"a": 1, "b": 2, "c": 3, "d": 4}
    last = {"a": LastHand(3, 20), "b": LastHand(4, 80), "c": LastHand(5, 20), "d": LastHand(5, -20)}
    assert rank_players("abcd", scores, numbers, last) == ["b", "a", "c", "d"]


SWISS_FINAL = """
[[match.stage]]
kind = "knockout"
base = 10
line = 1
advance = 6
[[match.stage]]
kind = "swiss"
rounds = 2
hands = 1
"""


def test_a_match_whose_final_is_swiss_uses_registration_only_in_every_stage() -> None:
    """瑞士赛制 遵循判定二: in its knockout too, two level players rank by registration,
    though the later one won his last hand and the earlier one lost his."""
    match = config(SWISS_FINAL, players=12, kind="scheduled", extra="min_players = 6")
    assert match.swiss_final
    run = started(match, 12)
    first = run.seat()[0]
    run.finish_hand(first.hand, (2, -1, -1))
    data = run.snapshot()
    early, late = "p1", "p2"
    data["scores"] |= {early: 990, late: 990}
    data["last"] |= {early: [first.hand, -10], late: [first.hand, 20]}
    restored = MatchRun.restore(match, data)
    order = [s.player for s in restored.standings() if s.player in (early, late)]
    assert order == [early, late]
    plain = config(SWISS_FINAL.replace('"swiss"\nrounds = 2', '"fixed"\nrounds = 1'),
                   players=12, kind="scheduled", extra="min_players = 6")  # fmt: skip
    assert not plain.swiss_final
    other = MatchRun.restore(plain, data)
    assert [s.player for s in other.standings() if s.player in (early, late)] == [late, early]


def test_a_voided_hand_is_dealt_again_to_its_players_forced() -> None:
    """A hand with no result (every seat declined for ever): it scores nothing, it is not
    a played hand, and the same players are dealt again with an all-pass scored."""
    run = started(config(FIXED_TWO), 9)
    first = run.seat()
    voided = first[0]
    assert run.finish_hand(voided.hand, (), voided=True) == []
    assert {run.score(p) for p in voided.players} == {1000}
    [again] = run.seat()
    assert again.players == voided.players and again.forced and again.round == 1
    assert not any(s.forced for s in first)
    run.finish_hand(again.hand, landlord_wins(again.players))
    [after] = run.seat()
    assert after.players == voided.players and not after.forced and after.round == 2
    # a forced hand's rules score an all-pass (强制记分); the match's own redeal
    assert config(FIXED_TWO).game_rules(forced=True).all_pass is AllPass.FORCED
    assert config(FIXED_TWO).game_rules().all_pass is AllPass.REDEAL


def test_a_knockout_voided_hand_is_dealt_again_before_anyone_else() -> None:
    run = started(config(KNOCKOUT, players=30, kind="scheduled", extra="min_players = 12"), 30)
    first = run.seat()
    run.finish_hand(first[0].hand, (), voided=True)
    again = run.seat()
    assert [s.players for s in again] == [first[0].players] and again[0].forced


def test_a_player_knocked_out_no_longer_takes_part() -> None:
    run = MatchRun(config(FIXED_TWO), "t#1", random.Random(0))
    for number in range(1, 10):
        run.register(f"p{number}")
    assert run.takes_part("p1") and not run.takes_part("nobody")
    run.start()
    notices = []
    while run.stage_index == 0:
        for seating in run.seat():
            notices += run.finish_hand(seating.hand, landlord_wins(seating.players))
    out = next(n for n in notices if isinstance(n, Eliminated)).players
    assert all(run.is_out(p) and not run.takes_part(p) for p in out)
    going = next(n for n in notices if isinstance(n, StageStarted)).players
    assert all(run.takes_part(p) for p in going)
    while not run.is_over:
        for seating in run.seat():
            run.finish_hand(seating.hand, landlord_wins(seating.players))
    assert not any(run.takes_part(p) for p in run.registered)


def test_config_errors_name_the_match_and_the_field() -> None:
    bad = [
        (FIXED_TWO.replace("advance = 3", "advance = 4"), "stage[0].advance"),
        (FIXED_TWO.replace("hands = 2", "hands = 0"), "stage[0].hands"),
        (FIXED_TWO.replace("carry_percent = 50", "carry_percent = 150"), "stage[1].carry_percent"),
        (FIXED_TWO.replace('kind = "fixed"\nhands = 1', 'kind = "knockout"'), "stage[1]"),
    ]
    for stages, field in bad:
        expected = re.escape(f"bad_match: match 't', field '{field}")
        with pytest.raises(InvalidActionError, match=expected):
            config(stages)
    with pytest.raises(InvalidActionError, match="field 'stage\\[0\\]': 10 players"):
        config(FIXED_TWO, players=10)
    with pytest.raises(InvalidActionError, match="rule_changes"):
        config(FIXED_TWO, extra='rule_changes = { bomb_factor = "triple" }')


def test_the_round_counts_each_stage_its_own_way() -> None:
    run = started(config(FIXED_TWO), 9)
    assert run.round() == 1
    for seating in run.seat():
        run.finish_hand(seating.hand, (0, 0, 0))
    assert run.round() == 2  # every table played its first hand
    swiss = started(config(SWISS), 9)
    for seating in swiss.seat():
        swiss.finish_hand(seating.hand, (0, 0, 0))
    assert swiss.round() == 2
    knockout = started(config(KNOCKOUT, players=30, kind="scheduled", extra="min_players = 12"), 30)
    assert knockout.round() == 1
    for seating in knockout.seat():
        knockout.finish_hand(seating.hand, (0, 0, 0))
    assert knockout.round() == 2  # 10 hands: one round of 30 entrants


def test_an_elimination_notice_gives_the_final_ranks() -> None:
    """The ranks an :class:`Eliminated` notice gives are those of the final standings."""
    run = started(config(KNOCKOUT, players=30, kind="scheduled", extra="min_players = 12"), 30)
    told: dict[str, int] = {}
    while not run.is_over:
        for seating in run.seat():
            for notice in run.finish_hand(seating.hand, landlord_wins(seating.players)):
                if isinstance(notice, Eliminated):
                    told |= {p: notice.first_rank + n for n, p in enumerate(notice.players)}
    final = {s.player: s.rank for s in run.standings()}
    assert told and all(final[player] == rank for player, rank in told.items())
