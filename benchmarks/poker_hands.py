"""Benchmark: Showhand and Zha Jin Hua hand evaluation, ours against treys 0.1.8,
phevaluator 0.6.0 and PokerKit 0.7.7.

    .venv/bin/python benchmarks/poker_hands.py [--hands 100000] [--repeat 5] [--seed 1]
        [--selfplay-hands 3000]

One run deals ``--hands`` seeded five-card hands from the 28-card Showhand deck and
``--hands`` seeded three-card hands from the 52-card deck, converts them to each tool's
own card format before the clock starts (our card masks, our ``Card`` tuples and our
text; treys' and phevaluator's card ints; PokerKit's ``Card`` tuples), and times, as
evaluations per second:

* Showhand: our :func:`~qipai.games.showhand.hands.evaluate_mask`, ``evaluate_cards`` and
  ``evaluate`` (text, parsing included) against treys ``Evaluator.evaluate``, phevaluator
  ``evaluate_cards`` and PokerKit ``StandardLookup.get_entry`` on the same five cards;
  then one comparison of hands ``i`` and ``i + 1`` (two evaluations and the comparison:
  our ``compare_cards`` and ``compare``, treys' two ``evaluate`` calls and a ``<``).
* Zha Jin Hua: ours only (none of the references ranks three-card hands this way), the
  same forms, and ``compare_cards`` (with the 235 rule).

Then, unless ``--selfplay-hands 0``, whole Showhand hands of random play through our
``State`` against the PokerKit stand-in of ``showhand_selfplay.py`` (hands/s and the
ratio; see that script).

Every figure is the median of ``--repeat`` passes; ratios are against treys.  Our tables
are built on first use; that one-time build is done (and reported) before the clock starts.
The references keep their own tables too (treys and PokerKit build theirs in their
constructors, phevaluator ships them compiled).
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import phevaluator
from pokerkit import Card as KitCard
from pokerkit.lookups import StandardLookup
from treys import Card as TreysCard
from treys import Evaluator

from qipai.cards import Card, poker_deck
from qipai.games.showhand import hands as showhand
from qipai.games.zhajinhua import hands as zhajinhua


def deal(deck: Sequence[Card], size: int, count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def rate(loop: Callable[[], Any], count: int, repeat: int) -> float:
    """Median evaluations per second of ``loop`` (which does ``count`` of them)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        loop()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def each(function: Callable[[Any], Any], items: Sequence[Any]) -> Callable[[], None]:
    def loop() -> None:
        for item in items:
            function(item)

    return loop


def pairs(function: Callable[[Any, Any], Any], items: Sequence[Any]) -> Callable[[], None]:
    def loop() -> None:
        for a, b in zip(items, [*items[1:], items[0]], strict=True):
            function(a, b)

    return loop


def text(hand: Sequence[Card]) -> str:
    return "".join(str(card) for card in hand)


def build_times() -> dict[str, float]:
    """Seconds each of our tables takes to build on first use."""
    result = {}
    for name, first in (
        ("showhand five cards", lambda: showhand.evaluate("AsKsQsJsTs")),
        ("showhand partial", lambda: showhand.evaluate_partial("As")),
        ("zhajinhua", lambda: zhajinhua.evaluate("AsKsQs")),
    ):
        start = time.perf_counter()
        first()
        result[name] = time.perf_counter() - start
    return result


def showhand_rows(hands: Sequence[tuple[Card, ...]], repeat: int) -> list[tuple[str, float]]:
    n = len(hands)
    masks = [showhand.mask_of(h) for h in hands]
    texts = [text(h) for h in hands]
    treys_ints = [[TreysCard.new(str(c)) for c in h] for h in hands]
    ph_ints = [tuple(phevaluator.Card(str(c)).id_ for c in h) for h in hands]
    kit_cards = [tuple(KitCard.parse(text(h))) for h in hands]
    evaluator = Evaluator()
    lookup = StandardLookup()

    def treys_eval(cards: list[int]) -> int:
        return evaluator.evaluate(cards, [])

    def treys_compare(a: list[int], b: list[int]) -> int:
        ra, rb = evaluator.evaluate(a, []), evaluator.evaluate(b, [])
        return (ra < rb) - (ra > rb)

    def ph_eval(cards: tuple[int, ...]) -> int:
        return phevaluator.evaluate_cards(*cards)

    return [
        ("showhand evaluate_mask (ours)", rate(each(showhand.evaluate_mask, masks), n, repeat)),
        ("showhand evaluate_cards (ours)", rate(each(showhand.evaluate_cards, hands), n, repeat)),
        ("showhand evaluate, text (ours)", rate(each(showhand.evaluate, texts), n, repeat)),
        ("treys Evaluator.evaluate", rate(each(treys_eval, treys_ints), n, repeat)),
        ("phevaluator evaluate_cards", rate(each(ph_eval, ph_ints), n, repeat)),
        ("PokerKit StandardLookup.get_entry", rate(each(lookup.get_entry, kit_cards), n, repeat)),
        ("showhand compare_cards (ours)", rate(pairs(showhand.compare_cards, hands), n, repeat)),
        ("showhand compare, text (ours)", rate(pairs(showhand.compare, texts), n, repeat)),
        ("treys compare (2 evaluate)", rate(pairs(treys_compare, treys_ints), n, repeat)),
    ]


def zhajinhua_rows(hands: Sequence[tuple[Card, ...]], repeat: int) -> list[tuple[str, float]]:
    n = len(hands)
    masks = [zhajinhua.mask_of(h) for h in hands]
    texts = [text(h) for h in hands]
    return [
        ("zhajinhua evaluate_mask (ours)", rate(each(zhajinhua.evaluate_mask, masks), n, repeat)),
        ("zhajinhua evaluate_cards (ours)", rate(each(zhajinhua.evaluate_cards, hands), n, repeat)),
        ("zhajinhua evaluate, text (ours)", rate(each(zhajinhua.evaluate, texts), n, repeat)),
        ("zhajinhua compare_masks (ours)", rate(pairs(zhajinhua.compare_masks, masks), n, repeat)),
        ("zhajinhua compare_cards (ours)", rate(pairs(zhajinhua.compare_cards, hands), n, repeat)),
        ("zhajinhua compare, text (ours)", rate(pairs(zhajinhua.compare, texts), n, repeat)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--selfplay-hands", type=int, default=3000, help="whole Showhand hands (0: skip them)"
    )
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.hands} hands")
    for name, seconds in build_times().items():
        print(f"table build, {name}: {seconds:.2f} s (once, before the clock)")
    five = deal(poker_deck(showhand.RANKS), 5, args.hands, args.seed)
    three = deal(poker_deck(), 3, args.hands, args.seed + 1)
    rows = showhand_rows(five, args.repeat) + zhajinhua_rows(three, args.repeat)
    treys = dict(rows)["treys Evaluator.evaluate"]
    print("| evaluator | evaluations/s | × treys |")
    print("|---|---:|---:|")
    for name, per_second in rows:
        print(f"| {name} | {per_second:,.0f} | {per_second / treys:.2f}× |")
    if args.selfplay_hands:
        from showhand_selfplay import compare_selfplay  # noqa: PLC0415 (this folder's script)

        print("\nWhole Showhand hands, random play, ours against a PokerKit stand-in:")
        print("\n".join(compare_selfplay(4, args.selfplay_hands, args.repeat, args.seed)))


if __name__ == "__main__":
    main()
