"""Rooms: the shipped file, every default, every validation error, the minimum coins."""

from __future__ import annotations

import random

import pytest

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.rules import RULES as DOUDIZHU
from qipai.games.showhand.rules import RULES as SHOWHAND
from qipai.games.showhand.rules import Rules as ShowhandRules
from qipai.games.zhajinhua.rules import RULES as ZHAJINHUA
from qipai.games.zhajinhua.rules import Rules as ZhajinhuaRules
from qipai.hall.cash.matchmaking import Lobby
from qipai.hall.rooms import LEVELS, Room, check_join, default_rooms, load_rooms, may_join
from qipai.registry import Payout


def room_text(**fields: object) -> str:
    """One ``[[room]]`` table: a yifa Dou Dizhu room with ``fields`` changed (None drops)."""
    values: dict[str, object] = {"id": "r1", "name": "房", "game": "doudizhu", "rules": "yifa"}
    values.update(fields)
    lines = [f"{key} = {toml(value)}" for key, value in values.items() if value is not None]
    return "[[room]]\n" + "\n".join(lines) + "\n"


def toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def one(**fields: object) -> Room:
    [room] = load_rooms(room_text(**fields))
    return room


# --- the shipped rooms ---------------------------------------------------------------


def test_every_game_and_preset_has_a_shipped_room() -> None:
    shipped = {(room.game, room.rules) for room in default_rooms()}
    wanted = {
        *(("doudizhu", name) for name in DOUDIZHU),
        *(("zhajinhua", name) for name in ZHAJINHUA),
        *(("showhand", name) for name in SHOWHAND),
    }
    assert wanted <= shipped
    assert len(wanted) == 7


@pytest.mark.parametrize("room", default_rooms(), ids=lambda room: room.id)
def test_a_lone_player_starts_a_hand_in_every_shipped_room(room: Room) -> None:
    assert room.bots and room.bot_wait <= 5
    lobby = Lobby(room.seating)
    lobby.join("newcomer", now=0.0)
    assert lobby.match(now=room.bot_wait, rng=random.Random(1)) == []
    [table] = lobby.match(now=room.bot_wait + 0.5, rng=random.Random(1))
    assert table.humans == ("newcomer",)
    assert table.bots == room.seats - 1


LADDERS = {
    ("doudizhu", "yifa"): ("coefficient", (1, 10, 50, 200), (96, 960, 4800, 19_200)),
    ("zhajinhua", "yifa"): ("base", (1, 5, 20, 100), (200, 1000, 4000, 20_000)),
    ("showhand", "yifa"): ("base", (1, 5, 20, 100), (100, 500, 2000, 10_000)),
}
"""The shipped stake levels 场次: each ladder's stake field, its values and minimum coins by
level, 新手场 to 高级场."""


@pytest.mark.parametrize(("game", "rules"), sorted(LADDERS))
def test_the_shipped_stake_levels_rise(game: str, rules: str) -> None:
    field, stakes, minimums = LADDERS[(game, rules)]
    ladder = [r for r in default_rooms() if (r.game, r.rules) == (game, rules)]
    assert [room.level for room in ladder] == list(LEVELS)  # one room a level, in order
    assert [getattr(room, field) for room in ladder] == list(stakes)
    assert [room.min_coins for room in ladder] == list(minimums)
    assert ladder[0].id == f"{game}-{rules}"  # the room every test knows is its 新手场
    assert [room.id for room in ladder[1:]] == [f"{game}-{rules}-{level}" for level in LEVELS[1:]]
    assert all(room.bots and room.game_rules().name == rules for room in ladder)


def test_every_other_shipped_room_is_a_novice_room() -> None:
    others = [r for r in default_rooms() if (r.game, r.rules) not in LADDERS]
    assert others and {room.level for room in others} == {"novice"}


def test_shipped_ids_are_unique_and_rules_resolve() -> None:
    rooms = default_rooms()
    assert len({room.id for room in rooms}) == len(rooms)
    for room in rooms:
        assert room.game_rules().name == room.rules


# --- defaults and the minimum coins --------------------------------------------------


def test_yifa_minimum_is_coefficient_times_96() -> None:
    room = one(coefficient=5)
    assert room.min_coins == 480
    assert not may_join(room, 479)
    assert may_join(room, 480)
    check_join(room, 480)
    with pytest.raises(IllegalActionError) as caught:
        check_join(room, 479)
    assert caught.value.code == "not_enough_coins"


def test_doudizhu_defaults() -> None:
    yifa, caishen = one(), one(rules="caishen", coefficient=3)
    assert (yifa.coefficient, yifa.rake_percent, yifa.min_coins, yifa.seats) == (1, 5, 96, 3)
    assert (caishen.rake_percent, caishen.min_coins, caishen.fee) == (0, 288, 0)
    assert (yifa.decision_seconds, yifa.grace_seconds, yifa.bots, yifa.bot_wait) == (
        20.0, 30.0, True, 5.0,
    )  # fmt: skip
    assert yifa.ante is yifa.top_bet is yifa.cap is None
    huanle = one(rules="huanle", fee=50, doubling_threshold=1000)
    assert huanle.game_rules() == DOUDIZHU["huanle"].derive("huanle", doubling_threshold=1000)
    assert one(rules="huanle").game_rules() is DOUDIZHU["huanle"]


def test_zhajinhua_defaults_scale_with_the_base() -> None:
    room = one(game="zhajinhua", base=10)
    assert (room.ante, room.top_bet, room.cap, room.min_coins) == (10, 100, 2000, 2000)
    assert (room.rake_percent, room.seats) == (5, 5)
    rules = room.game_rules()
    assert isinstance(rules, ZhajinhuaRules)
    assert (rules.base_bet, rules.stake_levels, rules.cap) == (10, (10, 20, 50, 100), 2000)


def test_showhand_defaults() -> None:
    room = one(game="showhand", base=5)
    assert (room.ante, room.cap, room.min_coins, room.rake_percent, room.seats) == (
        2, 500, 500, 0, 4,
    )  # fmt: skip
    rules = room.game_rules()
    assert isinstance(rules, ShowhandRules)
    assert (rules.cap, rules.min_stack) == (500, 500)


@pytest.mark.parametrize(
    ("game", "rules", "regroup", "escapes"),
    [("doudizhu", "yifa", True, False), ("doudizhu", "caishen", True, False),
     ("doudizhu", "huanle", True, True), ("doudizhu", "zhengtu", False, False),
     ("doudizhu", "jj", True, False), ("zhajinhua", "yifa", True, False),
     ("showhand", "yifa", True, False)],
)  # fmt: skip
def test_which_rooms_regroup_and_which_count_leaving_early_as_escaping(
    game: str, rules: str, regroup: bool, escapes: bool
) -> None:
    """易发: "所有牌局在一局结束后会按照系统的分组规则重新将玩家打乱分组"; 征途:
    "第一局由最先進入該牌桌的玩家先叫“地主”,之後每一局首先叫“地主”的玩家按照出牌順序輪流擔任"
    keeps its tables; 欢乐斗地主: "在系统撮合成功后、游戏开始前玩家如果退出游戏一律
    视为逃跑"."""
    room = one(game=game, rules=rules)
    assert (room.regroup, room.seating.regroup, room.escape_before_start) == (
        regroup, regroup, escapes,
    )  # fmt: skip
    shipped = next(r for r in default_rooms() if (r.game, r.rules) == (game, rules))
    assert (shipped.regroup, shipped.escape_before_start) == (regroup, escapes)
    changed = one(game=game, rules=rules, regroup=not regroup)
    assert changed.seating.regroup is not regroup


def test_given_values_win_over_defaults() -> None:
    room = one(min_coins=1000, decision_seconds=15, grace_seconds=0, bots=False, bot_wait=2)
    assert (room.min_coins, room.decision_seconds, room.grace_seconds) == (1000, 15.0, 0.0)
    assert not room.seating.bots and room.seating.bot_wait == 2.0
    assert one(game="zhajinhua", seats=2).seating.seats == 2
    assert one(min_coins=0).min_coins == 0
    assert one(escape_before_start=True).escape_before_start
    assert not one(rules="huanle", escape_before_start=False).escape_before_start


@pytest.mark.parametrize("level", LEVELS)
def test_a_room_is_of_a_stake_level_novice_by_default(level: str) -> None:
    assert one().level == "novice" == LEVELS[0]
    assert one(level=level).level == level
    assert one(game="showhand", level=level).level == level  # every game has levels


# --- errors --------------------------------------------------------------------------

BAD_ROOMS = {
    "game": room_text(game="mahjong"),
    "rules": room_text(rules="tencent"),
    "name": room_text(name=None),
    "coefficient": room_text(coefficient=0),
    "rake_percent": room_text(rake_percent=101),
    "decision_seconds": room_text(decision_seconds=0),
    "grace_seconds": room_text(grace_seconds=-1),
    "min_coins": room_text(min_coins=-1),
    "seats": room_text(seats=4),
    "bot_wait": room_text(bot_wait=-1),
    "bots": room_text(bots=1),
    "fee": room_text(fee=5),
    "cap": room_text(cap=100),
    "top_bet": room_text(game="showhand", top_bet=10),
    "color": room_text(color="red"),
    "base": room_text(game="zhajinhua", base=True),
    "doubling_threshold": room_text(rules="huanle", doubling_threshold=-1),
    "zhajinhua": room_text(game="zhajinhua", base=20, top_bet=10),
    "showhand": room_text(game="showhand", base=3, cap=100),
    "regroup": room_text(regroup="no"),
    "level": room_text(level="expert"),
    "escape_before_start": room_text(game="zhajinhua", escape_before_start=True),
}


def test_a_room_named_points_moves_no_coin_and_every_shipped_room_says_what_it_does() -> None:
    """积分场 names a points-only room; a shipped room that moves no coin says so."""
    for room in default_rooms():
        points_only = room.payout is Payout.POINTS_ONLY
        assert ("积分场" in room.name) == points_only, room.name
    assert one(rules="zhengtu", name="斗地主 征途 积分场").payout is Payout.POINTS_ONLY
    assert one(rules="jj", name="斗地主 JJ 新手场").payout is Payout.MINIMISED
    with pytest.raises(InvalidActionError, match="room 'r1', field 'name': its hands move coins"):
        one(rules="jj", name="斗地主 JJ 积分场")


@pytest.mark.parametrize("field", sorted(BAD_ROOMS))
def test_a_bad_room_is_refused_naming_room_and_field(field: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        load_rooms(BAD_ROOMS[field])
    assert caught.value.code == "bad_room"
    assert f"room 'r1', field '{field}'" in caught.value.message


@pytest.mark.parametrize(
    ("game", "minimum"), [("zhajinhua", 200), ("showhand", 100)], ids=["cap", "stack"]
)
def test_the_minimum_cannot_be_below_what_a_hand_may_cost(game: str, minimum: int) -> None:
    assert one(game=game, min_coins=minimum).min_coins == minimum
    with pytest.raises(InvalidActionError, match="field 'min_coins'"):
        one(game=game, min_coins=minimum - 1)


def test_a_level_must_be_one_of_the_levels_and_a_string() -> None:
    with pytest.raises(InvalidActionError, match="must be one of novice, junior, middle, senior"):
        one(level="Novice")
    with pytest.raises(InvalidActionError, match="field 'level': must be str"):
        one(level=1)


def test_a_room_without_an_id_is_named_by_its_position() -> None:
    text = room_text() + room_text(id=None)
    with pytest.raises(InvalidActionError, match=r"room '#2', field 'id': is required"):
        load_rooms(text)


def test_ids_are_unique() -> None:
    with pytest.raises(InvalidActionError, match=r"room 'r1', field 'id'"):
        load_rooms(room_text() + room_text(game="showhand"))


@pytest.mark.parametrize(
    "text", ["[[room]\n", "", "title = 'x'\n" + room_text(), "room = 3\n"],
    ids=["not-toml", "empty", "top-level-key", "not-tables"],
)  # fmt: skip
def test_a_bad_document_is_refused(text: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        load_rooms(text)
    assert caught.value.code == "bad_room"


def test_a_direct_room_is_validated_too() -> None:
    room = one()
    fields = {name: getattr(room, name) for name in Room.__dataclass_fields__}
    with pytest.raises(InvalidActionError, match="field 'ante': does not apply"):
        Room(**{**fields, "ante": 1})
    with pytest.raises(InvalidActionError, match="field 'game'"):
        Room(**{**fields, "game": "go"})
    with pytest.raises(InvalidActionError, match="field 'level'"):
        Room(**{**fields, "level": "vip"})


# --- 托管 style ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "style"),
    [
        ("doudizhu", "yifa", "strong"),
        ("doudizhu", "zhengtu", "strong"),
        ("doudizhu", "jj", "basic"),
        ("zhajinhua", "yifa", "basic"),
        ("showhand", "yifa", "basic"),
    ],
)
def test_each_room_has_its_trustee_style(game: str, rules: str, style: str) -> None:
    assert one(game=game, rules=rules).trustee == style
    if style == "strong":  # the others' rooms have no choice
        assert one(game=game, rules=rules, trustee="basic").trustee == "basic"


@pytest.mark.parametrize(
    ("game", "rules", "style", "problem"),
    [
        ("doudizhu", "jj", "strong", "does not apply"),  # jj's 托管 is its rules'
        ("zhajinhua", "yifa", "strong", "does not apply"),
        ("doudizhu", "yifa", "genius", "must be one of basic, strong"),
    ],
)
def test_a_trustee_style_the_room_cannot_have_is_refused(
    game: str, rules: str, style: str, problem: str
) -> None:
    with pytest.raises(InvalidActionError, match=f"field 'trustee': {problem}"):
        one(game=game, rules=rules, trustee=style)
