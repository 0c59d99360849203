"""How far one play walks through the platform: a running hall (socket, executor, core,
table, store, frames), three people at one Dou Dizhu table, and the Python functions
called, traced with a profile hook (``threading.setprofile``, installed before the hall's
threads start) while one play is handled — from the moment the player sends ``act`` until
every player has its event frame.

Counted: the platform's own modules (``qipai.*`` but the engines, ``qipai.games`` and
``qipai.cards``, and the test's client, ``qipai.client``), and the switches from one to
another. Two plays are traced: one in the middle of the hand, and the hand's last one,
which also settles it (socket → ledger → frames). The ceilings below are today's counts:
the walk may only get shorter (docs/architecture.md draws it; issue 34 asks for at most
10 and 25 modules). ``pytest -s`` prints the walks."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import Frame, Player, config_with, guests, my_turn, room_like, seat_together

from qipai.client.connection import HallClient
from qipai.server.run.hall import HallService

ROOM = room_like("doudizhu-zhengtu", "walk", bots=False, decision_seconds=600.0)
"""Three people, no bot: nothing but the play traced moves the table."""
MID_HAND_MODULES = 24
"""Platform modules one mid-hand play may cross (issue 34's goal: 10)."""
LAST_PLAY_MODULES = 45
"""Platform modules the hand's last play (settlement and frames) may cross (goal: 25)."""
OUTSIDE = ("qipai.games", "qipai.cards", "qipai.client")
PERIODIC = (HallService._match_forever.__code__, HallService.match_once.__code__)
"""The hall's matchmaking pass (every 0.1 s) and its loop: not the play's work, though they
may run while a play is traced (on a loaded machine, now and then): not counted, nor what
they call."""


@dataclass
class Walk:
    """The platform modules entered while recording, in order, repeats kept."""

    steps: list[str] = field(default_factory=list)
    recording: bool = False
    periodic: int = 0
    """How deep in the matchmaking pass the hall is (:data:`PERIODIC`; 0: not in it)."""
    done: bool = False
    """The test is over: a thread still running with the hook takes it off itself."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        """The profile function: note the module of each Python call while recording."""
        if self.done:
            sys.setprofile(None)  # a thread started while tracing outlives the test
            return
        if frame.f_code in PERIODIC:  # a call (or a coroutine resumed) and its return
            self.periodic += 1 if event == "call" else -1 if event == "return" else 0
        if event != "call" or not self.recording or self.periodic:
            return
        module = frame.f_globals.get("__name__", "")
        if module.startswith("qipai.") and not module.startswith(OUTSIDE):
            with self.lock:
                if not self.steps or self.steps[-1] != module:
                    self.steps.append(module)

    @property
    def modules(self) -> list[str]:
        """The modules crossed, each once, in the order first entered."""
        return list(dict.fromkeys(self.steps))

    @property
    def switches(self) -> int:
        """How many times the walk went from one module to another."""
        return max(0, len(self.steps) - 1)


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningHall, Walk]]:
    walk = Walk()
    threading.setprofile(walk.hook)  # every thread the hall starts from here on
    try:
        url = f"sqlite:///{tmp_path_factory.mktemp('walk') / 'hall.db'}"
        # no match: the matches' tick (every 0.5 s) would cross the walk now and then
        with running_hall(config_with(url, ROOM, matches=())) as hall:
            yield hall, walk
    finally:
        threading.setprofile(None)
        walk.done = True


def test_one_play_walks_through_few_modules(traced: tuple[RunningHall, Walk]) -> None:
    hall, walk = traced
    middle, last = asyncio.run(_two_walks(hall.url, walk))
    for name, (modules, switches) in {"mid-hand play": middle, "last play": last}.items():
        print(f"\n{name}: {len(modules)} modules, {switches} switches")
        print("  " + "\n  ".join(modules))
    assert 0 < len(middle[0]) <= MID_HAND_MODULES, "\n".join(middle[0])
    assert len(middle[0]) < len(last[0]) <= LAST_PLAY_MODULES, "\n".join(last[0])
    assert any(module.startswith("qipai.store") for module in last[0])  # the ledger


async def _two_walks(url: str, walk: Walk) -> tuple[tuple[list[str], int], ...]:
    """Play a hand (the last legal action each time); trace every card played after the
    first three, up to every player's next frame (``turn``, or ``hand_over`` after the
    last): the first of those walks (mid-hand) and the last (it ended the hand)."""
    async with HallClient(url) as client, guests(client, 3) as players:
        await seat_together(players, ROOM.id)
        plays, kept = 0, []
        frames = await _next_frames(players)
        while not any(frame["type"] == "hand_over" for frame in frames):
            turns = zip(players, frames, strict=True)
            actor, legal = next((p, f["legal"]) for p, f in turns if my_turn(f))
            action: str = legal[-1]
            plays += action.startswith("play ") and action != "play pass"
            walk.steps.clear()
            walk.recording = plays > 3 and action != "play pass"
            await actor.conn.act(action)
            frames = await _next_frames(players)
            if walk.recording:
                kept.append((walk.modules, walk.switches))
            walk.recording = False
        return kept[0], kept[-1]


async def _next_frames(players: list[Player]) -> list[Frame]:
    """Each player's next ``turn`` or ``hand_over`` frame."""
    return list(await asyncio.gather(*(p.until(_turn_or_over) for p in players)))


def _turn_or_over(frame: Frame) -> bool:
    return frame["type"] in ("turn", "hand_over")
