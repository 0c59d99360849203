"""Quick chat 快捷聊天 at the table: a fixed set of phrases and emoji, and its rate.

As on the big card-game platforms, a player at a table can only say one of a few fixed things, by
id: nothing typed, so nothing to moderate.  The display text of each id (中文 and English)
lives in the client (``js/strings.js``); the hall only knows the ids.  What a player says
goes to everyone seated at his table as a ``chat`` frame (:func:`chat_frame`): it is no
event of the hand, is never recorded or replayed, and moves no coin.

A player may say :data:`CHAT_BURST` things at once, then one every :data:`CHAT_INTERVAL`
seconds (:class:`ChatLimit`, a token bucket; the time is passed in, there is no clock here):

>>> limit = ChatLimit()
>>> [limit.take(0.0) for _ in range(4)]
[0.0, 0.0, 0.0, 2.0]
>>> limit.take(1.5), limit.take(2.0)
(0.5, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qipai.errors import InvalidActionError
from qipai.hall.frames import Chat

PHRASES = (
    "hello",  # 大家好，很高兴见到各位
    "hurry",  # 快点吧，我等到花儿都谢了
    "well_played",  # 你的牌打得也太好了
    "great_team",  # 和你合作真是太愉快了
    "till_dawn",  # 不要走，决战到天亮
    "focus",  # 不要吵了，专心玩游戏吧
    "step_away",  # 不好意思，我要离开一会
    "goodbye",  # 再见了，我会想念大家的
)
"""The ids of the fixed phrases, in the order the client lists them."""
EMOJI = ("smile", "laugh", "cool", "love", "cry", "angry", "shock", "sleepy")
"""The ids of the emoji (😄 😂 😎 😍 😭 😠 😱 😴 in the client)."""
CHAT_IDS = frozenset(PHRASES + EMOJI)
"""Every id a player may say."""

CHAT_INTERVAL = 2.0
"""Seconds for one more message to come back to a player's allowance."""
CHAT_BURST = 3
"""Messages a player may send at once (his allowance when full)."""


def check_phrase(phrase: str) -> str:
    """``phrase``, when it is one of :data:`CHAT_IDS`.

    :raises InvalidActionError: ``unknown_phrase``.
    """
    if phrase not in CHAT_IDS:
        raise InvalidActionError("unknown_phrase", f"no quick-chat phrase {phrase[:40]!r}")
    return phrase


def chat_frame(table: int, seat: int, phrase: str) -> Chat:
    """The frame that shows what ``seat`` at ``table`` said."""
    return Chat(table=table, seat=seat, phrase=phrase)


@dataclass
class ChatLimit:
    """One player's allowance: a token bucket of ``burst`` messages, one coming back
    every ``interval`` seconds.  Times are seconds on any clock that does not go back (one
    that does refills nothing meanwhile)."""

    interval: float = CHAT_INTERVAL
    burst: int = CHAT_BURST
    _tokens: float = field(init=False, default=float(CHAT_BURST))
    _at: float | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._tokens = float(self.burst)

    def take(self, now: float) -> float:
        """Spend one message at ``now``: ``0.0`` when it may go, else the seconds to wait
        before one may (and nothing is spent)."""
        tokens = self._tokens_at(now)
        if tokens < 1:
            return max(0.001, round((1 - tokens) * self.interval, 3))
        self._tokens = tokens - 1
        self._at = now if self._at is None else max(self._at, now)
        return 0.0

    def _tokens_at(self, now: float) -> float:
        """The messages allowed at ``now``."""
        if self._at is None:
            return self._tokens
        elapsed = max(0.0, now - self._at)
        return min(float(self.burst), self._tokens + elapsed / self.interval)
