"""A stand-in for the hall's WebSocket in the browser tests: Playwright's WebSocket routing
(``page.route_web_socket``) answers the page's ``hello`` with a ``welcome`` and hands every
other message to a test's ``answer`` callback, which answers with frames of the protocol
(docs/protocol.md).  The HTTP API stays the real hall's, except the answers a test stubs
with ``page.route`` (``stub_json``).  The messages the page sent are read from the page's own
outbox (``window.qipai.app.socket.outbox``), so a wait for one waits on the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from web_kit import PASSWORD, WAIT_MS

Page = Any
Answer = Callable[["StubHall", dict[str, Any]], None]


class StubHall:
    """The page's WebSocket, answered by the test instead of the hall."""

    def __init__(self, page: Page, name: str, answer: Answer | None = None) -> None:
        self.page = page
        self.name = name
        self.answer = answer or (lambda stub, message: None)
        self.received: list[dict[str, Any]] = []
        self.socket: Any = None
        page.route_web_socket(re.compile(r"/ws$"), self._connect)

    def _connect(self, socket: Any) -> None:
        self.socket = socket
        socket.on_message(self._message)

    def _message(self, text: str | bytes) -> None:
        message = json.loads(text)
        if message["type"] == "hello":
            self.send(
                {
                    "type": "welcome",
                    "protocol": "qipai/1",
                    "user": 1,
                    "name": self.name,
                    "coins": 10000,
                }
            )
            return
        self.received.append(message)
        self.answer(self, message)

    def send(self, *frames: dict[str, Any]) -> None:
        """Frames to the page, sent together (one array)."""
        self.socket.send(json.dumps(list(frames)))

    def wait_sent(self, kind: str, count: int = 1) -> dict[str, Any]:
        """The ``count``-th message of type ``kind`` the page sent (waited for)."""
        script = (
            "([kind, count]) => "
            "(window.qipai.app.socket?.outbox || []).filter(m => m.type === kind).length >= count"
        )
        self.page.wait_for_function(script, arg=[kind, count], timeout=WAIT_MS)
        sent: list[dict[str, Any]] = self.page.evaluate(
            "(kind) => window.qipai.app.socket.outbox.filter(m => m.type === kind)", kind
        )
        return sent[count - 1]


def stub_json(page: Page, pattern: str, body: Any, status: int = 200) -> None:
    """Answer GET requests matching ``pattern`` with ``body`` as JSON."""
    page.route(
        pattern,
        lambda route: route.fulfill(
            status=status, content_type="application/json", body=json.dumps(body)
        ),
    )


def signed_up(page: Page, url: str, name: str, path: str = "/") -> None:
    """Register ``name`` with the real hall's HTTP API (the page's WebSocket is the stub's),
    opening ``path`` first; returns once the stub has welcomed the page."""
    page.goto(url.rstrip("/") + path)
    page.fill("[data-testid=username]", name)
    page.fill("[data-testid=password]", PASSWORD)
    page.click("[data-testid=sign-up]")
    page.wait_for_selector("[data-testid=net][data-status=open]", timeout=WAIT_MS)


# ----------------------------------------------------------------- a Dou Dizhu hand's frames


class DdzHand:
    """A Dou Dizhu hand (yifa, every 任务 on) played by a seeded random policy through the
    registry, and the frames a seat (or a spectator: ``seat=None``) gets of it."""

    def __init__(self, seed: int = 5, table: int = 7, room: str = "doudizhu-yifa") -> None:
        from qipai.games.doudizhu.tasks import Task  # noqa: PLC0415
        from qipai.registry import HandSetup, game_type  # noqa: PLC0415

        self.game = game_type("doudizhu")
        rules = self.game.get_rules("yifa").derive("yifa", tasks=tuple(Task))
        self.state = self.game.new_hand(rules, HandSetup(seed=seed, balances=(100_000,) * 3))
        self.rng = __import__("random").Random(seed)
        self.table = table
        self.room = room
        self.sent = 0  # the events already framed

    def players(self) -> list[dict[str, Any]]:
        names = ["东家", "南家", "西家"]
        return [
            {"name": name, "bot": False, "trustee": False, "connected": True, "escaped": False}
            for name in names
        ]

    def step(self) -> None:
        """One action (or the dealer's step)."""
        step = self.game.deal_step(self.state)
        if step is not None:
            self.state.apply(step, None)
            return
        seat = self.game.seat_to_act(self.state)
        actions = [a for a in self.game.actions(self.state, seat) if not self.game.is_command(a)]
        self.state.apply(self.rng.choice(actions), seat)

    def play_until(self, plays: int) -> None:
        """Act until ``plays`` plays are made (or the hand is over)."""
        while not self.state.is_terminal and len(self.state.view(0).plays) < plays:
            self.step()

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        from qipai.hall.wire import spectator_view_json, view_json  # noqa: PLC0415
        from qipai.registry import SPECTATOR  # noqa: PLC0415

        view = (
            spectator_view_json("doudizhu", self.state)
            if seat is None
            else view_json("doudizhu", self.state.view(seat))
        )
        self.sent = len(self.state.events)
        assert seat is not None or view["seat"] == SPECTATOR
        return {
            "type": "snapshot",
            "table": self.table,
            "n": self.sent,
            "seat": seat,
            "room": self.room,
            "hand": "hand-1",
            "commitment": None,
            "players": self.players(),
            "view": view,
            "deadline": None,
            "entropy_deadline": None,
        }

    def hand_over(self) -> dict[str, Any]:
        """The finished hand's ``hand_over`` (as every seat and spectator gets it), 1 coin
        a point, no house cut."""
        from qipai.hall.wire import reveal_json  # noqa: PLC0415

        points = list(self.state.returns())
        zeros = [0] * len(points)
        return {
            "type": "hand_over", "table": self.table, "n": len(self.state.events),
            "hand": "hand-1", "result": points, "points": points, "rake": zeros,
            "fees": zeros, "limited": zeros, "coins": [100_000 + p for p in points],
            "winners": list(self.game.winners(self.state)), "escaper": None, "voided": False,
            "seed": "5", "record": None, "cards": reveal_json("doudizhu", self.state),
            "explain": self.game.explain(self.state),
        }  # fmt: skip

    def events(self, seat: int | None) -> list[dict[str, Any]]:
        """The event frames since the last snapshot or events, as ``seat`` sees them."""
        from qipai.hall.wire import event_json  # noqa: PLC0415
        from qipai.registry import SPECTATOR  # noqa: PLC0415

        frames = []
        for n, event in enumerate(self.state.events[self.sent :], self.sent + 1):
            visible = event.visible_to(SPECTATOR if seat is None else seat)
            body = {"event": event_json(event)} if visible else {"hidden": True}
            frames.append({"type": "event", "table": self.table, "n": n, **body})
        self.sent = len(self.state.events)
        return frames
