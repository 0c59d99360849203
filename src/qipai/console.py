"""The terminal game: play Dou Dizhu against two bots, in Chinese and the notation.

An edge module (it reads input and prints); the hand itself is the pure
:class:`~qipai.games.doudizhu.state.State`, the opponents are
:class:`~qipai.bots.doudizhu.StrongPolicy` (``hint`` asks it too), and the player sees
only his own view.

Type the cards to play in the notation (``33344``, ``777W/7777``), ``pass`` (or 不出),
a bidding word (``bid 2``, ``call``, ``rob``, ``double``, ``show``; ``no`` declines),
``hint`` for a suggestion, ``list`` for every legal action, ``auto`` for 托管 (the system
plays for you to the end of the hand), ``quit`` to leave.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from qipai.bots.arena import play_hand
from qipai.bots.doudizhu import Policy, StrongPolicy, TrusteePolicy, decline
from qipai.errors import GameError
from qipai.games.doudizhu.actions import Action, Bid, Call, Double, Play, Rob, Show
from qipai.games.doudizhu.combos import PASS, from_text, to_text
from qipai.games.doudizhu.scoring import multiplier_breakdown
from qipai.games.doudizhu.state import SEATS, State, pack_cards
from qipai.games.doudizhu.view import View

HUMAN = 0
"""The player's seat."""
NAMES = ("你", "下家", "上家")
"""How seats are named from the player's chair (play goes 0 → 1 → 2)."""
_WORDS: dict[str, Action | None] = {
    "pass": Play(PASS),
    "不出": Play(PASS),
    "call": Call(),
    "叫": Call(),
    "rob": Rob(),
    "抢": Rob(),
    "double": Double(),
    "加倍": Double(),
    "show": Show(),
    "明牌": Show(),
    "no": None,
    "不": None,
}

Ask = Callable[[str], str]
"""Reads one line of the player's input after a prompt (``input`` in the real game)."""
Say = Callable[[str], None]
"""Prints one line (``print`` in the real game)."""


def describe(action: Action) -> str:
    """A short Chinese description of an action."""
    if isinstance(action, Play):
        return "不出" if action.move.is_pass else f"出 {action.move}"
    if isinstance(action, Bid):
        return "不叫" if action.points == 0 else f"叫 {action.points} 分"
    labels = {
        "call": "叫地主",
        "nocall": "不叫",
        "rob": "抢地主",
        "norob": "不抢",
        "double": "加倍",
        "nodouble": "不加倍",
        "show": "明牌",
        "noshow": "不明牌",
    }
    return labels.get(str(action), str(action))


def render(view: View) -> list[str]:
    """The player's table, as lines of text."""
    lines = [f"--- {view.rules} · {view.phase.value} ---"]
    if view.landlord is not None:
        lines.append(f"地主: {NAMES[view.landlord]}   底分 {view.base}")
    if view.marker is not None and view.marker_seat is not None:
        lines.append(f"明牌 (翻开的牌): {view.marker} 在{NAMES[view.marker_seat]}手里")
    if view.bottom is not None:
        lines.append(f"底牌: {to_text(pack_cards(view.bottom))}")
    for seat in range(SEATS):
        shown = view.shown_hands[seat]
        extra = f"  明牌 {to_text(pack_cards(shown))}" if shown and seat != view.seat else ""
        lines.append(f"{NAMES[seat]}: {view.card_counts[seat]} 张{extra}")
    if not view.to_beat.is_pass and view.to_beat_seat is not None:
        lines.append(f"要压的牌: {view.to_beat} ({NAMES[view.to_beat_seat]})")
    lines.append(f"你的牌: {to_text(pack_cards(view.hand))}")
    return lines


def read_action(text: str, view: View) -> Action | None:
    """The legal action the player typed, or ``None`` if the text names none.

    Cards name a play (its first reading when it has several); ``no`` declines.
    """
    legal = view.legal_actions
    word = text.strip().lower()
    if word in _WORDS:
        wanted = _WORDS[word]
        if wanted is None:
            declined = decline(legal)
            return None if isinstance(declined, Play) else declined
        return wanted if wanted in legal else None
    if word.startswith("bid"):
        try:
            action: Action = Action.parse(word)
        except GameError:
            return None
        return action if action in legal else None
    played, _, stands_for = text.strip().partition("/")
    try:
        cards = from_text(played)
        natural = from_text(stands_for) if stands_for else None
    except GameError:
        return None
    plays = [
        a
        for a in legal
        if isinstance(a, Play)
        and not a.move.is_pass
        and a.move.cards == cards
        and natural in (None, a.move.natural)
    ]
    return plays[0] if plays else None


class Quit(Exception):  # noqa: N818 (a signal to stop, not an error)
    """The player asked to leave (``quit``, or the end of the input)."""


class ConsolePlayer:
    """The policy of the seat at the keyboard: shows the table, reads what is typed."""

    def __init__(self, ask: Ask, say: Say) -> None:
        self.ask = ask
        self.say = say
        self.auto = False
        """Whether 托管 plays for the player (until the hand ends)."""
        self.trustee = TrusteePolicy()

    def choose(self, view: View) -> Action:
        """The action the player types (or 托管's, once asked for).

        :raises Quit: on ``quit`` or the end of the input.
        """
        if self.auto:
            return self.trustee.choose(view)
        for line in render(view):
            self.say(line)
        while True:
            try:
                text = self.ask("> ")
            except EOFError:
                raise Quit from None
            action = self._answer(text, view)
            if action is not None:
                return action

    def _answer(self, text: str, view: View) -> Action | None:
        word = text.strip().lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("auto", "托管"):
            self.auto = True
            return self.trustee.choose(view)
        if word in ("hint", "提示"):
            self.say(f"提示: {describe(StrongPolicy().choose(view))}")
            return None
        if word in ("list", "?"):
            self.say("  ".join(describe(a) for a in view.legal_actions[:60]))
            return None
        action = read_action(text, view)
        if action is None:
            self.say("不能这样出 (type 'list' for the legal actions, 'hint' for a suggestion)")
        return action


class ConsoleGame:
    """One player against two bots, for as many hands as asked."""

    def __init__(self, rules: str, seed: int, ask: Ask, say: Say) -> None:
        self.rules = rules
        """The rule set's name."""
        self.seed = seed
        """The first hand's seed; hand ``i`` uses ``seed + i``."""
        self.say = say
        self.player = ConsolePlayer(ask, say)
        """The seat at the keyboard."""
        self.total = 0
        """The player's points over the hands played."""

    def play(self, hands: int | None = None) -> int:
        """Play ``hands`` hands, or until ``quit`` or the end of the input when ``None``
        (``quit`` also stops early); return the player's points."""
        policies: list[Policy] = [self.player, StrongPolicy(1), StrongPolicy(2)]
        for number in itertools.count() if hands is None else range(hands):
            self.say(f"=== 第 {number + 1} 局 ===")
            state = State.new(self.rules, seed=self.seed + number, hand_number=number)
            self.player.auto = False
            try:
                play_hand(state, policies, self._announce)
            except Quit:
                break
            self._report(state)
        return self.total

    def _announce(self, seat: int, view: View, action: Action) -> None:
        del view
        self.say(f"{NAMES[seat]}: {describe(action)}")

    def _report(self, state: State) -> None:
        points = state.returns()
        self.total += points[HUMAN]
        if state.escaper is None and state.landlord is not None:
            winner = "地主" if state.winner == state.landlord else "农民"
            self.say(f"=== {winner}胜 ===")
        for pair in multiplier_breakdown(state.facts()):
            reasons = " ".join(f"{f.label}×{f.factor}" for f in pair.factors) or "无"
            self.say(f"{NAMES[pair.farmer]}–地主 倍数 {pair.multiplier} ({reasons})")
        self.say("得分: " + ", ".join(f"{NAMES[s]} {p:+d}" for s, p in enumerate(points)))
        self.say(f"你的总分: {self.total:+d}")
