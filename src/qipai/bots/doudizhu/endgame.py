"""Determinized endgame search: deal the unseen cards many ways, play each candidate out.

Once few cards are left (:func:`wants_search`), the strong player stops trusting its
rules of thumb alone.  It deals the cards it cannot see to the other two seats at random
(:func:`deal_worlds`: each gets as many as he holds, the cards it knows he holds first —
a shown hand, the landlord's unplayed bottom cards), :data:`WORLDS` times.  In every such
world it plays each of its best :data:`CANDIDATES` plays, then lets all three seats play
on with the decomposition player (:func:`.strong.heuristic_play`), who sees what a player
there would see.  The play whose side goes out first in the most worlds is chosen; ties
keep the decomposition player's order.  The same worlds serve every candidate (common
random numbers), and the generator is the policy's own, so a seed replays the search.
"""

from __future__ import annotations

import random
from dataclasses import replace

from qipai.bots.doudizhu.heuristic import best_lead, heuristic_play, lead_scores
from qipai.bots.doudizhu.situation import SEATS, Situation
from qipai.games.doudizhu.combos import PASS, WILD, Move, count_of, size, unit
from qipai.games.doudizhu.legal import moves_for

WORLDS = 24
"""Deals of the unseen cards per search, at most (:data:`BUDGET`)."""
CANDIDATES = 4
"""Plays searched: the decomposition player's favourites."""
ENDGAME_CARDS = 8
"""The search runs once a seat holds this many cards or fewer ..."""
ENDGAME_TOTAL = 40
"""... and the three hands together this many or fewer: with more, the play-outs are long
(slow) and the decomposition player's judgement serves as well."""
BUDGET = 6000
"""Moves weighed in the play-outs (each decision weighs its legal moves) after which a
search tries no new deal: the work, and so the time, of one search is about bounded."""
MAX_STEPS = 300
"""A rollout longer than this is a bug; it stops there as a loss."""


def wants_search(situation: Situation) -> bool:
    """Whether the position is an endgame worth searching: some seat holds at most
    :data:`ENDGAME_CARDS` cards, all together at most :data:`ENDGAME_TOTAL`, and there is
    a real choice."""
    counts = situation.counts
    return (
        min(counts) <= ENDGAME_CARDS and sum(counts) <= ENDGAME_TOTAL and len(situation.moves) > 1
    )


def search(
    situation: Situation, rng: random.Random, worlds: int = WORLDS, budget: int = BUDGET
) -> Move:
    """The candidate play that wins in the most of ``worlds`` sampled deals; no new deal
    is tried once the play-outs weighed ``budget`` moves (so a long endgame, where one seat
    is low but the others hold many cards, stays within its time)."""
    candidates = _candidates(situation)
    if len(candidates) == 1:
        return candidates[0]
    wins = [0] * len(candidates)
    spent = 0
    for _ in range(worlds):
        hands = deal_worlds(situation, rng)
        for index, move in enumerate(candidates):
            won, steps = _wins_after(situation, hands, move)
            wins[index] += won
            spent += steps
        if spent >= budget:
            break
    best = max(range(len(candidates)), key=lambda i: (wins[i], -i))
    return candidates[best]


def _candidates(situation: Situation) -> list[Move]:
    """The decomposition player's choice first, then its next favourites (and the pass
    when following)."""
    if situation.leading:  # every lead scored once: the choice, then the next best
        scores = lead_scores(situation, list(situation.moves))
        first = best_lead(list(situation.moves), scores)
        others = sorted((m for m in situation.moves if m != first), key=lambda m: -scores[m])
    else:
        first = heuristic_play(situation)
        others = [m for m in situation.moves if m != first]
        others.sort(key=lambda m: (not m.is_pass, m.kind.is_bomb, m.main))
    return [first, *others[: CANDIDATES - 1]]


def deal_worlds(situation: Situation, rng: random.Random) -> list[int]:
    """One deal of the unseen cards: each seat's packed hand (the deciding seat's own)."""
    hands = [0] * SEATS
    hands[situation.seat] = situation.hand
    pool = situation.unseen
    others = [s for s in range(SEATS) if s != situation.seat]
    for seat in others:
        hands[seat] = situation.known[seat]
        pool -= situation.known[seat]
    cards = [slot for slot in range(WILD + 1) for _ in range((pool >> (4 * slot)) & 0xF)]
    rng.shuffle(cards)
    for seat in others:
        need = situation.counts[seat] - size(hands[seat])
        for slot in cards[:need]:
            hands[seat] += 1 << (4 * slot)
        cards = cards[need:]
    return hands


def _wins_after(situation: Situation, hands: list[int], move: Move) -> tuple[int, int]:
    """(1 if the deciding seat's side goes out first after ``move`` in this world, else 0;
    the work the play-out took: :func:`_play_out`)."""
    hands = list(hands)
    seat = situation.seat
    hands[seat] -= move.cards
    if _is_out(hands[seat], situation):
        return 1, 0
    to_beat, by = (move, seat) if not move.is_pass else (situation.to_beat, situation.to_beat_seat)
    passes = _passes_after(situation, move)
    winner, steps = _play_out(situation, hands, (seat + 1) % SEATS, (to_beat, by, passes))
    landlord = situation.landlord
    return int((winner == landlord) == (seat == landlord)), steps


def _is_out(hand: int, situation: Situation) -> bool:
    """Whether a seat holding ``hand`` has gone out: no card left, or only 财神 where
    that wins (caishen)."""
    if not hand:
        return True
    return situation.rules.only_wildcard_left_wins and hand == unit(WILD, count_of(hand, WILD))


def _passes_after(situation: Situation, move: Move) -> int:
    """Passes in a row once ``move`` is made."""
    if not move.is_pass:
        return 0
    trick_passes = 0
    if situation.to_beat_seat is not None:
        trick_passes = (situation.seat - situation.to_beat_seat) % SEATS - 1
    return trick_passes + 1


def _play_out(
    root: Situation, hands: list[int], seat: int, trick: tuple[Move, int | None, int]
) -> tuple[int, int]:
    """Play the world out with the decomposition player at every seat, from ``seat`` to
    act on ``trick`` (the play to beat, who played it, passes since); the winner and the
    work done (the moves weighed, a measure of the time taken)."""
    to_beat, by, passes = trick
    if passes >= SEATS - 1:
        to_beat, by, passes = PASS, None, 0
    work = 0
    for _ in range(MAX_STEPS):
        situation = _seat_situation(root, hands, seat, to_beat, by)
        moves = situation.moves
        work += len(moves)
        move = moves[0] if len(moves) == 1 else heuristic_play(situation, quick=True)
        hands[seat] -= move.cards
        if _is_out(hands[seat], root):
            return seat, work
        if move.is_pass:
            passes += 1
            if passes == SEATS - 1:
                to_beat, by, passes = PASS, None, 0
        else:
            to_beat, by, passes = move, seat, 0
        seat = (seat + 1) % SEATS
    loser = (root.landlord + 1) % SEATS if root.seat == root.landlord else root.landlord
    return loser, work


def _seat_situation(
    root: Situation, hands: list[int], seat: int, to_beat: Move, by: int | None
) -> Situation:
    """What ``seat`` knows in a world: its hand, and the others' cards as unseen."""
    hand = hands[seat]
    return replace(
        root,
        seat=seat,
        hand=hand,
        counts=tuple(size(h) for h in hands),
        to_beat=to_beat,
        to_beat_seat=by,
        moves=tuple(moves_for(hand, to_beat, root.rules)),
        unseen=sum(hands) - hand,
        known=tuple(h if s == seat else 0 for s, h in enumerate(hands)),
    )
