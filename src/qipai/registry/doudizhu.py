"""Dou Dizhu in the game registry: its rooms, a table's hands, its records.

Bots: the strong player (:class:`~qipai.bots.doudizhu.StrongPolicy`, with the hall's
search budget :data:`HALL_WORLDS` and :data:`HALL_BUDGET`); the greedy player in bulk
play-outs (a simulated match), where speed counts.  托管, recorded in the hand
(jj's 托管 liability depends on it), in the room's style (its ``trustee`` field):
``basic``, the platforms' :class:`~qipai.bots.doudizhu.TrusteePolicy` (pass, lead the
smallest single, play the last card: the only style jj has, as its rules spell 托管 out),
or ``strong``, the strong player (the default of the other presets, whose rules only say
that the system plays).
Escapes: the engine's model (caishen, huanle, zhengtu); yifa and jj have none, so the
table plays the escaper in 托管 to the end.

The deal: yifa and zhengtu deal the whole hand at once (the engine does); caishen, huanle
and jj, whose 明牌 may be chosen before or during the deal, are dealt in paced steps
(:meth:`DoudizhuGame.deal_step`): a window for 明牌开始 before the first card, then one step
to each card count where the 明牌 factor changes (jj: 8 cards, ×5 up to there, ×3 after;
then 16), then the 17th card, which starts the bidding.  jj's cards arrive from each
player's highest to his lowest.

Rooms: 房间系数 N (``coefficient``) for every preset; the yifa rake (5% of each winner's
gain); huanle's fee A and 加倍 threshold; the minimum coins N × 96 (yifa's rule, the
largest yifa loss); zhengtu's tables stay together (``regroup = false``); huanle counts
leaving before the start as an escape.

>>> from qipai.registry.gametype import HandSetup
>>> state = GAME.new_hand(GAME.get_rules("jj"), HandSetup(seed=5, balances=(100, 100, 100)))
>>> [str(GAME.deal_step(state)), deal_targets(state.rules)]
['deal 8', (8, 16, 17)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from qipai.bots import doudizhu as bots
from qipai.cards import Card
from qipai.chance import V2
from qipai.games.doudizhu.actions import HAND_CARDS, Action, Deal, Escape, Trustee
from qipai.games.doudizhu.combos import Kind
from qipai.games.doudizhu.events import CardsDealt, Played, Redealt
from qipai.games.doudizhu.hand import Phase
from qipai.games.doudizhu.legal import legal_moves
from qipai.games.doudizhu.quote import escape_quote
from qipai.games.doudizhu.rules import ENGINE_VERSION, RULES, EscapeModel, Rules
from qipai.games.doudizhu.scoring import liable_farmers, multiplier_breakdown
from qipai.games.doudizhu.state import SEATS, State, replay
from qipai.games.doudizhu.tasks import TASK_FACTOR, parse_tasks
from qipai.games.doudizhu.view import View, make_view
from qipai.jsontypes import Json, entry
from qipai.registry.gametype import (
    BASIC_TRUSTEE,
    EscapeCost,
    GameType,
    HandSetup,
    Payout,
    Policy,
    RoomNumbers,
    only_options,
    register,
    seats_option,
)

HALL_WORLDS = 8
"""Deals the hall's strong player searches in an endgame, at most (fewer than the
arena's, so that a decision stays short in the hall's one event loop)."""
HALL_BUDGET = 2000
"""Moves weighed in the play-outs after which the hall's strong player tries no new deal."""
STRONG_TRUSTEE = "strong"
"""The 托管 style that plays with the strong player."""
MAX_DEALS = 20
"""Deals one hand may take (all-pass redeals) before the table voids it: a table of 托管
seats, which always decline, would redeal for ever."""
MIN_COINS_FACTOR = 96
"""yifa (and every preset's default): the minimum coins to enter are N × 96."""
YIFA_RAKE_PERCENT = 5
"""yifa: the house takes 5% of each winner's gain (rounded down by the settlement)."""

_PAYOUTS: Mapping[str, Payout] = {
    "yifa": Payout.WITHIN_BALANCES,
    "caishen": Payout.WITHIN_BALANCES,
    "huanle": Payout.LOSERS_TO_ZERO,
    "zhengtu": Payout.POINTS_ONLY,
    "jj": Payout.MINIMISED,
}
_EXTRA_FIELDS: Mapping[str, frozenset[str]] = {
    "yifa": frozenset({"rake_percent"}),
    "huanle": frozenset({"fee", "doubling_threshold"}),
    "jj": frozenset({"rake_percent"}),  # 平台费用, out of the winner's gain (0 unless set)
}


def deal_targets(rules: Rules) -> tuple[int, ...]:
    """The card counts the paced deal stops at (module docstring); ``()`` for rules whose
    whole hand is dealt at once."""
    show = rules.show
    if not (show.before_deal or show.during_deal):
        return ()
    stops = {min(most, HAND_CARDS - 1) for most, _ in show.during_deal}
    return tuple(sorted(stops | {HAND_CARDS}))


_FEATS = {Kind.BOMB: "bomb", Kind.WILD_BOMB: "bomb", Kind.ROCKET: "rocket"}
"""The kinds of play that are a seat's feats (:meth:`DoudizhuGame.feats`)."""


class DoudizhuGame(GameType[Rules, State, Action, View]):
    """斗地主: three seats, five presets (module docstring)."""

    name = "doudizhu"
    title = "斗地主"
    seats = (3, 3)
    default_seats = 3
    web_module = "doudizhu"
    engine_version = ENGINE_VERSION
    record_options = ("first_seat", "hand_number", "balances")
    room_fields: ClassVar[frozenset[str]] = frozenset(
        {"coefficient", "escape_before_start", "trustee", "card_counter", "tasks"}
    )
    trustee_styles = (BASIC_TRUSTEE, STRONG_TRUSTEE)

    presets = RULES
    action_type = Action

    def __init__(self) -> None:
        self.bot = bots.StrongPolicy(worlds=HALL_WORLDS, budget=HALL_BUDGET)
        self.greedy = bots.GreedyPolicy()
        self.trustee = bots.TrusteePolicy()

    @property
    def quick_bot(self) -> Policy[View, Action]:
        """The greedy player: a simulated match plays thousands of hands."""
        return self.greedy

    def quick_view(self, state: State, seat: int) -> View:
        """The seat's view without the multipliers so far, which the greedy player never
        reads (three quarters of a view's cost in a simulated match)."""
        return make_view(state, seat, figures=False)

    def trustee_policy(self, style: str) -> Policy[View, Action]:
        """``strong``: the strong player; ``basic``: the platforms' 托管."""
        return self.bot if style == STRONG_TRUSTEE else self.trustee

    # --- rooms ---

    def fields_of(self, preset: str) -> frozenset[str]:
        """N, the escape rule and the 托管 style (not in jj, whose 托管 is fixed); yifa's
        and jj's rake (jj's 平台费用); huanle's fee and 加倍 threshold."""
        fields = self.room_fields | _EXTRA_FIELDS.get(preset, frozenset())
        return fields - {"trustee"} if preset == "jj" else fields

    def room_defaults(self, preset: str, base: int) -> dict[str, Json]:
        """The preset's 加倍 threshold, yifa's rake, zhengtu's kept tables, huanle's
        escape before the start, strong 托管 but in jj, the 记牌器 offered."""
        del base
        return {
            "trustee": BASIC_TRUSTEE if preset == "jj" else STRONG_TRUSTEE,
            "doubling_threshold": RULES[preset].doubling_threshold,
            "rake_percent": YIFA_RAKE_PERCENT if preset == "yifa" else 0,
            "escape_before_start": preset == "huanle",
            "regroup": preset != "zhengtu",
            "card_counter": True,
        }

    def default_min_coins(self, room: RoomNumbers) -> int:
        """N × 96."""
        return room.coefficient * MIN_COINS_FACTOR

    def rules_for_room(self, preset: str, room: RoomNumbers) -> Rules:
        """The preset, with the room's 加倍 threshold (huanle) and its 任务 list.

        :raises InvalidActionError: ``bad_tasks`` for a task id no task has, or one twice.
        """
        rules = RULES[preset]
        changes: dict[str, object] = {}
        if room.doubling_threshold not in (None, rules.doubling_threshold):
            changes["doubling_threshold"] = room.doubling_threshold
        if room.tasks:
            changes["tasks"] = parse_tasks(room.tasks)
        return rules.derive(rules.name, **changes) if changes else rules

    def payout(self, preset: str) -> Payout:
        """yifa, caishen: within the balances; huanle: losers to zero; zhengtu: points
        only; jj: 积分最小化."""
        return _PAYOUTS[preset]

    # --- a table's hands ---

    def new_hand(self, rules: Rules, setup: HandSetup[State]) -> State:
        """A hand dealt from the seed; ``first_seat`` 0 (matchmaking shuffled the seats, or
        in a room that keeps its tables gave seat 0 to the player who entered first),
        balances given only where the rules have a doubling threshold (huanle)."""
        balances = setup.balances if rules.doubling_threshold is not None else None
        return State.new(
            rules,
            seed=setup.seed,
            first_seat=0,
            hand_number=setup.hand_number,
            balances=balances,
        )

    def is_command(self, action: Action) -> bool:
        """``trustee on/off`` and ``escape`` go through the table's commands."""
        return isinstance(action, (Trustee, Escape))

    def enter_trustee(self, state: State, seat: int) -> None:
        """Recorded in the hand (jj's 托管 liability depends on it)."""
        if not state.is_terminal:
            state.set_trustee(seat, True)

    def leave_trustee(self, state: State, seat: int) -> None:
        """Recorded in the hand."""
        if not state.is_terminal:
            state.set_trustee(seat, False)

    def escape(self, state: State, seat: int) -> bool:
        """caishen, huanle, zhengtu: the engine's escape; yifa, jj: none (``False``)."""
        if state.rules.escape is EscapeModel.NONE:
            return False
        state.escape(seat)
        return True

    def deal_step(self, state: State) -> Deal | None:
        """``Deal`` up to the next stop of :func:`deal_targets` while dealing."""
        if state.is_terminal or state.current_player is not None:
            return None
        dealt = state.cards_dealt
        target = next((t for t in deal_targets(state.rules) if t > dealt), HAND_CARDS)
        return Deal(target - dealt)

    def is_dealing(self, state: State) -> bool:
        """The first deal of a paced deal (caishen, huanle, jj), before the bidding; a
        redeal after all passed comes after the hand started."""
        return bool(state.deal_number == 1 and state.phase is Phase.DEAL)

    def deciding(self, state: State) -> tuple[int, ...]:
        """huanle, jj: the seats still to choose 加倍 (``State.deciding``)."""
        return tuple(state.deciding)

    def winners(self, state: State) -> tuple[int, ...]:
        """The landlord, or both farmers; nobody after an escape."""
        if state.winner is None or state.landlord is None:
            return ()
        if state.winner == state.landlord:
            return (state.landlord,)
        return tuple(seat for seat in range(SEATS) if seat != state.landlord)

    def is_stalled(self, state: State) -> bool:
        """More than :data:`MAX_DEALS` deals."""
        return bool(state.deal_number > MAX_DEALS)

    def reveal(self, state: State) -> dict[str, object]:
        """``hands``, the ``bottom`` and the physical cards of every play so far
        (``played``, in order; the view's plays carry their ranks only)."""
        played = [event.cards for event in state.events if isinstance(event, Played)]
        return {"hands": state.hands, "bottom": state.bottom, "played": played}

    def escape_cost(self, state: State, seat: int) -> EscapeCost | None:
        """caishen, huanle, zhengtu: the penalty, priced from the seat's view
        (:func:`~qipai.games.doudizhu.quote.escape_quote`: huanle's counts the bombs in
        hands the seat cannot see, so it is a range); yifa, jj: ``None`` (托管 plays the
        seat on)."""
        if state.rules.escape is EscapeModel.NONE:
            return None
        least, most = escape_quote(state.rules, state.view(seat))
        return EscapeCost(least, most)

    def roles(self, state: State) -> tuple[str | None, ...]:
        """``landlord`` and ``farmer``; nobody's before a landlord is known."""
        landlord = state.landlord
        if landlord is None:
            return (None,) * SEATS
        return tuple("landlord" if seat == landlord else "farmer" for seat in range(SEATS))

    def feats(self, state: State) -> tuple[frozenset[str], ...]:
        """``bomb`` (a four-card or a 财神 bomb) and ``rocket`` (王炸), for each seat that
        played one."""
        played: list[set[str]] = [set() for _ in range(SEATS)]
        for seat, move in state.plays:
            feat = _FEATS.get(move.kind)
            if feat is not None:
                played[seat].add(feat)
        return tuple(frozenset(names) for names in played)

    def explain(self, state: State) -> dict[str, Json]:
        """底分 (``base``: the winning bid, or the room's base), each farmer's multiplier
        with the landlord and its reasons (``pairs``: ``farmer``, ``factors`` as
        ``[reason, count, factor]`` with the reasons of
        :data:`~qipai.games.doudizhu.scoring.REASONS`, ``multiplier``, ``capped``), the
        farmers jj's 托管 liability holds to account (``liable``), and the hand's 任务
        when it has one (``task``: ``id``, ``name``, ``english``, ``completed``, ``side``
        that completed it or ``None``, ``factor``; a completed task is also the pairs'
        ``task`` factor).  Nothing before a landlord is known (an escape during the
        bidding)."""
        if state.landlord is None:
            return {}
        facts = state.facts()
        pairs: list[Json] = [
            {
                "farmer": pair.farmer,
                "factors": [[f.reason, f.count, f.factor] for f in pair.factors],
                "multiplier": pair.multiplier,
                "capped": pair.is_capped,
            }
            for pair in multiplier_breakdown(facts)
        ]
        explained: dict[str, Json] = {
            "base": facts.base,
            "pairs": pairs,
            "liable": list(liable_farmers(facts)),
        }
        if state.task is not None:
            explained["task"] = _task_json(state)
        return explained

    def task_of(self, state: State) -> str | None:
        """The id of the hand's 任务 (``bomb_finish``...), if its rules draw one."""
        return None if state.task is None else state.task.value

    def dealt(self, state: State, seats: int) -> dict[str, object]:
        """Each seat's cards of the last deal (a redeal starts again), the number of
        ``deals`` and the ``bottom``."""
        cards: list[list[Card]] = [[] for _ in range(seats)]
        for event in state.events:
            if isinstance(event, Redealt):
                cards = [[] for _ in range(seats)]
            elif isinstance(event, CardsDealt):
                cards[event.seat] += event.cards
        return {"seats": cards, "deals": state.deal_number, "bottom": state.bottom}

    def warm_up(self) -> None:
        """Build the move tables now (0.2 s), not in the first player's turn."""
        legal_moves("3")

    # --- records ---

    def replay(
        self, rules: Rules, seed: int, steps: Sequence[tuple[int | None, Action]], **options: object
    ) -> State:
        """:func:`~qipai.games.doudizhu.state.replay` (its options checked: the ``engine``
        is dropped, one version plays every recorded hand alike)."""
        only_options(options, "first_seat", "hand_number", "balances", "chance", "engine")
        return replay(
            rules,
            seed,
            steps,
            first_seat=entry(options, "first_seat", (int, type(None)), None),
            hand_number=entry(options, "hand_number", int, 0),
            balances=seats_option(options, "balances"),
            chance=entry(options, "chance", str, V2),
        )

    def table_options(self, state: State) -> dict[str, object]:
        """The first seat, the hand's number at its table and the balances (huanle)."""
        return {
            "first_seat": state.first_seat,
            "hand_number": state.hand_number,
            "balances": state.balances,
        }


def _task_json(state: State) -> dict[str, Json]:
    """The hand's 任务 for :meth:`DoudizhuGame.explain`."""
    task = state.task
    assert task is not None
    side = None
    if state.task_completed:
        side = "landlord" if state.winner == state.landlord else "farmers"
    return {
        "id": task.value,
        "name": task.chinese,
        "english": task.english,
        "completed": state.task_completed,
        "side": side,
        "factor": TASK_FACTOR,
    }


GAME = register(DoudizhuGame())
"""Dou Dizhu, registered."""
