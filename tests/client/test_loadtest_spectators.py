"""The spectators' load check (``qipai loadtest --private --spectators``): which spectator
frames count as showing a hidden card, and frames per spectator per hand."""

from __future__ import annotations

from qipai.client.watchload import WatchStats, hidden_event, leaks, shown_but_hidden, summary

SPECTATOR_VIEW = {"seat": -1, "hand": [], "legal_actions": [], "card_counts": [17, 17, 17]}


def test_a_spectators_snapshot_and_turn_show_no_hand_and_no_legal_action() -> None:
    watching = {"type": "snapshot", "table": 1, "n": 4, "seat": None, "view": SPECTATOR_VIEW}
    assert not leaks(watching)
    assert leaks({**watching, "seat": 0})
    assert leaks({**watching, "view": {**SPECTATOR_VIEW, "seat": 2}})
    assert leaks({**watching, "view": {**SPECTATOR_VIEW, "hand": ["3s"]}})
    assert leaks({**watching, "view": {**SPECTATOR_VIEW, "legal_actions": ["pass"]}})
    turn = {"type": "turn", "table": 1, "n": 4, "seat": 1}
    assert not leaks(turn)
    assert leaks({**turn, "legal": ["pass"]}) and leaks({**turn, "options": ["show"]})
    assert not leaks({"type": "event", "table": 1, "n": 5, "event": {"kind": "play"}})


def test_an_event_hidden_from_the_owner_must_be_hidden_from_every_spectator() -> None:
    assert hidden_event({"type": "event", "table": 3, "n": 2, "hidden": True}) == (3, 2)
    assert hidden_event({"type": "event", "table": 3, "n": 2, "event": {}}) is None
    clean, leaky = WatchStats(shown={(3, 1), (3, 3)}), WatchStats(shown={(3, 2), (3, 3)})
    assert shown_but_hidden([clean], {(3, 2)}) == 0
    assert shown_but_hidden([clean, leaky, leaky], {(3, 2)}) == 2


def test_frames_per_spectator_per_hand_are_the_median_and_the_most() -> None:
    watchers = [WatchStats(frames=30, hands=3), WatchStats(frames=44, hands=4), WatchStats()]
    assert summary(watchers) == {"median": 10.5, "max": 11.0}  # one saw no hand end
    assert summary([WatchStats()]) == {"median": None, "max": None}
