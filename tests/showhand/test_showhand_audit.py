"""Audit of the Showhand engine against its rules (``docs/rules/showhand.md``, the 易发 page).

Each test names the rule it checks (the rules' words, or the 易发 page's Chinese where
they are unclear) and plays a scripted hand from a deck built here: all cards 1 (hole cards) in
seat order, then all cards 2, then cards 3, 4, 5 to the seats still in.
"""

from __future__ import annotations

import itertools

import pytest

from qipai.cards import Card, parse_cards
from qipai.errors import IllegalActionError
from qipai.games.showhand import DECK, RULES, Action, State
from qipai.games.showhand import hands as sh
from qipai.games.showhand.events import CardDealt, CardTurned, Showdown, SwapChosen
from qipai.games.showhand.rules import Rules

YIFA = RULES["yifa"]


def deck_of(*hands: str) -> list[Card]:
    """Each seat's five cards in deal order: hole, up, card 3, card 4, card 5."""
    cards = [parse_cards(h) for h in hands]
    deck = [c[i] for i in range(5) for c in cards]
    return deck + [c for c in DECK if c not in deck]


def table(*hands: str, stacks: list[int] | None = None, rules: Rules = YIFA) -> State:
    return State.new(rules, seed=0, players=len(hands), stacks=stacks, deck=deck_of(*hands))


def play(state: State, *texts: str) -> None:
    for text in texts:
        state.apply(Action.parse(text))


def legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def refused(state: State, text: str, code: str) -> None:
    with pytest.raises(IllegalActionError) as error:
        state.apply(Action.parse(text))
    assert error.value.code == code


# --- hand ranking: the page's words ---------------------------------------------------

ORDER = [  # 同花顺＞铁支＞葫芦＞同花＞顺子＞三条＞二对＞对子＞散牌
    ("AsKsQsJsTs", "straight_flush"),
    ("8h9hThJhQh", "straight_flush"),
    ("AsAhAcAd8s", "four_of_a_kind"),
    ("8s8h8c8dAs", "four_of_a_kind"),
    ("AsAhAcKdKs", "full_house"),
    ("8s8h8cAdAs", "full_house"),
    ("AsQsTs9s8s", "flush"),
    ("KdQdJd9d8d", "flush"),
    ("AsKhQdJcTs", "straight"),
    ("8s9hTdJcQs", "straight"),
    ("AsAhAcKd9s", "three_of_a_kind"),
    ("AsAhKcKd9s", "two_pair"),
    ("AsAhKcQd9s", "pair"),
    ("AsKhQcJd9s", "high_card"),
]


def test_categories_in_the_seed_order() -> None:
    for text, name in ORDER:
        assert sh.category(text) == name, text
    for (a, _), (b, _) in itertools.pairwise(ORDER):
        assert sh.compare(a, b) == 1, (a, b)


def test_eight_and_ace_do_not_connect() -> None:
    """8 和 A 之间不算顺子."""
    assert sh.category("As8h9dTcJs") == "high_card"
    assert sh.category("AsKh8d9cTs") == "high_card"


def test_flush_over_full_house_option() -> None:
    assert sh.compare("AsAhAcKdKs", "AdQdTd9d8d") == 1
    assert sh.compare("AsAhAcKdKs", "AdQdTd9d8d", flush_beats_full_house=True) == -1


TIES = [  # (winner, loser): the page's tie-breaks, word for word
    # 同花顺: 比较最大一张牌的大小，如果大小还一样就比较这张牌的花色
    ("AsKsQsJsTs", "AhKhQhJhTh"),
    ("KdQdJdTd9d", "QsJsTs9s8s"),
    # 铁支: 比较四条的大小
    ("AsAhAcAd8s", "KsKhKcKd9s"),
    # 葫芦: 比较三个头的大小
    ("9s9h9cAdAh", "8s8h8cAsKs"),
    # 同花: 比较最大的一张牌，如果大小还一样就比较这张牌的花色 (only the highest card)
    ("AsJs9s8sTs", "AhKhQh9h8h"),
    ("AhKhQh9h8h", "KsQsJs9s8s"),
    # 顺子: 最大的一张牌, 然后这张牌的花色
    ("AsKhQdJcTs", "AhKsQcJdTh"),
    # 三条: 比较三条的大小
    ("KsKhKcAd8s", "QsQhQcAh9s"),
    # 二对: 大对子, 小对子, 单牌的大小, 单牌的花色
    ("AsAhKcKd8s", "AcAdQcQd9s"),
    ("AsAh9c9dKs", "AcAd8c8hKh"),
    ("AsAhKcKd9s", "AcAdKsKh8s"),
    ("AsAhKcKd9s", "AcAdKsKh9h"),
    # 对子: 对子, 由大到小比较单牌, 单牌的花色
    ("AsAhKsQd8s", "AcAdKhJd9s"),
    ("AsAhKsQd9s", "AcAdKhQc8s"),
    ("AsAhKsQd9h", "AcAdKhQc9s"),
    # 散牌: 最大一张, 逐一比较第二、三、四、五张, 最大牌的花色
    ("AsKhQcJd9s", "AhKsQdTc9h"),
    ("AsKhQcJd9h", "AhKsQdJc8d"),
    ("AsKhQcJd9h", "AhKsQdJc9s"),
]


@pytest.mark.parametrize(("winner", "loser"), TIES)
def test_tie_breaks(winner: str, loser: str) -> None:
    assert sh.compare(winner, loser) == 1
    assert sh.compare(loser, winner) == -1


def test_partial_hands_decide_who_acts_first() -> None:
    """从牌面较大者逆时针下注: pair, two pair, trips, four, then high cards, then suit."""
    ep = sh.evaluate_partial
    assert ep("As") > ep("Ah") > ep("Ks")
    assert ep("8s8h") > ep("AsKs")
    assert ep("AsAh") > ep("KsKh")
    assert ep("AsKd") > ep("AhQs")
    assert ep("8s8h9d") > ep("AsKsQs")
    assert ep("8s8h8d") > ep("AsAhKd")
    assert ep("9s9h8s8h") > ep("AsAhKdQd")
    assert ep("8s8h8c8d") > ep("AsAhAcKd")
    assert ep("AsAdKh") > ep("AhAcKd")  # the single's suit


# --- the deal, who acts first, the rounds --------------------------------------------


def test_ante_hole_card_up_card_and_best_up_card_acts_first() -> None:
    state = table("8d9sKsQsJs", "9dAhKhQhJh", "TdAsKcQcJc")
    assert state.pot == 3 * YIFA.ante
    assert list(state.hole) == parse_cards("8d 9d Td")
    assert [tuple(u) for u in state.up] == [tuple(parse_cards(c)) for c in ("9s", "Ah", "As")]
    assert state.current_player == 2 == state.leader  # A♠ beats A♥
    play(state, "check")
    assert state.current_player == 0  # counterclockwise: seat + 1
    play(state, "check", "check")
    assert state.phase.name == "SWAP"


def test_round_limits_and_showhand_from_card_three() -> None:
    """第一轮为5倍底分；第二轮为底注10倍或梭; 第三轮为底分20倍或梭."""
    state = table("8dAsKsQsJs", "9dAhKhQhJh")
    assert legal(state)[-1] == "bet 5"
    refused(state, "bet 6", "bad_amount")
    refused(state, "showhand", "showhand_too_early")
    play(state, "bet 3", "raise 5")
    refused(state, "raise 6", "bad_amount")
    play(state, "call", "keep", "keep")
    assert state.round == 2
    assert legal(state)[-2:] == ["bet 10", "showhand"]
    refused(state, "bet 11", "bad_amount")
    play(state, "bet 10", "call", "keep", "keep")
    assert legal(state)[-2:] == ["bet 20", "showhand"]
    refused(state, "bet 21", "bad_amount")
    play(state, "bet 20", "call")
    # round 4: 只能选择下注20倍的底分、梭、过或者放弃; the best up cards may 开
    assert state.round == 4
    assert legal(state) == ["fold", "check", "bet 20", "showhand", "open"]
    play(state, "bet 20")
    assert legal(state) == ["fold", "call", "showhand"]


def test_extra_rounds_until_the_cap_no_check() -> None:
    """若没有玩家梭哈，则而外增加下注轮数让玩家下注至房间上限，在这几轮中玩家只能选择梭哈、
    下注20倍的底分或者放弃."""
    state = table("8dAsKsQsJs", "9dAhKhQhJh")
    play(state, "bet 5", "call", "keep", "keep", "bet 10", "call", "keep", "keep")
    play(state, "bet 20", "call", "check", "check")
    assert state.round == 5 and not state.is_terminal
    assert legal(state) == ["fold", "bet 20", "showhand", "open"]
    refused(state, "check", "cannot_check")
    play(state, "bet 20", "call", "bet 20", "call", "bet 20", "call")
    assert state.bets == [95, 95]
    assert legal(state) == ["fold", "showhand", "open"]  # 3 chips left to the most
    play(state, "showhand", "call")
    assert state.is_terminal and state.reason == "showdown"
    assert state.bets == [YIFA.cap - YIFA.ante] * 2


def test_showhand_raises_to_the_smallest_stack() -> None:
    """梭: 增加投注到房间允许的最大筹码值，最大值为当前桌内最少游戏币玩家携带游戏币数."""
    rules = YIFA.derive("low", min_stack_units=50)
    state = table("8dAsKsQsJs", "9dAhKhQhJh", "TdAcKcQcJc", stacks=[300, 70, 400], rules=rules)
    assert state.most == 68  # the smallest stack less the ante
    assert table("8dAsKsQsJs", "9dAhKhQhJh", stacks=[300, 400]).most == YIFA.cap  # never above
    play(state, "check", "check", "check")
    play(state, "keep", "keep", "keep")
    play(state, "showhand")
    assert state.bets[state.history[-1].seat] == 68
    play(state, "call", "call")
    while not state.is_terminal:
        play(state, "keep")
    assert state.is_terminal and state.reason == "showdown"
    assert state.bets == [68, 68, 68]
    assert sum(state.returns()) == 0


def test_open_goes_to_showdown_and_winner_takes_the_whole_pot() -> None:
    state = table("8dAsKsQsJs", "9dAhKhQhJh", "TdAcKcQcJc")
    play(state, "bet 5", "call", "call", "keep", "keep", "keep")
    play(state, "check", "check", "check", "keep", "keep", "keep")
    play(state, "check", "check", "check")
    leader = state.current_player
    assert leader == state.leader == 0  # A♠ K♠ Q♠ J♠ up
    assert "open" in legal(state)
    play(state, "check")
    refused(state, "open", "cannot_open")
    state = table("8dAsKsQsJs", "9dAhKhQhJh", "TdAcKcQcJc")
    play(state, "bet 5", "call", "call", "keep", "keep", "keep")
    play(state, "check", "check", "check", "keep", "keep", "keep")
    play(state, "check", "check", "check", "open")
    assert state.reason == "showdown"
    # AsKsQsJs8d: A-high; AhKhQhJh9d; AcKcQcJcTd: straight A-K-Q-J-T wins
    assert state.winners == (2,)
    assert state.returns() == (-7, -7, 14)  # no rake: the whole pot


def test_swap_keeps_one_hole_card_and_turns_the_other_up() -> None:
    """换牌: 将这张牌做为底牌，但余下的那张则必须做为明牌."""
    state = table("8dAsKsQsJs", "9dAhKhQhJh")
    play(state, "check", "check")
    mover = state.current_player
    assert mover == 0
    assert state.view(0).pending == parse_cards("Ks")[0]
    assert state.view(1).pending == parse_cards("Kh")[0]
    events = state.apply(Action.parse("swap"))
    chosen = next(e for e in events if isinstance(e, SwapChosen))
    assert [chosen.visible_to(s) for s in range(2)] == [True, False]
    assert [len(u) for u in state.view(1).up] == [1, 1]  # nothing turned yet
    events = state.apply(Action.parse("keep"))
    turned = [e for e in events if isinstance(e, CardTurned)]
    assert [(e.seat, str(e.card)) for e in turned] == [(0, "8d"), (1, "Kh")]
    assert state.view(0).hole == parse_cards("Ks")[0]
    assert [str(c) for c in state.view(1).up[0]] == ["As", "8d"]


def test_face_down_cards_and_hole_cards_are_private() -> None:
    """底牌: 仅拥有该牌的玩家可见; 在本局最后决定胜负前不翻开."""
    state = table("8dAsKsQsJs", "9dAhKhQhJh", "TdAcKcQcJc")
    for event in state.events:
        if isinstance(event, CardDealt) and not event.face_up:
            assert [event.visible_to(s) for s in range(3)] == [s == event.seat for s in range(3)]
    for seat in range(3):
        view = state.view(seat)
        assert view.hole == state.hole[seat]
        assert view.shown == (None, None, None)
    play(state, "check", "check", "check")
    assert state.view(1).pending == state.pending[1]
    play(state, "keep", "keep", "keep", "showhand", "call", "fold")
    while not state.is_terminal:  # all at the most: cards 4 and 5 without betting
        play(state, "keep")
    assert state.is_terminal and state.reason == "showdown"
    shown = state.view(2).shown
    assert shown[2] is None  # folded: hidden for good (documented choice)
    assert shown[0] == state.hole[0] and shown[1] == state.hole[1]
    showdown = next(e for e in state.events if isinstance(e, Showdown))
    assert {seat for seat, _ in showdown.hands} == {0, 1}


def test_fold_leaves_one_player_who_takes_the_pot() -> None:
    state = table("8dAsKsQsJs", "9dAhKhQhJh")
    play(state, "bet 5", "fold")
    assert state.reason == "fold" and state.winners == (0,)
    assert state.returns() == (2, -2)
    assert state.view(0).shown == (None, None)


def test_losers_below_the_minimum_must_leave() -> None:
    """如果输家剩余的筹码数少于规定坐下的最小数额将被请出桌子."""
    state = table("8dAsKsQsJs", "9dAhKhQhJh", stacks=[100, 200])
    play(state, "bet 1", "fold")
    assert state.must_leave() == ()
    state = table("8dAsKsQsJs", "9dAhKhQhJh", stacks=[200, 100])
    play(state, "bet 1", "fold")
    assert state.must_leave() == (1,)
