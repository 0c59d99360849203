"""Benchmark: Dou Dizhu legal-move generation, ours against DouZero 1.1.0 and RLCard 1.2.0.

    .venv/bin/python benchmarks/doudizhu_moves.py [--hands 2000] [--repeat 5] [--seed 1]
    .venv/bin/python benchmarks/doudizhu_moves.py --fresh-only    # the first section alone

**Fresh 20-card leads** (printed first): every pass deals ``--hands`` new landlord hands
(seed ``--seed + FRESH_SEED + pass``, so no pass repeats a hand of another: no cache keyed
by the hand can serve it) and times, side by side on those hands:

* ``moves_for``: ``moves_for(hand, PASS, yifa)`` on the packed hand, against DouZero's
  ``MovesGener(cards).gen_moves()`` on its int list (both converted before the clock);
* text: ``legal_moves(text)`` (parse the hand string, check it, generate), against
  DouZero from the same string: ``[DOUZERO_CARD[ch] for ch in text]`` (its
  ``RealCard2EnvCard`` in our notation) then ``MovesGener(cards).gen_moves()``.

It prints each rate's best and median of ``--repeat`` passes, then the ratios (ours over
DouZero, best over best and median over median) on their own lines.

**The table** then deals ``--hands`` seeded hands (landlord seat 0 with 20 cards, two
farmers with 17) and times, for each generator, the per-second rate of:

* ``lead 20``: every lead of each landlord hand;
* ``lead 17``: every lead of each farmer hand (seat 1);
* ``follow``: every answer of seat 1's hand to a random lead of the landlord's (a fixed
  seeded set of pairs; the lead's kind drawn uniformly, then a move of that kind);
* ``self-play``: whole hands of random play (a random legal move each turn, landlord seat 0
  leads, until someone is out), as games/s and turns/s; on the same deals, each generator
  in a bare loop; DouZero and RLCard also in their own environments (``GameEnv`` with
  ``MovesGener``, and ``DoudizhuGame`` with its own seeded deal).

Each figure is the median of ``--repeat`` passes.  Ours caches: :mod:`qipai.games.doudizhu
.moves` builds its per-mask move tables on first use and interns airplanes.  So ours is
reported twice: *first pass*, in a fresh interpreter, over hands it has never seen (the
one-time table build, about 0.2 s, is done before the clock starts and reported on its own
line), and *warm*, later passes over the same hands (only airplanes are interned, so the
two differ little).  The references cache nothing between calls.  Inputs
are converted to each tool's own format (DouZero's int lists, RLCard's strings) before the
clock starts.  ``--state`` adds a self-play row through :class:`qipai.games.doudizhu.state
.State` (the whole hand machine, with validation and events).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from douzero.env.game import GameEnv
from douzero.env.move_generator import MovesGener
from rlcard.games.doudizhu.game import DoudizhuGame
from rlcard.games.doudizhu.judger import DoudizhuJudger
from rlcard.games.doudizhu.utils import get_gt_cards

from qipai.cards import Card, doudizhu_deck
from qipai.games.doudizhu import PASS, RULES, Move, legal_moves, moves_for
from qipai.games.doudizhu.combos import Kind, to_text, unit
from qipai.games.doudizhu.moves import tables

RULE_SET = RULES["yifa"]
SLOTS = tuple(s for s in range(15) for _ in range(4 if s <= 12 else 1))
"""The slot (``3 … A 2 B R``: 0-14) of each card of :func:`qipai.cards.doudizhu_deck`."""
WORKLOADS = ("lead 20", "lead 17", "follow", "self-play")
FRESH_SEED = 1_000_000
"""Pass ``p`` of the fresh-hand section deals with seed ``--seed + FRESH_SEED + p``."""


# --- The seeded inputs ---------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """A shuffled deck (indices into :func:`~qipai.cards.doudizhu_deck`): seat 0, the
    landlord, holds the first 20 cards (17 and the 3 bottom cards), seats 1 and 2 17 each."""

    order: tuple[int, ...]

    @property
    def hands(self) -> tuple[int, int, int]:
        """The three packed hands."""
        cuts = (self.order[:20], self.order[20:37], self.order[37:])
        a, b, c = (sum(unit(SLOTS[i]) for i in cut) for cut in cuts)
        return a, b, c

    @property
    def bottom(self) -> tuple[int, ...]:
        """The slots of the 3 bottom cards."""
        return tuple(SLOTS[i] for i in self.order[17:20])

    @property
    def state_deck(self) -> tuple[int, ...]:
        """The order :meth:`State.new` deals: 17 per seat in seat order, then the bottom."""
        return self.order[:17] + self.order[20:] + self.order[17:20]


def deals(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        order = list(range(len(SLOTS)))
        rng.shuffle(order)
        found.append(Deal(tuple(order)))
    return found


def follow_pairs(dealt: list[Deal], seed: int) -> list[tuple[int, Move]]:
    """(seat 1's hand, a random lead of the landlord) per deal: kind uniform, then move."""
    rng = random.Random(seed)
    pairs = []
    for deal in dealt:
        by_kind: dict[Kind, list[Move]] = {}
        for move in moves_for(deal.hands[0], PASS, RULE_SET):
            by_kind.setdefault(move.kind, []).append(move)
        kind = rng.choice(sorted(by_kind))
        pairs.append((deal.hands[1], rng.choice(by_kind[kind])))
    return pairs


# --- Ours ----------------------------------------------------------------------------------


def ours_lead(hands: Sequence[int]) -> int:
    for hand in hands:
        moves_for(hand, PASS, RULE_SET)
    return len(hands)


def ours_lead_text(texts: Sequence[str]) -> int:
    """``legal_moves`` from the hand's text: parse, check, generate (yifa, leading)."""
    for text in texts:
        legal_moves(text)
    return len(texts)


def ours_follow(pairs: Sequence[tuple[int, Move]]) -> int:
    for hand, previous in pairs:
        moves_for(hand, previous, RULE_SET)
    return len(pairs)


def ours_self_play(dealt: Sequence[tuple[int, int, int]], seed: int) -> tuple[int, int]:
    """Random play with :func:`moves_for` in a loop, on packed hands; (games, turns)."""
    rng = random.Random(seed)
    turns = 0
    for deal in dealt:
        hands = list(deal)
        seat, last, last_seat = 0, PASS, 0
        while True:
            moves = moves_for(hands[seat], PASS if last_seat == seat else last, RULE_SET)
            move = moves[rng.randrange(len(moves))]
            turns += 1
            if not move.is_pass:
                hands[seat] -= move.cards
                last, last_seat = move, seat
                if not hands[seat]:
                    break
            seat = (seat + 1) % 3
    return len(dealt), turns


def ours_state_self_play(decks: Sequence[list[Card]], seed: int) -> tuple[int, int]:
    """Random play through the hand machine on the same deals (``Deal.state_deck``):
    zhengtu's bidding (seat 0, first to bid, bids 3 and is landlord) with yifa's kinds."""
    from qipai.games.doudizhu.actions import Bid  # noqa: PLC0415 (only with --state)
    from qipai.games.doudizhu.state import State  # noqa: PLC0415

    rules = RULES["zhengtu"].derive("bench", trio_single=True, plane_singles=True, four_two=True)
    rng = random.Random(seed)
    turns = 0
    for deck in decks:
        state = State.new(rules, seed=seed, first_seat=0, deck=deck)
        state.apply(Bid(3))
        while not state.is_terminal:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            turns += 1
    return len(decks), turns


# --- DouZero -------------------------------------------------------------------------------


DOUZERO_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)


def to_douzero(packed: int) -> list[int]:
    return [DOUZERO_VALUES[s] for s in range(15) for _ in range((packed >> (4 * s)) & 15)]


DOUZERO_CARD = dict(zip("3456789TJQKA2BR", DOUZERO_VALUES, strict=True))
"""DouZero's ``RealCard2EnvCard`` in our notation (``T`` for its ``10``, ``B R`` for ``X D``)."""


def douzero_lead(hands: Sequence[list[int]]) -> int:
    for hand in hands:
        MovesGener(hand).gen_moves()
    return len(hands)


def douzero_lead_text(texts: Sequence[str]) -> int:
    """DouZero from a card string: the string to its int list, then every lead."""
    for text in texts:
        MovesGener([DOUZERO_CARD[ch] for ch in text]).gen_moves()
    return len(texts)


def _douzero_env() -> Any:
    env = GameEnv(players={})
    env.acting_player_position = "landlord"
    return env


def douzero_follow(pairs: Sequence[tuple[list[int], list[int]]]) -> int:
    """``GameEnv.get_legal_card_play_actions`` (type detection, generation, filters)."""
    env = _douzero_env()
    for hand, previous in pairs:
        env.info_sets["landlord"].player_hand_cards = hand
        env.card_play_action_seq = [list(previous)]
        env.get_legal_card_play_actions()
    return len(pairs)


def douzero_loop(dealt: Sequence[tuple[list[int], ...]], seed: int) -> tuple[int, int]:
    """The bare loop of :func:`ours_self_play` on DouZero's generator (no ``GameEnv`` step)."""
    rng = random.Random(seed)
    env = _douzero_env()
    info = env.info_sets["landlord"]
    turns = 0
    for deal in dealt:
        hands = [list(h) for h in deal]
        seat, last, last_seat = 0, [], 0
        while True:
            info.player_hand_cards = hands[seat]
            env.card_play_action_seq = [] if last_seat == seat else [list(last)]
            moves = env.get_legal_card_play_actions()
            move = moves[rng.randrange(len(moves))]
            turns += 1
            if move:
                for card in move:
                    hands[seat].remove(card)
                last, last_seat = move, seat
                if not hands[seat]:
                    break
            seat = (seat + 1) % 3
    return len(dealt), turns


class _RandomAgent:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, infoset: Any) -> Any:
        actions = infoset.legal_actions
        return actions[self.rng.randrange(len(actions))]


DOUZERO_POSITIONS = ("landlord", "landlord_down", "landlord_up")
"""DouZero's seats 0, 1, 2 in play order."""


def douzero_data(deal: Deal) -> dict[str, list[int]]:
    """``GameEnv.card_play_init``'s ``card_play_data`` for a deal."""
    data = {p: to_douzero(h) for p, h in zip(DOUZERO_POSITIONS, deal.hands, strict=True)}
    data["three_landlord_cards"] = sorted(DOUZERO_VALUES[s] for s in deal.bottom)
    return data


def douzero_env(dealt: Sequence[dict[str, list[int]]], seed: int) -> tuple[int, int]:
    """DouZero's ``GameEnv`` with three random agents (it deep-copies an infoset per turn)."""
    agent = _RandomAgent(random.Random(seed))
    turns = 0
    for data in dealt:
        env = GameEnv(dict.fromkeys(DOUZERO_POSITIONS, agent))
        env.card_play_init({p: list(cards) for p, cards in data.items()})
        while not env.game_over:
            env.step()
        turns += len(env.card_play_action_seq)
    return len(dealt), turns


# --- RLCard --------------------------------------------------------------------------------


def rlcard_cards(text: str) -> list[SimpleNamespace]:
    """Stand-ins for ``rlcard.games.base.Card`` as ``cards2str`` reads them."""
    return [
        SimpleNamespace(rank="", suit=ch + "J")
        if ch in "BR"
        else SimpleNamespace(rank=ch, suit="S")
        for ch in text
    ]


def rlcard_lead(hands: Sequence[str]) -> int:
    for hand in hands:
        DoudizhuJudger.playable_cards_from_hand(hand)
    return len(hands)


def rlcard_follow(pairs: Sequence[tuple[SimpleNamespace, SimpleNamespace]]) -> int:
    for player, greater in pairs:
        get_gt_cards(player, greater)
    return len(pairs)


def rlcard_loop(dealt: Sequence[tuple[str, ...]], seed: int) -> tuple[int, int]:
    """The bare loop on RLCard's generator: ``playable_cards_from_hand`` / ``get_gt_cards``.

    RLCard returns sets of strings: the random pick follows their iteration order, which
    depends on Python's string hashing, so RLCard's games differ from run to run.
    """
    rng = random.Random(seed)
    turns = 0
    for deal in dealt:
        players = [SimpleNamespace(current_hand=rlcard_cards(h)) for h in deal]
        seat, last, last_seat = 0, "", 0
        while True:
            player = players[seat]
            if last_seat == seat:
                hand = "".join(c.rank or c.suit[0] for c in player.current_hand)
                moves = list(DoudizhuJudger.playable_cards_from_hand(hand))
            else:
                moves = get_gt_cards(player, SimpleNamespace(played_cards=last))
            move = moves[rng.randrange(len(moves))]
            turns += 1
            if move != "pass":
                _rlcard_remove(player, move)
                last, last_seat = move, seat
                if not player.current_hand:
                    break
            seat = (seat + 1) % 3
    return len(dealt), turns


def _rlcard_remove(player: SimpleNamespace, move: str) -> None:
    for ch in move:
        for i, card in enumerate(player.current_hand):
            if (card.rank or card.suit[0]) == ch:
                del player.current_hand[i]
                break


def rlcard_env(dealt: Sequence[object], seed: int) -> tuple[int, int]:
    """RLCard's ``DoudizhuGame``, one game per deal but with its own numpy-seeded deal
    (landlord seat 0 with 20 cards)."""
    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)
    turns = 0
    for _ in dealt:
        state, _player = game.init_game()
        while not game.is_over():
            actions = state["actions"]
            state, _player = game.step(actions[rng.randrange(len(actions))])
            turns += 1
    return len(dealt), turns


# --- Timing --------------------------------------------------------------------------------


@dataclass
class Inputs:
    """Every workload's input, in each tool's own format, built before any timing."""

    dealt: list[Deal]
    pairs: list[tuple[int, Move]]
    seed: int

    def ours(self, workload: str) -> Callable[[], tuple[int, int]]:
        if workload == "lead 20":
            hands = [d.hands[0] for d in self.dealt]
            return lambda: (ours_lead(hands), 0)
        if workload == "lead 17":
            hands = [d.hands[1] for d in self.dealt]
            return lambda: (ours_lead(hands), 0)
        if workload == "follow":
            return lambda: (ours_follow(self.pairs), 0)
        hands = [d.hands for d in self.dealt]
        return lambda: ours_self_play(hands, self.seed)

    def douzero(self, workload: str) -> Callable[[], tuple[int, int]]:
        if workload.startswith("lead"):
            seat = 0 if workload == "lead 20" else 1
            hands = [to_douzero(d.hands[seat]) for d in self.dealt]
            return lambda: (douzero_lead(hands), 0)
        pairs = [(to_douzero(h), to_douzero(p.cards)) for h, p in self.pairs]
        return lambda: (douzero_follow(pairs), 0)

    def rlcard(self, workload: str) -> Callable[[], tuple[int, int]]:
        if workload.startswith("lead"):
            seat = 0 if workload == "lead 20" else 1
            hands = [to_text(d.hands[seat]) for d in self.dealt]
            return lambda: (rlcard_lead(hands), 0)
        pairs = [
            (
                SimpleNamespace(current_hand=rlcard_cards(to_text(h))),
                SimpleNamespace(played_cards=to_text(p.cards)),
            )
            for h, p in self.pairs
        ]
        return lambda: (rlcard_follow(pairs), 0)


def timed(run: Callable[[], tuple[int, int]]) -> tuple[float, float]:
    """(items per second, turns per second) of one pass.

    Garbage is collected before the clock starts (the import of the references leaves
    plenty), so that no pass pays for another's: every tool is timed the same way.
    """
    gc.collect()
    start = time.perf_counter()
    items, turns = run()
    elapsed = time.perf_counter() - start
    return items / elapsed, turns / elapsed


def median_rates(run: Callable[[], tuple[int, int]], repeat: int) -> tuple[float, float]:
    rates = [timed(run) for _ in range(repeat)]
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def cold_rates(
    args: argparse.Namespace, workload: str, pairs: list[tuple[int, Move]]
) -> tuple[float, float]:
    """Median over ``--repeat`` fresh interpreters of the first pass of ours."""
    payload = json.dumps([[h, p.kind, p.main, p.length, p.cards] for h, p in pairs])
    command = [sys.executable, __file__, "--cold", workload, "--hands", str(args.hands)]
    command += ["--seed", str(args.seed)]
    rates = []
    for _ in range(args.repeat):
        done = subprocess.run(command, input=payload, capture_output=True, text=True, check=True)
        rates.append(json.loads(done.stdout))
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def cold_worker(args: argparse.Namespace) -> None:
    """Run one first pass of ours in this fresh interpreter; print (items/s, turns/s)."""
    pairs = [(h, Move(Kind(k), m, n, c, c)) for h, k, m, n, c in json.loads(sys.stdin.read())]
    inputs = Inputs(deals(args.hands, args.seed), pairs, args.seed)
    tables()  # the one-time build, timed on its own by table_build_seconds()
    print(json.dumps(timed(inputs.ours(args.cold))))


def table_build_seconds() -> float:
    """Median seconds a fresh interpreter takes to build the move tables."""
    code = "import time; from qipai.games.doudizhu.moves import tables; "
    code += "t = time.perf_counter(); tables(); print(time.perf_counter() - t)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    ]
    return statistics.median(runs)


# --- The report ----------------------------------------------------------------------------


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0))  # what `nproc` prints
    return f"nproc {cores}, {model}, Python {platform.python_version()}"


def fmt(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:,.0f}"


def ratio(ours: float, theirs: float | None) -> str:
    return "—" if not theirs else f"{ours / theirs:.1f}×"


FRESH_ROWS = (
    ("ours moves_for (packed)", "moves_for"),
    ("DouZero MovesGener (int list)", "moves_for"),
    ("ours legal_moves (text)", "text"),
    ("DouZero text -> int list + MovesGener", "text"),
)
"""The fresh-hand rates: (name, what it compares with) — ours, then DouZero, per pair."""


def fresh_rates(args: argparse.Namespace) -> list[list[float]]:
    """Per row of :data:`FRESH_ROWS`, the rate (hands/s) of each pass over fresh hands."""
    rates: list[list[float]] = [[] for _ in FRESH_ROWS]
    for p in range(args.repeat):
        hands = [d.hands[0] for d in deals(args.hands, args.seed + FRESH_SEED + p)]
        texts = [to_text(h) for h in hands]
        ints = [to_douzero(h) for h in hands]
        runs: list[tuple[Callable[[Any], int], Sequence[Any]]] = [
            (ours_lead, hands),
            (douzero_lead, ints),
            (ours_lead_text, texts),
            (douzero_lead_text, texts),
        ]
        for row, (run, items) in zip(rates, runs, strict=True):
            row.append(timed(partial(_one_item, run, items))[0])
    return rates


def _one_item(run: Callable[[Any], int], items: Sequence[Any]) -> tuple[int, int]:
    return run(items), 0


def fresh_report(args: argparse.Namespace) -> None:
    """Print the fresh 20-card lead rates (best and median), then the ratios."""
    tables()  # the one-time build, outside the clock
    rates = fresh_rates(args)
    print(f"## Fresh 20-card hands, leads: {args.hands} new hands a pass, {args.repeat} passes\n")
    for (name, _), row in zip(FRESH_ROWS, rates, strict=True):
        best, median = max(row), statistics.median(row)
        print(f"{name:<40} best {best:>9,.0f} hands/s   median {median:>9,.0f} hands/s")
    print()
    for i, label in ((0, "moves_for / DouZero"), (2, "legal_moves text / DouZero text")):
        ours, theirs = rates[i], rates[i + 1]
        best = max(ours) / max(theirs)
        median = statistics.median(ours) / statistics.median(theirs)
        print(f"{label}: {best:.1f}x best, {median:.1f}x median")
    print()


def report(args: argparse.Namespace) -> None:
    print(f"# {' '.join(sys.argv)}\n# {machine()}")
    print(f"# ours: move tables built once per process in {table_build_seconds():.2f} s\n")
    fresh_report(args)
    if args.fresh_only:
        return
    dealt = deals(args.hands, args.seed)
    pairs = follow_pairs(dealt, args.seed)
    inputs = Inputs(dealt, pairs, args.seed)
    columns = ["workload", "ours first pass", "ours warm", "DouZero", "RLCard"]
    columns += ["warm/DouZero", "warm/RLCard", "first/DouZero", "first/RLCard"]
    print("| " + " | ".join(columns) + " |")
    print("|---" + "|---:" * (len(columns) - 1) + "|")
    for workload in WORKLOADS:
        cold = cold_rates(args, workload, pairs)
        inputs.ours(workload)()  # warm-up pass
        warm = median_rates(inputs.ours(workload), args.repeat)
        if workload == "self-play":
            _self_play_rows(inputs, args, cold, warm)
            continue
        dz = median_rates(inputs.douzero(workload), args.repeat)[0]
        rl = median_rates(inputs.rlcard(workload), args.repeat)[0]
        unit_name = "pairs" if workload == "follow" else "hands"
        _row(f"{workload} ({unit_name}/s)", cold[0], warm[0], dz, rl)


def _row(name: str, cold: float | None, warm: float, dz: float | None, rl: float | None) -> None:
    cells = [name, fmt(cold), fmt(warm), fmt(dz), fmt(rl), ratio(warm, dz), ratio(warm, rl)]
    cells += [ratio(cold, dz) if cold else "—", ratio(cold, rl) if cold else "—"]
    print("| " + " | ".join(cells) + " |")


def _self_play_rows(
    inputs: Inputs, args: argparse.Namespace, cold: tuple[float, float], warm: tuple[float, float]
) -> None:
    dealt, seed, repeat = inputs.dealt, inputs.seed, args.repeat
    dz_hands = [tuple(to_douzero(h) for h in d.hands) for d in dealt]
    rl_hands = [tuple(to_text(h) for h in d.hands) for d in dealt]
    dz_data = [douzero_data(d) for d in dealt]
    dz_loop = median_rates(lambda: douzero_loop(dz_hands, seed), repeat)
    rl_loop = median_rates(lambda: rlcard_loop(rl_hands, seed), repeat)
    dz_env = median_rates(lambda: douzero_env(dz_data, seed), repeat)
    rl_env = median_rates(lambda: rlcard_env(dealt, seed), repeat)
    for i, unit_name in enumerate(("games", "turns")):
        _row(f"self-play, bare loop ({unit_name}/s)", cold[i], warm[i], dz_loop[i], rl_loop[i])
    for i, unit_name in enumerate(("games", "turns")):
        _row(f"self-play, their env ({unit_name}/s)", cold[i], warm[i], dz_env[i], rl_env[i])
    if args.state:
        cards = doudizhu_deck()
        decks = [[cards[i] for i in d.state_deck] for d in dealt]
        state = median_rates(lambda: ours_state_self_play(decks, seed), repeat)
        for i, unit_name in enumerate(("games", "turns")):
            _row(f"self-play, our State ({unit_name}/s)", None, state[i], dz_env[i], rl_env[i])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="seeded deals (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="passes per figure (median)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--state", action="store_true", help="add self-play through State")
    parser.add_argument(
        "--fresh-only", action="store_true", help="only the fresh 20-card leads, then stop"
    )
    parser.add_argument("--cold", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold:
        cold_worker(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
