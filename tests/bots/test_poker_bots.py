"""The strong Zha Jin Hua and Showhand policies: legal, replayable, and better than simple."""

from __future__ import annotations

import random
from typing import Any

import pytest

from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.bots.arena import GAMES, compare, play_hand, seat_policies, selfplay
from qipai.bots.duel import PairPoints
from qipai.bots.turns import Chooser
from qipai.cards import parse_cards
from qipai.games import showhand, zhajinhua
from qipai.games.showhand.actions import Keep, Swap
from qipai.games.showhand.rules import RULES as SH_RULES
from qipai.games.zhajinhua.actions import Look, Raise
from qipai.games.zhajinhua.rules import RULES as ZJH_RULES

POKER = {"zhajinhua": zjh_bots, "showhand": sh_bots}
"""The two games and their bots modules."""
PRESETS = [
    *(("zhajinhua", name) for name in ZJH_RULES),
    *(("showhand", name) for name in SH_RULES),
]
"""Every preset of both games."""
CUSTOM: dict[str, Any] = {
    "zhajinhua": ZJH_RULES["yifa"].derive("small", top_bet=5, cap=50, compare_from_round=3),
    "showhand": SH_RULES["yifa"].derive("flip-10", base=10, flush_beats_full_house=True),
}
"""A custom rule set of each game, unknown to the presets by name."""


class Checked:
    """Wraps a policy and checks that every action it picks is legal."""

    def __init__(self, policy: Chooser[Any, Any]) -> None:
        self.policy = policy
        self.decisions = 0

    def choose(self, view: Any) -> Any:
        action = self.policy.choose(view)
        assert action in view.legal_actions, (view, action)
        self.decisions += 1
        return action


def table(game: str, players: int, seed: int) -> list[Chooser[Any, Any]]:
    """Strong seats (one object shared by two of them) among random and simple ones."""
    module = POKER[game]
    strong = Checked(module.StrongPolicy(seed))
    others = [module.RandomPolicy(seed + 1), module.SimplePolicy(), strong]
    return [strong, *(others[i % len(others)] for i in range(players - 1))]


@pytest.mark.parametrize(("game", "rules"), [*PRESETS, *CUSTOM.items()])
def test_strong_policies_play_only_legal_actions(game: str, rules: Any) -> None:
    for players in GAMES[game].seats:
        policies = table(game, players, players)
        summary = selfplay(game, rules, hands=40, seed=100 * players, policies=policies)
        strong = policies[0]
        assert isinstance(strong, Checked) and strong.decisions >= 40
        assert summary.hands == 40 and summary.balance == 0


@pytest.mark.parametrize("game", POKER)
def test_strong_policies_replay_exactly(game: str) -> None:
    def run(seed: int) -> list[Any]:
        spec = GAMES[game]
        policies = seat_policies(game, "strong", 3, seed)
        policies[1] = POKER[game].RandomPolicy(seed)
        rules = spec.get_rules("yifa")
        hands = [play_hand(spec.start(rules, 50 + i, 3, i, None), policies) for i in range(40)]
        return [(h.returns(), [str(step.action) for step in h.history]) for h in hands]

    assert run(1) == run(1)
    assert run(1) != run(2)


def duplicate_nets(game: str, deals: int, seed: int) -> list[int]:
    """Strong's net chips over each duplicate deal against simple (both sides played)."""
    strong, simple = POKER[game].StrongPolicy(seed), POKER[game].SimplePolicy()
    return [
        compare(game, "yifa", strong, simple, deals=1, seed=seed + deal).points[0]
        for deal in range(deals)
    ]


@pytest.mark.parametrize(("game", "deals"), [("zhajinhua", 400), ("showhand", 150)])
def test_strong_beats_simple_over_duplicate_deals(game: str, deals: int) -> None:
    low, _ = PairPoints.of(duplicate_nets(game, deals, seed=7_000)).interval
    assert low > 0


def test_strong_beats_three_simple_zha_jin_hua_players() -> None:
    rules = zhajinhua.get_rules("yifa")
    strong, simple = zjh_bots.StrongPolicy(3), zjh_bots.SimplePolicy()
    nets = []
    for hand in range(600):
        seat = hand % 4
        policies: list[Chooser[Any, Any]] = [simple] * 4
        policies[seat] = strong
        state = play_hand(zhajinhua.State.new(rules, seed=9_000 + hand, players=4), policies)
        nets.append(state.returns()[seat])
    assert PairPoints.of(nets).interval[0] > 0  # one hand a unit: the same interval


# --- the pieces ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_simple_zha_jin_hua_bots_settle_a_hand_in_a_few_rounds(players: int) -> None:
    """Two simple bots holding pairs used to call each other at the lowest stake up to the
    cap (about 300 actions, minutes at a table's bot pace); from round 4 they compare."""
    lengths = []
    for seed in range(300):
        state = zhajinhua.State.new("yifa", seed=seed, players=players)
        policies = [zjh_bots.SimplePolicy() for _ in range(players)]
        actions = 0
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            state.apply(policies[seat].choose(state.view(seat)))
            actions += 1
        lengths.append(actions)
    assert max(lengths) <= 5 * players, max(lengths)


def test_the_hand_table_ranks_every_zha_jin_hua_hand() -> None:
    ranking = zjh_bots.hand_table()
    strengths = sorted(ranking.percentile)
    shares = [ranking.percentile[s] for s in strengths]
    assert shares == sorted(shares) and 0 < shares[0] < shares[-1] < 1
    assert ranking.percentile[zhajinhua.evaluate("AsAhAd")] == shares[-1]


def test_the_235_beats_trips_only_in_a_duel() -> None:
    low, trips = parse_cards("2h3d5c"), parse_cards("KsKhKd")
    assert zjh_bots.is_235(low) and not zjh_bots.is_235(parse_cards("2h3h5h"))
    against_trips = zjh_bots.hand_table().trips_share / 0.01
    assert zjh_bots.duel_chance(low, 0.01) == pytest.approx(min(1.0, against_trips))
    assert zjh_bots.duel_chance(low, 0.01, rule_235=False) == 0.0
    assert zjh_bots.duel_chance(trips, 1.0) < zjh_bots.duel_chance(trips, 1.0, rule_235=False)


def test_blind_equity_is_the_share_of_a_random_hand() -> None:
    assert zjh_bots.blind_equity([1.0]) == pytest.approx(0.5)
    assert zjh_bots.blind_equity([1.0, 1.0, 1.0]) == pytest.approx(0.25, abs=0.01)
    assert zjh_bots.blind_equity([0.2]) == pytest.approx(0.1)


def test_the_reads_see_a_seen_raise() -> None:
    state = zhajinhua.State.new("yifa", seed=1, players=2, dealer=0)  # seat 1 acts first
    state.apply(Look())
    state.apply(Raise(5))
    strong = zjh_bots.StrongPolicy()
    strong.choose(state.view(0))
    reads = strong.reads[0]
    assert (reads.calls[1], reads.raises[1]) == (1, 1)
    share = zjh_bots.CALL_SHARES[1] * zjh_bots.RAISE_SHARE
    assert reads.share(state.view(0), 1) == pytest.approx(share)


def test_a_blind_strong_player_looks_when_an_opponent_calls_again() -> None:
    state = zhajinhua.State.new("yifa", seed=2, players=2, dealer=0)
    strong = zjh_bots.StrongPolicy()
    state.apply(Look())
    state.apply(zhajinhua.Call())
    first = strong.choose(state.view(0))
    assert first != Look()
    state.apply(first)
    state.apply(zhajinhua.Call())
    assert strong.choose(state.view(0)) == Look()


def dealt(*hands: str) -> list[Any]:
    """A Showhand deck dealing ``hands`` (hole card first), then the other cards."""
    cards = [parse_cards(hand) for hand in hands]
    order = [hand[i] for i in range(5) for hand in cards if i < len(hand)]
    return [*order, *(card for card in showhand.DECK if card not in order)]


def test_the_showhand_equity_is_exact_with_one_card_unseen() -> None:
    deck = dealt("AsAhAcAdKs", "8s8h9c9dTs")
    state = showhand.State.new("yifa", seed=0, players=2, deck=deck)
    while state.cards_dealt < 5:
        state.apply(Keep() if Keep() in state.legal_actions() else showhand.Check())
    deal = sh_bots.Deal.of(state.view(0))
    assert deal.sizes == (0, 1) and deal.deals() == 28 - 5 - 4
    assert deal.equity(random.Random(0)) == 1.0
    assert sh_bots.Deal.of(state.view(1)).equity(random.Random(0)) == 0.0


def test_showhand_hides_a_pair_by_swapping() -> None:
    deck = dealt("8sAsAh", "9s9hTc")
    state = showhand.State.new("yifa", seed=0, players=2, deck=deck)
    while state.phase is not showhand.Phase.SWAP:
        state.apply(showhand.Check())
    seat = state.current_player
    assert seat is not None
    expected = Swap() if seat == 0 else Keep()  # seat 1: keeping shows 9h Tc, no pair
    assert sh_bots.hide_more(state.view(seat)) == expected


def test_edge_measures_equity_from_a_fair_share() -> None:
    assert sh_bots.edge(0.5, 1) == 0.0 and sh_bots.edge(1.0, 3) == 1.0
    assert sh_bots.edge(0.0, 2) == -1.0 and sh_bots.edge(0.75, 1) == pytest.approx(0.5)


@pytest.mark.parametrize("game", POKER)
def test_strong_is_registered_after_the_default_bot(game: str) -> None:
    bots = list(GAMES[game].bots)
    assert bots[:2] == ["simple", "strong"] and GAMES[game].default_bot == "simple"
    assert all(isinstance(p, POKER[game].StrongPolicy) for p in seat_policies(game, "strong", 2))
