"""The decomposition player's card play: leading, following, control and teamwork.

Every play is judged by what it leaves (:mod:`.decompose`): the value of the best split
of the cards kept.  On top of that:

- **Control.**  A combination nobody left can beat (:func:`unbeatable`) keeps the lead;
  with all but one of its combinations unbeatable the player cashes them and goes out.
- **Danger.**  When an opponent holds one or two cards it avoids leading a single or a
  pair he could beat to go out, and beats (bombs included) what he plays.
- **Teamwork.**  A farmer never plays over his partner (unless that wins at once), leads a
  low single or pair to a partner about to go out, and the farmer who plays just before
  the landlord spends more to stop him.
"""

from __future__ import annotations

from qipai.bots.doudizhu.decompose import MEMO_LIMIT, evaluate, rank_score, split_parts, value
from qipai.bots.doudizhu.situation import Situation
from qipai.games.doudizhu.combos import ACE, BLACK, PASS, RED, TWO, WILD, Kind, Move

DANGER = 60
"""Penalty of leading a single or pair that an opponent with that many cards could beat."""
FEED = 25
"""Bonus of leading the lowest single (pair) to a partner holding one (two) cards."""
CASH = 80
"""Bonus of a play that starts cashing a winning run of unbeatable combinations."""
CONTROL_COST = 6
"""What spending an ace, a 2 or a joker on an opponent's play costs when there is no
hurry (its rank's score above zero, times this over 4)."""
BOMB_COST = 14
"""What spending a bomb or the rocket costs when there is no hurry."""


def heuristic_play(situation: Situation, *, quick: bool = False) -> Move:
    """The decomposition player's play (no search); ``quick`` leads only whole parts of
    the hand's best split (the search's play-outs, where speed counts)."""
    if situation.leading:
        return lead(situation, quick=quick)
    return follow(situation)


# --- leading --------------------------------------------------------------------------------


def lead(situation: Situation, *, quick: bool = False) -> Move:
    """The best lead: the play that leaves the most valuable hand, adjusted for danger,
    feeding a partner and cashing a winning run (``quick``: among the best split's parts)."""
    moves = [m for m in situation.moves if not m.is_pass]
    if quick:
        parts = split_parts(situation.hand, situation.shapes)
        moves = [m for m in moves if m.cards in parts] or moves
    return best_lead(moves, lead_scores(situation, moves))


def lead_scores(situation: Situation, moves: list[Move]) -> dict[Move, float]:
    """:func:`lead_score` of each of ``moves``."""
    return {move: lead_score(situation, move) for move in moves}


def best_lead(moves: list[Move], scores: dict[Move, float]) -> Move:
    """The lead of ``moves`` with the best score (the lower one of a tie)."""
    return max(moves, key=lambda m: (scores[m], -m.main))


def lead_score(situation: Situation, move: Move) -> float:
    """How good leading ``move`` is."""
    rest = situation.hand - move.cards
    worth, left = evaluate(rest, situation.shapes)
    score: float = worth
    if move.kind.is_bomb and left > 1:
        score -= BOMB_COST
    if unbeatable(situation, move) and _runs_out(situation, rest, left):
        score += CASH
    score -= _danger(situation, move)
    score += _feed(situation, move)
    return score


def _runs_out(situation: Situation, rest: int, left: int) -> bool:
    """Whether ``rest`` can be played out keeping the lead: at most one of its combinations
    beatable (approximated by its singles and pairs above every unseen one)."""
    if left <= 1:
        return True
    beatable = 0
    for part in split_parts(rest, situation.shapes):
        if not unbeatable_cards(situation, part):
            beatable += 1
            if beatable > 1:
                return False
    return True


def _danger(situation: Situation, move: Move) -> float:
    """The risk of leading ``move`` into an opponent about to go out."""
    if move.kind not in (Kind.SINGLE, Kind.PAIR):
        return 0.0
    close = [n for s, n in enumerate(situation.counts) if s in situation.opponents and n <= 2]
    if move.size in close and not unbeatable(situation, move):
        # the higher the card, the less the risk
        return DANGER - 2 * move.main
    return 0.0


def _feed(situation: Situation, move: Move) -> float:
    """Leading a low single or pair to a partner who can go out with it."""
    partner = situation.partner
    if partner is None or move.kind not in (Kind.SINGLE, Kind.PAIR):
        return 0.0
    if situation.counts[partner] != move.size or situation.counts[situation.landlord] <= 2:
        return 0.0
    return FEED - 2 * move.main


# --- following ------------------------------------------------------------------------------


def follow(situation: Situation) -> Move:
    """Beat the play, or pass: never over a partner; otherwise the beating play that costs
    the hand least, if it costs little enough (more may be spent in danger)."""
    by = situation.to_beat_seat
    beaters = [m for m in situation.moves if not m.is_pass]
    may_pass = len(beaters) < len(situation.moves)
    if not beaters:
        return situation.moves[0]
    base = value(situation.hand, situation.shapes)
    hurry = _hurry(situation)
    best, cost = min(
        ((m, _cost(situation, m, base, hurry)) for m in beaters), key=lambda pair: pair[1]
    )
    if not may_pass:  # the caller's rules may demand a play
        return best
    if by is not None and by not in situation.opponents:
        return _over_partner(situation, beaters)
    return best if cost <= _allowance(situation, hurry) else PASS


def _over_partner(situation: Situation, beaters: list[Move]) -> Move:
    """Following the partner: pass, unless a play leaves a hand that runs out."""
    for move in beaters:
        if move.kind.is_bomb:
            continue
        rest = situation.hand - move.cards
        if evaluate(rest, situation.shapes)[1] <= 1 and unbeatable(situation, move):
            return move
    return PASS


def _hurry(situation: Situation) -> int:
    """How close the other side is to going out: 0 (not at all) to 3 (one card left)."""
    fewest = situation.opponent_fewest
    return max(0, 4 - fewest) if fewest <= 3 else 0


def _cost(situation: Situation, move: Move, base: int, hurry: int) -> float:
    """What beating with ``move`` costs the hand's value (negative: it gains)."""
    worth, left = evaluate(situation.hand - move.cards, situation.shapes)
    cost: float = base - worth
    if hurry:
        return cost - 10 * hurry
    if move.kind.is_bomb:
        cost += BOMB_COST if left > 1 else -BOMB_COST
    elif move.main >= ACE and move.kind in (Kind.SINGLE, Kind.PAIR):
        cost += CONTROL_COST * max(1, rank_score(move.main)) / 4 * _early(situation)
    if unbeatable(situation, move) and _runs_out(situation, situation.hand - move.cards, left):
        cost -= CASH
    return cost


def _early(situation: Situation) -> float:
    """1 early in the hand (the opponents hold many cards), less later."""
    return min(1.0, situation.opponent_fewest / 10)


def _allowance(situation: Situation, hurry: int) -> float:
    """The most a beating play may cost: more in a hurry, and for the farmer who plays
    just before the landlord (he must stop him); less for a farmer whose partner plays
    next and may beat the landlord's play himself."""
    if hurry:
        return 200.0
    allowance = 0.0
    partner = situation.partner
    if partner is not None:
        if situation.after(situation.seat) == situation.landlord:
            allowance += 4
        elif situation.to_beat_seat == situation.landlord:
            allowance -= 2
    return allowance


# --- what the others can beat ---------------------------------------------------------------


def unbeatable(situation: Situation, move: Move) -> bool:
    """Whether no opponent can beat ``move`` with an ordinary combination (bombs aside) —
    judged from the unseen cards and the opponents' card counts."""
    if move.kind is Kind.ROCKET:
        return True
    shape = (int(move.kind), move.main, _WIDTH.get(move.kind, 3), move.length)
    return _unbeatable(situation.opponent_pool, situation.opponent_most, shape)


def unbeatable_cards(situation: Situation, cards: int) -> bool:
    """:func:`unbeatable` for a part of a split, read as a single, pair, trio, chain or
    bomb from its cards."""
    return _unbeatable(situation.opponent_pool, situation.opponent_most, _shape(cards))


def _unbeatable(pool: int, most: int, shape: tuple[int, int, int, int]) -> bool:
    """Whether cards drawn from ``pool``, at most ``most`` of them, cannot beat a
    combination of ``shape`` (kind, main, width, length) without a bomb (remembered in a
    plain dict of ints, like :mod:`.decompose`'s memos)."""
    key = (pool, most, *shape)
    found = _UNBEATABLE.get(key)
    if found is None:
        found = _UNBEATABLE[key] = _unbeatable_of(pool, most, shape)
        if len(_UNBEATABLE) > MEMO_LIMIT:
            _UNBEATABLE.clear()
    return found


_UNBEATABLE: dict[tuple[int, ...], bool] = {}


def _unbeatable_of(pool: int, most: int, shape: tuple[int, int, int, int]) -> bool:
    kind, main, width, length = shape
    if kind == Kind.ROCKET:
        return True
    bomb = kind in (Kind.BOMB, Kind.WILD_BOMB)
    if width * length > most and not bomb:
        return True
    c = [(pool >> (4 * slot)) & 0xF for slot in range(WILD + 1)]
    wild = c[WILD]
    if bomb:
        return not (c[BLACK] and c[RED]) and not any(
            n + wild >= 4 for slot, n in enumerate(c[: TWO + 1]) if slot > main
        )
    if length == 1:
        top = RED if width == 1 else TWO
        return not any(
            c[slot] + (wild if slot <= TWO else 0) >= width for slot in range(main + 1, top + 1)
        )
    for high in range(main + 1, ACE + 1):
        if all(c[slot] >= width for slot in range(high - length + 1, high + 1)):
            return False
    return True


_WIDTH = {
    Kind.SINGLE: 1,
    Kind.CHAIN: 1,
    Kind.PAIR: 2,
    Kind.PAIR_CHAIN: 2,
    Kind.BOMB: 4,
    Kind.FOUR_TWO_SINGLES: 4,
    Kind.FOUR_TWO_PAIRS: 4,
    Kind.WILD_BOMB: 5,
    Kind.ROCKET: 2,
}
"""Cards per rank of each kind's main part (3 for the trio kinds)."""


def _shape(cards: int) -> tuple[int, int, int, int]:
    """(kind, main, width, length) of a split part read from its cards."""
    c = [(cards >> (4 * slot)) & 0xF for slot in range(WILD + 1)]
    if c[BLACK] and c[RED]:
        return int(Kind.ROCKET), RED, 2, 1
    width = max(c)
    ranks = [slot for slot, n in enumerate(c) if n == width]
    kinds = _GROUPS if len(ranks) == 1 else _CHAINS
    return int(kinds.get(width, Kind.BOMB)), ranks[-1], width, len(ranks)


_GROUPS = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIO, 4: Kind.BOMB}
_CHAINS = {1: Kind.CHAIN, 2: Kind.PAIR_CHAIN, 3: Kind.TRIO_CHAIN}
