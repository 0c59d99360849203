"""What the live hall is told about its private tables 好友房: the closed union of
:data:`PrivateCommand`.

Part of :data:`~qipai.hall.commands.Command`, handled by the private tables
(:mod:`~qipai.hall.private.tables`): a person's own commands (:data:`Private`), and
:class:`RestorePrivate`, a table of a node that stopped opened again here.  Leaving one is
the hall's :class:`~qipai.hall.commands.Leave` (it leaves a cash room too); watching one by
its code is :class:`~qipai.hall.watch.commands.Spectate`.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.private.options import PrivateOptions
from qipai.hall.private.saves import SavedPrivate


@dataclass(frozen=True, slots=True)
class CreatePrivate:
    """``user``, holding ``balance`` coins, creates a private table of ``options``; its
    code is ``code`` when given (reserved by the caller for the whole hall: a node of
    several), else drawn by the core."""

    user: int
    options: PrivateOptions
    balance: int
    code: str | None = None


@dataclass(frozen=True, slots=True)
class JoinPrivate:
    """``user``, holding ``balance`` coins, sits at private table ``code``."""

    user: int
    code: str
    balance: int


@dataclass(frozen=True, slots=True)
class Ready:
    """准备 (``ready``) or not, at ``user``'s private table."""

    user: int
    ready: bool = True


@dataclass(frozen=True, slots=True)
class StartPrivate:
    """The owner starts his private table, bots in its empty seats."""

    user: int


@dataclass(frozen=True, slots=True)
class KickPrivate:
    """The owner removes the person at ``seat`` before the first hand."""

    user: int
    seat: int


@dataclass(frozen=True, slots=True)
class ClosePrivate:
    """The owner closes his private table (after the hand in play)."""

    user: int


@dataclass(frozen=True, slots=True)
class RestorePrivate:
    """Open again the private table ``saved`` (kept in the store by the node it was open
    on, which stopped), its people holding ``balances`` coins (user, coins): its seats,
    owner and 总成绩 as they were, no hand in play, nobody ready."""

    saved: SavedPrivate
    balances: tuple[tuple[int, int], ...] = ()


Private = CreatePrivate | JoinPrivate | Ready | StartPrivate | KickPrivate | ClosePrivate
"""The private tables' own commands from a person (``Leave`` leaves one too)."""

PrivateCommand = Private | RestorePrivate
"""Everything the live hall is told about its private tables."""
