"""What the live hall is told about its matches: the closed union of :data:`MatchCommand`.

Part of :data:`~qipai.hall.commands.Command`, handled by the core's match desk
(:mod:`~qipai.hall.match.desk`).  A player's request (:class:`Register`, :class:`Unregister`), the
passing of time (:class:`MatchTick`), and the store's answers to the desk's effects
(:mod:`~qipai.hall.match.effects`): a write done (``EntryHeld``, ``RunStarted``…) or refused
(``EntryFailed``, ``StepFailed``…).
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.match.config import MatchConfig


@dataclass(frozen=True, slots=True)
class StartMatches:
    """Run ``matches`` from now: ``numbers``, the number of each match's last run in the
    store (match id, n); ``saved``, the snapshots of the runs a previous process left
    running (run id, match id, snapshot text)."""

    matches: tuple[MatchConfig, ...]
    numbers: tuple[tuple[str, int], ...]
    saved: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class StopMatches:
    """Forget every run (the hall stops, or another node took the matches)."""


@dataclass(frozen=True, slots=True)
class Register:
    """``user`` (``name``) registers in the open run of ``match``."""

    user: int
    name: str
    match: str


@dataclass(frozen=True, slots=True)
class Unregister:
    """``user`` withdraws from the open run of ``match``."""

    user: int
    match: str


@dataclass(frozen=True, slots=True)
class MatchTick:
    """Move the open run of ``match`` on: start it, cancel it, or open the next one."""

    match: str


@dataclass(frozen=True, slots=True)
class EntryHeld:
    """The store holds ``user``'s fee in ``run`` (answers ``HoldEntry``)."""

    run: str
    user: int


@dataclass(frozen=True, slots=True)
class EntryFailed:
    """The store refused ``user``'s registration in ``run``: it is taken back."""

    run: str
    user: int


@dataclass(frozen=True, slots=True)
class EntryRefunded:
    """The store refunded ``user``'s fee in ``run`` (answers ``RefundEntry``)."""

    run: str
    user: int


@dataclass(frozen=True, slots=True)
class RefundFailed:
    """The store refused ``user``'s withdrawal from ``run``: he stays registered."""

    run: str
    user: int


@dataclass(frozen=True, slots=True)
class RunOpened:
    """The store opened ``run`` of ``match`` for registration (answers ``OpenRun``)."""

    match: str
    run: str


@dataclass(frozen=True, slots=True)
class RunStarted:
    """The store started ``run`` (answers ``StartRun``)."""

    run: str


@dataclass(frozen=True, slots=True)
class RunCancelled:
    """The store cancelled ``run`` and refunded every fee, for ``reason`` (answers
    ``CancelRun``)."""

    run: str
    reason: str


@dataclass(frozen=True, slots=True)
class CancelMatch:
    """An operator cancels ``run`` (registering or in play), saying ``reason``: its tables
    closed (their hands voided), every fee refunded, its players told."""

    run: str
    reason: str


@dataclass(frozen=True, slots=True)
class Reschedule:
    """An operator's schedule for ``match`` (its new configuration): runs opened from now
    on follow it; the open run, still registering, starts at the new time; a match no longer
    ``enabled`` opens no next run."""

    match: MatchConfig


@dataclass(frozen=True, slots=True)
class StepFailed:
    """The step of ``match``'s open run (``OpenRun``, ``StartRun``, ``CancelRun``) failed:
    ``code`` and ``message`` say why."""

    match: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class RunFinished:
    """The store paid ``run``'s prizes (answers ``PayPrizes``); ``told``: its players
    connected then, told the end now (the others when they next connect)."""

    run: str
    told: tuple[int, ...]


MatchCommand = (
    StartMatches | StopMatches | Register | Unregister | MatchTick | EntryHeld | EntryFailed
    | EntryRefunded | RefundFailed | RunOpened | RunStarted | RunCancelled | StepFailed
    | RunFinished | CancelMatch | Reschedule
)  # fmt: skip
"""Everything the match desk is told."""
