// Showhand's rules page 规则 (js/rules.js draws it), rule set by rule set: each line
// [中文, English], in the project's words of docs/rules/showhand.md.

const YIFA = [
  {
    id: "hand",
    title: ["发牌", "Cards and rounds"],
    items: [
      ["28 张（8、9、T、J、Q、K、A），2 到 4 人。发牌前每人付锅底。", "28 cards (8, 9, T, J, Q, K, A), 2 to 4 players. Everyone pays the ante before the deal."],
      ["每人一张底牌（只有自己看得到）和一张明牌，第 1 轮下注；第 3、4、5 张各一轮（第 2–4 轮）。", "Each gets his hole card (only he sees it) and one up card: betting round 1; cards 3, 4 and 5 each bring a round (rounds 2–4)."],
      ["换牌：第 3、4 张先暗发，可与底牌交换，留下的暗牌是底牌，另一张翻开；选择同时公开。", "Swap: cards 3 and 4 come face down and may be swapped with the hole card; the one kept hidden is the hole card, the other is turned up; the choices are revealed together."],
      ["每轮由明牌最大的玩家先下注，然后逆时针。", "Each round the player whose up cards make the best partial hand acts first, then counterclockwise."],
    ],
  },
  {
    id: "betting",
    title: ["下注", "Betting"],
    items: [
      ["加（下注、加注）、过（无人下注时）、跟、弃；梭：从第 3 张起下到梭上限（开局时桌上最少的筹码减锅底，不超过封顶）；开：比牌。", "Bet or raise, check (nothing to call), call, fold; all-in, from card 3: up to the all-in level (the smallest stack at the start less the ante, at most the cap); open: the showdown."],
      ["每轮上限：第 1 轮 5 倍底注，第 2 轮 10 倍或梭，第 3 轮 20 倍或梭，第 4 轮 20 倍、梭、过或弃，明牌最大者可开牌；无人梭则加轮到上限。每局每人最多 100 倍底注。", "Per round: round 1 up to 5 × base, round 2 up to 10 × base or all-in, round 3 up to 20 × base or all-in, round 4 bet 20 × base, all-in, check or fold, and the best up hand may open; without an all-in extra rounds follow to the limit. At most 100 × base a player a hand."],
    ],
  },
  {
    id: "combos",
    title: ["牌型", "Hands"],
    items: [
      ["同花顺 > 四条（铁支） > 葫芦 > 同花 > 顺子 > 三条 > 两对 > 对子 > 散牌。", "Straight flush > four of a kind > full house > flush > straight > trips > two pair > pair > high card."],
      ["点数 A > K > … > 8；花色 黑桃 > 红桃 > 草花 > 方片（比完点数再比花色）。8 和 A 不相连：最小顺子 8-9-T-J-Q。", "Ranks A > K > … > 8; suits ♠ > ♥ > ♣ > ♦ (after the ranks). 8 and A do not connect: the lowest straight is 8-9-T-J-Q."],
    ],
  },
  {
    id: "settlement",
    title: ["结束与结算", "The end and settlement"],
    items: [
      ["只剩一人未弃牌或开牌比大小后，最大者拿走整个底池。", "When one player is left, or at the showdown, the best hand takes the whole pot."],
      ["入座至少 100 倍底注；输到不足的玩家离桌。每局后重新分组。", "Sitting needs 100 × base; a loser left with less must leave. The players are regrouped after every hand."],
    ],
  },
  {
    id: "example",
    title: ["例子", "Worked example"],
    items: [
      ["底注 1，锅底 2，三人：底池 6；第 1 轮甲下注 5，乙跟，丙弃：底池 16。甲赢：甲 +9，乙 −7，丙 −2。", "Base 1, ante 2, three players: pot 6; in round 1 A bets 5, B calls, C folds: pot 16. A wins: A +9, B −7, C −2."],
    ],
  },
];

/** The sections of rule set ``preset`` (null: a rule set the page has no text for). */
export function rulesOf(preset) {
  return preset === "yifa" ? YIFA : null;
}
