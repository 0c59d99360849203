"""Audit of the ``caishen`` preset (财神斗地主) against its rules, hand by hand.

The deal: seat 0 holds four natural bombs; the bottom is ``2BR`` plus the 财神 ``W``.
"""

from __future__ import annotations

import pytest
from state_kit import act, lead_out, multipliers, refused, rig

from qipai.cards import Card
from qipai.games.doudizhu import legal_moves
from qipai.games.doudizhu.actions import Call, Deal, Double, NoCall, Play, Show
from qipai.games.doudizhu.combos import BLACK, RED, WILD, Kind, count_of
from qipai.games.doudizhu.events import BiddingStarted, LandlordChosen
from qipai.games.doudizhu.state import Phase, State

DECK = rig(["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR")
WILD_CARD = Card("W")


def _dealt(first: int, **options: object) -> State:
    """A caishen hand on ``DECK``, fully dealt, whose first bidder is ``first``."""
    for seed in range(100):
        state = State.new("caishen", seed=seed, deck=DECK, **options)  # type: ignore[arg-type]
        state.apply(Deal())
        if state.current_player == first:
            return state
    raise AssertionError("no seed found")


def _landlord_0(*doubles: str) -> State:
    state = _dealt(0)
    act(state, "call", "norob", "norob", *doubles)
    assert state.landlord == 0 and state.phase is Phase.PLAY and state.current_player == 0
    return state


# --- 55 cards, the 财神 in the bottom -----------------------------------------------------


def test_wildcard_is_a_fourth_bottom_card_and_the_landlord_takes_all_four() -> None:
    state = _dealt(0)
    assert state.bottom[-1] == WILD_CARD and len(state.bottom) == 4
    assert all(len(h) == 17 and WILD_CARD not in h for h in state.hands)
    assert state.view(1).bottom_size == 4
    # "4张做为底牌（包罗财神牌）显示于游戏界面": face up on the table once the deal is over
    assert all(state.view(s).bottom == state.bottom for s in range(3))
    act(state, "call", "norob", "norob")
    assert len(state.hands[0]) == 21 and WILD_CARD in state.hands[0]
    assert state.view(2).bottom == state.bottom


# --- the first bidder and 明牌 ------------------------------------------------------------


def test_random_first_bidder_unless_someone_shows_before_bidding() -> None:
    firsts = set()
    for seed in range(30):
        state = State.new("caishen", seed=seed, deck=DECK)
        state.apply(Deal())
        firsts.add(state.current_player)
    assert firsts == {0, 1, 2}
    state = State.new("caishen", seed=0, deck=DECK)
    act(state, "deal 3", "2:show", "deal 4", "1:show", "deal 10")
    started = [e for e in state.events if isinstance(e, BiddingStarted)]
    assert state.current_player == 2 and started[-1].reason == "first_shower"


def test_show_factors_four_before_the_deal_two_until_ones_own_decision() -> None:
    state = State.new("caishen", seed=0, deck=DECK)
    assert state.legal_actions(0) == [Show()]
    act(state, "0:show", "deal 16", "1:show")
    assert state.shows == [4, 2, 1]
    state.apply(Deal(1))
    first = state.current_player
    assert first == 0  # the first shower bids first
    act(state, "nocall")
    assert Show() in state.legal_actions(2)  # 2 has not decided yet: still ×2
    act(state, "2:show")
    assert state.shows == [4, 2, 2]


def test_no_show_after_ones_own_bidding_decision() -> None:
    state = _dealt(1)
    act(state, "call")
    refused(state, Show(), "show_closed", seat=1)
    assert state.phase is Phase.ROB and Show() in state.legal_actions(0)
    act(state, "norob")  # seat 2
    act(state, "0:show")  # seat 0 shows before its rob decision
    act(state, "norob")
    refused(state, Show(), "show_closed", seat=2)
    assert state.shows == [2, 1, 1]


def test_several_show_factors_multiply() -> None:
    state = State.new("caishen", seed=0, deck=DECK, shows_before_deal=(1,))
    act(state, "deal 5", "2:show", "deal 12")
    assert state.current_player == 1
    act(state, "call", "norob", "norob", "nodouble", "nodouble")
    assert state.landlord == 1 and multipliers(state) == {2: 8, 0: 8}
    state = State.new("caishen", seed=0, deck=DECK, shows_before_deal=(2, 0, 1))
    act(state, "deal", "call", "norob", "norob")
    assert state.landlord == 2 and state.shows == [4, 4, 4]
    assert multipliers(state) == {0: 64, 1: 64}


def test_nobody_calls_the_first_shower_before_the_bidding_is_landlord() -> None:
    """"倘使有玩家在叫牌前选择“明牌”，且三名玩家都不选择“叫地主”，则体系选择第一个“明牌”的玩家为地主"."""
    state = State.new("caishen", seed=0, deck=DECK)
    act(state, "deal 10", "2:show", "deal 7")  # 2 showed during the deal
    assert state.current_player == 2  # and so bids first
    act(state, "nocall", "nocall", "nocall")
    assert (state.landlord, state.base, state.deal_number) == (2, 1, 1)
    chosen = [e for e in state.events if isinstance(e, LandlordChosen)]
    assert chosen[-1].reason == "first_shower"
    assert state.phase is Phase.DOUBLE and multipliers(state) == {0: 2, 1: 2}


def test_a_show_during_the_bidding_earns_no_seat_all_pass_redeals() -> None:
    state = _dealt(0)
    act(state, "nocall", "2:show", "nocall", "nocall")  # 2 showed once the bidding began
    assert state.landlord is None and state.deal_number == 2 and state.phase is Phase.DEAL


def test_nobody_calls_nobody_showed_redeals() -> None:
    state = _dealt(0)
    act(state, "nocall", "nocall", "nocall")
    assert state.deal_number == 2 and state.phase is Phase.DEAL and state.cards_dealt == 0


# --- 叫地主 / 抢地主, 加倍 ----------------------------------------------------------------


def test_call_ends_calling_each_non_passer_robs_once_last_robber_wins() -> None:
    state = _dealt(2)
    act(state, "nocall", "call")  # seat 2 passed, seat 0 called: only seat 1 may rob
    assert state.phase is Phase.ROB and state.current_player == 1
    act(state, "rob")  # then the caller's own chance ("每位玩家均有且只有一次"): he declines
    assert state.phase is Phase.ROB and state.current_player == 0
    act(state, "norob")
    assert state.landlord == 1 and state.robs == [(1, 0)]
    assert multipliers(state) == {2: 2, 0: 2}
    state = _dealt(1)
    act(state, "call", "rob", "rob", "norob")
    assert state.landlord == 0 and state.robs == [(2, 1), (0, 2)]
    assert multipliers(state) == {1: 4, 2: 4}  # each rob ×2, whole hand
    state = _dealt(1)
    act(state, "call", "rob", "rob", "rob")  # the caller robs back: three robs
    assert state.landlord == 1 and state.robs == [(2, 1), (0, 2), (1, 0)]
    assert multipliers(state) == {2: 8, 0: 8}


def test_a_passer_may_not_rob_and_calling_is_over_after_a_call() -> None:
    state = _dealt(0)
    act(state, "nocall", "call")
    assert state.phase is Phase.ROB and state.current_player == 2
    refused(state, Call(), "wrong_phase")
    refused(state, NoCall(), "wrong_phase")
    act(state, "norob")
    assert state.landlord == 1 and state.robs == []


def test_each_farmer_may_double_his_own_pair_the_landlord_may_not() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob")
    assert state.phase is Phase.DOUBLE and state.current_player == 1
    refused(state, Double(), "cannot_double", seat=0)
    act(state, "nodouble", "double")
    assert multipliers(state) == {1: 1, 2: 2}


# --- wildcards and the end ----------------------------------------------------------------


def test_only_the_wildcard_left_means_out_spring() -> None:
    state = _landlord_0("nodouble", "nodouble")
    lead_out(state, 0)
    assert state.is_terminal and state.winner == 0
    assert state.hands[0] == [WILD_CARD] and state.spring
    assert state.returns() == (4, -2, -2)


def test_five_card_wild_bomb_is_times_four_wild_four_bomb_times_two_rocket_times_two() -> None:
    state = _landlord_0("nodouble", "nodouble")
    act(state, "play 3333W/33333", "play pass", "play pass")
    assert state.wild_bombs == 1 and multipliers(state) == {1: 4, 2: 4}
    act(state, "play 444B/4444", "play pass", "play pass")
    assert state.bombs == 1 and multipliers(state) == {1: 8, 2: 8}
    act(state, "play 5555", "play pass", "play pass")
    assert multipliers(state) == {1: 16, 2: 16}
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    lead_out(state, 0)
    assert state.winner == 0 and not state.spring
    assert state.returns() == (32, -16, -16)


def test_the_big_hand_robs_shows_double_wild_bomb_spring() -> None:
    state = State.new("caishen", seed=0, deck=DECK, shows_before_deal=(1,))
    act(state, "deal 5", "2:show", "deal 12", "call", "rob", "rob", "norob", "nodouble", "double")
    assert state.landlord == 0 and multipliers(state) == {1: 32, 2: 64}
    act(state, "play 3333W/33333", "play pass", "play pass")
    lead_out(state, 0)
    assert state.spring
    assert state.returns() == (768, -256, -512)


def test_anti_spring() -> None:
    state = _landlord_0("nodouble", "nodouble")
    act(state, "play 7", "play J", "play pass", "play pass")
    lead_out(state, 1)
    assert state.anti_spring and state.returns() == (-4, 2, 2)


def test_no_play_mixes_a_joker_and_the_wildcard_and_jokers_alone_are_themselves() -> None:
    state = _landlord_0("nodouble", "nodouble")
    moves = [a.move for a in state.legal_actions() if isinstance(a, Play)]
    assert moves and all(
        not (count_of(m.cards, WILD) and (count_of(m.cards, BLACK) or count_of(m.cards, RED)))
        for m in moves
    )
    jokers = [m for m in moves if m.cards == m.cards & (0xFF << (4 * BLACK))]
    assert sorted(str(m) for m in jokers) == ["B", "BR", "R"]
    assert next(m for m in jokers if str(m) == "BR").kind is Kind.ROCKET
    assert not any(m.kind is Kind.WILD_BOMB and count_of(m.cards, BLACK) for m in moves)


def test_wild_plays_tie_with_natural_ones_and_bomb_levels() -> None:
    follow = [str(m) for m in legal_moves("3333W", "333W/3333", rules="caishen")]
    assert "3333" not in follow and "3333W/33333" in follow
    assert [str(m) for m in legal_moves("777W", "7777", rules="caishen")] == ["pass"]
    assert "BR" in [str(m) for m in legal_moves("BR3", "3333W/33333", rules="caishen")]


# --- escapes ------------------------------------------------------------------------------


def test_landlord_escape_under_ten_is_charged_twenty() -> None:
    state = _landlord_0("nodouble", "nodouble")
    state.escape(0)
    assert state.is_terminal and state.returns() == (-20, 10, 10)


def test_landlord_escape_over_ten_is_four_times_the_loss() -> None:
    state = State.new("caishen", seed=0, deck=DECK, shows_before_deal=(1,))
    act(state, "deal", "call", "rob", "rob", "norob", "nodouble", "nodouble")
    assert state.landlord == 0 and multipliers(state) == {1: 16, 2: 16}
    state.escape(0)
    assert state.returns() == (-4 * 2 * 16, 64, 64)


@pytest.mark.parametrize(("shows", "penalty"), [((), 10), ((1,), 10), ((1, 2), 32)])
def test_farmer_escape_under_ten_is_ten_else_twice_the_loss(
    shows: tuple[int, ...], penalty: int
) -> None:
    state = State.new("caishen", seed=0, deck=DECK, shows_before_deal=shows)
    state.apply(Deal())
    while state.current_player != 0:
        state.apply(NoCall())
    act(state, "call")
    while state.phase is not Phase.PLAY:
        state.apply(state.legal_actions()[-1])  # norob / nodouble
    assert state.landlord == 0
    state.escape(1)
    assert state.returns()[1] == -penalty and sum(state.returns()) == 0
