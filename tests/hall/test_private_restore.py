"""A private table 好友房 kept and opened again (``RestorePrivate``), by plain calls: what
one hall's core keeps of a table after two hands, read back as JSON, opens the same table
in another core (the node that takes the first one over): its seats, owner and 总成绩, no
hand in play, its people away until they come back; it then plays on to its 局数 with
the kept rows first.  A code given to ``CreatePrivate`` (reserved for the whole hall) is
the table's; a restore or a create over an open code is refused and changes nothing."""

from __future__ import annotations

import msgspec
from core_kit import World
from test_private_tables import ROOMS, create, join, last, refused

from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.frames import to_json
from qipai.hall.private.options import PrivateOptions
from qipai.hall.private.saves import SavedPrivate, decode_saved, encode_saved


def _after_hands(count: int) -> tuple[World, str, SavedPrivate]:
    """Users 1 and 2 and a bot at a 6-hand points table that played ``count`` hands (2
    in 托管); the table as its core keeps it, read back from its JSON."""
    world = World(ROOMS)
    for user in (1, 2):
        world.core.player(user, f"p{user}")
    code = create(world, 1)
    join(world, 2, code)
    for user in (1, 2):
        world.handle(c.Ready(user))
    world.handle(c.StartPrivate(1))
    world.answer_all()
    world.handle(c.Trustee(2, True))
    table = world.core.private.tables[code]
    for _ in range(5_000):
        if table.played >= count:
            break
        world.answer_all()
        world.advance()
    saved = world.core.private.saved(code)
    assert saved is not None and saved.played == count
    return world, code, decode_saved(encode_saved(saved))


def test_a_table_kept_after_two_hands_opens_again_elsewhere_and_plays_on() -> None:
    first, code, saved = _after_hands(2)
    rows = first.core.private.tables[code].sheet.rows
    assert saved.rows == rows and saved.seats == [1, 2, None] and saved.owner == 1
    assert saved.names == {1: "p1", 2: "p2"}
    world = World(ROOMS)  # the node that takes the first one over
    world.handle(c.RestorePrivate(saved, tuple((u, world.balance(u)) for u in (1, 2))))
    table = world.core.private.tables[code]
    assert (table.seats, table.owner, table.played, table.live) == ([1, 2, None], 1, 2, None)
    assert table.sheet.rows == rows and not table.ready
    assert [world.core.players[u].private for u in (1, 2)] == [code] * 2
    assert not any(world.core.players[u].connected for u in (1, 2))  # away until back
    assert table.grace_at is not None  # closes if nobody comes back
    assert e.SavePrivate(code) in world.effects  # kept from here on
    # they come back: the table, and its 总成绩 so far
    for user in (1, 2):
        [reply] = world.handle(c.Resume(user, ()))
        assert isinstance(reply, e.Reply)
        [frame, board] = map(to_json, reply.frames)
        world.handle(c.Presence(user, True))
        assert frame["state"] == "waiting" and frame["you"] == user - 1 and frame["played"] == 2
        assert board["rows"] == msgspec.to_builtins(rows) and not board["over"]
    assert table.grace_at is None
    for user in (1, 2):
        world.handle(c.Ready(user))
    world.handle(c.StartPrivate(1))  # a bot at the free seat again
    world.answer_all()
    world.handle(c.Trustee(2, True))
    world.run_until_quiet()
    final = last(world, 1, "scoreboard")
    assert final["over"] and len(final["rows"]) == 6
    assert final["rows"][:2] == msgspec.to_builtins(rows)
    assert [r["number"] for r in final["rows"]] == list(range(1, 7))
    [kept] = [x for x in world.effects if isinstance(x, e.KeepScoreboard)]
    assert kept.users == (1, 2) and kept.scoreboard.over
    assert world.core.private.saved(code) is None  # closed: no longer kept


def test_a_person_held_elsewhere_loses_his_seat_and_a_closing_table_closes() -> None:
    _, code, saved = _after_hands(1)
    world = World(ROOMS)
    world.join(2, "doudizhu-huanle")  # at a room's queue here meanwhile
    world.handle(c.RestorePrivate(saved))
    table = world.core.private.tables[code]
    assert table.seats == [1, None, None] and world.core.players[2].private is None
    closing = msgspec.structs.replace(saved, code="999999", closing=True)
    world.core.player(8, "p8")
    world.handle(c.RestorePrivate(closing))
    assert "999999" not in world.core.private.tables  # its last hand voided: closed now
    [kept] = [x for x in world.effects if isinstance(x, e.KeepScoreboard)]
    assert kept.code == "999999" and len(kept.scoreboard.rows) == 1


def test_an_open_code_is_neither_restored_over_nor_created_again() -> None:
    _, code, saved = _after_hands(1)
    world = World(ROOMS)
    world.core.player(7, "p7")
    options = PrivateOptions("doudizhu", "huanle")
    world.handle(c.CreatePrivate(7, options, 10_000, code))
    assert world.core.players[7].private == code  # the code given is the table's
    refused(world, c.RestorePrivate(saved), "code_taken")
    world.core.player(8, "p8")
    refused(world, c.CreatePrivate(8, options, 10_000, code), "code_taken")
    assert create(world, 8) != code  # one drawn by the core
