"""The replay of a finished hand: every step as one seat saw it, with every card revealed.

A replay is built from the hand's record (:mod:`qipai.hall.records`: the seed and the
actions) by replaying it with the game's engine.  Each step carries the seat's own
``view`` (the same JSON the table sends in a snapshot, so the browser draws a replay with
its table code) and ``cards``, every hidden card at that moment (the engine adapter's
:meth:`~qipai.hall.engines.Engine.reveal`).  Revealing them is safe only because the hand
is over: its record publishes the seed, from which every card follows anyway.

The replay's ``deal`` is what the hand dealt, for the browser to re-derive from the seed
(``js/deal.js``, the twin of :mod:`qipai.chance`): ``chance`` (the record's version),
``seats`` (every card each seat was dealt, in the order dealt), and per game ``deals`` and
``bottom`` (Dou Dizhu: deals including redeals; the last deal's bottom) or ``dealer`` (Zha
Jin Hua: the seat dealt first).

>>> from qipai.games.zhajinhua import Fold, State
>>> from qipai.hall.records import record_hand
>>> state = State.new("yifa", seed=7, players=2, dealer=0)
>>> _ = state.apply(Fold())
>>> replay = replay_json(record_hand("zhajinhua", state, seed=7), seat=0)
>>> [(step["seat"], step["action"]) for step in replay["steps"]]
[(None, None), (1, 'fold')]
>>> replay["steps"][0]["view"]["hand"] is None, len(replay["steps"][0]["cards"]["hands"][0])
(True, 3)
>>> replay["deal"]["chance"], replay["deal"]["dealer"], len(replay["deal"]["seats"][1])
('v2', 0, 3)
"""

from __future__ import annotations

from typing import Any

from qipai.errors import InvalidActionError
from qipai.hall.engines import engine_for
from qipai.hall.records import HandRecord, replay_steps
from qipai.hall.wire import Json, to_json, view_json


def replay_json(record: HandRecord, seat: int) -> dict[str, Json]:
    """``record``'s hand step by step as ``seat`` saw it, every card revealed.

    ``steps[0]`` is the hand before its first action (``seat`` and ``action`` ``None``),
    then one step per recorded action: ``{"seat", "action", "view", "cards"}``.  The views
    carry no ``legal_actions`` (a replay takes no action).

    :raises InvalidActionError: ``bad_seat`` for a seat the hand did not have, and the
        errors of :func:`~qipai.hall.records.replay_steps`.
    """
    seats = len(record.result)
    if not 0 <= seat < seats:
        raise InvalidActionError("bad_seat", f"the hand had seats 0 to {seats - 1}, not {seat}")
    engine = engine_for(record.game)
    steps: list[Json] = []
    state: Any = None
    for step, state in replay_steps(record):
        view = view_json(record.game, state.view(seat))
        view["legal_actions"] = []
        steps.append(
            {
                "seat": None if step is None else step[0],
                "action": None if step is None else step[1],
                "view": view,
                "cards": {name: to_json(cards) for name, cards in engine.reveal(state).items()},
            }
        )
    return {
        "game": record.game,
        "rules": record.rules,
        "seat": seat,
        "steps": steps,
        "deal": _deal(record, state),
    }


def _deal(record: HandRecord, state: Any) -> dict[str, Json]:
    """What ``state``, the finished hand, dealt (module docstring), read from its events."""
    seats: list[list[Any]] = [[] for _ in record.result]
    deal: dict[str, Json] = {"chance": record.chance}
    if record.game == "zhajinhua":
        seats = [list(cards) for cards in state.hands]
        deal["dealer"] = state.dealer
    for event in state.events:
        kind = type(event).__name__
        if kind == "Redealt":
            seats = [[] for _ in record.result]
        elif kind == "CardsDealt" and record.game == "doudizhu":
            seats[event.seat] += event.cards
        elif kind == "CardDealt":
            seats[event.seat].append(event.card)
    if record.game == "doudizhu":
        deal["deals"] = state.deal_number
        deal["bottom"] = to_json(state.bottom)
    deal["seats"] = to_json(seats)
    return deal
