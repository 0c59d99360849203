// Zha Jin Hua's rules page 规则 (js/rules.js draws it), rule set by rule set: each line
// [中文, English], in the project's words of docs/rules/zhajinhua.md.

const YIFA = [
  {
    id: "hand",
    title: ["发牌", "The hand"],
    items: [
      ["52 张（无王），2 到 6 人。发牌前每人付锅底；每人三张暗牌，庄家下一家先下注。", "52 cards (no jokers), 2 to 6 players. Everyone pays the ante before the deal; three cards each, face down; the player after the dealer acts first."],
      ["游戏结束后公开所有人的牌。", "When the hand is over every hand is shown."],
    ],
  },
  {
    id: "betting",
    title: ["下注", "Betting"],
    items: [
      ["看牌前为暗牌，看牌后为明牌；看牌免费，只在自己回合。单注从房间底注开始，暗牌跟注付 1 倍单注，明牌付 2 倍。", "Blind until he looks at his cards, seen after; looking is free, on his own turn. The stake starts at the room's base; a call costs 1 × the stake blind, 2 × seen."],
      ["跟：按自己的费率付单注；加：把单注加到更高一档（不超过顶注）；弃：放弃，结束前不能看任何牌。", "Call: pay the stake at his rate; raise: lift the stake to a higher level (at most the top bet); fold: give up, and see no card until the hand ends."],
      ["比牌：从第二轮起，选一名未弃牌的玩家，付跟注的两倍；牌小的出局，相同时发起者输。两人的牌谁也看不到。", "Compare: from his second turn, name a player still in and pay twice a call; the weaker hand is out, equal hands lose for the one who asked. Nobody sees the two hands."],
      ["自动跟注：每轮替他跟注，直到取消。", "Auto-call: the system calls for him each turn until he cancels it."],
    ],
  },
  {
    id: "combos",
    title: ["牌型", "Hands"],
    items: [
      ["豹子 > 顺金 > 金花 > 顺子 > 对子 > 单张；点数 A > K > … > 2，花色不比。", "Trips > straight flush > flush > straight > pair > high card; ranks A > K > … > 2, suits never break a tie."],
      ["顺子 AKQ 最大，A23 最小，K-A-2 不是顺子；对子先比对再比单。", "Straights: AKQ highest, A23 lowest, K-A-2 no straight; a pair compares the pair, then the single."],
      ["花色不同的 235 只在两人比牌时大于豹子，此外是最小的单张。", "A 2-3-5 not all one suit beats trips only between two hands; otherwise it is the low high card it is."],
    ],
  },
  {
    id: "settlement",
    title: ["结束与结算", "The end and settlement"],
    items: [
      ["只剩一人时结束；某人下注总额达到封顶时系统按下注顺序开牌，最大者赢，相同时先开者输。", "The hand ends when one player is left; when a player's total reaches the cap the system opens every hand in betting order, the strongest wins, the one opened first losing a tie."],
      ["赢家拿走底池，系统收取其赢利（底池减去他自己的下注）的 5% 服务费，向下取整。", "The winner takes the pot; the house takes 5 % of his profit (the pot less what he put in), rounded down."],
      ["入座至少需要房间封顶的游戏币；每局后重新分组；掉线等待一段时间后按弃牌处理。", "Sitting needs the room's cap in coins; the players are regrouped after every hand; a player who drops is folded after a grace period."],
    ],
  },
  {
    id: "example",
    title: ["例子", "Worked example"],
    items: [
      ["单注 2：暗牌跟注付 2，明牌跟注付 4，明牌比牌付 8。", "Stake 2: a blind call costs 2, a seen call 4, a seen compare 8."],
      ["底池 30，赢家自己下了 10：赢利 20，服务费 1，他收回 29，净赢 +19。", "Pot 30, of which the winner put in 10: profit 20, rake 1; he takes back 29, a net +19."],
    ],
  },
];

/** The sections of rule set ``preset`` (null: a rule set the page has no text for). */
export function rulesOf(preset) {
  return preset === "yifa" ? YIFA : null;
}
