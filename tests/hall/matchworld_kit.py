"""The live hall's core with one match, by plain calls: a :class:`MatchWorld` is a
:class:`~core_kit.World` whose store also answers the matches' steps (the three-player
match :data:`MATCH`: two fixed hands, bots after 5 s)."""

from __future__ import annotations

from collections.abc import Sequence

from core_kit import ROOMS, World

from qipai.hall import effects as e
from qipai.hall.match import commands as mc
from qipai.hall.match import effects as me
from qipai.hall.match.config import load_matches
from qipai.hall.match.desk import DIVERGED
from qipai.hall.match.parts import RunState
from qipai.hall.rooms import Room

MATCH = "core-trio"
CONFIG = f"""
[[match]]
id = "{MATCH}"
name = "三人赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
entry_fee = 10
bots = true
bot_wait = 5
[[match.stage]]
kind = "fixed"
hands = 2
"""
MATCHES = tuple(load_matches(CONFIG))
FIRST, SECOND = f"{MATCH}#1", f"{MATCH}#2"


class MatchWorld(World):
    """A :class:`World` (of ``rooms``, else every shipped room) whose store also answers
    the matches' steps: at once (``auto``), or when told (:meth:`step`)."""

    def __init__(
        self,
        *,
        auto: bool = True,
        rooms: Sequence[Room] = (),
        coins: int = 10_000,
        entropy_window: float = 0.0,
    ) -> None:
        super().__init__(
            list(rooms) or list(ROOMS.values()), coins=coins, entropy_window=entropy_window
        )
        self.auto = auto
        self.steps: list[me.MatchEffect] = []
        self.held: set[tuple[str, int]] = set()
        """The registrations the store holds (run, user)."""
        self.paid: list[me.PayPrizes] = []
        self.handle(mc.StartMatches(MATCHES, ((MATCH, 0),)))
        while self.steps:  # the first run opens
            self.step()

    def _take(self, effect: e.Effect) -> None:
        super()._take(effect)
        if isinstance(effect, me.MatchEffect):
            self.steps.append(effect)
            if self.auto:
                self.step()

    def step(self, *, fail: str | None = None) -> None:
        """The store answers the first step pending (``fail``: refuses it with that code)."""
        effect = self.steps.pop(0)
        answer = failed_step(effect, fail) if fail is not None else self._done(effect)
        if answer is not None:
            self.handle(answer)

    def _done(self, effect: me.MatchEffect) -> mc.MatchCommand | None:
        match effect:
            case me.OpenRun(match, run, _):
                return mc.RunOpened(match, run)
            case me.HoldEntry(run, user, _):
                self.held.add((run, user))
                return mc.EntryHeld(run, user)
            case me.RefundEntry(run, user):
                self.held.discard((run, user))
                return mc.EntryRefunded(run, user)
            case me.StartRun(match, run, users):
                if {(run, user) for user in users} != {h for h in self.held if h[0] == run}:
                    return mc.StepFailed(match, DIVERGED, "the store holds others")
                return mc.RunStarted(run)
            case me.CancelRun(_, run, reason):
                return mc.RunCancelled(run, reason)
            case me.PayPrizes(run, _, _, _, users):
                self.paid.append(effect)
                return mc.RunFinished(run, users)
            case _:
                return None

    def register(self, user: int) -> None:
        """``user`` registers in the open run (his record made first, as the server does)."""
        self.core.player(user, f"p{user}")
        self.balance(user)  # (his ledger's account)
        self.handle(mc.Register(user, f"p{user}", MATCH))

    def tick(self, seconds: float = 0.0) -> None:
        """Let ``seconds`` pass, then a pass of the match."""
        self.now += seconds
        self.handle(mc.MatchTick(MATCH))

    @property
    def open_run(self) -> tuple[str, RunState, tuple[str, ...]]:
        """The open run: its id, state and registrations."""
        live = self.core.matches.open_run(MATCH)
        return live.run.run_id, live.run.state, live.run.registered


def failed_step(effect: me.MatchEffect, code: str) -> mc.MatchCommand | None:
    """The store's refusal of ``effect`` (with ``code``), as the command that says so."""
    match effect:
        case me.HoldEntry(run, user, _):
            return mc.EntryFailed(run, user)
        case me.RefundEntry(run, user):
            return mc.RefundFailed(run, user)
        case me.OpenRun(match, _, _) | me.StartRun(match, _, _) | me.CancelRun(match, _, _):
            return mc.StepFailed(match, code, "the store is down")
        case _:
            return None
