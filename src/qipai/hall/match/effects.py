"""What the live hall asks of the world for its matches: the closed union of
:data:`MatchEffect`.

Part of :data:`~qipai.hall.effects.Effect`.  Each is one write of the store
(:mod:`qipai.store.matches`, its money posted by :mod:`~qipai.hall.match.coins`), answered by a
command of :mod:`~qipai.hall.match.commands` where the desk needs the outcome; the server carries
them out (``qipai.server.run.matches``) under the matches' lease fence where it has one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OpenRun:
    """Open ``run`` of ``match`` for registration, its fee ``fee``.  Answered by
    ``RunOpened`` or ``StepFailed``."""

    match: str
    run: str
    fee: int


@dataclass(frozen=True, slots=True)
class HoldEntry:
    """Register ``user`` in ``run``, holding his fee; ``number``: his registration's
    number in the run.  Answered by ``EntryHeld`` or ``EntryFailed``."""

    run: str
    user: int
    number: int


@dataclass(frozen=True, slots=True)
class RefundEntry:
    """Withdraw ``user`` from ``run``, refunding his fee.  Answered by ``EntryRefunded``
    or ``RefundFailed``."""

    run: str
    user: int


@dataclass(frozen=True, slots=True)
class StartRun:
    """Start ``run`` of ``match`` if the store holds exactly the registrations of
    ``users`` (else ``StepFailed`` with ``registrations_differ``).  Answered by
    ``RunStarted`` or ``StepFailed``."""

    match: str
    run: str
    users: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CancelRun:
    """Cancel ``run`` of ``match`` and refund every fee, for ``reason``.  Answered by
    ``RunCancelled`` or ``StepFailed``."""

    match: str
    run: str
    reason: str


@dataclass(frozen=True, slots=True)
class CancelInterrupted:
    """Cancel (and refund) every unfinished run of ``matches`` a previous process left,
    but those in ``keep`` (carried on here)."""

    keep: tuple[str, ...]
    matches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HoldPlayer:
    """Several processes: ``user``'s player is held here (a run carried on here)."""

    user: int


@dataclass(frozen=True, slots=True)
class SaveRun:
    """Save ``run`` soon (as the desk's ``snapshot`` then says: one writer per run)."""

    run: str


@dataclass(frozen=True, slots=True)
class PayPrizes:
    """Finish ``run``: pay ``prizes`` (user, coins), keep its final ``standings`` (JSON)
    and each user's rank; ``users``: every registered player (those not connected are
    told later).  Answered by ``RunFinished``."""

    run: str
    prizes: tuple[tuple[int, int], ...]
    standings: str
    ranks: tuple[tuple[int, int], ...]
    users: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KeepMatchPoints:
    """Keep what the match hand ``hand`` moved each seat's match score by (``points``, per
    seat), for 战绩; a failure is logged, nothing else waits on it."""

    hand: str
    points: tuple[int, ...]


MatchEffect = (
    OpenRun | HoldEntry | RefundEntry | StartRun | CancelRun | CancelInterrupted | HoldPlayer
    | SaveRun | PayPrizes | KeepMatchPoints
)  # fmt: skip
"""Every store step of the matches."""
