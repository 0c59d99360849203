"""The end of a table's hand (:class:`~qipai.hall.table.table.Table`): its settlement, its
outcome (:class:`~qipai.hall.table.values.HandOutcome`) and the ``hand_over`` frame.

Functions of the table, read only: the table keeps the outcome, moves the seats'
balances and sends the frame.
"""

from __future__ import annotations

import json

from msgspec import UNSET

from qipai.errors import InvalidActionError
from qipai.hall.coins import Settlement, limited, settle
from qipai.hall.frames import HandOver
from qipai.hall.records import HandRecord, record_hand
from qipai.hall.table.hand import HandState
from qipai.hall.table.state import TableState
from qipai.hall.table.values import HandOutcome
from qipai.hall.wire import reveal_json
from qipai.jsontypes import Json


def hand_outcome(table: TableState) -> HandOutcome:
    """The outcome of ``table``'s hand, over: settled (nothing where it was voided),
    recorded, its winners, its cards shown."""
    state, room = table.hand.dealt_state, table.room
    winners: tuple[int, ...]
    shown: dict[str, Json] = {}
    roles: tuple[str | None, ...] = ()
    feats: tuple[frozenset[str], ...] = ()
    if table.hand.voided:
        settlement, record, winners = Settlement.nothing(len(table.seats)), None, ()
    else:
        settlement = settle(room, state.returns(), table.hand.balances, table.terms.payout)
        record, winners = hand_record(table), table.engine.winners(state)
        shown, roles = shown_of(table, state), table.engine.roles(state)
        feats = table.engine.feats(state)
    assert table.hand_id is not None and table.commitment is not None
    return HandOutcome(
        hand_id=table.hand_id,
        room_id=room.id,
        game=room.game,
        rules=room.rules,
        seats=tuple(info.player for info in table.seats),
        seed=table.hand.seed,
        commitment=table.commitment,
        record=record,
        settlement=settlement,
        winners=winners,
        escaper=table.hand.escaper,
        balances=table.hand.balances,
        voided=table.hand.voided,
        entropy=tuple(table.hand.entropy) if table.entropy_window > 0 else (),
        shown=shown,
        roles=roles,
        feats=feats,
    )


def shown_of(table: TableState, state: HandState) -> dict[str, Json]:
    """:attr:`HandOutcome.shown` of the finished ``state``."""
    return {"cards": reveal_json(table.room.game, state), "explain": table.engine.explain(state)}


def hand_record(table: TableState) -> HandRecord | None:
    """The record of ``table``'s finished hand (``qipai-hand/2`` without entropy, else
    ``qipai-hand/3``); ``None`` where the game cannot replay it."""
    try:
        hand, state = table.hand, table.hand.dealt_state
        if table.entropy_window == 0:
            return record_hand(table.room.game, state)
        return record_hand(table.room.game, state, seed=hand.seed, entropy=hand.entropy)
    except InvalidActionError as error:
        if error.code != "unreplayable_hand":
            raise
        return None


def hand_over_frame(table: TableState, outcome: HandOutcome) -> HandOver:
    """``table``'s ``hand_over`` frame of ``outcome``."""
    s, shown = outcome.settlement, outcome.shown
    record = None if outcome.record is None else json.loads(outcome.record.to_json())
    return HandOver(
        table=table.number,
        n=table.last_event,
        hand=outcome.hand_id,
        result=list(s.net),
        points=list(s.points),
        rake=list(s.rake),
        fees=list(s.fees),
        limited=list(limited(table.room, s, table.terms.payout)),
        coins=[b + n for b, n in zip(outcome.balances, s.net, strict=True)],
        winners=list(outcome.winners),
        escaper=outcome.escaper,
        voided=outcome.voided,
        seed=str(outcome.seed),
        record=record,
        cards=shown.get("cards", UNSET),
        explain=shown.get("explain", UNSET),
    )
