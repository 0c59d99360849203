"""Who is in the hall (:mod:`qipai.hall.cash.headcounts`): people and bots, in all and per
room, on one node and added up over a cluster's beats."""

from __future__ import annotations

from core_kit import World, room

from qipai.hall.cash.headcounts import here, merged

YIFA = room("doudizhu-yifa")
OTHER = room("zhajinhua-yifa")


def counts(world: World, owned: frozenset[str] = frozenset({YIFA.id, OTHER.id})) -> object:
    core = world.core
    return here(core.players, core.flow.tables, core.cash, owned.__contains__)


def test_people_online_and_bots_at_tables_are_counted_apart() -> None:
    world = World([YIFA, OTHER])
    world.core.player(7, "p7")  # in the lobby: online, in no room
    assert counts(world) == {
        "people": 1, "bots": 0,
        "rooms": {YIFA.id: {"people": 0, "bots": 0}, OTHER.id: {"people": 0, "bots": 0}},
    }  # fmt: skip
    world.join(1, YIFA.id)
    world.pass_time(1.0)  # seated with two bots
    assert counts(world, frozenset({YIFA.id})) == {
        "people": 2, "bots": 2, "rooms": {YIFA.id: {"people": 1, "bots": 2}}
    }  # fmt: skip
    world.core.players[7].connected = False
    assert counts(world)["people"] == 1  # type: ignore[index]


def test_the_nodes_words_add_up() -> None:
    mine = {"people": 2, "bots": 2, "rooms": {"a": {"people": 1, "bots": 2}}}
    theirs = {"people": 3, "bots": 4, "rooms": {"b": {"people": 3, "bots": 4}}}
    old = {"c": 5}  # an older node: {room: people}
    assert merged(mine, [theirs, old, None, "junk", {"rooms": 1}]) == {
        "people": 10, "bots": 6,
        "rooms": {
            "a": {"people": 1, "bots": 2}, "b": {"people": 3, "bots": 4},
            "c": {"people": 5, "bots": 0},
        },
    }  # fmt: skip
