"""The replay of a finished hand: every step as one seat saw it, with every card revealed.

A replay is built from the hand's record (:mod:`qipai.hall.records`: the seed and the
actions) by replaying it with the game's engine.  Each step carries the seat's own
``view`` (the same JSON the table sends in a snapshot, so the browser draws a replay with
its table code) and ``cards``, every hidden card at that moment (the game's
:meth:`~qipai.registry.GameType.reveal`).  Revealing them is safe only because the
hand is over: its record publishes the seed, from which every card follows anyway.

The replay's ``deal`` is what the hand dealt, for the browser to re-derive from the seed
(``js/deal.js``, the twin of :mod:`qipai.chance`): ``chance`` (the record's version),
``seats`` (every card each seat was dealt, in the order dealt), and what else the game's
:meth:`~qipai.registry.GameType.dealt` gives (the deals and the bottom of a game that
redeals, the seat dealt first of one that deals from a dealer).
"""

from __future__ import annotations

from qipai.errors import InvalidActionError
from qipai.hall.records import HandRecord, replay_steps
from qipai.hall.wire import reveal_json, to_json, view_json
from qipai.jsontypes import Json
from qipai.registry import SomeState, game_type


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
    steps: list[Json] = []
    state: SomeState  # the hand after each step (replay_steps gives at least one)
    for step, state in replay_steps(record):
        view = view_json(record.game, state.view(seat))
        view["legal_actions"] = []
        steps.append(
            {
                "seat": None if step is None else step[0],
                "action": None if step is None else step[1],
                "view": view,
                "cards": reveal_json(record.game, state),
            }
        )
    return {
        "game": record.game,
        "rules": record.rules,
        "seat": seat,
        "steps": steps,
        "deal": _deal(record, state),
    }


def _deal(record: HandRecord, state: object) -> dict[str, Json]:
    """What ``state``, the finished hand, dealt (module docstring)."""
    dealt = game_type(record.game).dealt(state, len(record.result))
    return {"chance": record.chance, **{name: to_json(value) for name, value in dealt.items()}}
