"""Dou Dizhu rule sets: frozen data, five presets by name, custom ones derived from them.

Every difference between the five platforms of ``docs/rules/doudizhu.md`` is a named
field of :class:`Rules`; the presets are instances, and a custom rule set is a preset with
some fields replaced (:meth:`Rules.derive`).  Nothing here runs a hand: the state machine
(:mod:`.state`), the move generator (:mod:`.moves`) and the scoring (:mod:`.scoring`) read
these fields.  Every "Reading" of the rules is a field whose default is that reading.

>>> RULES["yifa"].doubling_cap
4
>>> custom = RULES["yifa"].derive("yifa-nocap", doubling_cap=None)
>>> custom.doubling_cap is None, custom.name
(True, 'yifa-nocap')
>>> get_rules("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: unknown_rules: unknown Dou Dizhu rule set 'nope'; known: ...
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from qipai.games.doudizhu.combos import Kind
from qipai.games.doudizhu.tasks import Task, check_tasks
from qipai.games.presets import derive_rules, lookup

ENGINE_VERSION = 2
"""The version of this engine's replays, written in every hand record (``engine``): 1 was
the engine of ``qipai-hand/1`` records (chance ``v1`` only); 2 deals with chance ``v2``
(:mod:`qipai.chance`).  Raise it whenever a change makes an old record replay differently."""


class FirstBidder(enum.Enum):
    """Who makes the first bidding decision of a hand."""

    MARKER_CARD = "marker_card"
    """A random card is turned face up at the deal; whoever holds it bids first (yifa)."""
    RANDOM = "random"
    """Chosen by the hand's seeded generator (caishen, huanle, jj)."""
    SEAT_ORDER = "seat_order"
    """The first hand of a table: the first player to sit (seat 0); then it rotates (zhengtu)."""


class Bidding(enum.Enum):
    """How the landlord is chosen."""

    POINTS = "points"
    """叫分: each player once bids 1, 2 or 3 or passes; 3 ends it; base = the bid."""
    CALL_ROB = "call_rob"
    """叫地主 / 抢地主: a call ends calling, then each non-passer may rob once."""


class FarmerDoubling(enum.Enum):
    """Who may 加倍 (double) once the landlord is known."""

    NONE = "none"
    """No doubling (zhengtu)."""
    UNBID_FARMERS = "unbid_farmers"
    """yifa: after a bid of 3, farmers who never had a chance to bid may 加倍 / 跟加倍."""
    FARMERS = "farmers"
    """caishen: each farmer may double his pair with the landlord."""
    EVERYONE = "everyone"
    """huanle / jj: each player may double; the landlord's doubling doubles both pairs."""


class ShowCombine(enum.Enum):
    """How the 明牌 factors of several showings combine."""

    PRODUCT = "product"
    """caishen: the factors multiply."""
    LARGEST = "largest"
    """huanle, jj: only the largest factor counts."""


class AllPass(enum.Enum):
    """What happens when every player passes the bidding and nobody showed."""

    REDEAL = "redeal"
    """Deal again (every preset's default)."""
    FORCED = "forced"
    """jj match option 强制记分: the first bidder is made landlord at the base score."""


class BombFactor(enum.Enum):
    """How bombs and rockets played multiply the score."""

    DOUBLING = "doubling"
    """×2 per bomb or rocket (×4 for a five-card 财神 bomb)."""
    JJ_LINEAR = "jj_linear"
    """JJ bomb rule: the bombs' factor is (1 + number of bombs played); a rocket stays ×2."""


class EscapeModel(enum.Enum):
    """Which escape (逃跑) penalty model applies."""

    NONE = "none"
    """No escape penalty in points (yifa: an escaper is played by 托管 instead)."""
    CAISHEN = "caishen"
    """Role-factor multiplier under 10 charged as 20 / 10, else 4× / 2× the amount."""
    HUANLE = "huanle"
    """In-game multiplier (bombs in hand count) under 10 → 20× / 10×, else 4× / 2×."""
    ZHENGTU = "zhengtu"
    """Landlord −base×mult×(n−1)×2, a farmer −base×mult×2, others 0."""


@dataclass(frozen=True, slots=True)
class ShowFactors:
    """明牌 factors by the moment a player shows his hand; ``None`` = not allowed then.

    ``during_deal`` is a tuple of ``(cards_dealt_at_most, factor)`` steps, checked in order.
    """

    before_deal: int | None = None
    """明牌开始: chosen before the deal."""
    during_deal: tuple[tuple[int, int], ...] = ()
    """发牌明牌: steps of (at most this many of the player's 17 cards dealt, factor)."""
    before_bid: int | None = None
    """caishen: shown between the start of the deal and the player's bidding decision."""
    after_bottom: int | None = None
    """The landlord shows after taking the bottom and before the first lead."""
    after_bottom_only_if_none_shown: bool = False
    """jj: the after-bottom 明牌 is allowed only if nobody showed earlier."""

    @property
    def any(self) -> bool:
        """Whether this rule set has 明牌 at all."""
        return bool(self.before_deal or self.during_deal or self.before_bid or self.after_bottom)


@dataclass(frozen=True, slots=True)
class Rules:
    """One Dou Dizhu rule set.  Construct presets with :func:`get_rules`.

    All fields are keyword-only; :meth:`derive` makes a custom rule set.
    """

    name: str
    """The rule set's name (``yifa``, ``caishen``, ``huanle``, ``zhengtu``, ``jj`` or custom)."""

    # --- cards -------------------------------------------------------------------------
    wildcard: bool = False
    """55 cards: the 财神 ``W`` is always one of 4 bottom cards (caishen)."""
    jokers_wild: bool = False
    """Jokers stand for any rank 3..2 when played with other cards (caishen)."""
    bottom_face_up: bool = False
    """The bottom cards lie face up on the table once the deal is over, before the bidding
    (caishen: "4张做为底牌（包罗财神牌）显示于游戏界面"); otherwise they are shown when
    the landlord takes them."""
    only_wildcard_left_wins: bool = False
    """A player whose only remaining cards are ``W`` has gone out (caishen)."""
    deal_high_to_low: bool = False
    """jj: "牌张按从大到小的顺序发出": each seat receives his 17 cards from his highest to his
    lowest, so a 发牌明牌 is decided on the best cards first; otherwise in shuffled order."""

    # --- combinations ------------------------------------------------------------------
    trio_single: bool = True
    """三带一 (trio with a single) exists."""
    plane_singles: bool = True
    """飞机带单翅膀 (airplane with single wings) exists."""
    four_two: bool = True
    """四带二 (four with two singles / two pairs) exists."""
    rocket_as_kickers: bool = False
    """Both jokers may be attached together as kickers or wings (DouZero allows it)."""

    # --- bidding -----------------------------------------------------------------------
    first_bidder: FirstBidder = FirstBidder.RANDOM
    """Who bids first."""
    bidding: Bidding = Bidding.CALL_ROB
    """Points (1-3) or call / rob."""
    rob_by_outbid: bool = False
    """yifa reading: a bid over a standing bid robs the standing bidder (their pair ×2)."""
    rob_factor: int = 2
    """Factor of one rob (call / rob presets: the whole hand; yifa: one pair)."""
    shower_bids_first: bool = False
    """The first player who showed (明牌) before bidding bids first (caishen, huanle)."""
    shower_becomes_landlord: bool = False
    """If someone showed before the bidding ("在叫牌前选择'明牌'") and nobody calls, the first
    such shower becomes landlord; a show made once the bidding has begun gives no such
    right (all pass is then a redeal)."""
    shower_is_landlord: bool = False
    """jj: if anyone showed before bidding there is no bidding; the first shower is landlord."""
    all_pass: AllPass = AllPass.REDEAL
    """What an all-pass bidding does."""

    # --- 明牌 and 加倍 -----------------------------------------------------------------
    show: ShowFactors = field(default_factory=ShowFactors)
    """明牌 factors by moment."""
    show_combine: ShowCombine = ShowCombine.LARGEST
    """How several showings combine."""
    doubling: FarmerDoubling = FarmerDoubling.NONE
    """Who may 加倍 after the landlord is known."""
    doubling_at_once: bool = False
    """huanle, jj: every seat asked to 加倍 chooses at the same time, within one time
    limit, seeing nobody's choice until all are revealed together ("每个人都做完选择后，
    游戏开始由地主出牌"); otherwise each decides in turn (yifa's 跟加倍 needs a first)."""
    doubling_threshold: int | None = None
    """huanle: coins each player concerned must hold *above* to double (a room setting;
    the preset's 0 means "some beans"); ``None``: no threshold (every other preset)."""

    # --- scoring -----------------------------------------------------------------------
    initial_multiplier: int = 1
    """The multiplier a hand starts from (huanle: the room's initial value)."""
    bomb_factor: BombFactor = BombFactor.DOUBLING
    """How bombs and rockets multiply."""
    wild_bomb_factor: int = 4
    """Factor of a five-card 财神 bomb (caishen)."""
    spring_factor: int = 2
    """春天 factor."""
    anti_spring_factor: int = 2
    """反春 factor."""
    doubling_cap: int | None = None
    """yifa: at most this many doublings per player and hand (pair multiplier ≤ 2**cap)."""
    bottom_bonus: bool = False
    """jj 底牌翻倍: special bottom cards multiply the result (see :attr:`bottom_bonus_table`)."""
    bottom_bonus_table: tuple[tuple[str, int], ...] = (
        ("rocket", 4),
        ("joker", 2),
        ("trio", 3),
        ("straight", 3),
    )
    """jj reading: bottom-card pattern → factor, first match wins, else ×1."""
    trustee_liability: bool = False
    """jj 托管 liability: a farmer in 托管 pays the farmers' loss and forfeits the gain."""
    escape: EscapeModel = EscapeModel.NONE
    """Escape penalty model."""
    escape_ten_is_over: bool = True
    """Reading (caishen, huanle): a multiplier of exactly 10 counts as "over 10" (4× / 2×);
    ``False`` charges it as "under" (20 / 10)."""

    # --- 任务 --------------------------------------------------------------------------
    tasks: tuple[Task, ...] = ()
    """任务: the tasks a hand's one is drawn from (:mod:`.tasks`), a room's choice; ``()``
    (every preset): no task."""

    def __post_init__(self) -> None:
        """:raises InvalidActionError: ``bad_rules`` for tasks that are not
        :class:`~.tasks.Task` values, or a task listed twice."""
        check_tasks(self.tasks)

    def derive(self, name: str, **changes: object) -> Rules:
        """A custom rule set: this one with ``changes`` applied and a new ``name``.

        :raises InvalidActionError: ``bad_rules`` if a change names no field.
        """
        return derive_rules(self, name, changes)

    def allows(self, kind: Kind) -> bool:
        """Whether combinations of ``kind`` exist in this rule set (zhengtu lacks some)."""
        if kind is Kind.TRIO_SINGLE:
            return self.trio_single
        if kind is Kind.PLANE_SINGLES:
            return self.plane_singles
        if kind in (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
            return self.four_two
        return True

    @property
    def deck_size(self) -> int:
        """54, or 55 with the wildcard."""
        return 55 if self.wildcard else 54

    @property
    def bottom_size(self) -> int:
        """3 bottom cards, or 4 with the wildcard."""
        return 4 if self.wildcard else 3


_YIFA = Rules(
    name="yifa",
    first_bidder=FirstBidder.MARKER_CARD,
    bidding=Bidding.POINTS,
    rob_by_outbid=True,
    doubling=FarmerDoubling.UNBID_FARMERS,
    doubling_cap=4,
)
_CAISHEN = Rules(
    name="caishen",
    wildcard=True,
    jokers_wild=True,
    bottom_face_up=True,
    only_wildcard_left_wins=True,
    first_bidder=FirstBidder.RANDOM,
    bidding=Bidding.CALL_ROB,
    shower_bids_first=True,
    shower_becomes_landlord=True,
    show=ShowFactors(before_deal=4, before_bid=2),
    show_combine=ShowCombine.PRODUCT,
    doubling=FarmerDoubling.FARMERS,
    escape=EscapeModel.CAISHEN,
)
_HUANLE = Rules(
    name="huanle",
    first_bidder=FirstBidder.RANDOM,
    bidding=Bidding.CALL_ROB,
    shower_bids_first=True,
    shower_becomes_landlord=True,
    show=ShowFactors(before_deal=5, during_deal=((8, 4), (17, 3)), after_bottom=2),
    show_combine=ShowCombine.LARGEST,
    doubling=FarmerDoubling.EVERYONE,
    doubling_at_once=True,
    doubling_threshold=0,
    escape=EscapeModel.HUANLE,
)
_ZHENGTU = Rules(
    name="zhengtu",
    first_bidder=FirstBidder.SEAT_ORDER,
    bidding=Bidding.POINTS,
    trio_single=False,
    plane_singles=False,
    four_two=False,
    escape=EscapeModel.ZHENGTU,
)
_JJ = Rules(
    name="jj",
    first_bidder=FirstBidder.RANDOM,
    bidding=Bidding.CALL_ROB,
    shower_is_landlord=True,
    deal_high_to_low=True,
    show=ShowFactors(
        before_deal=10,
        during_deal=((8, 5), (17, 3)),
        after_bottom=2,
        after_bottom_only_if_none_shown=True,
    ),
    show_combine=ShowCombine.LARGEST,
    doubling=FarmerDoubling.EVERYONE,
    doubling_at_once=True,
    bottom_bonus=True,
    trustee_liability=True,
)

RULES: Mapping[str, Rules] = MappingProxyType(
    {r.name: r for r in (_YIFA, _CAISHEN, _HUANLE, _ZHENGTU, _JJ)}
)
"""The five presets by name."""


def get_rules(rules: str | Rules) -> Rules:
    """The preset named ``rules``, or ``rules`` itself if it is already a :class:`Rules`.

    :raises InvalidActionError: ``unknown_rules`` for an unknown name.
    """
    return lookup(RULES, rules, "Dou Dizhu")
