"""Who becomes landlord, and for how much: 明牌, bidding, robbing and 加倍.

:class:`Auction` adds to :class:`.hand.Hand` every phase before the play — the deal in
steps with out-of-turn 明牌 (``DEAL``), 叫分 or 叫地主 (``BID``), 抢地主 (``ROB``), 加倍
(``DOUBLE``, in turn or all at once) and the landlord's after-bottom 明牌
(``SHOW_AFTER_BOTTOM``) — each as a ``_check_*`` that raises without changing anything
and a ``_do_*`` that applies.  Every choice is driven by a :class:`.Rules` field;
:class:`.State` is the class to use.
"""

from __future__ import annotations

from qipai.games.doudizhu.actions import (
    HAND_CARDS,
    MAX_BID,
    Action,
    Bid,
    Call,
    Deal,
    Double,
    NoCall,
    NoDouble,
    NoRob,
    NoShow,
    Rob,
    Show,
)
from qipai.games.doudizhu.combos import pack_cards, sort_key
from qipai.games.doudizhu.events import (
    BiddingStarted,
    BidMade,
    BottomRevealed,
    BottomShown,
    Called,
    Doubled,
    DoublesRevealed,
    LandlordChosen,
    MarkerTurned,
    Redealt,
    Robbed,
    ShowDeclined,
    Shown,
)
from qipai.games.doudizhu.hand import SEATS, Hand, Phase, refuse
from qipai.games.doudizhu.rules import AllPass, Bidding, FarmerDoubling


class Auction(Hand):
    """The phases before the play (use :class:`.State`)."""

    __slots__ = ()

    # --- the deal and 明牌 --------------------------------------------------------------

    def _check_deal(self, action: Deal, seat: int | None) -> int | None:
        self._in_phase(action, Phase.DEAL)
        if seat is not None:
            raise refuse("not_your_turn", "the dealer deals, not a seat")
        if action.cards > HAND_CARDS - self.cards_dealt:
            raise refuse("deal_too_many", f"only {HAND_CARDS - self.cards_dealt} cards left")
        return None

    def _do_deal(self, action: Deal, seat: int | None) -> None:
        self._deal_cards(action.cards)

    def _show_factor(self, seat: int) -> int | None:
        """The 明牌 factor ``seat`` would earn by showing now; ``None`` if it may not."""
        show = self.rules.show
        phase = self.phase
        if phase is Phase.DEAL:
            if self.cards_dealt == 0 and show.before_deal:
                return show.before_deal
            for dealt_at_most, factor in show.during_deal:
                if self.cards_dealt <= dealt_at_most:
                    return factor
            return show.before_bid
        if phase in (Phase.BID, Phase.ROB):
            return None if self.decided[seat] else show.before_bid
        if phase is Phase.SHOW_AFTER_BOTTOM and seat == self.landlord:
            return show.after_bottom
        return None

    def _check_show(self, action: Show, seat: int | None) -> int:
        if not self.rules.show.any:
            raise refuse("not_in_rules", f"{self.rules.name} has no 明牌")
        actor = self.current_player if seat is None else seat
        if actor is None:
            raise refuse("not_your_turn", "say which seat shows")
        if actor in self.show_order:
            raise refuse("already_shown", f"seat {actor} has shown already")
        if not self._show_factor(actor):
            raise refuse("show_closed", f"seat {actor} may not show now")
        return actor

    def _do_show(self, action: Show, seat: int) -> None:
        factor = self._show_factor(seat)
        assert factor is not None
        self.shows[seat] = factor
        self.show_order.append(seat)
        self.events.append(Shown(seat, tuple(self.hands[seat]), factor, self.cards_dealt))
        if self.phase is Phase.SHOW_AFTER_BOTTOM:
            self.auction.append((seat, action))
            self._start_play(seat)

    def _check_no_show(self, action: NoShow, seat: int | None) -> int:
        if not self.rules.show.any:
            raise refuse("not_in_rules", f"{self.rules.name} has no 明牌")
        self._in_phase(action, Phase.SHOW_AFTER_BOTTOM)
        return self._turn(action, seat)

    def _do_no_show(self, action: NoShow, seat: int) -> None:
        self.auction.append((seat, action))
        self.events.append(ShowDeclined(seat))
        self._start_play(seat)

    # --- bidding ----------------------------------------------------------------------

    def _start_bidding(self) -> None:
        if self.marker is not None and self.marker_seat is not None:
            self.events.append(MarkerTurned(self.marker, self.marker_seat))
        if self.rules.bottom_face_up:
            self.events.append(BottomShown(self.bottom))
        self.shown_before_bidding = len(self.show_order)
        if self.rules.shower_is_landlord and self.show_order:
            self._choose_landlord(self.show_order[0], 1, "first_shower")
            return
        first, reason = self._first_bidder()
        self.first_bidder = first
        self.events.append(BiddingStarted(first, reason))
        self._enter(Phase.BID, [(first + i) % SEATS for i in range(SEATS)])

    def _first_bidder(self) -> tuple[int, str]:
        if self.rules.shower_bids_first and self.show_order:
            return self.show_order[0], "first_shower"
        if self.marker_seat is not None:
            return self.marker_seat, "marker_card"
        if self._drawn_first is not None:
            return self._drawn_first, "random"
        return ((self.first_seat or 0) + self.hand_number) % SEATS, "seat_order"

    def _decide(self, seat: int, action: Action) -> None:
        self.decided[seat] = True
        self.auction.append((seat, action))

    def _check_bid(self, action: Bid, seat: int | None) -> int:
        if self.rules.bidding is not Bidding.POINTS:
            raise refuse("not_in_rules", f"{self.rules.name} has no 叫分 bids")
        self._in_phase(action, Phase.BID)
        actor = self._turn(action, seat)
        if action.points and action.points <= self.bid:
            raise refuse("bid_too_low", f"a bid must beat the standing {self.bid}")
        return actor

    def _do_bid(self, action: Bid, seat: int) -> None:
        self._decide(seat, action)
        robbed = None
        if action.points:
            if self.rules.rob_by_outbid and self.candidate is not None:
                robbed = self.candidate
                self.robs.append((seat, robbed))
            self.bid, self.candidate = action.points, seat
        self.events.append(BidMade(seat, action.points, robbed))
        if self._next_in_queue() and action.points < MAX_BID:
            return
        if self.candidate is None:
            self._all_pass()
        else:
            self._choose_landlord(self.candidate, self.bid, "bid")

    def _check_call(self, action: Call | NoCall, seat: int | None) -> int:
        if self.rules.bidding is not Bidding.CALL_ROB:
            raise refuse("not_in_rules", f"{self.rules.name} bids points, not 叫地主")
        self._in_phase(action, Phase.BID)
        return self._turn(action, seat)

    def _do_call(self, action: Call | NoCall, seat: int) -> None:
        self._decide(seat, action)
        call = isinstance(action, Call)
        self.events.append(Called(seat, call))
        if call:
            self.candidate = seat
            robbers = [(seat + i) % SEATS for i in (1, 2)]
            robbers = [s for s in robbers if not self.passed[s]]
            if robbers:
                self._enter(Phase.ROB, [*robbers, seat])  # the caller last: his rob back
            else:
                self._choose_landlord(seat, 1, "call")
            return
        self.passed[seat] = True
        if not self._next_in_queue():
            self._all_pass()

    def _check_rob(self, action: Rob | NoRob, seat: int | None) -> int:
        if self.rules.bidding is not Bidding.CALL_ROB:
            raise refuse("not_in_rules", f"{self.rules.name} has no 抢地主")
        self._in_phase(action, Phase.ROB)
        if seat is not None and self.passed[seat]:
            raise refuse("cannot_rob", f"seat {seat} passed: he may not rob")
        return self._turn(action, seat)

    def _do_rob(self, action: Rob | NoRob, seat: int) -> None:
        """One rob decision; the caller's own chance (to rob back) comes last, and only
        if somebody robbed him ("每位玩家均有且只有一次'抢地主'的机会")."""
        self._decide(seat, action)
        robbed = None
        if isinstance(action, Rob) and self.candidate is not None:
            robbed = self.candidate
            self.robs.append((seat, robbed))
            self.candidate = seat
        self.events.append(Robbed(seat, robbed is not None, robbed))
        more = self._next_in_queue()
        if more and not self.robs and self._queue == [self._caller()]:
            more = False  # nobody robbed: the caller has nothing to rob back
        if not more and self.candidate is not None:
            self._choose_landlord(self.candidate, 1, "rob" if self.robs else "call")

    def _caller(self) -> int | None:
        """The seat that said 叫地主 in this deal, if any."""
        return next((s for s, a in self.auction if isinstance(a, Call)), None)

    def _all_pass(self) -> None:
        if self.rules.shower_becomes_landlord and self.shown_before_bidding:
            # only a show "在叫牌前" (before the bidding) earns the seat
            self._choose_landlord(self.show_order[0], 1, "first_shower")
        elif self.rules.all_pass is AllPass.FORCED and self.first_bidder is not None:
            self._choose_landlord(self.first_bidder, 1, "forced")
        else:
            self.deal_number += 1
            self.events.append(Redealt(self.deal_number))
            self._new_deal()

    # --- the landlord and 加倍 ----------------------------------------------------------

    def _choose_landlord(self, seat: int, base: int, reason: str) -> None:
        self.landlord = self.candidate = seat
        self.base = base
        self.events.append(LandlordChosen(seat, base, reason))
        self.events.append(BottomRevealed(seat, self.bottom))
        self.hands[seat] = sorted(self.hands[seat] + list(self.bottom), key=sort_key)
        self.packed[seat] += pack_cards(self.bottom)
        doublers = self._doublers(seat)
        if doublers:
            self._enter(Phase.DOUBLE, doublers)
        else:
            self._after_doubling()

    def _doublers(self, landlord: int) -> list[int]:
        farmers = [(landlord + i) % SEATS for i in (1, 2)]
        mode = self.rules.doubling
        if mode is FarmerDoubling.UNBID_FARMERS:
            farmers = [s for s in farmers if not self.decided[s]]
        elif mode is FarmerDoubling.EVERYONE:
            farmers.append(landlord)
        elif mode is FarmerDoubling.NONE:
            return []
        return [s for s in farmers if self._may_double(s, landlord)]

    def _may_double(self, seat: int, landlord: int) -> bool:
        """The coin threshold: everyone above it for the landlord, self and landlord else."""
        if self.balances is None or self.rules.doubling_threshold is None:
            return True
        concerned = range(SEATS) if seat == landlord else (seat, landlord)
        return all(self.balances[s] > self.rules.doubling_threshold for s in concerned)

    @property
    def deciding(self) -> tuple[int, ...]:
        """The seats still to choose 加倍 or not while they choose at the same time
        (``Rules.doubling_at_once``); ``()`` otherwise.  Each of them may act;
        :attr:`current_player` is the first of them, for loops that act in turn."""
        if self.phase is Phase.DOUBLE and self.rules.doubling_at_once:
            return tuple(self._queue)
        return ()

    def _check_double(self, action: Double | NoDouble, seat: int | None) -> int:
        if self.rules.doubling is FarmerDoubling.NONE:
            raise refuse("not_in_rules", f"{self.rules.name} has no 加倍")
        self._in_phase(action, Phase.DOUBLE)
        if seat is not None and seat not in self._queue:
            raise refuse("cannot_double", f"seat {seat} may not 加倍 now")
        if self.deciding and seat is not None:
            return seat  # any seat still choosing, in any order
        return self._turn(action, seat)

    def _do_double(self, action: Double | NoDouble, seat: int) -> None:
        self._decide(seat, action)
        self.doubled[seat] = isinstance(action, Double)
        at_once = bool(self.deciding)
        self.events.append(Doubled(seat, self.doubled[seat], secret=at_once))
        if at_once:
            self._queue.remove(seat)
            if self._queue:
                self.current_player = self._queue[0]
                return
            self.events.append(DoublesRevealed(tuple(self.doubled)))
        elif self._next_in_queue():
            return
        self._after_doubling()

    def _after_doubling(self) -> None:
        landlord = self.landlord
        assert landlord is not None
        show = self.rules.show
        if (
            show.after_bottom
            and landlord not in self.show_order
            and not (show.after_bottom_only_if_none_shown and self.show_order)
        ):
            self._enter(Phase.SHOW_AFTER_BOTTOM, [landlord])
        else:
            self._start_play(landlord)

    def _start_play(self, landlord: int) -> None:
        self.phase = Phase.PLAY
        self._queue = []
        self.current_player = landlord
