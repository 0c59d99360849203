"""Helpers for the Zha Jin Hua state tests: rigged deals and state snapshots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qipai.cards import Card, parse_cards
from qipai.games.zhajinhua.rules import Rules
from qipai.games.zhajinhua.state import State


def deck_for(hands: Sequence[str], dealer: int) -> list[Card]:
    """The deck that deals ``hands[seat]`` to each seat, one card at a time from the dealer."""
    n = len(hands)
    cards = [parse_cards(h) for h in hands]
    order = [(dealer + i) % n for i in range(n)]
    return [cards[order[k % n]][k // n] for k in range(3 * n)]


def rig(
    hands: Sequence[str],
    *,
    dealer: int = 0,
    rules: str | Rules = "yifa",
    stacks: Sequence[int] | None = None,
) -> State:
    """A hand where each seat holds the given cards."""
    return State.new(
        rules,
        seed=0,
        players=len(hands),
        dealer=dealer,
        stacks=stacks,
        deck=deck_for(hands, dealer),
    )


def snapshot(state: State) -> dict[str, Any]:
    """Everything a state holds, copied (lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in vars(state).items()}
