"""Dou Dizhu points: the pairwise landlord–farmer model, for every rule set.

The state machine records what happened in a :class:`HandFacts`; :func:`score_hand` turns
it into points per seat and :func:`escape_points` prices an escape.  Points are exact
integers; turning them into coins (room coefficient, rake, fees, balances) is the hall's
settlement, :mod:`qipai.hall.coins`, the only place money is computed.

**The model.**  Every hand is settled per landlord–farmer *pair*: the farmer receives (or
pays) ``base × pair multiplier`` and the landlord's result is minus the sum of his two
pairs.  The pair multiplier is ``rules.initial_multiplier × events``, where *events* is
the product of every factor of :func:`pair_factors` except the initial one.  With no
pairwise factor this is the classic "landlord ±2 × base × multiplier, each farmer ∓1 ×
base × multiplier", and zhengtu's ``landlord ±base × multiplier × (players − 1)`` is the
same number.

**Readings and choices** (the rules pages leave these open):

- Robs.  Call / rob presets: each rob multiplies the whole hand by ``rules.rob_factor``.
  yifa (``rob_by_outbid``): a rob ``(robber, robbed)`` multiplies only the pair of those
  two seats, so it counts only when one of them is the landlord and the other a farmer.
  A rob between two seats that both end as farmers changes nothing: farmers never settle
  with each other, and the rob is no doubling of any landlord–farmer pair (nor of either
  player's cap count).
- 加倍 (doubling factor 2).  yifa / caishen: a doubling farmer's pair ×2.  huanle / jj
  (everyone may double): pair = multiplier × landlord's factor × farmer's factor, so the
  landlord's doubling doubles both pairs.  A doubling flag that the rule set does not
  allow (a farmer's under ``FarmerDoubling.NONE``, the landlord's outside ``EVERYONE``)
  is rejected as ``bad_facts`` rather than silently ignored.
- ``BombFactor.JJ_LINEAR``: as the JJ rules page says, the *bombs* give ``1 +
  number of bombs`` (five-card 财神 bombs counted as bombs); each rocket still gives ×2
  (the page lists "每打出火箭，倍数×2" next to the JJ bomb rule).
- yifa cap (``doubling_cap``): each pair's *events* are capped at ``2 ** cap`` (16), so a
  pair multiplier is at most ``initial × 2 ** cap``; the landlord's total is the sum of
  his two capped pairs.  Hence the largest yifa result is ``2 × 3 × 16 = 96`` points,
  which is exactly the 易发 page's entry minimum "room coefficient × 96".
- 任务 (:mod:`.tasks`): a task completed by the winning side doubles both pairs (the
  winners' result doubled, the losers' loss too); it is an event like a bomb, so inside
  yifa's cap.
- jj bottom bonus: :func:`bottom_bonus`; "straight" means three consecutive ranks within
  ``3 … A`` (like every Dou Dizhu chain: no 2, no joker).
- jj 托管 liability (:func:`_apply_liability`): a farmer who entered 托管 with one card
  left is not liable.  Farmers lose: the liable farmer(s) pay the two farmers' total
  loss, split evenly between two liable farmers.  Farmers win: the non-liable farmer
  receives the whole gain, the liable farmer 0; when *both* are liable nobody is left to
  receive, so both get 0 and the landlord (minus the farmers' sum) loses 0.
- Even splits (liability, escape compensation): an odd point goes to the first seat of
  the group in play order (seat ``i → i+1``) counted from the landlord (liability) or
  from the escaper (escape).
- Escapes: see :func:`escape_penalty`.  The penalty of caishen and huanle is shared by
  the two other seats evenly (the pages are silent; this keeps every hand zero-sum);
  zhengtu's page says "其余玩家每人得分 = 0", so nobody receives it.  yifa has no escape
  penalty (the escaper is played by 托管): :func:`escape_points` raises.

>>> from qipai.games.doudizhu.rules import RULES
>>> facts = HandFacts(rules=RULES["yifa"], landlord=0, base=3, winner=0, bombs=1)
>>> score_hand(facts)
(12, -6, -6)
>>> [(f.reason, f.factor) for f in multiplier_breakdown(facts)[0].factors]
[('bomb', 2)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from types import MappingProxyType

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.combos import ACE, BLACK, RED, TWO, counts, from_text
from qipai.games.doudizhu.rules import (
    BombFactor,
    EscapeModel,
    FarmerDoubling,
    Rules,
    ShowCombine,
)
from qipai.games.doudizhu.tasks import TASK_FACTOR, Task

SEATS = 3
"""Dou Dizhu is played by three seats, 0-2."""
DOUBLING_FACTOR = 2
"""Factor of one 加倍 (and of each bomb, rocket, spring under ``BombFactor.DOUBLING``)."""
LANDLORD_ROLE = 2
"""身份系数: the landlord's role factor (a farmer's is 1)."""
ESCAPE_THRESHOLD = 10
"""caishen / huanle: an escape multiplier under this is charged as if it were this."""

REASONS: Mapping[str, str] = MappingProxyType(
    {
        "initial": "初始倍数",
        "rob": "抢地主",
        "show": "明牌",
        "bottom": "底牌翻倍",
        "bomb": "炸弹",
        "rocket": "火箭",
        "wild_bomb": "财神炸弹",
        "spring": "春天",
        "anti_spring": "反春",
        "task": "任务",
        "landlord_double": "地主加倍",
        "farmer_double": "农民加倍",
    }
)
"""Every :attr:`Factor.reason`, in display order, with its Chinese label."""


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Everything scoring needs to know about one hand (three seats, 0-2)."""

    rules: Rules
    """The rule set the hand was played under."""
    landlord: int
    """The landlord's seat."""
    base: int
    """底分: the winning bid (points presets) or the room's base (call / rob presets)."""
    winner: int | None = None
    """The seat that went out first; ``None`` while the hand is unfinished (escapes)."""
    robs: tuple[tuple[int, int], ...] = ()
    """Each rob as (robber, robbed): call / rob presets count them for the whole hand;
    yifa doubles only the pair of the two players (``rob_by_outbid``)."""
    shows: tuple[int, ...] = (1, 1, 1)
    """明牌 factor of each seat's showing (1 = did not show); combined per ``show_combine``."""
    doubled: tuple[bool, ...] = (False, False, False)
    """Whether each seat chose 加倍 (yifa: 加倍 or 跟加倍)."""
    bombs: int = 0
    """Four-card bombs played (wildcard-made ones included)."""
    rockets: int = 0
    """Rockets played."""
    wild_bombs: int = 0
    """Five-card 财神 bombs played."""
    spring: bool = False
    """春天."""
    anti_spring: bool = False
    """反春."""
    bottom: str = ""
    """The bottom cards in rank notation (jj bottom-card bonus)."""
    trustee: tuple[bool, ...] = (False, False, False)
    """Seats in 托管 when the hand ended (jj liability)."""
    trustee_last_card: tuple[bool, ...] = (False, False, False)
    """Seats that entered 托管 with one card left (jj: scored normally)."""
    bombs_in_hand: tuple[int, ...] = (0, 0, 0)
    """Bombs and rockets still in each seat's hand (huanle escape: they count as played)."""
    task: Task | None = None
    """The hand's 任务 (:mod:`.tasks`), if its rules draw one."""
    task_completed: bool = False
    """The winning side completed :attr:`task`: ×:data:`~.tasks.TASK_FACTOR`."""


@dataclass(frozen=True, slots=True)
class Factor:
    """One reason the multiplier grew: ``count`` events that together multiply by ``factor``."""

    reason: str
    """A key of :data:`REASONS` (``"bomb"``, ``"rob"``, …)."""
    count: int
    """How many events of this kind (3 bombs; 1 for a show or the initial value)."""
    factor: int
    """What they multiply the pair's multiplier by, together (3 bombs: 8, or 4 under JJ)."""

    @property
    def label(self) -> str:
        """The Chinese name of the reason, for display."""
        return REASONS[self.reason]


@dataclass(frozen=True, slots=True)
class PairMultiplier:
    """The multiplier between the landlord and one farmer, with its reasons."""

    farmer: int
    """The farmer's seat."""
    factors: tuple[Factor, ...]
    """Every factor other than 1, the initial value first; their product is uncapped."""
    initial: int
    """``rules.initial_multiplier``."""
    events: int
    """Product of every factor except the initial value, before the cap."""
    limit: int | None
    """Largest ``events`` counted (``2 ** doubling_cap``); ``None`` = no cap."""

    @property
    def counted_events(self) -> int:
        """``events``, capped."""
        return self.events if self.limit is None else min(self.events, self.limit)

    @property
    def is_capped(self) -> bool:
        """Whether the cap lowered this pair's multiplier."""
        return self.counted_events < self.events

    @property
    def multiplier(self) -> int:
        """The pair's multiplier: ``initial × counted_events``."""
        return self.initial * self.counted_events


# --- validation ------------------------------------------------------------------------


def _bad(message: str) -> InvalidActionError:
    return InvalidActionError("bad_facts", message)


def _check_seat(seat: int, what: str) -> None:
    if not 0 <= seat < SEATS:
        raise _bad(f"{what} must be a seat 0-{SEATS - 1}, not {seat}")


def _check_facts(facts: HandFacts) -> None:
    """:raises InvalidActionError: ``bad_facts`` if ``facts`` cannot describe a hand."""
    _check_seat(facts.landlord, "landlord")
    if facts.winner is not None:
        _check_seat(facts.winner, "winner")
    if facts.base < 1:
        raise _bad(f"base must be positive, not {facts.base}")
    per_seat = (facts.shows, facts.doubled, facts.trustee, facts.trustee_last_card)
    if any(len(t) != SEATS for t in (*per_seat, facts.bombs_in_hand)):
        raise _bad(f"per-seat tuples must have {SEATS} entries")
    if min(facts.bombs, facts.rockets, facts.wild_bombs, *facts.bombs_in_hand) < 0:
        raise _bad("bomb counts must not be negative")
    if min(facts.shows) < 1:
        raise _bad("a 明牌 factor is at least 1")
    for robber, robbed in facts.robs:
        _check_seat(robber, "robber")
        _check_seat(robbed, "robbed")
        if robber == robbed:
            raise _bad("a seat cannot rob itself")
    _check_doubling(facts)
    _check_outcome(facts)


def _check_doubling(facts: HandFacts) -> None:
    mode = facts.rules.doubling
    if mode is FarmerDoubling.NONE and any(facts.doubled):
        raise _bad(f"rule set {facts.rules.name!r} has no 加倍")
    if mode is not FarmerDoubling.EVERYONE and facts.doubled[facts.landlord]:
        raise _bad(f"the landlord may not 加倍 under {facts.rules.name!r}")


def _check_outcome(facts: HandFacts) -> None:
    landlord_won = facts.winner == facts.landlord
    if facts.spring and not landlord_won:
        raise _bad("春天 needs a landlord win")
    if facts.anti_spring and (facts.winner is None or landlord_won):
        raise _bad("反春 needs a farmers' win")
    if facts.task_completed and (facts.task is None or facts.winner is None):
        raise _bad("a completed task needs a task and a winner")


# --- multipliers -------------------------------------------------------------------------


def farmers_of(landlord: int) -> tuple[int, int]:
    """The two farmers' seats, in play order after the landlord."""
    return (landlord + 1) % SEATS, (landlord + 2) % SEATS


def bottom_bonus(bottom: str, rules: Rules) -> int:
    """底牌翻倍: the factor the bottom cards give under ``rules`` (1 if the option is off).

    Patterns of ``rules.bottom_bonus_table``, first match wins, else 1: ``rocket`` both
    jokers, ``joker`` at least one joker, ``trio`` three cards of one rank, ``straight``
    three consecutive ranks within ``3 … A``.

    >>> from qipai.games.doudizhu.rules import RULES
    >>> [bottom_bonus(b, RULES["jj"]) for b in ("5BR", "55R", "777", "QKA", "KA2", "359")]
    [4, 2, 3, 3, 1, 1]
    >>> bottom_bonus("BR7", RULES["huanle"])
    1

    :raises InvalidActionError: ``bad_cards`` for unreadable cards; ``bad_rules`` for a
        pattern name this function does not know.
    """
    if not rules.bottom_bonus:
        return 1
    slots = counts(from_text(bottom))
    for pattern, factor in rules.bottom_bonus_table:
        if _bottom_matches(pattern, slots):
            return factor
    return 1


def _bottom_matches(pattern: str, slots: list[int]) -> bool:
    if pattern == "rocket":
        return slots[BLACK] > 0 and slots[RED] > 0
    if pattern == "joker":
        return slots[BLACK] + slots[RED] > 0
    if pattern == "trio":
        return max(slots[: TWO + 1]) >= 3
    if pattern == "straight":
        return any(all(slots[r + k] for k in range(3)) for r in range(ACE - 1))
    raise InvalidActionError("bad_rules", f"unknown bottom-card pattern {pattern!r}")


def _show_factor(facts: HandFacts) -> int:
    if facts.rules.show_combine is ShowCombine.PRODUCT:
        return prod(facts.shows)
    return max(facts.shows)


def _bomb_factors(facts: HandFacts) -> list[Factor]:
    rules = facts.rules
    if rules.bomb_factor is BombFactor.JJ_LINEAR:
        played = facts.bombs + facts.wild_bombs
        bombs = [Factor("bomb", played, 1 + played)]
    else:
        bombs = [
            Factor("bomb", facts.bombs, DOUBLING_FACTOR**facts.bombs),
            Factor("wild_bomb", facts.wild_bombs, rules.wild_bomb_factor**facts.wild_bombs),
        ]
    return [*bombs, Factor("rocket", facts.rockets, DOUBLING_FACTOR**facts.rockets)]


def common_factors(facts: HandFacts) -> list[Factor]:
    """The factors shared by both pairs (whole-hand robs, 明牌, bottom, bombs, spring, a
    completed 任务).

    The initial multiplier is not among them (it is :attr:`PairMultiplier.initial`);
    factors equal to 1 are left out.
    """
    rules = facts.rules
    robs = 0 if rules.rob_by_outbid else len(facts.robs)
    factors = [
        Factor("rob", robs, rules.rob_factor**robs),
        Factor("show", sum(s > 1 for s in facts.shows), _show_factor(facts)),
        Factor("bottom", 1, bottom_bonus(facts.bottom, rules)),
        *_bomb_factors(facts),
        Factor("spring", int(facts.spring), rules.spring_factor if facts.spring else 1),
        Factor(
            "anti_spring",
            int(facts.anti_spring),
            rules.anti_spring_factor if facts.anti_spring else 1,
        ),
        Factor("task", int(facts.task_completed), TASK_FACTOR if facts.task_completed else 1),
    ]
    return [f for f in factors if f.factor != 1]


def pair_factors(facts: HandFacts, farmer: int) -> list[Factor]:
    """The factors of the pair (landlord, ``farmer``) only: yifa robs and 加倍."""
    rules, landlord = facts.rules, facts.landlord
    pair = {landlord, farmer}
    robs = sum({a, b} == pair for a, b in facts.robs) if rules.rob_by_outbid else 0
    landlord_doubled = facts.doubled[landlord] and rules.doubling is FarmerDoubling.EVERYONE
    factors = [
        Factor("rob", robs, rules.rob_factor**robs),
        Factor("landlord_double", 1, DOUBLING_FACTOR if landlord_doubled else 1),
        Factor("farmer_double", 1, DOUBLING_FACTOR if facts.doubled[farmer] else 1),
    ]
    return [f for f in factors if f.factor != 1]


def _pair(facts: HandFacts, farmer: int) -> PairMultiplier:
    rules = facts.rules
    events = [*common_factors(facts), *pair_factors(facts, farmer)]
    initial = [Factor("initial", 1, rules.initial_multiplier)]
    cap = rules.doubling_cap
    return PairMultiplier(
        farmer=farmer,
        factors=tuple(f for f in initial + events if f.factor != 1),
        initial=rules.initial_multiplier,
        events=prod(f.factor for f in events),
        limit=None if cap is None else DOUBLING_FACTOR**cap,
    )


def standing_multiplier(facts: HandFacts) -> int:
    """The multiplier of the whole hand as it stands, before the pairs part: the initial
    multiplier times the factors both pairs share so far (:func:`common_factors`: 明牌,
    whole-hand robs...), capped as a pair's would be.  What a table shows during the
    auction, before the landlord (and so any pair) is known; it leaves out what only a
    pair has (yifa robs, 加倍), which needs the landlord.

    >>> from qipai.games.doudizhu.rules import RULES
    >>> standing_multiplier(HandFacts(rules=RULES["huanle"], landlord=0, base=1,
    ...                               shows=(1, 3, 1), robs=((1, 0),)))
    6
    """
    rules = facts.rules
    events = prod(f.factor for f in common_factors(facts))
    cap = rules.doubling_cap
    counted = events if cap is None else min(events, DOUBLING_FACTOR**cap)
    return rules.initial_multiplier * counted


def multiplier_breakdown(facts: HandFacts) -> tuple[PairMultiplier, PairMultiplier]:
    """Both pairs' multipliers with their reasons, farmers in play order after the landlord.

    For display: 底分 ``facts.base`` × :attr:`PairMultiplier.multiplier`, with
    :attr:`PairMultiplier.factors` as the reasons (and :attr:`PairMultiplier.is_capped`).

    >>> from qipai.games.doudizhu.rules import RULES
    >>> facts = HandFacts(rules=RULES["jj"], landlord=1, base=1, winner=2, bombs=2,
    ...                   rockets=1, doubled=(True, True, False), bottom="QKA")
    >>> [(p.farmer, p.multiplier) for p in multiplier_breakdown(facts)]
    [(2, 48), (0, 96)]
    >>> [f.label for f in multiplier_breakdown(facts)[1].factors]
    ['底牌翻倍', '炸弹', '火箭', '地主加倍', '农民加倍']

    :raises InvalidActionError: ``bad_facts`` if ``facts`` cannot describe a hand.
    """
    _check_facts(facts)
    first, second = farmers_of(facts.landlord)
    return _pair(facts, first), _pair(facts, second)


def pair_multiplier(facts: HandFacts, farmer: int) -> int:
    """The (capped) multiplier between the landlord and ``farmer``.

    :raises InvalidActionError: ``bad_facts`` if ``farmer`` is not a farmer's seat or
        ``facts`` cannot describe a hand.
    """
    for pair in multiplier_breakdown(facts):
        if pair.farmer == farmer:
            return pair.multiplier
    raise _bad(f"seat {farmer} is not a farmer")


# --- finished hands ----------------------------------------------------------------------


def split_evenly(total: int, seats: Sequence[int]) -> dict[int, int]:
    """Share ``total`` (either sign) among ``seats`` as evenly as integers allow.

    The shares differ by at most one; the larger magnitudes go to the first seats.

    >>> split_evenly(7, (2, 0)), split_evenly(-7, (2, 0))
    ({2: 4, 0: 3}, {2: -4, 0: -3})
    """
    sign = -1 if total < 0 else 1
    whole, extra = divmod(abs(total), len(seats))
    return {seat: sign * (whole + (i < extra)) for i, seat in enumerate(seats)}


def liable_farmers(facts: HandFacts) -> tuple[int, ...]:
    """The farmers that jj's 托管 liability holds to account: in 托管 when the hand
    ended, not with one card left; none under rules without the liability."""
    if not facts.rules.trustee_liability:
        return ()
    return tuple(
        f for f in farmers_of(facts.landlord)
        if facts.trustee[f] and not facts.trustee_last_card[f]
    )


def _apply_liability(facts: HandFacts, results: dict[int, int]) -> dict[int, int]:
    """jj 托管 liability on the farmers' results (see the module docstring)."""
    order = farmers_of(facts.landlord)
    liable = list(liable_farmers(facts))
    if not liable:
        return results
    total = sum(results.values())
    takers = liable if total < 0 else [f for f in order if f not in liable]
    shares = split_evenly(total, takers) if takers else {}
    return {f: shares.get(f, 0) for f in order}


def score_hand(facts: HandFacts) -> tuple[int, ...]:
    """Points per seat of a finished hand; they sum to zero.

    Each farmer gets ``±base × pair multiplier`` (+ if the farmers won), then the jj
    托管 liability moves farmers' results if the rule set has it; the landlord gets minus
    the farmers' sum.

    >>> from qipai.games.doudizhu.rules import RULES
    >>> score_hand(HandFacts(rules=RULES["zhengtu"], landlord=2, base=3, winner=0,
    ...                      bombs=1, anti_spring=True))
    (12, 12, -24)

    :raises IllegalActionError: ``hand_not_finished`` if ``facts.winner`` is ``None``.
    :raises InvalidActionError: ``bad_facts`` if ``facts`` cannot describe a hand.
    """
    pairs = multiplier_breakdown(facts)
    if facts.winner is None:
        raise IllegalActionError("hand_not_finished", "the hand has no winner yet")
    sign = -1 if facts.winner == facts.landlord else 1
    results = {p.farmer: sign * facts.base * p.multiplier for p in pairs}
    results = _apply_liability(facts, results)
    points = [0] * SEATS
    for farmer, result in results.items():
        points[farmer] = result
    points[facts.landlord] = -sum(results.values())
    return tuple(points)


# --- escapes -------------------------------------------------------------------------------


def priced_landlord(
    landlord: int | None, base: int, candidate: int | None, bid: int, *, escaper: int | None
) -> tuple[int, int]:
    """The landlord and 底分 an escape is priced with: the landlord once known; before
    that the standing bidder, caller or robber at the bid so far (at least 1), else the
    seat after the escaper at 1 (a reading: the escaper is then priced as a farmer).

    >>> priced_landlord(None, 1, None, 0, escaper=2)
    (0, 1)
    """
    if landlord is not None:
        return landlord, base
    if candidate is not None:
        return candidate, max(bid, 1)
    return ((escaper or 0) + 1) % SEATS, 1


def _escaper_pairs(facts: HandFacts, escaper: int) -> list[PairMultiplier]:
    pairs = multiplier_breakdown(facts)
    return [p for p in pairs if escaper in (facts.landlord, p.farmer)]


def _with_unplayed_bombs(facts: HandFacts) -> HandFacts:
    """huanle: every bomb and rocket still in a hand counts as a played bomb (×2 each)."""
    return dataclasses.replace(facts, bombs=facts.bombs + sum(facts.bombs_in_hand))


def _threshold_charge(units: int, role: int, threshold: int, ten_is_over: bool) -> int:
    """Multiplier units charged: under ``threshold`` → ``10 × role``, else ``2 × role ×``.

    ``ten_is_over`` (``Rules.escape_ten_is_over``) says on which side exactly the
    threshold falls.
    """
    under = units < threshold if ten_is_over else units <= threshold
    return ESCAPE_THRESHOLD * role if under else 2 * role * units


def escape_penalty(facts: HandFacts, escaper: int) -> int:
    """The points (≥ 0) that ``escaper`` loses by leaving the unfinished hand.

    ``role`` is 2 for the landlord, 1 for a farmer; the landlord's multiplier is the sum
    of his two pair multipliers (so it includes his role factor), a farmer's is his pair's.

    - CAISHEN: the page's total multiplier *including the role factor* ``t``: under 10 →
      ``base × 10 × role`` (20 / 10); 10 or more (reading: exactly 10 counts as "over") →
      ``base × t × 2 × role`` (4× / 2× the actual loss ``base × t``).
    - HUANLE: the page's 游戏倍数 counts only in-game events, not the room's initial
      value, and — "逃跑计算时将计算当盘所有的炸弹数量无论是否炸出" — every bomb and
      rocket still in *any* hand counts as played (not only the escaper's: this follows
      the page's words).  With ``e`` the escaper's event
      multiplier (landlord: sum of both pairs', compared with 20, i.e. "under 10" per
      pair on average): under → charged as if ``e`` were 10, i.e. ``base × initial × 10
      × role``; else ``base × initial × e × 2 × role`` (4× / 2× the actual loss).  The
      initial value scales the charge in both branches, so escaping never costs less
      than the room's ordinary stake.
    - ZHENGTU: landlord ``base × mult × (n − 1) × 2``, farmer ``base × mult × 2``.

    >>> from qipai.games.doudizhu.rules import RULES
    >>> [escape_penalty(HandFacts(rules=RULES["caishen"], landlord=0, base=1, bombs=b), 0)
    ...  for b in (1, 2, 3)]
    [20, 20, 64]

    :raises IllegalActionError: ``no_escape_penalty`` for a rule set without one (yifa).
    :raises InvalidActionError: ``bad_facts`` for an impossible seat or facts.
    """
    _check_seat(escaper, "escaper")
    model = facts.rules.escape
    if model is EscapeModel.NONE:
        raise IllegalActionError(
            "no_escape_penalty",
            f"rule set {facts.rules.name!r} has no escape penalty: the seat goes into 托管",
        )
    role = LANDLORD_ROLE if escaper == facts.landlord else 1
    if model is EscapeModel.HUANLE:
        pairs = _escaper_pairs(_with_unplayed_bombs(facts), escaper)
        units = sum(p.counted_events for p in pairs)
        charge = _threshold_charge(
            units, role, ESCAPE_THRESHOLD * role, facts.rules.escape_ten_is_over
        )
        return facts.base * facts.rules.initial_multiplier * charge
    total = sum(p.multiplier for p in _escaper_pairs(facts, escaper))
    if model is EscapeModel.CAISHEN:
        ten_is_over = facts.rules.escape_ten_is_over
        return facts.base * _threshold_charge(total, role, ESCAPE_THRESHOLD, ten_is_over)
    return facts.base * total * DOUBLING_FACTOR  # ZHENGTU


def escape_points(facts: HandFacts, escaper: int) -> tuple[int, ...]:
    """Points per seat when ``escaper`` leaves the unfinished hand described by ``facts``.

    The escaper loses :func:`escape_penalty`.  caishen / huanle: the two other seats share
    it evenly (an odd point to the first of them in play order after the escaper), so the
    points sum to zero; zhengtu: the others get 0, as its page says.  ``facts.winner`` is
    ignored.  An escape before the landlord is decided (huanle counts leaving a matched
    table as escaping): pass as ``landlord`` any other seat — the escaper is then priced
    as a farmer at the multiplier so far.

    >>> from qipai.games.doudizhu.rules import RULES
    >>> escape_points(HandFacts(rules=RULES["huanle"], landlord=0, base=1), 1)
    (5, -10, 5)
    >>> escape_points(HandFacts(rules=RULES["zhengtu"], landlord=0, base=2, bombs=1), 0)
    (-16, 0, 0)

    :raises IllegalActionError: ``no_escape_penalty`` for a rule set without one (yifa).
    :raises InvalidActionError: ``bad_facts`` for an impossible seat or facts.
    """
    penalty = escape_penalty(facts, escaper)
    points = [0] * SEATS
    points[escaper] = -penalty
    if facts.rules.escape is not EscapeModel.ZHENGTU:
        others = [(escaper + k) % SEATS for k in range(1, SEATS)]
        for seat, share in split_evenly(penalty, others).items():
            points[seat] = share
    return tuple(points)
