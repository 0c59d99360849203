"""Random command sequences against the live hall's core (Hypothesis), its invariants
checked after every step:

- coins conserved: every settled hand balances (net + rake + fees = 0) and no player's
  coins go below zero;
- no player at two tables: each sits at most at one, the table he is recorded at holds him,
  and a seated player waits in no queue; a person at a private table 好友房 is in no room
  and at no other private table, and watches nothing;
- one place per person: a cash room, a private table, a match run (registered or playing)
  or a table watched, never two of them;
- no ``Send`` to a player carrying a card his seat may not see while the hand is in play
  (read from the engine state itself: :mod:`hidden_kit`), nor to a spectator 观战 a card
  the spectator's view may not show (no ``legal``/``options`` either);
- a refused command changes nothing: no effect.

The steps: joins (for one hand or on), leaves, actions (legal ones, junk, out of turn),
托管, escapes, escape costs, drops and returns, resyncs, chat, entropy, the clock jumping
to the next wake-up, matchmaking passes, private tables created, joined, readied, started,
kicked from and closed, match registrations, withdrawals and passes (bots fill the run,
it plays its tables), and the store answering (or failing) each write.
"""

from __future__ import annotations

from core_kit import room
from hidden_kit import CARD_TEXTS, HIDDEN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matchworld_kit import MATCH, MatchWorld

from json_kit import strings
from qipai.games.events import SPECTATOR
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall import frames
from qipai.hall.chat import PHRASES
from qipai.hall.frames import to_json
from qipai.hall.match import commands as mc
from qipai.hall.private.options import PrivateOptions

ROOMS = [
    room("doudizhu-yifa"),
    room("doudizhu-yifa", id="keeps", regroup=False),
    room("doudizhu-huanle"),  # an escape before the start is an escape
    room("zhajinhua-yifa"),
    room("showhand-yifa"),
]
USERS = (1, 2, 3, 4)
JUNK = ["", "pass", "play 3x", "bid 9", "raise -1", "dance", "fold", "call"]
KINDS = (
    ["join"] * 3 + ["leave", "act", "act", "act", "junk", "trustee", "escape", "cost", "drop"]
    + ["back", "resync", "chat", "entropy", "wait", "wait"] + ["tick"] * 8 + ["answer"] * 4
    + ["fail", "watch", "watch", "unwatch"]
    + ["create", "pjoin", "pjoin", "ready", "ready", "start", "kick", "close"]  # 好友房
    + ["register", "register", "unregister", "mtick"]  # a match
)  # fmt: skip
PRIVATE = [
    PrivateOptions("doudizhu", "huanle"),
    PrivateOptions("doudizhu", "yifa", stakes="coins", hands=0),
    PrivateOptions("zhajinhua", "yifa", hands=12, delay=1),
    PrivateOptions("doudizhu", "yifa", hands=5),  # refused
]


class Run:
    """One sequence: the world, what each player was last offered, the checks."""

    def __init__(self, entropy: bool) -> None:
        self.world = MatchWorld(rooms=ROOMS, coins=3_000, entropy_window=0.5 if entropy else 0.0)
        self.legal: dict[int, tuple[int, list[str]]] = {}
        self.hands: dict[int, tuple[int, str]] = {}
        for user in USERS:
            self.world.core.player(user, f"p{user}")

    def step(self, kind: str, user: int, pick: int) -> None:
        world = self.world
        before = len(world.effects)
        command = self._command(kind, user, pick)
        if command is None:
            return
        error = world.try_handle(command)
        if error is not None:
            assert len(world.effects) == before, (command, error)  # nothing changed
        self.check(world.effects[before:])

    def _command(self, kind: str, user: int, pick: int) -> c.Command | None:
        world = self.world
        match kind:
            case "join":
                target = ROOMS[pick % len(ROOMS)].id
                return c.Join(user, target, world.balance(user), once=pick % 3 == 0)
            case "leave":
                return c.Leave(user)
            case "act":
                table, legal = self.legal.get(user, (0, ["pass"]))
                return c.Act(user, legal[pick % len(legal)], table if pick % 4 else None)
            case "junk":
                return c.Act(user, JUNK[pick % len(JUNK)])
            case "trustee":
                return c.Trustee(user, pick % 2 == 0)
            case "escape":
                return c.Escape(user)
            case "cost":
                return c.EscapeCost(user)
            case "drop":
                return c.Presence(user, False)
            case "back":
                self._back(user)
                return c.Presence(user, True)
            case "resync":
                return c.Resync(user)
            case "chat":
                phrases = [*PHRASES, "nonsense"]
                return c.Chat(user, phrases[pick % len(phrases)])
            case "entropy":
                table, hand = self.hands.get(user, (0, "none"))
                return c.Contribute(user, table, hand, f"{pick:032x}")
            case "watch":
                if pick % 3 == 0:
                    return c.Spectate(user, player=f"p{USERS[pick % len(USERS)]}")
                if pick % 3 == 1:  # a private table by code, waiting or playing
                    codes = sorted(world.core.private.tables) or ["000000"]
                    return c.Spectate(user, code=codes[pick % len(codes)])
                numbers = sorted(world.core.flow.tables) or [pick]
                return c.Spectate(user, table=numbers[pick % len(numbers)])
            case "unwatch":
                return c.StopSpectating(user)
            case "create" | "pjoin" | "ready" | "start" | "kick" | "close":
                return self._private(kind, user, pick)
            case "register":
                world.balance(user)  # (his ledger's account)
                return mc.Register(user, f"p{user}", MATCH)
            case "unregister":
                return mc.Unregister(user, MATCH)
            case "mtick":
                world.tick(2.5 * (pick % 4))
                self.check([])
                return None
            case _:
                self._world_step(kind, pick)
                return None

    def _private(self, kind: str, user: int, pick: int) -> c.Command:
        """A private table's command (a code of an open table, or none)."""
        balance = self.world.balance(user)
        match kind:
            case "create":
                return c.CreatePrivate(user, PRIVATE[pick % len(PRIVATE)], balance)
            case "pjoin":
                codes = sorted(self.world.core.private.tables) or ["000000"]
                return c.JoinPrivate(user, codes[pick % len(codes)], balance)
            case "ready":
                return c.Ready(user, pick % 4 != 0)
            case "start":
                return c.StartPrivate(user)
            case "kick":
                return c.KickPrivate(user, pick % 3)
            case _:
                return c.ClosePrivate(user)

    def _back(self, user: int) -> None:
        """He comes back: what he missed first (checked like any frame), then present."""
        if user in self.world.core.players:
            before = len(self.world.effects)
            self.world.handle(c.Resume(user))
            self.check(self.world.effects[before:])
        else:
            self.world.core.player(user, f"p{user}")

    def _world_step(self, kind: str, pick: int) -> None:
        world = self.world
        before = len(world.effects)
        match kind:
            case "tick":
                world.advance()
            case "wait":
                world.now += 0.25 * (pick % 8)
                world.handle(c.Matchmake(frozenset(r.id for r in ROOMS)))
            case "answer" | "fail" if world.pending:
                world.answer(pick % len(world.pending), fail=kind == "fail")
            case _:
                pass
        self.check(world.effects[before:])

    # --- the invariants -----------------------------------------------------------------

    def check(self, effects: list[e.Effect]) -> None:
        for effect in effects:
            if isinstance(effect, e.Send):
                self._no_hidden_card(effect)
                self._note(effect)
        self._one_table_each()
        self._one_place_each()
        self._coins_conserved()

    def _note(self, send: e.Send) -> None:
        frame = to_json(send.frame)
        if "legal" in frame:
            self.legal[send.user] = (frame["table"], list(frame["legal"]))
        if frame["type"] == "hand_start":
            self.hands[send.user] = (frame["table"], frame["hand"])

    def _no_hidden_card(self, send: e.Send) -> None:
        frame, world = to_json(send.frame), self.world
        live = world.core.flow.tables.get(frame.get("table", -1))
        if live is None or frame["type"] == "hand_over":
            return
        if world.core.watch.watching.get(send.user) == live.number:
            assert "legal" not in frame and "options" not in frame, frame
            seat = SPECTATOR
        elif send.user in live.users:
            seat = live.seat_of(send.user)
        else:
            return
        state = live.table.game_state
        if state is None or state.is_terminal:
            return  # nothing dealt yet, or every card shown with the seed
        event = frame.get("event")
        if isinstance(event, dict) and event.get("seat") == seat:
            return  # his own cards (of this deal, or of one redealt since, in the same step)
        hidden = HIDDEN[live.table.room.game](state, seat)
        shown = {s for s in strings(frame) if s in CARD_TEXTS}
        assert not shown & hidden, (frame, shown & hidden)

    def _one_place_each(self) -> None:
        core = self.world.core
        for user, player in core.players.items():
            places = [
                player.room is not None,
                player.private is not None,
                core.matches.run_of(user) is not None,
                core.watch.watches(user),
            ]
            assert sum(places) <= 1, (user, places)

    def _one_table_each(self) -> None:
        core = self.world.core
        for user, number in core.watch.watching.items():  # a spectator has no place
            player = core.players[user]
            assert player.room is None and player.table is None, (user, number)
            assert player.private is None, (user, number)
        for user, code in core.watch.parked.items():  # waiting for a private table's hand
            player = core.players[user]
            assert player.room is None and player.table is None and player.private is None
            assert code in core.private.tables and user not in core.watch.watching
        for code, private in core.private.tables.items():  # 好友房: one place too
            for _, user in private.people():
                assert core.players[user].private == code and core.players[user].room is None
        for user, player in core.players.items():
            if player.private is not None:
                assert user in core.private.tables[player.private].seats, (user, player.private)
        seated: dict[int, int] = {}
        for number, live in core.flow.tables.items():
            for _, user in live.humans():
                assert user not in seated, f"user {user} at tables {seated[user]} and {number}"
                seated[user] = number
        for user, player in core.players.items():
            if player.table is not None:
                assert seated.get(user) == player.table, (user, player.table, seated)
                assert player.room is None or not core.cash.rooms[player.room].lobby.is_queued(
                    player.pid
                )

    def _coins_conserved(self) -> None:
        for outcome in self.world.settled:
            s = outcome.settlement
            assert sum(s.net) + sum(s.rake) + sum(s.fees) == 0, outcome
        assert all(coins >= 0 for coins in self.world.ledger.values()), self.world.ledger


STEP = st.tuples(st.sampled_from(KINDS), st.sampled_from(USERS), st.integers(0, 1_000))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(entropy=st.booleans(), steps=st.lists(STEP, min_size=20, max_size=150))
def test_random_command_sequences_keep_the_halls_invariants(
    entropy: bool, steps: list[tuple[str, int, int]]
) -> None:
    run = Run(entropy)
    for kind, user, pick in steps:
        run.step(kind, user, pick)


def test_the_checks_can_fail() -> None:
    """A card hidden from a seat, sent to it, is caught; so is a player at two tables."""
    run = Run(entropy=False)
    world = run.world
    world.join(1, ROOMS[0].id)
    world.pass_time(1.0)
    world.answer_all()
    live = world.core.table_of(1)
    assert live is not None
    seat = live.seat_of(1)
    hidden = sorted(HIDDEN["doudizhu"](live.table.game_state, seat))
    leak = frames.Event(table=live.number, n=0, event={"cards": hidden[:1]})
    try:
        run.check([e.Send(1, leak)])
    except AssertionError:
        pass
    else:
        raise AssertionError("a hidden card went unseen")
    world.core.player(9, "p9")
    world.handle(c.Spectate(9, table=live.number))
    own = sorted(HIDDEN["doudizhu"](live.table.game_state, SPECTATOR) - set(hidden))
    assert own  # the player's own cards: hidden from a spectator
    try:  # his own cards may go to the player, never to a spectator
        run.check([e.Send(9, frames.Event(table=live.number, n=0, event={"cards": own[:1]}))])
    except AssertionError:
        pass
    else:
        raise AssertionError("a hidden card sent to a spectator went unseen")
    world.core.players[1].table = live.number + 1
    try:
        run.check([])
    except AssertionError:
        return
    raise AssertionError("a player at a table that does not hold him went unseen")
