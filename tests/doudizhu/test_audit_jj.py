"""Audit of the ``jj`` preset (欢乐斗地主 / JJ match rules) against its rules.

The deals differ only in the bottom: seat 0 holds four bombs in each.
"""

from __future__ import annotations

import pytest
from state_kit import act, lead_out, multipliers, refused, rig

from qipai.bots.doudizhu import TrusteePolicy
from qipai.cards import Card
from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Deal, NoShow, Play, Show
from qipai.games.doudizhu.combos import PASS, Kind, parse_move
from qipai.games.doudizhu.events import CardsDealt, LandlordChosen
from qipai.games.doudizhu.rules import RULES, AllPass, BombFactor, Rules
from qipai.games.doudizhu.state import Phase, State, sort_key
from qipai.hall.coins import minimise_scores

SEAT_0 = "33334444555566667"
SEAT_1 = "77788889999TTTTJJ"
DECK = rig([SEAT_0, SEAT_1, "JJQQQQKKKKAAAA222"], "2BR")
"""The bottom is the rocket and a 2: 底牌翻倍 ×4."""
BOTTOMS = {
    "joker": (rig([SEAT_0, SEAT_1, "JJQQQQKKKKAAA222B"], "A2R"), 2),
    "trio": (rig([SEAT_0, SEAT_1, "JJQQQQKKKKAAAA2BR"], "222"), 3),
    "straight": (rig([SEAT_0, SEAT_1, "JJQQQKKKAAA2222BR"], "QKA"), 3),
    "none": (rig([SEAT_0, SEAT_1, "JQQQQKKKKAAA222BR"], "JA2"), 1),
}


def _dealt(first: int, rules: str | Rules = "jj", deck: list[Card] = DECK) -> State:
    """A jj hand fully dealt (nobody showed) whose first bidder is ``first``."""
    for seed in range(100):
        state = State.new(rules, seed=seed, deck=deck)
        state.apply(Deal())
        if state.current_player == first:
            return state
    raise AssertionError("no seed found")


def _landlord_0(deck: list[Card] = DECK, *decisions: str) -> State:
    """Seat 0 calls, nobody robs; then ``decisions`` (default: nobody doubles, no show)."""
    state = _dealt(0, deck=deck)
    act(state, "call", "norob", "norob", *(decisions or ("nodouble",) * 3 + ("noshow",)))
    assert state.landlord == 0 and state.phase is Phase.PLAY
    return state


LANDLORD_WINS = ("play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
"""A farmer plays once (no spring), then the landlord goes out with singles."""
FARMER_1_TAKES_THE_LEAD = ("play 7", "play J", "play pass", "play pass")
"""The landlord's only play (反春 if seat 1 then goes out)."""


# --- 明牌 and the landlord ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_deal_runs_from_each_players_highest_card_to_his_lowest(seed: int) -> None:
    """"牌张按从大到小的顺序发出": each seat's cards arrive highest first."""
    state = State.new("jj", seed=seed)
    arrived: list[list[Card]] = [[], [], []]
    for step in (3, 5, 9):
        for event in state.apply(Deal(step)):
            if isinstance(event, CardsDealt):
                arrived[event.seat] += event.cards
    for seat in range(3):
        keys = [sort_key(card) for card in arrived[seat]]
        assert keys == sorted(keys, reverse=True) and len(keys) == 17
        assert sorted(arrived[seat], key=sort_key) == state.hands[seat]
    huanle = State.new("huanle", seed=seed)  # the other presets deal as shuffled
    huanle.apply(Deal(17))
    dealt = [e for e in huanle.events if isinstance(e, CardsDealt)]
    assert any([sort_key(c) for c in e.cards] != sorted(map(sort_key, e.cards)) for e in dealt)


@pytest.mark.parametrize(
    ("dealt", "factor"), [(0, 10), (1, 5), (5, 5), (6, 5), (8, 5), (9, 3), (12, 3), (16, 3)]
)
def test_show_factor_by_cards_dealt(dealt: int, factor: int) -> None:
    """"视已发牌张的数量，倍数为3倍或5倍": ×5 or ×3 only (×5 up to 8 of 17 cards, a reading)."""
    state = State.new("jj", seed=0, deck=DECK)
    if dealt:
        state.apply(Deal(dealt))
    state.apply(Show(), 1)
    assert state.shows == [1, factor, 1]


def test_a_show_before_bidding_makes_the_first_shower_landlord_without_bidding() -> None:
    state = State.new("jj", seed=0, deck=DECK)
    act(state, "deal 7", "2:show", "deal 2", "1:show", "deal 8")
    assert (state.landlord, state.base) == (2, 1)
    assert [e for e in state.events if isinstance(e, LandlordChosen)][-1].reason == "first_shower"
    assert state.auction == [] and state.phase is Phase.DOUBLE and state._queue == [0, 1, 2]
    act(state, "nodouble", "nodouble", "nodouble")
    assert state.view(0).phase is Phase.PLAY  # somebody showed: no after-bottom 明牌
    assert multipliers(state) == {0: 5 * 4, 1: 5 * 4}  # largest show ×5, rocket bottom ×4


def test_after_bottom_show_only_for_the_landlord_and_only_if_nobody_showed() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble")
    assert state.phase is Phase.SHOW_AFTER_BOTTOM and state.legal_actions() == [Show(), NoShow()]
    refused(state, Show(), "show_closed", seat=1)
    act(state, "show")
    assert state.shows == [2, 1, 1] and multipliers(state) == {1: 8, 2: 8}


def test_no_show_during_the_bidding_and_all_pass_redeals() -> None:
    state = _dealt(0)
    refused(state, Show(), "show_closed", seat=1)
    act(state, "nocall", "nocall", "nocall")
    assert state.deal_number == 2 and state.phase is Phase.DEAL


def test_forced_scoring_option_makes_the_first_bidder_landlord() -> None:
    forced = RULES["jj"].derive("jj-forced", all_pass=AllPass.FORCED)
    state = _dealt(1, rules=forced)
    act(state, "nocall", "nocall", "nocall")
    assert (state.landlord, state.base, state.deal_number) == (1, 1, 1)


def test_rob_times_two_and_a_passer_may_not_rob() -> None:
    state = _dealt(1)
    act(state, "nocall", "call")
    assert state._queue == [0, 2]  # seat 1 passed; the caller's rob back comes last
    act(state, "rob", "norob")
    assert state.landlord == 0 and multipliers(state) == {1: 8, 2: 8}


# --- 加倍 ---------------------------------------------------------------------------------


def test_landlord_doubling_doubles_both_pairs_a_farmers_only_his() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob")
    assert state._queue == [1, 2, 0]
    act(state, "double", "nodouble", "double", "noshow")
    assert multipliers(state) == {1: 4 * 4, 2: 4 * 2}


# --- the bottom bonus ---------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["rocket", *BOTTOMS])
def test_bottom_bonus(pattern: str) -> None:
    deck, factor = BOTTOMS.get(pattern, (DECK, 4))
    state = _landlord_0(deck)
    assert multipliers(state) == {1: factor, 2: factor}
    lead_out(state, 0)
    assert state.returns() == (4 * factor, -2 * factor, -2 * factor)  # spring ×2


# --- bombs, spring, anti-spring, the JJ bomb rule -----------------------------------------


def test_bombs_rocket_spring_double() -> None:
    state = _landlord_0()
    act(state, "play 3333", "play pass", "play pass", "play 4444", "play pass", "play pass")
    act(state, "play BR", "play pass", "play pass")
    assert multipliers(state) == {1: 4 * 8, 2: 4 * 8}  # bottom ×4, two bombs, the rocket
    lead_out(state, 0)
    assert state.spring and state.returns() == (128, -64, -64)


def test_jj_bomb_rule_one_plus_bombs_rocket_still_doubles() -> None:
    rules = RULES["jj"].derive("jj-bombs", bomb_factor=BombFactor.JJ_LINEAR)
    state = _dealt(0, rules=rules)
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble", "noshow")
    for bomb in ("3333", "4444", "5555"):
        act(state, f"play {bomb}", "play pass", "play pass")
    assert multipliers(state) == {1: 4 * 4, 2: 4 * 4}  # bottom ×4, three bombs ×(1 + 3)
    act(state, "play BR", "play pass", "play pass")
    assert multipliers(state) == {1: 4 * 4 * 2, 2: 4 * 4 * 2}


def test_anti_spring() -> None:
    state = _landlord_0(BOTTOMS["none"][0])
    act(state, *FARMER_1_TAKES_THE_LEAD)
    lead_out(state, 1)
    assert state.anti_spring and state.returns() == (-4, 2, 2)


def test_no_escape() -> None:
    state = _landlord_0()
    with pytest.raises(IllegalActionError) as error:
        state.escape(1)
    assert error.value.code == "not_in_rules"


# --- 托管 liability -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trustees", "points"),
    [
        ((), (8, -4, -4)),
        ((1,), (8, -8, 0)),
        ((2,), (8, 0, -8)),
        ((1, 2), (8, -4, -4)),
        ((0,), (8, -4, -4)),  # the landlord in 托管: normal
    ],
)
def test_farmers_lose_the_trustee_farmer_pays_both_losses(
    trustees: tuple[int, ...], points: tuple[int, int, int]
) -> None:
    state = _landlord_0()
    for seat in trustees:
        state.set_trustee(seat, True)
    act(state, *LANDLORD_WINS)
    lead_out(state, 0)
    assert not state.spring and state.returns() == points


@pytest.mark.parametrize(
    ("trustees", "points"),
    [((), (-16, 8, 8)), ((2,), (-16, 16, 0)), ((0,), (-16, 8, 8))],
)
def test_farmers_win_the_trustee_farmer_gets_nothing(
    trustees: tuple[int, ...], points: tuple[int, int, int]
) -> None:
    state = _landlord_0()
    for seat in trustees:
        state.set_trustee(seat, True)
    act(state, *FARMER_1_TAKES_THE_LEAD)
    lead_out(state, 1)
    assert state.anti_spring and state.returns() == points


@pytest.mark.parametrize(("other", "points"), [(False, (-16, 8, 8)), (True, (-16, 16, 0))])
def test_entering_trustee_with_one_card_left_is_scored_normally(
    other: bool, points: tuple[int, int, int]
) -> None:
    state = _landlord_0()
    if other:
        state.set_trustee(2, True)
    act(state, *FARMER_1_TAKES_THE_LEAD)
    lead_out(state, 1, keep=1)
    state.set_trustee(1, True)
    state.apply(state.legal_actions()[0])
    assert state.winner == 1 and state.returns() == points


def test_leaving_trustee_ends_the_liability() -> None:
    state = _landlord_0()
    state.set_trustee(1, True)
    act(state, *LANDLORD_WINS[:3])
    state.set_trustee(1, False)
    act(state, *LANDLORD_WINS[3:])
    lead_out(state, 0)
    assert state.returns() == (8, -4, -4)


# --- the 托管 policy ----------------------------------------------------------------------


def test_trustee_policy_leads_the_smallest_single_and_passes_when_following() -> None:
    state = _landlord_0()
    policy = TrusteePolicy()
    lead = policy.choose(state.view(0))
    assert isinstance(lead, Play) and lead.move.kind is Kind.SINGLE and str(lead.move) == "3"
    act(state, "play 7")
    assert policy.choose(state.view(1)) == Play(PASS)  # seat 1 could beat it, but 托管 passes


def test_trustee_policy_plays_its_last_card_whenever_legal() -> None:
    state = _landlord_0()
    act(state, *FARMER_1_TAKES_THE_LEAD)
    lead_out(state, 1, keep=2)  # seat 1 keeps T and J
    act(state, "play T", "play pass", "play 2", "play pass", "play pass", "play 3")
    assert state.current_player == 1 and len(state.hands[1]) == 1
    assert TrusteePolicy().choose(state.view(1)) == Play(parse_move("J"))


# --- 积分最小化 ----------------------------------------------------------------------------------


def test_score_minimisation_seed_examples() -> None:
    """Seed example 1: the winner has 30 on the table; example 2: the loser has 120."""
    assert minimise_scores((200, -200, 0), (30, 1000, 500)) == (30, -30, 0)
    assert minimise_scores((-140, 140, 0), (120, 1000, 500)) == (-120, 120, 0)
