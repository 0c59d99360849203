"""The frames the server sends (:mod:`qipai.hall.frames`): one closed union, written as the
dicts they replaced were, and read back unchanged after a trip through JSON (another node,
Redis)."""

from __future__ import annotations

import inspect
import json
import random
import typing

import msgspec
import pytest
from table_kit import run_out

from qipai.hall import frames
from qipai.hall.frames import OutFrame, encode_frame, from_json, to_json
from qipai.hall.rooms import default_rooms
from qipai.hall.table.table import SeatInfo, Table
from qipai.server.api import protocol

ROOMS = {room.id: room for room in default_rooms()}
MATCH_UPDATE = frames.MatchUpdate(
    match="m", run="m#1", state="running", stage=0, stage_name="s", stage_kind="k", base=10,
    line=5, round=1, players_left=9, hands=3, rank=None, score=0,
)  # fmt: skip


def played_frames(room_id: str, seed: int) -> list[OutFrame]:
    """Every frame seat 0 gets over one hand played out by 托管, then its resync frames."""
    room = ROOMS[room_id]
    seats = [SeatInfo("p0", "ann", 10_000)]
    seats += [SeatInfo(None, f"bot{s}", 10_000) for s in range(1, room.seats)]
    table = Table(room, 3, seats, now=0.0, bot_delay=0.5, rng=random.Random(seed))
    table.start_hand("h1", seed, now=0.0)
    table.set_trustee(0, True, now=0.0)
    run_out(table)
    sent = [out.frame for out in table.drain()]
    return [*sent, table.snapshot(0), *table.ending(0)]


def edge_frames() -> list[OutFrame]:
    """The frames of the edge, each optional field both ways."""
    return [
        protocol.welcome(1, "ann", 100),
        protocol.welcome(1, "ann", 100, rate=50.0, burst=100.0),
        protocol.ack(3),
        protocol.error("bad_json", "no"),
        protocol.rate_limited(1.0, 7),
        protocol.left("r"),
        protocol.left("r", "restart"),
        protocol.pong(2.5),
        frames.Queued(room="r"),
        MATCH_UPDATE,
    ]


def test_the_union_is_closed() -> None:
    """Every frame struct of the module (its base aside) is in :data:`OutFrame`, each with
    its own tag."""
    members = typing.get_args(OutFrame)
    structs = [
        value
        for value in vars(frames).values()
        if inspect.isclass(value)
        and issubclass(value, msgspec.Struct)
        and value.__struct_config__.tag is not None
        and not value.__name__.startswith("_")
    ]
    assert set(structs) == set(members) and len(members) > 20
    tags = [member.__struct_config__.tag for member in members]
    assert len(set(tags)) == len(tags)


@pytest.mark.parametrize(
    "room_id", ["doudizhu-yifa", "doudizhu-huanle", "zhajinhua-yifa", "showhand-yifa"]
)
def test_a_frame_reads_back_byte_for_byte(room_id: str) -> None:
    """A frame taken to JSON and read back is the same frame, written the same."""
    sent = played_frames(room_id, 11) + edge_frames()
    assert {type(frame).__name__ for frame in sent} >= {"HandStart", "Event", "Turn", "HandOver"}
    for frame in sent:
        again = from_json(json.loads(json.dumps(to_json(frame))))
        assert again == frame and encode_frame(again) == encode_frame(frame)


def test_the_type_comes_first_and_unset_fields_stay_out() -> None:
    """The tag leads, fields follow in their order; an unset one is absent, None is null."""
    assert encode_frame(protocol.error("x", "y")) == b'{"type":"error","code":"x","message":"y"}'
    assert encode_frame(protocol.left("r", "restart")) == (
        b'{"type":"left","room":"r","reason":"restart"}'
    )
    escape = frames.EscapeCost(
        table=1, points=None, coins=None, least_points=None, least_coins=None
    )
    assert json.loads(encode_frame(escape)) == {
        "type": "escape_cost", "table": 1, "points": None, "coins": None,
        "least_points": None, "least_coins": None,
    }  # fmt: skip
    assert encode_frame([frames.Ack(id=1), frames.Ack(id=2)]) == (
        b'[{"type":"ack","id":1},{"type":"ack","id":2}]'
    )


def test_what_is_no_frame_is_refused() -> None:
    """Reading back checks: an unknown type, a missing field."""
    with pytest.raises(msgspec.ValidationError):
        from_json({"type": "nonsense"})
    with pytest.raises(msgspec.ValidationError):
        from_json({"type": "queued"})
