"""No leak, and coins that add up: many seeded random hands of every shipped room.

Each table mixes humans and bots; the humans act (well and badly), time out, press 托管
and cancel it, drop and come back, escape; at some tables each hand first waits for the
players' entropy, which they send (well and badly) or not; the clock jumps from deadline to
deadline.
After every call each seat's frames are drained and checked:

- no card string of another seat's hidden hand, no bottom card before it is shown, no Zha
  Jin Hua card of one's own before looking — checked against the actual hands of the
  engine state, independently of the views;
- nothing but the cards of the seat's own view at that moment and of the events visible to
  it (the game's view is the reference);
- the ``hand_over`` frame's ``cards``, every card of the finished hand (shown when it ends,
  with its seed), are exactly the game's reveal of the final state; the rest of the frame
  passes the checks above;
- ``legal`` only in the copy for the seat to act; event numbers without gaps;
- every snapshot and ``frames_since`` replay passes the same checks and agrees with the
  frames the seat received;
- a call that raises changes nothing and sends nothing.

Every finished hand's coins add up (net + rake + fees = 0) and no balance goes negative.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hidden_kit import CARD_TEXTS, HIDDEN

from json_kit import Wire, strings, wire, wires
from qipai.errors import GameError
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import SeatInfo, Table
from qipai.hall.wire import action_text, event_json, to_json, view_json
from qipai.registry import game_type

ROOMS = {room.id: room for room in default_rooms()}
JUNK = ["", "  ", "dance", "play", "play 3x", "bid 9", "raise -1", "compare", "bet 0", "x" * 500]


def cards_in(value: object) -> set[str]:
    return {s for s in strings(value) if s in CARD_TEXTS}


# --- the checker -------------------------------------------------------------------------


@dataclass
class SeatLog:
    """What one seat received."""

    events: list[Wire] = field(default_factory=list)
    """Its event frames (events and placeholders), in order."""
    last: int = 0


@dataclass
class Checker:
    table: Table
    humans: list[int]
    logs: dict[int, SeatLog] = field(default_factory=dict)
    frames: int = 0
    seen_from: dict[int, int] = field(default_factory=dict)
    """Per seat: how many of the hand's events were folded into ``visible``."""
    visible: dict[int, set[str]] = field(default_factory=dict)
    """Per seat: cards in the hand's events visible to it."""

    def __post_init__(self) -> None:
        self.logs = {seat: SeatLog() for seat in self.humans}

    def new_hand(self) -> None:
        self.seen_from = dict.fromkeys(self.humans, 0)
        self.visible = {seat: set() for seat in self.humans}

    def allowed(self, seat: int) -> set[str]:
        state = self.table.game_state
        if state is None:
            return set()
        events = state.events
        for event in events[self.seen_from[seat] :]:
            if event.visible_to(seat):
                self.visible[seat] |= cards_in(event_json(event))
        self.seen_from[seat] = len(events)
        view = view_json(self.table.room.game, state.view(seat))
        return self.visible[seat] | cards_in(view)

    def floors(self) -> tuple[int, int]:
        """The number before the hand's first event, and before its current deal's."""
        state = self.table.game_state
        events = state.events
        base = self.table.last_event - len(events)
        redeals = [i for i, e in enumerate(events) if type(e).__name__ == "Redealt"]
        return base, base + (redeals[-1] + 1 if redeals else 0)

    def check_cards(self, seat: int, frame: Wire) -> None:
        state = self.table.game_state
        if frame["type"] == "hand_over" and frame["hand"] != self.table.hand_id:
            return  # an earlier hand's end, replayed: checked when it was first sent
        if frame["type"] == "hand_over" and "cards" in frame:
            reveal = game_type(self.table.room.game).reveal(state)
            shown = {name: to_json(cards) for name, cards in reveal.items()}
            assert frame["cards"] == shown, f"the end shows other cards than the hand's: {frame}"
            frame = {key: value for key, value in frame.items() if key != "cards"}
        found = cards_in(frame)
        if not found or state is None:
            return
        hand_base, deal_base = self.floors()
        n = frame["n"] if frame["type"] == "event" else None
        if n is not None and n <= hand_base:
            return  # an earlier hand's event, replayed: checked when it was first sent
        if n is None or n > deal_base:  # earlier deals of this hand hold other cards
            leak = found & HIDDEN[self.table.room.game](state, seat)
            assert not leak, f"seat {seat} was sent hidden cards {leak}: {frame}"
        extra = found - self.allowed(seat)
        assert not extra, f"seat {seat} was sent {extra}, not in its view or events: {frame}"

    def check_frame(self, seat: int, frame: Wire) -> None:
        json.dumps(frame)
        assert frame["table"] == self.table.number
        self.check_cards(seat, frame)
        if frame["type"] == "turn":
            deciding = frame.get("deciding", [])  # choosing 加倍 at the same time
            assert frame["seat"] is None or not deciding
            assert ("legal" in frame) == (frame["seat"] == seat or seat in deciding)
            assert "options" not in frame or frame["seat"] != seat
        event = frame.get("event") or {}
        if event.get("kind") == "Doubled" and event.get("secret"):
            assert event["seat"] == seat, f"seat {seat} saw another's secret 加倍: {frame}"

    def drain(self) -> None:
        for out in self.table.drain():
            seat, frame = out.seat, wire(out.frame)
            assert seat in self.logs, f"a frame for seat {seat}, a bot"
            log = self.logs[seat]
            self.check_frame(seat, frame)
            if frame["type"] == "event":
                assert frame["n"] == log.last + 1, "event numbers have a gap"
                assert ("event" in frame) != frame.get("hidden", False)
                log.last = frame["n"]
                log.events.append(frame)
            else:
                assert frame["n"] == log.last
            self.frames += 1

    def check_resync(self, seat: int, rng: random.Random) -> None:
        snapshot = wire(self.table.snapshot(seat))
        self.check_frame(seat, snapshot)
        state = self.table.game_state
        if state is not None:
            assert snapshot["view"] == view_json(self.table.room.game, state.view(seat))
        log = self.logs[seat]
        since = rng.randrange(log.last + 1)
        replay = wires(self.table.frames_since(seat, since))
        assert replay is not None
        events = [f for f in replay if f["type"] == "event"]
        assert events == log.events[since:]
        for frame in replay:
            self.check_frame(seat, frame)
        assert wires(self.table.frames_since(seat, log.last + 1)) is None


# --- driving a table ---------------------------------------------------------------------


def fingerprint(table: Table) -> str:
    """What a refused call must leave as it was (test_table.py compares whole views)."""
    state = table.game_state
    hand = None if state is None else [len(state.history), len(state.events), state.current_player]
    return json.dumps(
        [
            hand,
            table.in_hand,
            table.deadline(),
            table.last_event,
            wire(table.snapshot(0))["players"],
            [info.balance for info in table.seats],
        ]
    )


@dataclass
class Driver:
    table: Table
    checker: Checker
    rng: random.Random
    now: float = 0.0
    errors: int = 0
    escapes: int = 0
    mix: random.Random = field(default_factory=lambda: random.Random(0))
    """The entropy's own draws (so that a table without a window draws as it always did)."""

    @property
    def humans(self) -> list[int]:
        return self.checker.humans

    def call(self, method: str, *args: object) -> bool:
        """Call a table method; on an error, check that nothing changed."""
        before = fingerprint(self.table)
        try:
            getattr(self.table, method)(*args)
        except GameError as error:
            assert error.code and error.code.islower()
            assert fingerprint(self.table) == before, f"{method}{args} raised and changed state"
            assert self.table.drain() == []
            self.errors += 1
            return False
        self.checker.drain()
        return True

    def some_action(self, seat: int) -> str:
        table = self.table
        state = table.game_state
        engine = table.engine
        roll = self.rng.random()
        if roll < 0.1 or state is None:  # (no hand dealt yet: it waits for entropy)
            return self.rng.choice(JUNK)
        if roll < 0.2:  # another seat's action, or a command sent as a move
            other = self.rng.randrange(len(table.seats))
            actions = engine.actions(state, other) if table.in_hand else []
            extra = ["trustee on", "escape"] if table.room.game == "doudizhu" else ["fold"]
            return action_text(self.rng.choice(actions)) if actions else self.rng.choice(extra)
        actions = engine.actions(state, seat)
        return action_text(self.rng.choice(actions)) if actions else "fold"

    def waiting_for(self) -> int | None:
        """The human to act, if one must decide now (not a bot, not in 托管)."""
        table = self.table
        state = table.game_state
        actor = state.current_player if table.in_hand and state is not None else None
        if (
            actor is None
            or actor not in self.humans
            or wire(table.snapshot(actor))["players"][actor]["trustee"]
        ):
            return None
        return int(actor)

    def tick(self) -> None:
        deadline = self.table.deadline()
        if deadline is not None:
            self.now = max(self.now, deadline)
        self.call("tick", self.now)

    def some_entropy(self) -> None:
        """A contribution: mostly a good one of a human for the hand, sometimes not."""
        mix, table = self.mix, self.table
        seat = mix.choice(self.humans)
        if mix.random() < 0.15:
            seat = mix.randrange(-1, len(table.seats) + 1)
        values = [mix.randbytes(32).hex(), mix.randbytes(16).hex().upper(), "zz" * 16, "ab", 7]
        value = values[0] if mix.random() < 0.7 else mix.choice(values)
        hand = table.hand_id if mix.random() < 0.9 else "another"
        self.call("contribute", seat, hand, value, self.now)

    def step(self) -> None:
        if self.table.collecting and self.mix.random() < 0.9:
            self.some_entropy()
            return
        rng = self.rng
        seat = rng.choice(self.humans)
        actor = self.waiting_for()
        roll = rng.random()
        if actor is not None and roll < 0.7:
            self.call("act", actor, self.some_action(actor), self.now)
        elif actor is None and roll < 0.6:
            self.tick()
        elif roll < 0.75:
            self.call(
                "act", rng.choice([*self.humans, seat, -1, 99]), self.some_action(seat), self.now
            )
        elif roll < 0.8:
            self.tick()
        elif roll < 0.85:
            self.call("set_trustee", seat, rng.random() < 0.4, self.now)
        elif roll < 0.89:
            self.call("disconnect", seat, self.now)
        elif roll < 0.94:
            self.call("reconnect", seat, self.now)
        elif roll < 0.955:
            self.escapes += self.call("escape", seat, self.now)
        else:
            self.checker.check_resync(seat, rng)
        if rng.random() < 0.02:
            self.call("act", rng.randrange(len(self.table.seats)), "pass", self.now)  # maybe a bot

    def play_hand(self, hand: int, seed: int) -> bool:
        self.checker.new_hand()
        if not self.call("start_hand", f"hand-{hand}", seed, self.now):
            return False
        for _ in range(5000):
            if not self.table.in_hand:
                break
            self.step()
        assert self.table.is_over
        for seat in self.humans:
            self.checker.check_resync(seat, self.rng)
        return True


def play_table(room: Room, seed: int, hands: int) -> tuple[Driver, list[Any]]:
    rng = random.Random(seed)
    mix = random.Random(-seed)
    humans = sorted(rng.sample(range(room.seats), rng.randint(1, room.seats)))
    floor = max(room.min_coins, 1)
    seats = [
        SeatInfo(
            f"p{s}" if s in humans else None,
            f"seat{s}",
            floor + rng.choice([0, floor, 5 * floor, 10**6]),
        )
        for s in range(room.seats)
    ]
    table = Table(
        room,
        seed,
        seats,
        now=0.0,
        bot_delay=rng.choice([0.0, 0.5, 2.0]),
        rng=random.Random(seed),
        deal_step=rng.choice([0.0, 1.0]),
        entropy_window=mix.choice([0.0, 1.0]),
    )
    driver = Driver(table, Checker(table, humans), rng, mix=mix)
    outcomes = []
    for hand in range(hands):
        if not driver.play_hand(hand, seed * 1000 + hand):
            break
        outcome = table.outcome
        assert outcome is not None
        after = [b + n for b, n in zip(outcome.balances, outcome.settlement.net, strict=True)]
        assert [info.balance for info in table.seats] == after
        outcomes.append(outcome)
    return driver, outcomes


TABLES = 8
"""Tables per room (Showhand: twice as many; its stacks of 100 × base run out fast)."""
HANDS = 4


@pytest.mark.parametrize("room_id", sorted(ROOMS))
def test_no_leak_and_coins_add_up(room_id: str) -> None:
    room = ROOMS[room_id]
    frames = errors = escapes = hands = mixed = 0
    tables = TABLES * (2 if room.game == "showhand" else 1)
    for seed in range(tables):
        driver, outcomes = play_table(room, seed + 1, HANDS)
        frames += driver.checker.frames
        errors += driver.errors
        escapes += driver.escapes
        hands += len(outcomes)
        for outcome in outcomes:
            s = outcome.settlement
            assert sum(s.net) + sum(s.rake) + sum(s.fees) == 0
            assert all(b + n >= 0 for b, n in zip(outcome.balances, s.net, strict=True))
            assert min(s.rake + s.fees) >= 0
            assert outcome.voided or outcome.record is not None
            if outcome.record is not None:
                assert outcome.record.result == s.points
                assert outcome.record.entropy == (outcome.entropy or None)
                mixed += bool(outcome.entropy)
    assert hands >= tables
    assert frames > 100 and errors > 10 and escapes > 0
    assert 0 < mixed < hands  # hands dealt with entropy and without
