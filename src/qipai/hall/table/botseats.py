"""The bots a room seats: a name and the coins each brings, drawn from the table's own
seeded randomness (the ``random.Random`` the table is made with), so that a seed gives the
same bots every time.

As on the apps, a bot at a room's table looks like a player: a nickname from
:data:`BOT_NAMES` and a balance of its own, not "机器人2 with 100,000 coins".  The names
are written in Latin letters (pinyin and English nicknames, as many players there choose),
so a bot is called the same in every language; they keep to the rules of players' names
(2-20 letters, digits, ``_`` and ``-``), and the names at one table differ from each other
and from its players'.

A bot's coins are real: the hand settles against them (a loser pays at most what he
holds), so they must cover the room's stakes.  A room's ``min_coins`` is at least the most
one hand can cost (:meth:`qipai.registry.GameType.least_min_coins`); a bot brings between
:data:`LOW_FACTOR` and :data:`HIGH_FACTOR` times it (and at least :data:`LOW_FLOOR` /
:data:`HIGH_FLOOR`), drawn log-uniformly (as many bots near 10,000 as near 100,000), so it
can lose several of the room's largest hands in a row before its coins limit anything.

>>> import random
>>> seats = bot_seats(random.Random(7), min_coins=96, count=2)
>>> [(seat.name, seat.balance) for seat in seats]
[('Pengpeng', 9372), ('Tiger_Li', 2416)]
>>> all(LOW_FLOOR <= seat.balance <= HIGH_FLOOR for seat in seats)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

BOT_NAMES: tuple[str, ...] = (
    "XiaoLong", "Ahua88", "LuckyCat", "DaBao", "JinJin", "Meimei", "LaoWang", "AhQiang",
    "SunnyDay", "Tiger_Li", "Panda66", "XiaoYu", "ChenChen", "Dongdong", "FeiFei", "GuoGuo",
    "HaoYun", "Lele", "MingMing", "NingNing", "Pengpeng", "QiQi", "RuiRui", "Shanshan",
    "TianTian", "WenWen", "XinXin", "YangYang", "A-Fu", "A-Gui", "BigBoss", "CardKing",
    "Lucky7", "GoldFish", "JadeRabbit", "NightOwl", "RedLantern", "SpringWind", "DragonBoat",
    "MoonCake", "Dumpling", "Kungfu", "TeaMaster", "Fortune88", "AceHigh", "Xiaobai",
    "Dazhuang", "Erya",
)  # fmt: skip
"""The bots' nicknames: Latin letters, the same in every language."""
LOW_FACTOR = 10
"""A bot brings at least this many times the room's ``min_coins``..."""
HIGH_FACTOR = 100
"""... and at most this many times (today's fixed bot balance was 100 times)."""
LOW_FLOOR = 2_000
"""The least a bot brings, whatever the room (a 新手场's minimum is 96)."""
HIGH_FLOOR = 100_000
"""The most a bot brings at least (the top of the range in a cheap room)."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """Who a bot is at one table."""

    name: str
    """Its nickname (from :data:`BOT_NAMES`)."""
    balance: int
    """The coins it brings to the table (they settle like a player's)."""


def bot_balance(rng: random.Random, min_coins: int) -> int:
    """The coins a bot brings to a room whose minimum is ``min_coins``: log-uniform between
    ``max(LOW_FACTOR × min_coins, LOW_FLOOR)`` and ``max(HIGH_FACTOR × min_coins,
    HIGH_FLOOR)``."""
    low = max(LOW_FACTOR * min_coins, LOW_FLOOR)
    high = max(HIGH_FACTOR * min_coins, HIGH_FLOOR)
    return round(math.exp(rng.uniform(math.log(low), math.log(high))))


def bot_seats(
    rng: random.Random, *, min_coins: int, count: int, taken: Iterable[str] = ()
) -> list[BotSeat]:
    """``count`` bots for a table of a room whose minimum is ``min_coins``: names drawn
    without repeats from :data:`BOT_NAMES` (none of ``taken``, the table's players' names),
    then each one's balance (:func:`bot_balance`)."""
    free = [name for name in BOT_NAMES if name not in set(taken)]
    names = rng.sample(free, count)
    return [BotSeat(name, bot_balance(rng, min_coins)) for name in names]
