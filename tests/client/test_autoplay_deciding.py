""":class:`AutoPlayer` answers a decision made at the same time as others (Dou Dizhu 加倍 in
``huanle`` and ``jj``) once: the others' choices renumber the turn frames it gets while
its own is on the way, and answering each would send a second, refused, choice."""

from __future__ import annotations

from qipai.client.autoplay import AutoPlayer

LEGAL = ["double", "pass"]


def _turn(n: int) -> dict[str, object]:
    return {"type": "turn", "table": 5, "n": n, "seat": None, "deciding": [0, 1, 2],
            "legal": LEGAL}  # fmt: skip


def test_a_decision_taken_at_once_with_others_is_answered_once_per_hand() -> None:
    player = AutoPlayer(lambda legal: legal[0])
    assert player.on_frame(_turn(20)) == {"type": "act", "action": "double", "table": 5}
    assert player.on_frame(_turn(21)) is None  # another seat chose: the same decision
    assert player.on_frame(_turn(22)) is None
    player.on_frame({"type": "hand_start", "table": 5, "n": 30, "hand": "h2"})
    assert player.on_frame(_turn(40)) is not None  # the next hand's 加倍: a new decision


def test_turns_in_turn_are_answered_each_time_the_number_moves() -> None:
    player = AutoPlayer(lambda legal: legal[-1])
    turn = {"type": "turn", "table": 5, "n": 3, "seat": 0, "legal": ["pass", "play 3"]}
    assert player.on_frame(turn) is not None
    assert player.on_frame(turn) is None  # the same frame again: already answered
    assert player.on_frame({**turn, "n": 6}) is not None
