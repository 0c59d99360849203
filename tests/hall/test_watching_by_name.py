"""Watching a table by a player's name, in the live hall's core by plain calls: a private
table's people are not watched by name unless they let it be, and a spectator who came by
a name (or by the code) is sent nothing that seats him there; a player turns watching by
his name off (and back to the default); a refusal says no more than "plays nowhere"."""

from __future__ import annotations

from typing import Any

from core_kit import World, room

from json_kit import strings
from qipai.hall import commands as c
from qipai.hall.private.options import PrivateOptions

HUANLE = room("doudizhu-huanle")
KEEPS = room("doudizhu-yifa", id="keeps-tables", regroup=False)  # plays on
WATCHER = 9


def hall(*users: int) -> World:
    """A hall of ``HUANLE`` and ``KEEPS`` with ``users`` (and the watcher) signed in."""
    world = World([HUANLE, KEEPS])
    for user in (*users, WATCHER):
        world.core.player(user, f"p{user}")
    return world


def refused(world: World, command: c.Command) -> tuple[str, str]:
    """The refusal of ``command`` (nothing changed): its code and its message."""
    before = len(world.effects)
    error = world.try_handle(command)
    assert error is not None and len(world.effects) == before, command
    return error.code, error.message


def playing_private_table(world: World) -> str:
    """Users 1 and 2 at a 6-hand table of ``HUANLE``, started with a bot; its code."""
    options = PrivateOptions("doudizhu", "huanle", hands=6)
    world.handle(c.CreatePrivate(1, options, world.balance(1)))
    code = world.core.players[1].private
    assert code is not None
    world.handle(c.JoinPrivate(2, code, world.balance(2)))
    for user in (1, 2):
        world.handle(c.Ready(user))
    world.handle(c.StartPrivate(1))
    world.answer_all()
    assert world.core.private.table_of_code(code) is not None
    return code


def check_nothing_seats(world: World, frames: list[dict[str, Any]], code: str) -> None:
    """No code or link in ``frames``; every room they name is an opaque id; nothing in
    them seats the watcher (as a code) or queues him (as a room)."""
    rooms = {f["room"] for f in frames if "room" in f}
    assert rooms and all(r.startswith("private:") and code not in r for r in rooms), rooms
    assert not [f for f in frames if f["type"] != "error" and ("code" in f or "link" in f)]
    tried = {s for f in frames for s in strings(f)} | {r.removeprefix("private:") for r in rooms}
    tried |= {str(f["table"]) for f in frames if isinstance(f.get("table"), int)}
    assert code not in tried
    for text in sorted(tried):
        joined = refused(world, c.JoinPrivate(WATCHER, text, 10_000))
        assert joined[0] == "unknown_code", (text, joined)
    for text in sorted(rooms):
        assert refused(world, c.Join(WATCHER, text, 10_000))[0] == "unknown_room"


def test_a_private_tables_people_are_not_watched_by_name_by_default() -> None:
    world = hall(1, 2)
    playing_private_table(world)
    nobody = refused(world, c.Spectate(WATCHER, player="p7"))
    for name in ("p1", "p2"):
        answer = refused(world, c.Spectate(WATCHER, player=name))
        assert answer == (nobody[0], nobody[1].replace("p7", name))  # as if he played nowhere
    assert world.core.watch.watching == {} and not world.frames(WATCHER)


def test_watching_a_private_table_by_name_gives_no_code_and_nothing_that_seats() -> None:
    world = hall(1, 2)
    code = playing_private_table(world)
    world.handle(c.WatchByName(2, True))  # he lets people watch him by name
    world.handle(c.Spectate(WATCHER, player="p2"))
    table, snapshot = world.frames(WATCHER)[:2]
    assert table["type"] == "private_table" and table["you"] is None  # its game first
    assert snapshot["type"] == "snapshot" and snapshot["seat"] is None
    assert snapshot["room"] == table["room"] == world.frames(1, "private_table")[-1]["room"]
    check_nothing_seats(world, world.frames(WATCHER), code)  # the free seat stays the bot's
    for user in (1, 2):
        world.handle(c.Trustee(user, True))
    world.run_until_quiet()  # six hands, the scoreboards, the close
    frames = world.frames(WATCHER)
    assert [f["over"] for f in frames if f["type"] == "scoreboard"] == [False] * 5 + [True]
    ended = {"type": "spectate_ended", "table": snapshot["table"], "reason": "table_closed"}
    assert frames[-1] == ended
    check_nothing_seats(world, frames, code)
    assert world.frames(1, "scoreboard")[-1]["code"] == code  # its people have it


def test_a_spectator_by_code_is_sent_no_code_either() -> None:
    world = hall(1, 2)
    code = playing_private_table(world)
    world.handle(c.Spectate(WATCHER, code=code))
    assert [f["type"] for f in world.frames(WATCHER)][:2] == ["private_table", "snapshot"]
    for user in (1, 2):
        world.handle(c.Trustee(user, True))
    world.run_until_quiet()
    check_nothing_seats(world, world.frames(WATCHER), code)


def seated(world: World, user: int = 1) -> int:
    """``user`` joins ``KEEPS`` and is seated with bots; his table's number."""
    world.handle(c.Join(user, KEEPS.id, world.balance(user)))
    world.pass_time(1.0)
    live = world.core.table_of(user)
    assert live is not None
    return live.number


def test_a_player_turns_watching_by_his_name_off_and_back_to_the_default() -> None:
    world = hall(1)
    number = seated(world)
    world.handle(c.Spectate(WATCHER, player="p1"))  # a cash table: yes by default
    assert world.core.watch.watching == {WATCHER: number}
    world.handle(c.StopSpectating(WATCHER))
    world.handle(c.WatchByName(1, False))
    nobody = refused(world, c.Spectate(WATCHER, player="p7"))
    assert refused(world, c.Spectate(WATCHER, player="p1")) == (
        nobody[0], nobody[1].replace("p7", "p1")
    )  # fmt: skip
    world.handle(c.Spectate(WATCHER, table=number))  # by its number: the name is not asked
    world.handle(c.StopSpectating(WATCHER))
    world.handle(c.WatchByName(1, None))
    world.handle(c.Spectate(WATCHER, player="p1"))
    assert world.core.watch.watching == {WATCHER: number}
    assert refused(world, c.WatchByName(77, False))[0] == "not_connected"
