"""Zha Jin Hua views and event visibility: blind, folded and compare privacy."""

from __future__ import annotations

import pytest
from zjh_kit import rig

from qipai.cards import parse_cards
from qipai.errors import InvalidActionError
from qipai.games.zhajinhua import Call, Compare, Fold, Look
from qipai.games.zhajinhua.events import CardsSeen, Compared, HandEnded, Looked

HANDS = ["2s4h7d", "9s9hKd", "AsAhAd", "3c5c8d"]
CARDS = [tuple(parse_cards(h)) for h in HANDS]


def test_blind_players_see_no_card() -> None:
    state = rig(HANDS)
    for seat in range(4):
        view = state.view(seat)
        assert view.hand is None and view.known_hands == (None,) * 4
        assert view.known_categories == (None,) * 4
    with pytest.raises(InvalidActionError, match="bad_seat"):
        state.view(4)


def test_looking_shows_only_the_looker() -> None:
    state = rig(HANDS)
    events = state.apply(Look())  # seat 1
    assert events == [Looked(1), CardsSeen(1, CARDS[1])]
    assert [e.visible_to(s) for e in events for s in range(4)] == [True] * 4 + [
        False,
        True,
        False,
        False,
    ]
    assert state.view(1).hand == CARDS[1] and state.view(1).seen[1]
    assert all(state.view(s).known_hands == (None,) * 4 for s in (0, 2, 3))


def test_folded_player_sees_nothing_until_the_end() -> None:
    state = rig(HANDS)
    state.apply(Look())
    state.apply(Fold())  # seat 1 looked, then folded
    assert state.view(1).hand is None and state.view(1).known_hands == (None,) * 4
    for _ in range(2):
        state.apply(Fold())  # seats 2, 3: seat 0 is left
    ended = state.events[-1]
    assert isinstance(ended, HandEnded) and ended.hands == tuple(CARDS)
    assert all(ended.visible_to(s) for s in range(4))
    assert all(state.view(s).known_hands == tuple(CARDS) for s in range(4))


def test_compare_without_showing_cards() -> None:
    """所有玩家看不到两人的牌面: one public event, no card, nobody turns seen."""
    state = rig(HANDS)
    for _ in range(4):
        state.apply(Call())
    events = state.apply(Compare(3))  # seat 1 (pair) against seat 3 (high card)
    assert events[0] == Compared(1, 3, 2, loser=3)
    assert not any(isinstance(e, CardsSeen) for e in events)
    assert state.seen == (False, False, False, False)
    for seat in range(4):
        view = state.view(seat)
        assert view.known_hands == (None,) * 4 and view.compares == ((1, 3, 2, 3),)
    state.apply(Call())  # seat 2
    state.apply(Call())  # seat 0
    state.apply(Look())  # seat 1 looks after his compare: his own cards only
    assert state.view(1).known_hands == (None, CARDS[1], None, None)


def test_views_are_snapshots() -> None:
    state = rig(HANDS)
    view = state.view(0)
    state.apply(Call())
    assert view.put == (1, 1, 1, 1) and state.view(0).put == (1, 2, 1, 1)
    assert view.legal_actions != state.view(2).legal_actions
