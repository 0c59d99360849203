"""One place per person, decided by the core (:mod:`qipai.hall.place`): a cash room, a
private table (waiting or playing), a match run (registered or playing) or a table
watched, never two; every command that gives a new place is refused while the person
holds one (watching aside: he leaves it), and a refusal changes nothing."""

from __future__ import annotations

import pytest
from core_kit import ROOMS
from matchworld_kit import FIRST, MATCH, MatchWorld

from qipai.errors import GameError
from qipai.hall import commands as c
from qipai.hall.match import commands as mc
from qipai.hall.place import Place, PlaceKind
from qipai.hall.private.options import PrivateOptions

CASH = next(iter(ROOMS))
FRIENDS = PrivateOptions("doudizhu", "huanle")


def _refused(world: MatchWorld, command: c.Command) -> str:
    """The code ``command`` is refused with; nothing changed (no effect, same places)."""
    users = sorted(world.core.players)
    before = (len(world.effects), [world.core.place_of(u) for u in users], world.open_run)
    with pytest.raises(GameError) as refused:
        world.handle(command)
    after = (len(world.effects), [world.core.place_of(u) for u in users], world.open_run)
    assert after == before, command
    return refused.value.code


def _world(*users: int) -> MatchWorld:
    world = MatchWorld()
    for user in users:
        world.core.player(user, f"p{user}")
        world.balance(user)
    return world


def _private(world: MatchWorld, owner: int) -> str:
    world.handle(c.CreatePrivate(owner, FRIENDS, 10_000))
    code = world.core.players[owner].private
    assert code is not None
    return code


def test_a_person_at_a_private_table_cannot_register_for_a_match() -> None:
    world = _world(1, 2)
    code = _private(world, 1)
    world.handle(c.JoinPrivate(2, code, 10_000))
    assert world.core.place_of(1) == Place(PlaceKind.PRIVATE, code)
    assert _refused(world, mc.Register(1, "p1", MATCH)) == "already_in_room"
    world.handle(c.Ready(1, True))
    world.handle(c.Ready(2, True))
    world.handle(c.StartPrivate(1))  # playing, with a bot: still his one place
    world.answer_all()
    assert world.core.table_of(1) is not None
    assert _refused(world, mc.Register(2, "p2", MATCH)) == "already_in_room"
    assert world.open_run[2] == ()


def test_a_registered_person_takes_no_other_place() -> None:
    world = _world(1, 2)
    code = _private(world, 2)
    world.register(1)
    assert world.core.place_of(1) == Place(PlaceKind.MATCH, FIRST)
    assert _refused(world, c.CreatePrivate(1, FRIENDS, 10_000)) == "in_match"
    assert _refused(world, c.JoinPrivate(1, code, 10_000)) == "in_match"
    assert _refused(world, c.Join(1, CASH, 10_000)) == "in_match"
    assert _refused(world, c.Spectate(1, code=code)) == "in_match"
    assert _refused(world, mc.Register(1, "p1", MATCH)) == "already_registered"


def test_a_person_in_a_cash_room_takes_no_other_place() -> None:
    world = _world(1, 2)
    code = _private(world, 2)
    world.handle(c.Join(1, CASH, 10_000))
    assert world.core.place_of(1) == Place(PlaceKind.ROOM, CASH)
    for command in (
        c.CreatePrivate(1, FRIENDS, 10_000),
        c.JoinPrivate(1, code, 10_000),
        mc.Register(1, "p1", MATCH),
        c.Spectate(1, code=code),
    ):
        assert _refused(world, command) == "already_in_room"


def test_watching_ends_when_the_spectator_takes_a_place() -> None:
    world = _world(1, 2, 3)
    code = _private(world, 2)
    world.handle(c.Spectate(1, code=code))
    assert world.core.place_of(1) == Place(PlaceKind.WATCHING, code)
    world.register(1)
    assert world.core.place_of(1) == Place(PlaceKind.MATCH, FIRST)
    assert world.frames(1, "spectate_ended")[-1]["reason"] == "moved"
    world.handle(c.Spectate(3, code=code))
    world.handle(c.JoinPrivate(3, code, 10_000))
    assert world.core.place_of(3) == Place(PlaceKind.PRIVATE, code)
    assert not world.core.watch.watches(3)
