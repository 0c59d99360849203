"""When a client should act: on the newest ``turn`` frame that offers it actions.

A table sends a ``turn`` frame to every seat after every change, so several can arrive
for one decision (another seat's out-of-turn 明牌 or 自动跟注 resends them).  An
:class:`AutoPlayer` answers each decision once, and after a refused action (an answer
that crossed a newer frame) asks for a ``resync`` and acts again from the snapshot.  A
player put in 托管 (his time ran out) cancels it and plays on.

>>> player = AutoPlayer(lambda legal: legal[-1])
>>> turn = {"type": "turn", "table": 1, "n": 5, "seat": 0, "legal": ["bid 0", "bid 1"]}
>>> player.on_frame(turn), player.on_frame(turn)
({'type': 'act', 'action': 'bid 1', 'table': 1}, None)
>>> player.on_frame({"type": "error", "code": "not_your_turn", "id": 1})
{'type': 'resync'}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Frame = dict[str, Any]
Choose = Callable[[Sequence[str]], str]
"""A policy: one of the legal actions (their text forms)."""


class AutoPlayer:
    """Turns frames into the messages a playing client sends."""

    def __init__(self, choose: Choose) -> None:
        self.choose = choose
        self._answered: tuple[Any, ...] | None = None

    def on_frame(self, frame: Frame) -> Frame | None:
        """The message to send after ``frame``, if any."""
        kind = frame.get("type")
        if kind == "turn" and frame.get("legal"):
            return self._decide(frame["table"], frame["n"], frame["legal"])
        if kind == "snapshot":
            view = frame.get("view") or {}
            awaited = view.get("current_player") == frame["seat"] or frame["seat"] in view.get(
                "deciding", ()
            )  # its turn, or choosing 加倍 at the same time as the others
            if awaited and view.get("legal_actions"):
                return self._decide(frame["table"], frame["n"], view["legal_actions"])
        if kind == "error" and frame.get("code") == "in_trustee":
            self._answered = None
            return {"type": "trustee", "on": False}
        if kind == "error" and (frame.get("id") is not None or frame["code"] == "rate_limited"):
            self._answered = None  # refused, or dropped unread: look again and decide anew
            return {"type": "resync"}
        return None

    def _decide(self, table: int, n: int, legal: Sequence[str]) -> Frame | None:
        key = (table, n, tuple(legal))
        if key == self._answered:
            return None
        self._answered = key
        return {"type": "act", "action": self.choose(legal), "table": table}
