"""What each game hides from a seat, read from the engine state itself (independently of
the views): the cards another seat holds unseen, the bottom before it is shown, a Zha Jin
Hua hand before its owner looks, Showhand hole cards and cards still to swap or keep."""

from __future__ import annotations

from typing import Any

from qipai.cards import SUITS, Card

CARD_TEXTS = frozenset(str(Card(r, s)) for r in "23456789TJQKA" for s in SUITS) | {"BJ", "RJ", "W"}
"""Every card's text."""


def texts(cards: Any) -> set[str]:
    """The text of each card (``None``: no card) of ``cards``."""
    return {str(c) for c in cards if c is not None}


def hidden_doudizhu(state: Any, seat: int) -> set[str]:
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands):
        if other != seat and other not in state.show_order:
            hidden |= texts(hand)
    bottom_public = state.landlord is not None or (
        state.rules.bottom_face_up and state.phase.name != "DEAL"
    )
    hidden -= texts([state.marker])  # yifa's marker card lies face up
    if bottom_public:  # in the landlord's hand now, but everyone saw it
        return hidden - texts(state.bottom)
    return hidden | texts(state.bottom)


def hidden_zhajinhua(state: Any, seat: int) -> set[str]:
    """Before the end, every hand but one's own once looked at: a compare shows nobody
    the two hands ("所有玩家看不到两人的牌面"), its two players included."""
    if state.is_terminal:
        return set()
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands):
        if other != seat or not state.seen[seat]:
            hidden |= texts(hand)
    return hidden


def hidden_showhand(state: Any, seat: int) -> set[str]:
    shown = state.is_terminal and state.reason == "showdown"
    hidden: set[str] = set()
    for other in range(state.players):
        if other == seat:
            continue
        if not (shown and not state.folded[other]):
            hidden |= texts([state.hole[other]])
        hidden |= texts([state.pending[other]])
    return hidden


HIDDEN = {
    "doudizhu": hidden_doudizhu,
    "zhajinhua": hidden_zhajinhua,
    "showhand": hidden_showhand,
}
"""Each game's :func:`hidden_…`: the texts of the cards ``seat`` may not see in ``state``."""
