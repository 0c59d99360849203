"""Audit of the Zha Jin Hua engine against the 易发棋牌 rules (``docs/zhajinhua.md``).

Each test names the rule it checks (the rules' wording, or the 易发 page's Chinese where
they are unclear) and plays a scripted hand from a rigged deal.  The deck is built here, by hand,
so that the deal order itself ("从庄家开始发牌", one card at a time) is checked too.
"""

from __future__ import annotations

import itertools

import pytest

from qipai.cards import Card, parse_cards
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.zhajinhua import hands
from qipai.games.zhajinhua.actions import AutoCall, Call, Compare, Fold, Look, Raise
from qipai.games.zhajinhua.events import (
    Called,
    CardsSeen,
    Compared,
    HandEnded,
)
from qipai.games.zhajinhua.rules import RULES
from qipai.games.zhajinhua.state import State, replay
from qipai.hall.coins import settle
from qipai.hall.rooms import load_rooms

YIFA = RULES["yifa"]


def deal(hand_texts: list[str], dealer: int) -> list[Card]:
    """The deck giving ``hand_texts[seat]`` to each seat: one card at a time, from the dealer."""
    n = len(hand_texts)
    cards = [parse_cards(h) for h in hand_texts]
    deck: list[Card] = []
    for k in range(3):
        for i in range(n):
            deck.append(cards[(dealer + i) % n][k])
    return deck


def table(hand_texts: list[str], *, dealer: int = 0, stacks: list[int] | None = None) -> State:
    return State.new(
        "yifa",
        seed=1,
        players=len(hand_texts),
        dealer=dealer,
        stacks=stacks,
        deck=deal(hand_texts, dealer),
    )


def cards_of(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# --- hand ranking: the page's exact words --------------------------------------------

RANKING = [  # strongest first: 豹子 > 顺金 > 金花 > 顺子 > 对子 > 单张
    ("AsAhAd", "trips"),
    ("2s2h2d", "trips"),
    ("AsKsQs", "straight_flush"),
    ("As2s3s", "straight_flush"),
    ("AsKsJs", "flush"),
    ("2s3s5s", "flush"),
    ("AsKhQd", "straight"),
    ("KsQhJd", "straight"),
    ("4s3h2d", "straight"),
    ("As2h3d", "straight"),
    ("AsAhKd", "pair"),
    ("AsAh2d", "pair"),
    ("KsKhAd", "pair"),
    ("2s2h3d", "pair"),
    ("AsKhJd", "high_card"),
    ("AsQhJd", "high_card"),
    ("KsQh9d", "high_card"),
    ("7s5h3d", "high_card"),
    ("7s4h3d", "high_card"),
    ("5s3h2d", "high_card"),
]


def test_categories_and_total_order_without_235() -> None:
    """豹子＞顺金＞金花＞顺子＞对子＞单张; AKQ > KQJ > ...234 > A23; 先比对，再比单;
    全部为单张时，由最大的单张开始依次分别比较."""
    for text, name in RANKING:
        assert hands.category(text) == name, text
    for (stronger, _), (weaker, _) in itertools.pairwise(RANKING):
        assert hands.compare(stronger, weaker) == 1, (stronger, weaker)
        assert hands.compare(weaker, stronger) == -1, (weaker, stronger)


def test_ace_connects_high_or_low_but_never_wraps() -> None:
    assert hands.category("KsAh2d") == "high_card"
    assert hands.category("QsKhAd") == "straight"
    assert hands.compare("As2h3d", "4s3h2c") == -1  # A23 is the lowest straight
    assert hands.compare("As2h3d", "AhKdQc") == -1


def test_suits_never_break_ties() -> None:
    """Equal hands are decided by who initiated, never by suit."""
    for a, b in [
        ("AsAhAd", "AcAhAd"),
        ("AsKsQs", "AhKhQh"),
        ("AsKsJs", "AhKhJh"),
        ("AsKhQd", "AhKdQs"),
        ("9s9hAd", "9c9dAs"),
        ("As9h4d", "Ah9c4s"),
    ]:
        assert hands.compare(a, b) == 0, (a, b)


def test_235_beats_every_trips_and_nothing_else() -> None:
    """当豹子存在时，"花色不同235"＞"豹子"; 235 is still the lowest high card otherwise."""
    for trips in ("AsAhAd", "KsKhKd", "2s2h2c", "7s7h7d"):
        assert hands.compare("2d3c5h", trips) == 1
        assert hands.compare(trips, "2d3c5h") == -1
    for other in ("AsKsQs", "AsKsJs", "4s3h6d", "2s2h3c", "6s3h2c", "5s4h2c"):
        assert hands.compare("2d3c5h", other) == -1, other
    assert hands.compare("2d3c5h", "2s3h5c") == 0
    # a 2-3-5 flush is a 金花: it loses to trips
    assert hands.compare("2s3s5s", "KsKhKd") == -1


# --- the deal, the ante, the first actor ---------------------------------------------


def test_ante_deal_from_dealer_and_first_actor_after_him() -> None:
    """投入锅底; 从庄家开始发牌, 每人发三张; 庄家逆时针的下一家先开始下注."""
    texts = ["AsAhAd", "KsKhKd", "QsQhQd"]
    state = table(texts, dealer=2)
    assert state.hands == tuple(cards_of(t) for t in texts)
    assert state.pot == 3 * YIFA.ante
    assert state.put == (YIFA.ante,) * 3
    assert state.current_player == 0  # seat after dealer 2
    assert state.stake == YIFA.base_bet
    assert state.seen == (False, False, False)


def test_first_hand_dealer_is_random_and_next_dealer_is_the_winner() -> None:
    dealers = {State.new("yifa", seed=s, players=4).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    state.apply(Fold())  # seat 1
    state.apply(Fold())  # seat 2
    assert state.winner == 0 and state.next_dealer == 0


# --- betting --------------------------------------------------------------------------


def test_blind_calls_one_stake_seen_calls_two_and_look_is_free_same_turn() -> None:
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    events = state.apply(Call())  # seat 1 blind
    assert isinstance(events[0], Called) and events[0].amount == 1
    with pytest.raises(IllegalActionError) as error:
        state.apply(Look(), seat=0)  # not his turn
    assert error.value.code == "not_your_turn"
    before = state.stacks
    state.apply(Look())  # seat 2 looks: free, still his turn
    assert state.stacks == before and state.current_player == 2
    assert Look() not in state.legal_actions()
    state.apply(Call())
    assert state.put[2] == YIFA.ante + 2


def test_raise_goes_to_a_higher_level_up_to_the_top_bet() -> None:
    """加: raise the stake to a higher allowed level and pay it (blind 1×, seen 2×)."""
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    assert [a for a in state.legal_actions() if isinstance(a, Raise)] == [
        Raise(2),
        Raise(5),
        Raise(10),
    ]
    state.apply(Raise(5))  # seat 1 blind pays 5
    assert state.put[1] == 1 + 5 and state.stake == 5
    for bad, code in [(Raise(5), "raise_too_low"), (Raise(20), "over_top_bet")]:
        with pytest.raises(IllegalActionError) as error:
            state.apply(bad)
        assert error.value.code == code
    state.apply(Look())
    state.apply(Raise(10))  # seat 2 seen: 2 × 10 (stake capped, documented reading)
    assert state.put[2] == 1 + 20 and state.stake == 10
    assert not [a for a in state.legal_actions() if isinstance(a, Raise)]


def test_compare_from_round_two_costs_double_a_call() -> None:
    """比牌: 从第二轮开始; 选比牌的玩家要付出当前需要付出游戏币的双倍数量."""
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    assert not any(isinstance(a, Compare) for a in state.legal_actions())
    with pytest.raises(IllegalActionError) as error:
        state.apply(Compare(2))
    assert error.value.code == "compare_too_early"
    state.apply(Call())  # seat 1 blind
    state.apply(Look())
    state.apply(Raise(2))  # seat 2 seen: stake 2, pays 4
    state.apply(Call())  # seat 0 blind: pays 2
    # seat 1, blind, round 2: a call costs 2, a compare 4
    assert state.round == 2 and state.compare_cost(1) == 4
    events = state.apply(Compare(0))
    assert state.put[1] == 1 + 1 + 4
    compared = next(e for e in events if isinstance(e, Compared))
    assert (compared.initiator, compared.target, compared.amount, compared.loser) == (1, 0, 4, 1)
    assert state.out[1] and not state.is_alive(1)


def test_compare_privacy_and_equal_hands_initiator_loses() -> None:
    """比牌双方进行比牌，所有玩家看不到两人的牌面; 牌型牌点相同时被比牌方胜."""
    state = table(["9s8h4d", "9c8d4s", "AsAhAd"], dealer=2)  # seat 0 acts first
    for _ in range(3):
        state.apply(Call())
    events = state.apply(Compare(1))  # seat 0 vs seat 1: equal hands
    compared = next(e for e in events if isinstance(e, Compared))
    assert compared.loser == 0
    assert [type(e) for e in events] == [Compared]  # no card: not even to the two
    assert all(state.view(s).known_hands == (None, None, None) for s in range(3))
    assert state.view(2).hand is None


def test_235_wins_a_compare_against_trips_both_ways() -> None:
    state = table(["2d3c5h", "KsKhKd"], dealer=1)  # seat 0 first
    state.apply(Call())
    state.apply(Call())
    state.apply(Compare(1))  # 235 asks trips
    assert state.winner == 0 and state.reason == "last_standing"
    state = table(["KsKhKd", "2d3c5h"], dealer=1)
    state.apply(Call())
    state.apply(Call())
    state.apply(Compare(1))  # trips ask 235
    assert state.winner == 1


def test_fold_hides_every_card_until_the_end_then_all_are_shown() -> None:
    """放弃的玩家，在结束游戏前无权查看自己的牌和其他玩家的牌; 游戏结束后，将公开全部玩家的牌."""
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    state.apply(Look())  # seat 1 sees his cards
    assert state.view(1).hand == cards_of("KsKhKd")
    state.apply(Fold())
    assert state.view(1).hand is None
    assert state.view(1).known_hands == (None, None, None)
    assert state.view(0).hand is None  # blind: not even his own
    state.apply(Fold())  # seat 2
    ended = state.events[-1]
    assert isinstance(ended, HandEnded) and ended.hands == state.hands
    for seat in range(3):
        assert ended.visible_to(seat)
        assert state.view(seat).known_hands == state.hands


def test_cards_seen_event_is_private() -> None:
    state = table(["AsAhAd", "KsKhKd"], dealer=0)
    events = state.apply(Look())
    seen = next(e for e in events if isinstance(e, CardsSeen))
    assert [seen.visible_to(s) for s in range(2)] == [False, True]


def test_auto_call_blind_then_seen_and_cancel() -> None:
    """自动跟注: 自己是明牌就跟明注；暗牌就跟暗注; 取消跟注."""
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    state.apply(AutoCall(True), seat=0)  # not his turn: allowed, nothing paid yet
    assert state.put[0] == 1
    state.apply(Call())  # seat 1
    events = state.apply(Call())  # seat 2; then the system calls blind for seat 0
    auto = [e for e in events if isinstance(e, Called) and e.auto]
    assert [(e.seat, e.amount) for e in auto] == [(0, 1)]
    assert state.current_player == 1
    state.apply(AutoCall(False), seat=0)
    state.apply(Call())
    state.apply(Call())
    assert state.current_player == 0
    state.apply(Look())
    events = state.apply(AutoCall(True))  # on his own turn: calls seen at once
    auto = [e for e in events if isinstance(e, Called) and e.auto]
    assert [(e.seat, e.amount) for e in auto] == [(0, 2)]


# --- the cap and the system showdown --------------------------------------------------


def _to_cap(state: State) -> None:
    """Everyone looks and raises to the top, then calls until the cap ends the hand."""
    while not state.is_terminal:
        if Look() in state.legal_actions():
            state.apply(Look())
        if state.stake < YIFA.top_bet:
            state.apply(Raise(YIFA.top_bet))
        else:
            state.apply(Call())


def test_cap_opens_all_hands_and_the_best_wins() -> None:
    """封顶: 当某玩家在游戏中投入的分数达到封顶值时，系统将自动开牌."""
    state = table(["QsQhQd", "AsAhAd", "KsKhKd"], dealer=2)  # seat 0 first
    _to_cap(state)
    assert state.reason == "cap" and state.winner == 1
    assert max(state.put) == YIFA.cap
    assert state.opened == (0, 1, 2)


def test_cap_equal_hands_the_one_opened_earlier_loses() -> None:
    """如遇牌型等大，根据开牌顺序(按下注顺序开牌)，先开为负."""
    state = table(["9s8h4d", "9c8d4s"], dealer=0)  # seat 1 opens first
    _to_cap(state)
    assert state.opened == (1, 0) and state.winner == 0
    state = table(["9s8h4d", "9c8d4s"], dealer=1)  # seat 0 opens first
    _to_cap(state)
    assert state.opened == (0, 1) and state.winner == 1


def test_cap_showdown_with_235_and_trips_only() -> None:
    state = table(["2d3c5h", "KsKhKd"], dealer=1)
    _to_cap(state)
    assert state.winner == 0
    state = table(["KsKhKd", "2d3c5h"], dealer=1)
    _to_cap(state)
    assert state.winner == 1


# --- returns and the rake -------------------------------------------------------------


def test_the_hall_rakes_five_percent_of_the_winners_profit() -> None:
    """系统会收取胜利玩家赢利游戏币的5%: the engine's returns are zero-sum, the winner's is
    his whole profit; the hall's settlement (``qipai.hall.coins``) takes the 5 %."""
    state = table(["QsQhQd", "AsAhAd", "KsKhKd"], dealer=2)
    _to_cap(state)
    profit = sum(state.put) - state.put[1]
    returns = state.returns()
    assert returns[1] == profit and sum(returns) == 0
    assert returns[0] == -state.put[0] and returns[2] == -state.put[2]
    [room] = load_rooms('[[room]]\nid="z"\nname="z"\ngame="zhajinhua"\nrules="yifa"\nseats=3')
    settled = settle(room, returns, state.start_stacks)
    assert settled.rake == (0, profit * 5 // 100, 0) and settled.rake[1] > 0
    assert settled.net[1] == profit - settled.rake[1]


def test_last_standing_takes_the_whole_pot() -> None:
    state = table(["AsAhAd", "KsKhKd", "QsQhQd"], dealer=0)
    state.apply(Raise(10))  # seat 1 blind pays 10
    state.apply(Fold())
    state.apply(Fold())
    assert state.winner == 1 and state.reason == "last_standing"
    assert state.returns() == (-1, 2, -1)


def test_a_hand_of_an_engine_that_raked_replays_with_its_rake() -> None:
    """Engines 1 and 2 kept 5 % of the winner's profit back: their records' ``result``."""
    texts = ["QsQhQd", "AsAhAd", "KsKhKd"]
    state = table(texts, dealer=2)
    _to_cap(state)
    chips = state.returns()
    rake = chips[1] * 5 // 100
    assert rake > 0
    for engine, expected in [(1, rake), (2, rake), (3, 0)]:
        again = replay(
            "yifa", 1, state.history, players=3, dealer=2, deck=deal(texts, 2), engine=engine
        )
        assert again.returns() == (chips[0], chips[1] - expected, chips[2])
        assert again.events == state.events  # only the returns are the old engine's
    with pytest.raises(InvalidActionError, match="bad_engine"):
        replay("yifa", 1, [], players=3, engine=4)


# --- documented choices (accepted; see docs/zhajinhua.md) -----------------------------


def test_cap_reached_by_a_compare_opens_the_remaining_hands() -> None:
    state = table(["QsQhQd", "AsAhAd", "KsKhKd"], dealer=2)
    while state.put[0] + state.compare_cost(0) < YIFA.cap or state.current_player != 0:
        if Look() in state.legal_actions():
            state.apply(Look())
        state.apply(Call() if state.stake == YIFA.top_bet else Raise(YIFA.top_bet))
    state.apply(Compare(1))  # seat 0 (QQQ) loses to AAA and reaches the cap
    assert state.put[0] == YIFA.cap and state.out[0]
    assert state.reason == "cap" and state.opened == (1, 2) and state.winner == 1


def test_compare_with_a_folded_or_out_player_is_refused() -> None:
    state = table(["AsAhAd", "KsKhKd", "QsQhQd", "JsJhJd"], dealer=0)
    state.apply(Call())  # 1
    state.apply(Fold())  # 2
    state.apply(Call())  # 3
    state.apply(Call())  # 0
    for target, code in [(2, "bad_target"), (1, "bad_target"), (9, "bad_target")]:
        with pytest.raises(IllegalActionError) as error:
            state.apply(Compare(target))
        assert error.value.code == code
    assert Compare(2) not in state.legal_actions()
    state.apply(Compare(3))  # KKK asks JJJ: seat 3 is out
    assert state.out[3]
    assert state.current_player == 0
    assert Compare(3) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as error:
        state.apply(AutoCall(True), seat=3)
    assert error.value.code == "not_in_hand"


def test_payments_are_cut_at_the_cap() -> None:
    state = table(["QsQhQd", "AsAhAd"], dealer=1)
    _to_cap(state)
    assert max(state.put) == YIFA.cap and min(state.put) <= YIFA.cap
