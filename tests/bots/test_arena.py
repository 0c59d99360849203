"""The arena of every game: self-play runs, the generic driver, paired comparisons."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from qipai.bots import doudizhu as ddz_bots
from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.bots.arena import (
    GAMES,
    ArenaSummary,
    WinRate,
    compare,
    play_hand,
    seat_policies,
    selfplay,
    wilson,
)
from qipai.cli import ARENA_TABLES, main
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu.actions import Action as DdzAction
from qipai.games.doudizhu.rules import RULES as DDZ_RULES
from qipai.games.doudizhu.view import View as DdzView
from qipai.games.showhand.rules import RULES as SH_RULES
from qipai.games.zhajinhua.rules import RULES as ZJH_RULES

PRESETS = [
    *(("doudizhu", name) for name in DDZ_RULES),
    *(("zhajinhua", name) for name in ZJH_RULES),
    *(("showhand", name) for name in SH_RULES),
]
"""Every game with every preset of its rules."""
HANDS = 12


@pytest.mark.parametrize(("game", "rules"), PRESETS)
def test_selfplay_conserves_counts_and_repeats(game: str, rules: str) -> None:
    first = selfplay(game, rules, hands=HANDS, seed=11)
    assert first == selfplay(game, rules, hands=HANDS, seed=11)
    assert first != selfplay(game, rules, hands=HANDS, seed=12)
    assert (first.game, first.rules, first.hands) == (game, rules, HANDS)
    assert first.players == GAMES[game].seats[-1] == len(first.net_by_seat)
    assert first.balance == sum(first.net_by_seat) == 0
    assert any(first.net_by_seat) and sum(first.wins_by_seat) > 0
    assert first.figures and all(value >= 0 for value in first.figures.values())
    lines = first.lines()
    assert lines[0] == f"rules {rules}: {HANDS} hands, {first.players} players"
    assert lines[-1] == f"{first.unit} balance 0 (zero-sum check)"


@pytest.mark.parametrize("game", ["zhajinhua", "showhand"])
def test_selfplay_at_every_table_size(game: str) -> None:
    for players in GAMES[game].seats:
        summary = selfplay(game, "yifa", hands=5, seed=players, players=players)
        assert (summary.hands, summary.players, summary.balance) == (5, players, 0)
        assert len(summary.wins_by_seat) == len(summary.net_by_seat) == players


def test_hand_i_is_dealt_from_seed_plus_i() -> None:
    greedy = [ddz_bots.GreedyPolicy()] * 3
    summary = selfplay("doudizhu", "zhengtu", hands=4, seed=30, policies=greedy)
    hands = [
        play_hand(doudizhu.State.new("zhengtu", seed=30 + i, hand_number=i), greedy)
        for i in range(4)
    ]
    assert summary.net_by_seat == [sum(s.returns()[seat] for s in hands) for seat in range(3)]


def test_zha_jin_hua_hands_follow_the_dealer_rule() -> None:
    simple = [zjh_bots.SimplePolicy()] * 3
    summary = selfplay("zhajinhua", "yifa", hands=4, seed=8, policies=simple)
    net, dealer = [0, 0, 0], None
    for i in range(4):
        state = zhajinhua.State.new("yifa", seed=8 + i, players=3, dealer=dealer)
        for seat, value in enumerate(play_hand(state, simple).returns()):
            net[seat] += value
        dealer = state.next_dealer
    assert summary.net_by_seat == net


def test_an_empty_run() -> None:
    empty = selfplay("showhand", "yifa", hands=0)
    assert (empty.hands, empty.balance, empty.per_hand("showdowns")) == (0, 0, 0.0)
    assert empty.lines()[0] == "rules yifa: 0 hands, 4 players"


@pytest.mark.parametrize(
    ("run", "code"),
    [
        (lambda: selfplay("chess", "yifa", hands=1), "unknown_game"),
        (lambda: selfplay("doudizhu", "nope", hands=1), "unknown_rules"),
        (lambda: selfplay("doudizhu", "yifa", hands=1, players=2), "bad_players"),
        (lambda: selfplay("showhand", "yifa", hands=1, players=5), "bad_players"),
        (
            lambda: selfplay("doudizhu", "yifa", hands=1, policies=[ddz_bots.GreedyPolicy()] * 2),
            "bad_players",
        ),
        (lambda: seat_policies("showhand", "greedy", 2), "unknown_bot"),
    ],
)
def test_bad_arguments_are_refused(run: Callable[[], object], code: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        run()
    assert error.value.code == code


def test_summary_adds_one_finished_hand() -> None:
    summary = ArenaSummary("showhand", "yifa", 2)
    state = play_hand(showhand.State.new("yifa", seed=4, players=2), [sh_bots.RandomPolicy(1)] * 2)
    summary.add(state)
    assert summary.net_by_seat == list(state.returns())
    assert summary.wins_by_seat == [int(value > 0) for value in state.returns()]
    assert summary.total("showdowns") == int(state.reason == "showdown")


def test_the_seeds_of_random_bots_differ_by_seat_and_run() -> None:
    bots = [p for seed in (0, 1) for p in seat_policies("doudizhu", "random", 3, seed)]
    draws = {p.rng.random() for p in bots if isinstance(p, ddz_bots.RandomPolicy)}
    assert len(draws) == 6


# --- paired comparison ----------------------------------------------------------------------


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    wide, narrow = wilson(50, 100), wilson(500, 1000)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]
    assert str(WinRate(5, 10)) == "0.500 [0.237, 0.763] (5/10)"


@pytest.mark.parametrize("rules", ["yifa", "huanle", "jj"])
def test_a_policy_against_itself_is_even_from_both_sides(rules: str) -> None:
    duel = compare("doudizhu", rules, ddz_bots.GreedyPolicy(), ddz_bots.GreedyPolicy(), deals=30)
    assert duel.a == duel.b  # the same play from the same side on the same deal
    assert [rate.games for rate in duel.a] == [30, 30] and duel.hands == 60
    assert duel.overall.rate == 0.5
    low, high = duel.overall.interval
    assert low < 0.5 < high
    assert duel.points == (0, 0)
    assert 0 < duel.a[0].wins < 30  # the landlord wins some deals and loses others


def test_two_random_players_are_even_within_the_interval() -> None:
    duel = compare("doudizhu", "yifa", ddz_bots.RandomPolicy(1), ddz_bots.RandomPolicy(2), deals=60)
    for side in (0, 1):
        low, high = duel.a[side].interval
        assert low < duel.b[side].rate < high
    low, high = duel.overall.interval
    assert low < 0.5 < high


def test_a_stronger_policy_wins_the_comparison() -> None:
    duel = compare(
        "doudizhu", "caishen", ddz_bots.GreedyPolicy(), ddz_bots.RandomPolicy(3), deals=40
    )
    assert duel.overall.interval[0] > 0.5
    assert duel.a[0].rate > duel.b[0].rate and duel.a[1].rate > duel.b[1].rate
    assert duel.points[0] > 0 > duel.points[1]
    assert duel.points[0] == -duel.points[1]  # Dou Dizhu points are zero-sum
    reverse = compare(
        "doudizhu", "caishen", ddz_bots.RandomPolicy(3), ddz_bots.GreedyPolicy(), deals=40
    )
    assert reverse.overall.interval[1] < 0.5


class Recorder:
    """A Dou Dizhu policy that plays greedily and remembers whether the landlord was known."""

    def __init__(self) -> None:
        self.greedy = ddz_bots.GreedyPolicy()
        self.landlord_known: set[bool] = set()

    def choose(self, view: DdzView) -> DdzAction:
        self.landlord_known.add(view.landlord is not None)
        return self.greedy.choose(view)


def test_the_bidder_plays_the_auction_and_the_sides_play_the_rest() -> None:
    bidder, a, b = Recorder(), Recorder(), Recorder()
    duel = compare("doudizhu", "huanle", a, b, deals=5, seed=2, bidder=bidder)
    assert bidder.landlord_known == {False} and a.landlord_known == b.landlord_known == {True}
    assert duel.names == ("Recorder", "Recorder") and duel.sides == ("landlord", "farmers")
    # 托管 never bids, yet the bidder names a landlord: no endless redeal
    trustee = compare(
        "doudizhu", "yifa", ddz_bots.GreedyPolicy(), ddz_bots.TrusteePolicy(), deals=5
    )
    assert trustee.hands == 10


@pytest.mark.parametrize("game", ["zhajinhua", "showhand"])
def test_poker_games_compare_heads_up(game: str) -> None:
    policy = seat_policies(game, "simple", 1)[0]
    duel = compare(game, "yifa", policy, policy, deals=20, seed=4)
    assert duel.sides == ("seat 0", "seat 1") and duel.hands == 40
    assert duel.a == duel.b and duel.overall.rate == 0.5
    assert duel.lines()[0] == "rules yifa: 20 deals, each played from both sides"


# --- the command line -----------------------------------------------------------------------


def test_the_command_line_knows_the_arena_tables() -> None:
    assert set(ARENA_TABLES) == set(GAMES)
    for name, (seats, bots) in ARENA_TABLES.items():
        assert (seats, bots) == (GAMES[name].seats, tuple(GAMES[name].bots))


def test_compare_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["doudizhu", "compare", "greedy", "random", "--deals", "6", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "rules yifa: 6 deals, each played from both sides"
    assert out[1].startswith("A GreedyPolicy as landlord ")
    assert out[2].startswith("A GreedyPolicy as farmers ")
    assert out[3].startswith("B RandomPolicy as landlord ")
    assert out[5].startswith("A overall ")
    assert out[-1].endswith("s)") and "hands/s" in out[-1]


def test_selfplay_command_with_random_bots(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["zhajinhua", "selfplay", "--players", "3", "--hands", "5", "--policy", "random"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "rules yifa: 5 hands, 3 players" in out and "chips balance 0" in out
    with pytest.raises(SystemExit):
        main(["showhand", "selfplay", "--policy", "greedy"])
