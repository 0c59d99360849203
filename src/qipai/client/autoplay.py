"""When a client should act: on the newest ``turn`` frame that offers it actions.

A table sends a ``turn`` frame to every seat after every change, so several can arrive
for one decision (another seat's out-of-turn 明牌 or 自动跟注 resends them, and another
seat's 托管 going on or off renumbers them: a decision is known by its ``deadline``, which
only a move of the seat to act renews).  An :class:`AutoPlayer` answers each decision
once, and after a refused action (an answer that crossed a newer frame) asks for a
``resync`` and acts again from the snapshot.  A player put in 托管 (his time ran out)
cancels it and plays on.

>>> player = AutoPlayer(lambda legal: legal[-1])
>>> turn = {"type": "turn", "table": 1, "n": 5, "seat": 0, "legal": ["bid 0", "bid 1"]}
>>> player.on_frame(turn), player.on_frame(turn)
({'type': 'act', 'action': 'bid 1', 'table': 1}, None)
>>> player.on_frame({"type": "error", "code": "not_your_turn", "id": 1})
{'type': 'resync'}

On a ``hand_start`` that opens an entropy window (``entropy_deadline``), or a snapshot of
a hand still waiting for it, it sends its entropy for the hand, once: 32 random bytes from
:mod:`secrets`, mixed into the hand's seed (``docs/records.md``), and kept in
:attr:`~AutoPlayer.contributed` so that the record can be checked against it:

>>> player = AutoPlayer(lambda legal: legal[0], entropy=lambda: "5eed" * 8)
>>> start = {"type": "hand_start", "table": 1, "hand": "h9", "entropy_deadline": 5.0}
>>> player.on_frame(start)
{'type': 'entropy', 'table': 1, 'hand': 'h9', 'value': '5eed5eed5eed5eed5eed5eed5eed5eed'}
>>> player.on_frame(start), player.contributed["h9"]
(None, '5eed5eed5eed5eed5eed5eed5eed5eed')

Refused for the rate (``rate_limited``), it backs off: it sends nothing until
``retry_after`` seconds have passed, then asks for a ``resync`` (:meth:`AutoPlayer.poll`,
or the first frame after the back-off) and decides anew.  The clock is injectable:

>>> now = [100.0]
>>> player = AutoPlayer(lambda legal: legal[0], clock=lambda: now[0])
>>> player.on_frame({"type": "error", "code": "rate_limited", "retry_after": 1.0})
>>> player.on_frame(turn), player.poll(), player.resume_at
(None, None, 101.0)
>>> now[0] = 101.0
>>> player.poll(), player.poll(), player.resume_at
({'type': 'resync'}, None, None)
"""

from __future__ import annotations

import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from qipai.jsontypes import Json, json_array, json_int, json_object, json_str

from .connection import JsonFrame

Choose = Callable[[Sequence[str]], str]
"""A policy: one of the legal actions (their text forms)."""
RETRY_AFTER = 1.0
"""Seconds to back off after a ``rate_limited`` error that does not say (``retry_after``)."""
RESYNC: JsonFrame = {"type": "resync"}
ENTROPY_BYTES = 32
"""Random bytes a client contributes to each hand's seed."""
KEPT_CONTRIBUTIONS = 64
"""Hands whose contribution :attr:`AutoPlayer.contributed` remembers (the newest)."""


def fresh_entropy() -> str:
    """:data:`ENTROPY_BYTES` bytes from :mod:`secrets`, as hex digits."""
    return secrets.token_hex(ENTROPY_BYTES)


class AutoPlayer:
    """Turns frames into the messages a playing client sends.

    :param choose: the policy.
    :param clock: seconds, for the back-off after ``rate_limited`` (default
        :func:`time.monotonic`).
    :param entropy: each hand's contribution to its seed, hex digits (default
        :func:`fresh_entropy`).
    """

    def __init__(
        self,
        choose: Choose,
        *,
        clock: Callable[[], float] = time.monotonic,
        entropy: Callable[[], str] = fresh_entropy,
    ) -> None:
        self.choose = choose
        self.clock = clock
        self.entropy = entropy
        self.contributed: OrderedDict[str, str] = OrderedDict()
        """The entropy sent for each hand (the last :data:`KEPT_CONTRIBUTIONS`), by hand id:
        the hand's record must show it at this seat."""
        self._answered: tuple[int, object, tuple[str, ...]] | None = None
        self._quiet_until = -math.inf
        self._owed = False  # a resync to send once the back-off ends

    @property
    def resume_at(self) -> float | None:
        """When (on :attr:`clock`) :meth:`poll` will have a message to send: the end of the
        back-off that holds one; ``None`` when nothing is held."""
        return self._quiet_until if self._owed else None

    def is_quiet(self) -> bool:
        """Whether it is backing off now (told ``rate_limited``: nothing may be sent)."""
        return self.clock() < self._quiet_until

    def hold(self) -> bool:
        """Whether a message decided earlier must not be sent now (backing off); if so, it
        is forgotten, and the decision is made anew after a resync once the back-off ends."""
        if not self.is_quiet():
            return False
        self._answered, self._owed = None, True
        return True

    def poll(self) -> JsonFrame | None:
        """The message due now that no frame brought: the ``resync`` owed once a back-off
        has ended."""
        if self._owed and not self.is_quiet():
            self._owed = False
            return dict(RESYNC)
        return None

    def forget(self) -> None:
        """A new connection after a drop: forget the decisions made on the old one (an
        answer decided there is not sent, and the turn replayed is decided anew) and its
        back-off (the new connection has a rate of its own); the contributions are kept
        (a hand's entropy is sent once)."""
        self._answered, self._quiet_until, self._owed = None, -math.inf, False

    def on_frame(self, frame: JsonFrame) -> JsonFrame | None:
        """The message to send after ``frame``, if any (nothing while backing off)."""
        reply = self._reply(frame)
        if reply is not None and self.hold():
            return None
        if self.is_quiet():
            return None
        if reply is None:
            return self.poll()
        self._owed = False  # acting on fresh news: no resync needed
        return reply

    def _reply(self, frame: JsonFrame) -> JsonFrame | None:
        kind = frame.get("type")
        if kind == "hand_start":
            self._answered = None  # a new hand: every decision is new
        if kind in ("hand_start", "snapshot") and frame.get("entropy_deadline") is not None:
            return self._contribute(json_int(frame["table"]), json_str(frame["hand"]))
        if kind == "turn" and frame.get("legal"):
            # choosing at the same time as others (加倍): the others' choices renumber the
            # frames, but it is one decision, answered once
            moment = _moment(frame, deciding=bool(frame.get("deciding")))
            return self._decide(json_int(frame["table"]), moment, _texts(frame["legal"]))
        if kind == "snapshot":
            view = json_object(frame.get("view") or {})
            deciding = frame["seat"] in json_array(view.get("deciding", []))
            awaited = view.get("current_player") == frame["seat"] or deciding
            # its turn, or choosing 加倍 at the same time as the others
            if awaited and view.get("legal_actions"):
                moment = _moment(frame, deciding=deciding)
                table = json_int(frame["table"])
                return self._decide(table, moment, _texts(view["legal_actions"]))
        if kind == "error" and frame.get("code") == "rate_limited":
            # refused, and nothing more is read until retry_after: wait, then look again
            wait = frame.get("retry_after")
            wait = float(wait) if isinstance(wait, int | float) else RETRY_AFTER
            self._quiet_until = max(self._quiet_until, self.clock() + wait)
            self._answered, self._owed = None, True
            return None
        if kind == "error" and frame.get("code") == "in_trustee":
            self._answered = None
            return {"type": "trustee", "on": False}
        if kind == "error" and frame.get("id") is not None:
            self._answered = None  # refused: look again and decide anew
            return dict(RESYNC)
        return None

    def _contribute(self, table: int, hand: str) -> JsonFrame | None:
        if hand in self.contributed:
            return None
        value = self.contributed[hand] = self.entropy()
        while len(self.contributed) > KEPT_CONTRIBUTIONS:
            self.contributed.popitem(last=False)
        return {"type": "entropy", "table": table, "hand": hand, "value": value}

    def _decide(self, table: int, moment: object, legal: Sequence[str]) -> JsonFrame | None:
        key = (table, moment, tuple(legal))
        if key == self._answered:
            return None
        self._answered = key
        return {"type": "act", "action": self.choose(legal), "table": table}


def _texts(value: Json) -> list[str]:
    """``value``, a JSON array of strings (the legal actions)."""
    return [json_str(item) for item in json_array(value)]


def _moment(frame: JsonFrame, *, deciding: bool) -> object:
    """What tells one decision from the next in a turn frame or snapshot: ``deciding`` for
    a choice made at the same time as others (their choices renumber the frames), else
    its ``deadline`` (the same for every frame of one decision: only a move of the seat to
    act starts a new one), else its event number."""
    if deciding:
        return "deciding"
    deadline = frame.get("deadline")
    return frame["n"] if deadline is None else deadline
