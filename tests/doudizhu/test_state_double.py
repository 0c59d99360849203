"""加倍 per preset: who may double, in which order, the huanle coin threshold, refusals."""

from __future__ import annotations

import pytest
from state_kit import act, snapshot

from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Call, Deal, Double, NoCall, NoDouble, NoRob
from qipai.games.doudizhu.events import Doubled, DoublesRevealed
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.state import Phase, State


def _yifa(script: tuple[str, ...], seed: int = 1) -> tuple[State, int]:
    state = State.new("yifa", seed=seed)
    first = state.current_player
    assert first is not None
    act(state, *script)
    return state, first


def test_yifa_first_bid_of_three_both_unbid_farmers_may_double_and_follow() -> None:
    state, first = _yifa(("bid 3",))
    one, two = (first + 1) % 3, (first + 2) % 3
    assert state.phase is Phase.DOUBLE and state.current_player == one
    act(state, "double", "double")  # 加倍, then 跟加倍
    assert state.doubled == [s != first for s in range(3)]
    assert state.phase is Phase.PLAY and state.current_player == first
    state, _ = _yifa(("bid 3", "double", "nodouble"))
    assert state.doubled[one] and not state.doubled[two]


def test_yifa_only_farmers_who_never_had_a_chance_to_bid_may_double() -> None:
    state, first = _yifa(("bid 1", "bid 3"))
    one, two = (first + 1) % 3, (first + 2) % 3
    assert state.phase is Phase.DOUBLE and state._queue == [two]
    before = snapshot(state)
    for seat in (first, one):  # the outbid bidder, and the landlord
        with pytest.raises(IllegalActionError) as error:
            state.apply(Double(), seat)
        assert error.value.code == "cannot_double"
    assert snapshot(state) == before
    state.apply(Double())
    assert state.doubled == [s == two for s in range(3)]


@pytest.mark.parametrize(
    "script",
    [("bid 0", "bid 0", "bid 3"), ("bid 1", "bid 2", "bid 0"), ("bid 0", "bid 1", "bid 2")],
)
def test_yifa_no_doubling_when_everybody_had_a_chance_to_bid(script: tuple[str, ...]) -> None:
    state, _first = _yifa(script)
    assert state.phase is Phase.PLAY
    with pytest.raises(IllegalActionError) as error:
        state.apply(Double())
    assert error.value.code == "wrong_phase"


def _landlord(rules: str, seed: int = 3, **options: object) -> State:
    state = State.new(rules, seed=seed, **options)  # type: ignore[arg-type]
    if state.phase is Phase.DEAL:
        state.apply(Deal())
    act(state, "call", "norob", "norob")
    return state


def test_caishen_each_farmer_may_double_the_landlord_may_not() -> None:
    state = _landlord("caishen")
    landlord = state.landlord
    assert landlord is not None
    one, two = (landlord + 1) % 3, (landlord + 2) % 3
    assert state.phase is Phase.DOUBLE and state._queue == [one, two]
    with pytest.raises(IllegalActionError) as error:
        state.apply(Double(), landlord)
    assert error.value.code == "cannot_double"
    act(state, "nodouble", "double")
    assert state.doubled == [s == two for s in range(3)]
    assert state.phase is Phase.PLAY  # caishen has no after-bottom show


@pytest.mark.parametrize("rules", ["huanle", "jj"])
def test_everyone_doubles_farmers_first_then_the_landlord(rules: str) -> None:
    state = _landlord(rules)
    landlord = state.landlord
    assert landlord is not None
    assert state._queue == [(landlord + 1) % 3, (landlord + 2) % 3, landlord]
    assert state.legal_actions() == [Double(), NoDouble()]
    act(state, "double", "nodouble", "double")
    assert state.doubled[landlord] and sum(state.doubled) == 2
    assert state.phase is Phase.SHOW_AFTER_BOTTOM


# --- 加倍 at the same time (huanle, jj) ----------------------------------------------------


@pytest.mark.parametrize("rules", ["huanle", "jj"])
def test_everyone_chooses_at_once_in_any_order(rules: str) -> None:
    """"每个人都做完选择后，游戏开始由地主出牌": all choose at once; the play waits for all."""
    state = _landlord(rules)
    landlord = state.landlord
    assert landlord is not None
    everyone = ((landlord + 1) % 3, (landlord + 2) % 3, landlord)
    assert state.deciding == everyone
    for seat in everyone:
        view = state.view(seat)
        assert view.current_player is None and view.deciding == everyone
        assert view.legal_actions == (Double(), NoDouble())
    state.apply(Double(), landlord)  # the landlord first: nobody's turn, everybody's choice
    state.apply(NoDouble(), everyone[1])
    assert state.deciding == (everyone[0],) and state.phase is Phase.DOUBLE
    events = state.apply(Double(), everyone[0])
    assert state.doubled == [s in (landlord, everyone[0]) for s in range(3)]
    assert isinstance(events[-1], DoublesRevealed) and events[-1].doubled == tuple(state.doubled)
    assert state.deciding == () and state.phase is not Phase.DOUBLE


@pytest.mark.parametrize("rules", ["huanle", "jj"])
def test_nobody_sees_another_choice_before_all_are_revealed(rules: str) -> None:
    """"完成加倍或不加倍的操作后必须等待其他玩家进行完相关操作": secret until all are made."""
    state = _landlord(rules)
    landlord = state.landlord
    assert landlord is not None
    farmer = (landlord + 1) % 3
    others = [s for s in range(3) if s != farmer]
    before = {seat: state.view(seat) for seat in others}
    events = state.apply(Double(), farmer)
    doubled = [e for e in events if isinstance(e, Doubled)]
    assert [e.visible_to(s) for e in doubled for s in range(3)] == [s == farmer for s in range(3)]
    for seat in others:
        view = state.view(seat)
        assert (view.doubled, view.auction, view.multipliers) == (
            before[seat].doubled,
            before[seat].auction,
            before[seat].multipliers,
        )
    mine = state.view(farmer)
    assert mine.doubled[farmer] and mine.legal_actions == ()
    assert dict(mine.multipliers)[farmer] == 2 * dict(before[landlord].multipliers)[farmer]
    act(state, f"{landlord}:nodouble", f"{(landlord + 2) % 3}:nodouble")
    revealed = [e for e in state.events if isinstance(e, DoublesRevealed)]
    assert len(revealed) == 1 and all(revealed[0].visible_to(s) for s in range(3))
    assert all(state.view(s).doubled[farmer] for s in range(3))


@pytest.mark.parametrize("rules", ["huanle", "jj"])
def test_a_seat_not_asked_or_done_may_not_choose(rules: str) -> None:
    state = _landlord(rules)
    landlord = state.landlord
    assert landlord is not None
    state.apply(NoDouble(), landlord)
    before = snapshot(state)
    for action in (Double(), NoDouble()):
        with pytest.raises(IllegalActionError) as error:
            state.apply(action, landlord)
        assert error.value.code == "cannot_double"
    assert snapshot(state) == before


def test_yifa_and_caishen_choose_in_turn() -> None:
    """yifa's 跟加倍 follows a first 加倍, caishen's farmers in play order: no secret."""
    state, first = _yifa(("bid 3",))
    assert state.deciding == () and state.view(first).current_player == (first + 1) % 3
    with pytest.raises(IllegalActionError) as error:
        state.apply(Double(), (first + 2) % 3)
    assert error.value.code == "not_your_turn"
    events = state.apply(Double())
    assert all(e.visible_to(s) for e in events for s in range(3))
    state = _landlord("caishen")
    assert state.deciding == ()


def test_a_seat_doubles_once() -> None:
    state = _landlord("jj")
    seat = state.current_player
    assert seat is not None
    state.apply(NoDouble())
    with pytest.raises(IllegalActionError) as error:
        state.apply(Double(), seat)
    assert error.value.code == "cannot_double"


@pytest.mark.parametrize(
    ("balances", "doublers"),
    [
        ((500, 500, 500), [1, 2, 0]),
        ((100, 500, 500), []),  # the landlord at the threshold: nobody may double
        ((500, 100, 500), [2]),  # farmer 1 is not above it, and the landlord needs all three
        ((500, 500, 99), [1]),
        ((101, 101, 101), [1, 2, 0]),
    ],
)
def test_huanle_threshold_on_coins(balances: tuple[int, int, int], doublers: list[int]) -> None:
    """Threshold 100, landlord seat 0: he needs all three above it, a farmer himself and 0."""
    rules = RULES["huanle"].derive("huanle-room", doubling_threshold=100)
    state = State.new(rules, seed=3, balances=balances)
    state.apply(Deal())
    while state.current_player != 0:
        state.apply(NoCall())
    state.apply(Call())
    while state.phase is Phase.ROB:
        state.apply(NoRob())
    assert state.landlord == 0
    if doublers:
        assert state.phase is Phase.DOUBLE and state._queue == doublers
    else:
        assert state.phase is Phase.SHOW_AFTER_BOTTOM
    for seat in {0, 1, 2} - set(doublers):
        with pytest.raises(IllegalActionError) as error:
            state.apply(Double(), seat)
        assert error.value.code in ("cannot_double", "wrong_phase")


def test_no_threshold_without_balances() -> None:
    rules = RULES["huanle"].derive("huanle-room", doubling_threshold=10**9)
    state = _landlord(rules)  # type: ignore[arg-type]
    assert len(state._queue) == 3


def test_zhengtu_has_no_doubling() -> None:
    state = State.new("zhengtu", seed=1)
    state.apply(state.legal_actions()[-1])  # bid 3
    with pytest.raises(IllegalActionError) as error:
        state.apply(Double())
    assert error.value.code == "not_in_rules"
