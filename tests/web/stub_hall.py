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
        self.sent = 0
        """Messages sent to the page, on every connection."""
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
        self.sent += 1

    def settled(self) -> None:
        """Wait until the page has taken in every message sent so far (its socket's count,
        ``received``): what they would change is drawn, what they must not change can be
        checked."""
        script = "(n) => (window.qipai.app.socket?.received ?? -1) >= n"
        self.page.wait_for_function(script, arg=self.sent, timeout=WAIT_MS)

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


# ----------------------------------------------------------------- a hand's frames


class RegistryHand:
    """A hand of ``game`` under ``rules`` (a rule set's name, or the rules themselves) at
    ``seats`` seats, each holding ``coins`` before it, played by a seeded random policy
    through the registry, and the frames a seat (or a spectator: ``seat=None``) gets of it."""

    NAMES = ("东家", "南家", "西家", "北家", "中家")

    def __init__(
        self,
        game: str,
        rules: Any,
        *,
        room: str,
        seats: int = 3,
        seed: int = 5,
        table: int = 7,
        coins: int = 100_000,
    ) -> None:
        from qipai.registry import HandSetup, game_type  # noqa: PLC0415

        self.game_name = game
        self.game = game_type(game)
        rules = self.game.get_rules(rules) if isinstance(rules, str) else rules
        self.seats = seats
        self.coins = coins
        self.state = self.game.new_hand(rules, HandSetup(seed=seed, balances=(coins,) * seats))
        self.rng = __import__("random").Random(seed)
        self.table = table
        self.room = room
        self.sent = 0  # the events already framed

    def players(self) -> list[dict[str, Any]]:
        return [
            {"name": name, "bot": False, "trustee": False, "connected": True, "escaped": False}
            for name in self.NAMES[: self.seats]
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

    def before(self, seat: int) -> dict[str, Any]:
        """The snapshot of the table before the hand (no hand yet): its frames then come as
        they happen (``hand_start``, ``events``, ``turn``)."""
        return {
            "type": "snapshot", "table": self.table, "n": 0, "seat": seat, "room": self.room,
            "hand": None, "commitment": None, "players": self.players(), "view": None,
            "deadline": None, "entropy_deadline": None,
        }  # fmt: skip

    def hand_start(self) -> dict[str, Any]:
        """The hand's ``hand_start`` frame (before its first event)."""
        return {
            "type": "hand_start", "table": self.table, "n": 0, "room": self.room,
            "hand": "hand-1", "hand_number": 0, "commitment": None, "entropy_deadline": None,
            "players": self.players(),
        }  # fmt: skip

    def turn(self, seat: int) -> dict[str, Any]:
        """The ``turn`` frame ``seat`` gets now: who acts, and ``seat``'s actions (``legal``
        on his turn, else ``options``)."""
        from qipai.hall.wire import action_text  # noqa: PLC0415

        actor = self.game.seat_to_act(self.state)
        actions = [action_text(action) for action in self.game.actions(self.state, seat)]
        return {
            "type": "turn", "table": self.table, "n": len(self.state.events), "seat": actor,
            "deadline": None, "players": self.players(),
            **({"legal": actions} if actor == seat else {"options": actions}),
        }  # fmt: skip

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        from qipai.hall.wire import spectator_view_json, view_json  # noqa: PLC0415
        from qipai.registry import SPECTATOR  # noqa: PLC0415

        view = (
            spectator_view_json(self.game_name, self.state)
            if seat is None
            else view_json(self.game_name, self.state.view(seat))
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
            "fees": zeros, "limited": zeros, "coins": [self.coins + p for p in points],
            "winners": list(self.game.winners(self.state)), "escaper": None, "voided": False,
            "seed": "5", "record": None, "cards": reveal_json(self.game_name, self.state),
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


class DdzHand(RegistryHand):
    """A Dou Dizhu hand (yifa, every 任务 on), each seat holding 100,000 coins."""

    def __init__(self, seed: int = 5, table: int = 7, room: str = "doudizhu-yifa") -> None:
        from qipai.games.doudizhu.tasks import Task  # noqa: PLC0415
        from qipai.registry import game_type  # noqa: PLC0415

        rules = game_type("doudizhu").get_rules("yifa").derive("yifa", tasks=tuple(Task))
        super().__init__("doudizhu", rules, room=room, seed=seed, table=table)

    def play_until(self, plays: int) -> None:
        """Act until ``plays`` plays are made (or the hand is over)."""
        while not self.state.is_terminal and len(self.state.view(0).plays) < plays:
            self.step()
