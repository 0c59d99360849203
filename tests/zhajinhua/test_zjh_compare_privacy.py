"""A compare 比牌 shows nobody the two hands; the end of the hand shows every hand to all.

易发棋牌's rules page: "比牌双方进行比牌，所有玩家看不到两人的牌面" (no player sees
the two hands, the two players themselves included: everyone learns only who lost) and
"游戏结束后，将公开全部玩家的牌".  Checked on what the hall sends each seat: the events
:meth:`visible_to` it, written by :func:`~qipai.hall.wire.event_json`, and its view,
written by :func:`~qipai.hall.wire.view_json` (the table sends nothing else).
"""

from __future__ import annotations

from zjh_kit import rig

from json_kit import strings
from qipai.games.zhajinhua import Call, Compare, Fold, Look
from qipai.games.zhajinhua.state import State
from qipai.hall.wire import event_json, view_json
from qipai.jsontypes import Json

HANDS = ["QsQhQd", "AsKs9h", "7c7d2h", "JcTc3d"]
"""Seat 1 (A-K high) asks seat 2 (a pair) to compare, with seats 3 and 0 looking on."""


def cards_sent(state: State, seat: int) -> set[str]:
    """The card texts in everything the hall would send ``seat`` now."""
    sent: list[Json] = [event_json(e) for e in state.events if e.visible_to(seat)]
    sent.append(view_json("zhajinhua", state.view(seat)))
    deck = {str(card) for hand in state.hands for card in hand}
    return {text for value in sent for text in strings(value)} & deck


def cards_of(state: State, *seats: int) -> set[str]:
    """The card texts of ``seats``' hands."""
    return {str(card) for seat in seats for card in state.hands[seat]}


def compared() -> State:
    """Everyone calls; seat 1 looks first; on his second turn he compares with seat 2."""
    state = rig(HANDS, dealer=0)  # seat 1 acts first
    state.apply(Look())
    for _ in range(4):
        state.apply(Call())
    state.apply(Compare(2))  # A-K high loses to the pair: seat 1 is out
    assert state.out == (False, True, False, False)
    return state


def test_a_compare_shows_nobody_the_two_hands() -> None:
    """所有玩家看不到两人的牌面: the two players and the onlookers learn only who lost."""
    state = compared()
    assert cards_sent(state, 1) == cards_of(state, 1)  # he looked: his own cards only
    for seat in (0, 2, 3):  # seat 2 is still blind: not even his own cards
        assert cards_sent(state, seat) == set()
    assert state.seen == (False, True, False, False)  # the compare made nobody seen
    for seat in range(4):
        view = state.view(seat)
        assert view.compares == ((1, 2, 4, 1),) and view.out[1]
        assert view.known_categories[2] is None


def test_the_compare_stays_hidden_while_the_hand_goes_on() -> None:
    """The winner of the compare looks: he sees his own hand, still not the loser's."""
    state = compared()
    state.apply(Call())  # seat 2, blind
    state.apply(Call())  # seat 3
    state.apply(Call())  # seat 0
    state.apply(Look())  # seat 2
    assert not state.is_terminal
    assert cards_sent(state, 2) == cards_of(state, 2)
    assert cards_sent(state, 1) == cards_of(state, 1)
    assert cards_sent(state, 0) == cards_sent(state, 3) == set()


def test_every_hand_is_shown_to_every_seat_at_the_end() -> None:
    """游戏结束后，将公开全部玩家的牌: the compare's two hands too, to all four seats."""
    state = compared()
    state.apply(Call())  # seat 2
    state.apply(Fold())  # seat 3
    state.apply(Fold())  # seat 0: seat 2 is the last one in
    assert state.is_terminal and state.winner == 2
    everything = cards_of(state, 0, 1, 2, 3)
    for seat in range(4):
        assert cards_sent(state, seat) == everything
        assert state.view(seat).known_hands == state.hands
