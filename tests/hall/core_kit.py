"""The live hall's core driven by plain calls: a :class:`World` plays the store, the clock
and the sockets, with no event loop.

Its store answers the core's effects when told (:meth:`World.answer`): a hand's start
recorded or refused, a settlement written (the coins moved in its ledger) or failed, a
seating's balances read.  Its clock stands still until :meth:`World.advance` jumps it to
the earliest ``WakeAt`` asked.  Every ``Send`` is kept in :attr:`World.sent`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from qipai.errors import GameError
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.core import HallCore
from qipai.hall.frames import to_json
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import HandOutcome

ROOMS = {room.id: room for room in default_rooms()}
START = 1_000_000.0
"""The clock's first reading."""

Pending = e.RecordHandStart | e.SettleHand | e.ReadBalances
"""An effect the store answers."""


def room(base: str, **changes: object) -> Room:
    """The shipped room ``base``, bots after 0.5 s, 托管 by the basic bot (the strong
    one searches: slow), with ``changes``."""
    return dataclasses.replace(ROOMS[base], **{"bot_wait": 0.5, "trustee": "basic", **changes})  # type: ignore[arg-type]


class World:
    """One :class:`HallCore` and everything around it."""

    def __init__(
        self,
        rooms: Sequence[Room],
        *,
        seed: int = 0,
        coins: int = 10_000,
        entropy_window: float = 0.0,
        hand_pause: float = 1.0,
    ) -> None:
        self.core = HallCore(
            rooms, fresh=random.Random(seed).getrandbits, bot_delay=0.5, deal_step=0.5,
            entropy_window=entropy_window, hand_pause=hand_pause,
        )  # fmt: skip
        self.now = START
        self.coins = coins
        self.ledger: dict[int, int] = {}
        """Each user's coins (every user starts with :attr:`coins`)."""
        self.pending: list[Pending] = []
        self.sent: list[e.Send] = []
        self.effects: list[e.Effect] = []
        """Every effect, in order."""
        self.wake: float | None = None
        self.settled: list[HandOutcome] = []
        self.voided: list[str] = []
        """Hands the core asked to void."""

    # --- commands -----------------------------------------------------------------------

    def handle(self, command: c.Command) -> list[e.Effect]:
        """Hand ``command`` to the core now; its effects (also taken in)."""
        effects = self.core.handle(command, self.now)
        for effect in effects:
            self._take(effect)
        return effects

    def try_handle(self, command: c.Command) -> GameError | None:
        """:meth:`handle`, the core's refusal returned."""
        try:
            self.handle(command)
        except GameError as error:
            return error
        return None

    def _take(self, effect: e.Effect) -> None:
        self.effects.append(effect)
        match effect:
            case e.Send():
                self.sent.append(effect)
            case e.WakeAt(when):
                self.wake = when if self.wake is None else min(self.wake, when)
            case e.RecordHandStart() | e.SettleHand() | e.ReadBalances():
                self.pending.append(effect)
            case e.VoidHand(hand):
                self.voided.append(hand)
            case _:
                pass

    def join(self, user: int, room_id: str, *, once: bool = False) -> None:
        """``user`` signs in (if new) and joins ``room_id`` with his ledger's coins."""
        self.core.player(user, f"p{user}")
        self.handle(c.Join(user, room_id, self.balance(user), once))

    # --- the store ----------------------------------------------------------------------

    def answer(self, index: int = 0, *, fail: bool = False) -> None:
        """The store answers the ``index``-th pending effect (``fail``: it does not)."""
        effect = self.pending.pop(index)
        match effect:
            case e.RecordHandStart(table, hand):
                if fail:
                    self.handle(c.StoreFailed(table, hand, "database_unavailable", "down"))
                else:
                    self.handle(c.HandRecorded(table, hand))
            case e.SettleHand(table, outcome):
                if fail:
                    failed = c.StoreFailed(table, outcome.hand_id, "database_unavailable", "down")
                    self.handle(failed)
                    return
                self._settle(outcome)
                self.handle(c.HandSettled(table, outcome.hand_id))
            case e.ReadBalances(seating, users):
                if fail:
                    self.handle(c.SeatingFailed(seating, "down"))
                    return
                balances = tuple(0 if u is None else self.balance(u) for u in users)
                self.handle(c.BalancesRead(seating, balances))

    def balance(self, user: int) -> int:
        """``user``'s coins in the ledger."""
        return self.ledger.setdefault(user, self.coins)

    def _settle(self, outcome: HandOutcome) -> None:
        self.settled.append(outcome)
        if outcome.voided:
            return
        for player, net in zip(outcome.seats, outcome.settlement.net, strict=True):
            if player is not None:
                self.ledger[int(player)] += net

    def answer_all(self) -> None:
        """The store answers everything pending, in order (answers may ask more)."""
        while self.pending:
            self.answer()

    # --- time ---------------------------------------------------------------------------

    def advance(self) -> bool:
        """Jump to the earliest wake-up asked and tick; whether there was one."""
        if self.wake is None:
            return False
        self.now, self.wake = max(self.now, self.wake), None
        self.handle(c.Tick())
        return True

    def pass_time(self, seconds: float) -> None:
        """Let ``seconds`` pass (ticking whatever falls due), then matchmake."""
        end = self.now + seconds
        while self.wake is not None and self.wake <= end:
            self.advance()
            self.answer_all()
        self.now = end
        self.matchmake()

    def matchmake(self) -> None:
        """A matchmaking pass over every room; the balances it asks read at once (the
        hands' starts it then asks stay pending)."""
        self.handle(c.Matchmake(frozenset(self.core.cash.rooms)))
        while reads := [i for i, p in enumerate(self.pending) if isinstance(p, e.ReadBalances)]:
            self.answer(reads[0])

    def run_until_quiet(self, limit: int = 5_000) -> None:
        """Answer and tick until nothing is pending or due (a hand played to its end by
        bots and 托管)."""
        for _ in range(limit):
            self.answer_all()
            if not self.advance():
                return
        raise AssertionError("the hall never went quiet")

    # --- what was sent ------------------------------------------------------------------

    def frames(self, user: int, kind: str | None = None) -> list[dict[str, Any]]:
        """The frames sent to ``user`` (of type ``kind``), as JSON objects."""
        sent = [to_json(s.frame) for s in self.sent if s.user == user]
        return [frame for frame in sent if kind in (None, frame["type"])]
