"""The loop every game shares: play a hand to its end between policies.

A policy sees only its seat's view.  While nobody is to act and the hand is not over (the
Dou Dizhu dealer dealing in steps), the first listed action — the dealer's — is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

V = TypeVar("V")
A = TypeVar("A")
V_contra = TypeVar("V_contra", contravariant=True)
V_co = TypeVar("V_co", covariant=True)
A_co = TypeVar("A_co", covariant=True)


class Chooser(Protocol[V_contra, A_co]):
    """A policy: an action from a view."""

    def choose(self, view: V_contra) -> A_co:
        """One of the view's legal actions."""
        ...


class PlayableHand(Protocol[V_co, A]):
    """What a game's state offers the loop."""

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None``."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """What may be applied now (the dealer's steps while nobody is to act)."""
        ...

    def apply(self, action: A, seat: int | None = ...) -> object:
        """Validate, then apply ``action`` for ``seat``."""
        ...

    def view(self, seat: int) -> V_co:
        """What ``seat`` may see."""
        ...


def play_out(
    hand: PlayableHand[V, A],
    policies: Sequence[Chooser[V, A]],
    observe: Callable[[int, V, A], None] | None = None,
    guard: Callable[[], None] | None = None,
) -> None:
    """Play ``hand`` to its end, each seat's policy deciding from its view.

    ``observe`` is told of each decision once applied (seat, view, action); ``guard`` is
    called before every step and may raise to stop a hand that would never end.
    """
    while not hand.is_terminal:
        if guard is not None:
            guard()
        seat = hand.current_player
        if seat is None:
            hand.apply(hand.legal_actions()[0])
            continue
        view = hand.view(seat)
        action = policies[seat].choose(view)
        hand.apply(action, seat)
        if observe is not None:
            observe(seat, view, action)
