"""The players' entropy at a pure table: the window after ``hand_start`` is one more
deadline, the hand is dealt when every connected human seat has contributed or when the
window ends, whichever is first, from the documented mix of the house seed and the
contributions; wrong contributions are refused and change nothing; 托管, escapes,
reconnection and the paced deal still work while the table waits."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from table_kit import run_out

from json_kit import Wire, wire, wires
from qipai.errors import GameError
from qipai.hall.records import FORMAT, FORMAT_V3, HandRecord, verify
from qipai.hall.rooms import default_rooms
from qipai.hall.seeds import commitment, deal_seed
from qipai.hall.table.table import SeatInfo, Table

ROOMS = {room.id: room for room in default_rooms()}
RICH = 10**6
SEED = 0xD1CE_5EED_0BAD_F00D_1234_5678_9ABC_DEF0
WINDOW = 1.0
A = "00112233445566778899aabbccddeeff"
B = "ffeeddccbbaa99887766554433221100" * 2


def make_table(
    room_id: str = "doudizhu-yifa",
    humans: tuple[int, ...] = (0, 1),
    *,
    window: float = WINDOW,
    deal_step: float = 1.0,
) -> Table:
    room = ROOMS[room_id]
    seats = [
        SeatInfo(f"p{s}" if s in humans else None, f"seat{s}", RICH) for s in range(room.seats)
    ]
    return Table(
        room,
        7,
        seats,
        now=0.0,
        bot_delay=1.0,
        rng=random.Random(0),
        deal_step=deal_step,
        entropy_window=window,
    )


def frames_of(table: Table) -> dict[int, list[Wire]]:
    out: dict[int, list[Wire]] = {}
    for item in table.drain():
        out.setdefault(item.seat, []).append(wire(item.frame))
    return out


def dealt_cards(frames: list[Wire]) -> list[Any]:
    return [
        f["event"]["cards"]
        for f in frames
        if f["type"] == "event" and "event" in f and f["event"]["kind"] == "CardsDealt"
    ]


def refused(call: Any, *args: Any) -> str:
    with pytest.raises(GameError) as caught:
        call(*args)
    return caught.value.code


def fingerprint(table: Table) -> str:
    """What a refused contribution must leave as it was."""
    return json.dumps(
        [
            table.deadline(),
            table.last_event,
            table.entropy,
            table.collecting,
            [wire(table.snapshot(s)) for s in range(len(table.seats))],
            [wires(table.frames_since(s, 0)) for s in range(len(table.seats))],
            table.hand_id,
        ],
        sort_keys=True,
        default=repr,
    )


def mixed(seed: int, entropy: list[str | None]) -> int:
    """The documented mix, written from docs/records.md ("The mix"), not from the code."""
    text = "qipai-mix-v1:" + str(seed) + "".join(":" + (value or "") for value in entropy)
    return int(hashlib.sha256(text.encode("ascii")).hexdigest(), 16)


# --- the window -------------------------------------------------------------------------


def test_the_hand_waits_for_the_window_then_is_dealt_at_its_end() -> None:
    table = make_table()
    table.start_hand("h1", SEED, now=10.0)
    frames = frames_of(table)
    assert sorted(frames) == [0, 1]
    start = frames[0][0]
    assert [f["type"] for f in frames[0]] == ["hand_start"]  # no card, no turn yet
    assert start["commitment"] == commitment(SEED)
    assert start["entropy_deadline"] == 10.0 + WINDOW
    assert table.deadline() == 10.0 + WINDOW
    assert table.in_hand and table.collecting and table.is_dealing and not table.is_over
    snapshot = wire(table.snapshot(0))
    assert snapshot["view"] is None and snapshot["entropy_deadline"] == 10.0 + WINDOW
    assert refused(table.act, 0, "bid 1", 10.5) == "not_dealt"
    table.tick(10.9)  # not yet
    assert table.drain() == [] and table.collecting
    table.tick(11.0)
    assert not table.collecting
    frames = frames_of(table)
    assert dealt_cards(frames[0]) and frames[0][-1]["type"] == "turn"
    assert wire(table.snapshot(0))["entropy_deadline"] is None
    # dealt from the house seed mixed with no contribution at all
    assert table.game_state.seed == mixed(SEED, [None, None, None]) == deal_seed(SEED, [None] * 3)
    # the decision clock starts at the deal
    state = table.game_state
    if not table.seats[state.current_player].is_bot:
        assert table.deadline() == 11.0 + table.room.decision_seconds


def test_the_hand_is_dealt_as_soon_as_every_connected_human_has_contributed() -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.drain()
    table.contribute(0, "h1", A, 0.1)
    assert table.collecting and table.drain() == []  # seat 1 is still awaited
    table.contribute(1, "h1", B.upper(), 0.2)  # either case; recorded in lowercase
    assert not table.collecting and table.entropy == (A, B, None)
    assert dealt_cards(frames_of(table)[0])
    assert table.game_state.seed == mixed(SEED, [A, B, None])
    run_out(table)
    record = table.outcome.record
    assert record is not None and record.format == FORMAT_V3
    assert (record.seed, record.entropy, table.outcome.seed) == (SEED, (A, B, None), SEED)
    assert table.outcome.entropy == (A, B, None)
    assert verify(HandRecord.from_json(record.to_json()), published=commitment(SEED)).ok


def test_an_absent_player_is_not_awaited() -> None:
    table = make_table(humans=(0, 1))
    table.disconnect(1, now=0.0)
    table.start_hand("h1", SEED, now=0.0)
    table.contribute(0, "h1", A, 0.1)
    assert not table.collecting  # seat 1 is away: only seat 0 was awaited
    # one who drops during the window stops being awaited too
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.contribute(0, "h1", A, 0.1)
    table.disconnect(1, now=0.2)
    assert not table.collecting and table.entropy == (A, None, None)


def test_nobody_connected_or_no_window_deals_at_once() -> None:
    bots = make_table(humans=())
    bots.start_hand("h1", SEED, now=0.0)
    assert not bots.collecting and bots.game_state.seed == mixed(SEED, [None] * 3)
    plain = make_table(window=0.0)
    plain.start_hand("h1", SEED, now=0.0)
    frames = frames_of(plain)
    assert frames[0][0]["entropy_deadline"] is None and dealt_cards(frames[0])
    assert plain.game_state.seed == SEED  # straight from the house seed, as before
    assert refused(plain.contribute, 0, "h1", A, 0.1) == "entropy_closed"
    run_out(plain)
    assert plain.outcome is not None and plain.outcome.record is not None
    assert plain.outcome.record.format == FORMAT


# --- the deal -----------------------------------------------------------------------------


def test_the_deal_depends_on_every_contribution() -> None:
    hands = {}
    for name, entropy in {"a": (A, B), "b": (B, A), "c": (A, A), "d": (A, None)}.items():
        table = make_table(humans=(0, 1))
        table.start_hand("h1", SEED, now=0.0)
        for seat, value in enumerate(entropy):
            if value is not None:
                table.contribute(seat, "h1", value, 0.1)
        table.tick(WINDOW)
        hands[name] = json.dumps(dealt_cards(frames_of(table)[0]))
        assert table.game_state.seed == mixed(SEED, [*entropy, None])
    assert len(set(hands.values())) == 4


def test_the_mix_is_the_documented_example() -> None:
    """The worked example of docs/records.md, by hashlib here."""
    entropy = [A, None, "ffeeddccbbaa99887766554433221100"]
    digest = hashlib.sha256(
        b"qipai-mix-v1:42:00112233445566778899aabbccddeeff::ffeeddccbbaa99887766554433221100"
    ).hexdigest()
    assert digest == "38bebcf06575989c514a604fb04687efd36d5378179e212db4f9e02e1b19be92"
    assert deal_seed(42, entropy) == int(digest, 16) == mixed(42, entropy)


# --- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "hand", "value", "code"),
    [
        (5, "h1", A, "bad_seat"),
        (2, "h1", A, "bot_seat"),
        (0, "h1", A[:-2], "bad_entropy"),  # 15 bytes
        (0, "h1", "ab" * 65, "bad_entropy"),  # 65 bytes
        (0, "h1", A + "a", "bad_entropy"),  # an odd number of digits
        (0, "h1", "zz" + A[2:], "bad_entropy"),
        (0, "h1", " " + A[1:], "bad_entropy"),
        (0, "h1", 12345, "bad_entropy"),
        (0, "h1", None, "bad_entropy"),
        (0, "h0", A, "wrong_hand"),
        (0, 1, A, "wrong_hand"),
        (1, "h1", B, "already_contributed"),
    ],
)
def test_wrong_contributions_are_refused_and_change_nothing(
    seat: Any, hand: Any, value: Any, code: str
) -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.contribute(1, "h1", A, 0.1)
    table.drain()
    before = fingerprint(table)
    assert refused(table.contribute, seat, hand, value, 0.2) == code
    assert fingerprint(table) == before and table.drain() == []


def test_a_contribution_after_the_deal_is_refused() -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.contribute(0, "h1", A, 0.1)
    table.tick(WINDOW)
    assert refused(table.contribute, 1, "h1", B, 1.5) == "entropy_closed"
    assert refused(table.contribute, 0, "h1", B, 1.5) == "already_contributed"
    run_out(table)
    assert refused(table.contribute, 1, "h1", B, 99.0) == "entropy_closed"
    assert table.outcome is not None and table.outcome.record is not None
    assert table.outcome.record.entropy == (A, None, None)


# --- with the rest of the table -----------------------------------------------------------


def test_a_player_back_during_the_window_gets_the_hand_start_and_contributes() -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.disconnect(1, now=0.1)
    table.reconnect(1, now=0.2)
    missed = wires(table.frames_since(1, 0))
    assert missed is not None and [f["type"] for f in missed] == ["hand_start"]
    assert missed[0]["entropy_deadline"] == WINDOW
    assert wire(table.snapshot(1))["entropy_deadline"] == WINDOW
    table.contribute(0, "h1", A, 0.3)
    assert table.collecting  # he is back: awaited again
    table.contribute(1, "h1", B, 0.4)
    assert not table.collecting and table.entropy == (A, B, None)


def test_trustee_during_the_window_is_applied_at_the_deal() -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.drain()
    table.set_trustee(0, True, now=0.1)
    assert table.drain() == [] and table.collecting
    table.tick(WINDOW)
    assert wire(table.snapshot(1))["players"][0]["trustee"]
    run_out(table)  # 托管 and the bot play it out
    assert table.outcome is not None and table.outcome.record is not None


def test_an_escape_during_the_window_deals_at_once_then_applies() -> None:
    table = make_table("doudizhu-huanle", humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.escape(0, now=0.3)
    assert not table.collecting and table.is_over  # huanle: leaving before the start ends it
    assert table.outcome is not None and table.outcome.escaper == 0
    table = make_table("doudizhu-yifa", humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.escape(0, now=0.3)
    assert (
        not table.collecting and table.in_hand and wire(table.snapshot(1))["players"][0]["trustee"]
    )
    run_out(table)
    assert table.outcome is not None and table.outcome.escaper == 0


def test_the_paced_deal_runs_after_the_window() -> None:
    """huanle deals in steps with 明牌 windows: they start once the hand is dealt."""
    table = make_table("doudizhu-huanle", humans=(0, 1), deal_step=2.0)
    table.start_hand("h", 9, now=0.0)
    table.contribute(0, "h", A, 0.2)
    table.contribute(1, "h", B, 0.3)
    assert table.game_state.cards_dealt == 0 and table.deadline() == 2.3
    turn = frames_of(table)[0][-1]
    assert turn["type"] == "turn" and turn["seat"] is None and turn["options"] == ["show"]
    table.act(0, "show", now=0.5)  # 明牌开始
    table.tick(2.3)
    assert table.game_state.cards_dealt == 8
    run_out(table)
    assert table.outcome is not None and table.outcome.record is not None
    assert verify(table.outcome.record).ok


def test_the_next_hand_waits_again() -> None:
    table = make_table(humans=(0, 1))
    table.start_hand("h1", SEED, now=0.0)
    table.tick(WINDOW)
    run_out(table)
    table.start_hand("h2", SEED + 1, now=500.0)
    assert table.collecting and table.entropy == (None, None, None)
    assert refused(table.contribute, 0, "h1", A, 500.1) == "wrong_hand"
    table.contribute(0, "h2", A, 500.1)
    table.contribute(1, "h2", A, 500.2)
    assert not table.collecting and table.hands_started == 2
    assert table.game_state.hand_number == 1
