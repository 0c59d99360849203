"""Benchmark: random self-play Showhand hands/s, our State against a PokerKit stand-in.

    .venv/bin/python benchmarks/showhand_selfplay.py [--hands 3000] [--players 4] [--repeat 3]

PokerKit 0.7.7 has no Showhand.  The closest machine it builds is a five-card stud
``pokerkit.State`` with the 28 cards 8-A (a plain tuple of its cards passed as the deck),
antes 2, stacks 100, four streets (card 1 down + card 2 up, then one up card per street),
the opener by the best up cards (``Opening.HIGH_CARD`` then ``HIGH_HAND``), fixed-limit
bets of 5, 10, 20, 20 with at most 4 bets or raises a street, ``StandardHighHand`` at the
showdown, and every automation on (antes, dealing, showdown, pushing chips).  What it
lacks, against ours: 换牌 (no choice on cards 3 and 4), 梭, 开, the extra rounds until
the cap, the free amounts up to each round's limit, suit tie-breaks (it splits pots), the
views and events with hidden-card filtering.

Both play the same random policy: at each decision, a uniform choice among the kinds of
action available — check-or-call, bet-or-raise (a random legal amount for ours, the
fixed amount for PokerKit), fold (only when there is something to call) — and, for ours
only, a random 换牌 choice; 梭 and 开 are not chosen unless nothing else is legal (an
extra round with less than a bet left).  Each figure is the median of ``--repeat``
passes over the same seeds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pokerkit import (
    Automation,
    BettingStructure,
    Card,
    Opening,
    StandardHighHand,
    Street,
)
from pokerkit import State as KitState

from qipai.games.showhand import Call, Check, Open, ShowHand, Swap, evaluate, evaluate_partial
from qipai.games.showhand import State as OurState
from qipai.games.showhand.actions import Action

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
KIT_DECK = tuple(Card.parse("".join(r + s for r in "89TJQKA" for s in "cdhs")))
"""The 28 cards 8-A as PokerKit cards."""


def kit_state(players: int) -> KitState:
    """A PokerKit five-card stud state with the 28-card deck, Showhand's limits."""
    streets = (
        Street(False, (False, True), 0, False, Opening.HIGH_CARD, 5, 4),
        Street(False, (True,), 0, False, Opening.HIGH_HAND, 10, 4),
        Street(False, (True,), 0, False, Opening.HIGH_HAND, 20, 4),
        Street(False, (True,), 0, False, Opening.HIGH_HAND, 20, 4),
    )
    return KitState(
        AUTOMATIONS,
        KIT_DECK,  # type: ignore[arg-type]  # any sequence of cards works as a deck
        (StandardHighHand,),
        streets,
        BettingStructure.FIXED_LIMIT,
        True,
        2,
        0,
        0,
        100,
        players,
    )


def kit_hand(players: int, rng: random.Random) -> int:
    """One random PokerKit hand; the number of decisions."""
    state = kit_state(players)
    decisions = 0
    while state.status:
        kinds: list[Callable[[], object]] = [state.check_or_call]
        if state.can_complete_bet_or_raise_to():
            kinds.append(state.complete_bet_or_raise_to)
        if state.can_fold():
            kinds.append(state.fold)
        kinds[int(rng.random() * len(kinds))]()
        decisions += 1
    return decisions


_TAIL = (ShowHand, Open)


def our_choice(actions: list[Action], rng: random.Random) -> Action:
    """The benchmark policy for our State (see the module docstring).

    It reads the order :meth:`.State.legal_actions` lists them in: ``[swap, keep]``, or
    ``fold``, then ``check`` or ``call`` (absent in an extra round with nothing to call),
    the bets or raises by amount, then ``showhand`` and ``open`` where allowed.
    """
    first, second = actions[0], actions[1]
    if type(first) is Swap:
        return actions[int(rng.random() * 2)]
    end = len(actions)
    while type(actions[end - 1]) in _TAIL:
        end -= 1
    passive = type(second) is Check or type(second) is Call
    start = 2 if passive else 1
    kinds = (1 if passive else 0) + (end > start) + (type(second) is Call)
    if not kinds:
        return actions[end]  # 梭 or 开: nothing else but folding is left
    kind = int(rng.random() * kinds)
    if passive and kind == 0:
        return second
    if end > start and kind == (1 if passive else 0):
        return actions[start + int(rng.random() * (end - start))]
    return first  # fold, only when there is something to call


def our_hand(players: int, seed: int, rng: random.Random) -> int:
    """One random hand of ours; the number of decisions."""
    state = OurState.new("yifa", seed=seed, players=players)
    decisions = 0
    while not state.is_terminal:
        state.apply(our_choice(state.legal_actions(), rng))
        decisions += 1
    return decisions


def measure(play: Callable[[int, random.Random], int], hands: int, seed: int) -> tuple[float, int]:
    """Hands per second and decisions over ``hands`` hands."""
    rng = random.Random(seed)
    start = time.perf_counter()
    decisions = sum(play(seed + i, rng) for i in range(hands))
    return hands / (time.perf_counter() - start), decisions


def compare_selfplay(players: int, hands: int, repeat: int, seed: int) -> list[str]:
    """Time both machines; the report lines (hands/s of each and the ratio)."""
    evaluate("AsKsQsJs9h")  # build the hands tables (whole and partial) before the clock
    evaluate_partial("As")
    ours, kit = [], []
    for _ in range(repeat):
        ours.append(measure(lambda s, r: our_hand(players, s, r), hands, seed))
        kit.append(measure(lambda s, r: kit_hand(players, r), hands // 10, seed))
    our_rate, kit_rate = (statistics.median(r for r, _ in runs) for runs in (ours, kit))
    our_dec = ours[0][1] / hands
    kit_dec = kit[0][1] / (hands // 10)
    return [
        f"{players} players, {hands} hands (PokerKit {hands // 10}), median of {repeat}",
        f"ours     {our_rate:10.0f} hands/s  ({our_dec:.1f} decisions/hand)",
        f"pokerkit {kit_rate:10.0f} hands/s  ({kit_dec:.1f} decisions/hand)",
        f"ratio    {our_rate / kit_rate:10.1f}x",
    ]


def main() -> None:
    """Time both machines and print hands/s and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("\n".join(compare_selfplay(args.players, args.hands, args.repeat, args.seed)))


if __name__ == "__main__":
    main()
