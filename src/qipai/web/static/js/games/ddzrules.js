// Dou Dizhu's rules page 规则 (js/rules.js draws it): for each rule set its own sections —
// cards, bidding, multipliers, settlement, leaving, a worked example — then the sections
// every rule set shares (the play, the combinations). Each line is [中文, English], in the
// project's words of docs/rules/doudizhu.md (which cites the platforms' pages).

const PLAY = {
  id: "play",
  title: ["出牌", "The play"],
  items: [
    ["54 张牌（含大小王）。地主独自对两名农民，先出完牌的一方获胜。", "54 cards (jokers included). The landlord plays alone against the two farmers; the first side to empty a hand wins."],
    ["地主先出，逆时针轮流；轮到的人不出或出能压过上一手的牌；两家都不出，最后出牌者再任意出。", "The landlord leads; play goes counterclockwise. On his turn a player passes or beats the last play; when both others pass, whoever played last leads again with anything."],
    ["春天：地主出完而农民一张未出；反春：农民出完而地主只出过一手。", "Spring: the landlord goes out and neither farmer played a card; anti-spring: a farmer goes out and the landlord played only his first lead."],
  ],
};

const COMBOS = {
  id: "combos",
  title: ["牌型", "Combinations"],
  items: [
    ["大小：大王 > 小王 > 2 > A > K > … > 3，花色不论。", "Ranks: red joker > black joker > 2 > A > K > … > 3; suits never matter."],
    ["火箭（大小王）最大；炸弹（四张同点）压一切非炸弹，大炸压小炸。", "The rocket (both jokers) beats everything; a bomb (four of a rank) beats every non-bomb, a higher bomb a lower one."],
    ["单牌、对牌、三张、三带一、三带一对：同类比点数。", "Single, pair, trio, trio with a single, trio with a pair: the same kind compares its rank."],
    ["单顺 ≥5 张（45678），双顺 ≥3 对（334455），三顺 ≥2 个三张（333444）；顺子不含 2 和王。", "Chain of ≥5 singles (45678), of ≥3 pairs (334455), of ≥2 trios (333444); no chain holds a 2 or a joker."],
    ["飞机带翅膀：三顺带同数量的单牌或对牌；四带二：四张带两张或两对（不是炸弹）。", "Airplane: a trio chain with as many singles or pairs; four with two: four of a rank with two cards or two pairs (not a bomb)."],
    ["除火箭、炸弹外，只有同类、同张数、主牌更大才能压过；带的牌不影响大小。", "Apart from the rocket and bombs, a play beats another only of the same kind and size, with a higher main rank; the attached cards never count."],
  ],
};

const ZHENGTU_COMBOS = {
  id: "combos",
  title: ["牌型（征途）", "Combinations (zhengtu)"],
  items: [
    ["火箭、炸弹、单牌、对牌、三张、葫芦（三带一对）、单顺、双顺、三顺、飞机带对子。", "Rocket, bomb, single, pair, trio, full house (trio with a pair), chain, pair chain, trio chain, airplane with pairs."],
    ["没有三带一、飞机带单牌、四带二：三张只能带一对。", "No trio with a single, no airplane with singles, no four with two: a trio takes a pair, never a single."],
    ["大小：大王 > 小王 > 2 > A > … > 3；顺子不含 2 和王；带的牌不影响大小。", "Ranks: red joker > black joker > 2 > A > … > 3; no chain holds a 2 or a joker; attached cards never count."],
  ],
};

/** Each rule set's own sections, before the play and the combinations. */
const PRESETS = {
  yifa: [
    {
      id: "bidding",
      title: ["叫分", "Bidding"],
      items: [
        ["每次发牌翻开一张明牌，拿到它的玩家先叫。", "At each deal one card is turned face up: the player dealt it bids first."],
        ["轮流各叫一次：1 分、2 分、3 分或不叫；叫分须高于前者，叫 3 分立即结束。最高者为地主，叫分即底分。都不叫则重新发牌。", "Each in turn, once: bid 1, 2 or 3 points, or pass; a bid must beat the standing one and 3 ends the bidding. The highest bidder is landlord and his bid is the base. All pass: a new deal."],
        ["抢地主：压过别人的叫分即抢，抢与被抢的两人之间输赢翻倍（只算地主与农民之间）。", "Robbing: a bid over a standing bid robs that bidder and doubles the stake between those two only (if they end as landlord and farmer)."],
        ["加倍：叫 3 分时，没机会叫分的玩家可加倍，另一农民可跟加倍；加倍的农民与地主之间 ×2。", "Doubling: after a bid of 3, a player who had no chance to bid may double, the other farmer may follow; a doubling farmer's pair with the landlord is ×2."],
      ],
    },
    {
      id: "multipliers",
      title: ["倍数", "Multipliers"],
      items: [
        ["炸弹、火箭每打出一个 ×2，春天 ×2，反春 ×2，加上抢地主和加倍。留在手上的炸弹不算。", "×2 for each bomb or rocket played, ×2 spring, ×2 anti-spring, with the robs and doublings. Bombs left in a hand do not count."],
        ["封顶：每局每人最多翻倍 4 次（×16，按每对地主–农民计）。", "Cap: at most 4 doublings a hand (×16, for each landlord–farmer pair)."],
      ],
    },
    {
      id: "settlement",
      title: ["结算", "Settlement"],
      items: [
        ["每对地主–农民：底分 × 该对倍数；地主得两对之和。游戏币 = 积分 × 房间系数 N，赢家交 5% 服务费。", "Each landlord–farmer pair: base × that pair's multiplier; the landlord gets the sum of his two pairs. Coins = points × the room's coefficient N; the winners pay a 5 % rake."],
        ["一局最多 2 × 3 × 16 = 96 分，所以入场至少 N × 96 游戏币。", "A hand costs at most 2 × 3 × 16 = 96 points: hence the entry minimum of N × 96 coins."],
        ["离开、超时或掉线由系统托管打完，没有逃跑罚分。", "A player who leaves, times out or drops is played by auto-play to the end: no escape penalty."],
      ],
    },
    {
      id: "example",
      title: ["例子", "Worked example"],
      items: [
        ["房间系数 10，叫 3 分，打出一个炸弹（×2），地主赢：地主 3 × 2 × 2 × 10 = 120 游戏币，扣 5% 服务费 6，得 +114；每个农民 −60。", "Coefficient 10, bid 3, one bomb played (×2), the landlord wins: the landlord 3 × 2 × 2 × 10 = 120 coins less a 5 % rake of 6, so +114; each farmer −60."],
      ],
    },
  ],
  caishen: [
    {
      id: "cards",
      title: ["牌与财神", "Cards and the wildcard (god of wealth)"],
      items: [
        ["55 张：54 张加一张财神（万能牌）。每人 17 张，4 张底牌（含财神）从发牌起明摆给所有人，地主全拿，共 21 张。", "55 cards: the 54 and one wildcard, the god of wealth. 17 each; the 4 bottom cards (the wildcard among them) lie face up for all from the deal; the landlord takes them all and holds 21."],
        ["财神可当 3 到 2 的任何点，不能当王；大小王和其他牌一起出时也可当 3 到 2，单出时是自己，两王单出是火箭。", "The wildcard stands for any rank from 3 to 2, never a joker; a joker played with other cards may stand for a rank from 3 to 2 too, but alone it is itself, and both alone are the rocket."],
        ["同一手牌不能同时有王和财神；财神不单出；手里只剩财神即算赢。", "No play holds both a joker and the wildcard; the wildcard is never played alone, and a player whose only card left is the wildcard has won."],
        ["财神加四张同点成五张炸弹（财神炸弹）：火箭 > 财神炸弹 > 四张炸弹；用万能牌组成的牌和原装的一样大。", "The wildcard with a natural four makes the five-card wildcard bomb: rocket > five-card bomb > four-card bombs; a wildcard play is exactly as strong as the same natural play."],
      ],
    },
    {
      id: "bidding",
      title: ["叫地主、抢地主、明牌", "Calling, robbing, showing"],
      items: [
        ["随机一人先叫：叫地主或不叫，有人叫即停。其他没不叫的玩家各有一次抢地主机会，有人抢后叫地主者可抢回一次；最后抢的人为地主。都不叫则重新发牌。", "A random player calls first: call the landlord or pass; a call ends the calling. Each other player who has not passed may rob once, then the caller may rob back once; the last robber is landlord. All pass: a new deal."],
        ["明牌开始（发牌前）×4，发牌中到自己叫牌前明牌 ×2；多人明牌倍数相乘。叫牌前明牌的人优先叫，无人叫时他当地主。", "An open hand before the deal ×4, during the deal until his first bid ×2; several showings multiply. A player who showed before the bidding calls first and is landlord if nobody calls."],
        ["定地主后，每个农民可对地主加倍：该对 ×2。", "Once the landlord is known each farmer may double against him: that pair ×2."],
      ],
    },
    {
      id: "multipliers",
      title: ["倍数", "Multipliers"],
      items: [
        ["每次抢地主 ×2，炸弹、火箭 ×2，财神炸弹 ×4，春天 ×2，反春 ×2，明牌 ×4 / ×2；不封顶。", "×2 each rob, bomb and rocket, ×4 a five-card wildcard bomb, ×2 spring, ×2 anti-spring, open hand ×4 / ×2; no cap."],
      ],
    },
    {
      id: "settlement",
      title: ["结算与逃跑", "Settlement and escape"],
      items: [
        ["积分 = 底分 × 倍数 × 身份系数（地主 2，农民 1），按每对地主–农民计算（含农民加倍）。金币场：游戏币 = 房间底分 × 积分。", "Points = base × multiplier × role factor (landlord 2, farmer 1), per landlord–farmer pair with the farmers' doubling. Coins rooms: coins = room base × points."],
        ["逃跑：地主付 底分 × 倍数 × 2，农民 × 1；总倍数（含身份系数）不足 10 倍时按 20（地主）或 10（农民）算，达到 10 倍则按 4 倍（地主）或 2 倍（农民）；另两人平分。", "Escape: a landlord pays base × multiplier × 2, a farmer × 1; with the total multiplier (role factor included) under 10 he pays as if 20 (landlord) or 10 (farmer), at 10 or more 4× (landlord) or 2× (farmer) the amount; the two others share it."],
      ],
    },
    {
      id: "example",
      title: ["例子", "Worked example"],
      items: [
        ["底分 1：叫地主后被抢一次、叫地主者抢回（×4），打出一个财神炸弹（×4），倍数 16，地主赢：地主 +1 × 16 × 2 = +32，每个农民 −16。", "Base 1: a call, one rob and the caller's rob back (×4), one wildcard bomb played (×4): multiplier 16, the landlord wins: landlord +1 × 16 × 2 = +32, each farmer −16."],
        ["底分 1，倍数 2 时一个农民逃跑：2 × 1 = 2 不足 10 倍，按 10 算，付 10，另两人各得 5。", "Base 1, multiplier 2, a farmer escapes: 2 × 1 = 2 is under 10, charged as 10: he pays 10, the two others get 5 each."],
      ],
    },
  ],
  huanle: [
    {
      id: "bidding",
      title: ["叫地主、抢地主、明牌", "Calling, robbing, showing"],
      items: [
        ["随机先叫；叫地主、抢地主同财神玩法：叫地主者被抢后可抢回，最后抢的人为地主，每次抢 ×2，不叫的人不能抢，都不叫重新发牌。", "Random first caller; calling and robbing as in caishen: the caller may rob back, the last robber is landlord, ×2 each rob, a player who passed may not rob, all pass is a new deal."],
        ["明牌开始 ×5；发牌中明牌 ×4（发到自己第 8 张之前）或 ×3；地主拿底牌后明牌 ×2。多人明牌取最大倍数，不相乘。", "An open hand before the deal ×5; during the deal ×4 (up to his 8th card) or ×3; by the landlord after the bottom ×2. Several showings: the largest counts, not the product."],
        ["加倍：地主拿底牌后、出第一手前，三人在限时内同时选择加倍，互相看不到；超时算不加倍。加倍需欢乐豆超过房间规定值。", "Doubling: after the landlord takes the bottom and before the first lead, all three choose at once within the time limit, unseen by the others; out of time is no doubling. Doubling needs beans above the room's threshold."],
      ],
    },
    {
      id: "multipliers",
      title: ["倍数", "Multipliers"],
      items: [
        ["初始倍数为房间设定；每次抢地主、每个炸弹、春天 ×2；明牌 ×2 到 ×5。", "The multiplier starts at the room's initial value; ×2 each rob, bomb and spring; open hand ×2 to ×5."],
        ["每对的结果 = 倍数 × 自己系数 × 对手系数（加倍为 2，否则 1）。", "Each pair's result = multiplier × own factor × opponent's factor (2 if doubled, else 1)."],
      ],
    },
    {
      id: "settlement",
      title: ["结算与逃跑", "Settlement and escape"],
      items: [
        ["X = 底分 1 × 倍数 × 身份系数（地主 2，农民 1）。输家付 X × N（N 为房间系数），最多付到 0；赢家只得输家扣除的豆，最多赢自己开局携带的数。之后每人付固定服务费 A。", "X = base 1 × multiplier × role factor (landlord 2, farmer 1). A loser pays X × N (N the room's coefficient), down to 0 at most; a winner gains only what the losers paid, at most what he carried at the start. Then everyone pays the fixed fee A."],
        ["逃跑：倍数不足 10 按 20（地主）或 10（农民）算，否则 4 倍或 2 倍；手里没打出的炸弹也都算。发牌后、叫牌前离开也算逃跑。", "Escape: a multiplier under 10 is charged as 20 (landlord) or 10 (farmer), otherwise 4× or 2×; every bomb in any hand counts, played or not. Leaving during the deal, before the bidding, is an escape too."],
      ],
    },
    {
      id: "example",
      title: ["例子", "Worked example"],
      items: [
        ["N = 1000，X = 6，服务费 A = 50，地主赢：地主 +12,000，每个农民 −6,000，每人再付 50。", "N = 1000, X = 6, fee A = 50, the landlord wins: landlord +12,000, each farmer −6,000, and everyone pays 50."],
      ],
    },
  ],
  zhengtu: [
    {
      id: "bidding",
      title: ["叫分", "Bidding"],
      items: [
        ["第一局最先进入牌桌的玩家先叫，之后每局按出牌顺序轮流先叫（牌桌一直在一起）。", "The player who sat down first bids first in the table's first hand; then the first bidder moves on one seat each hand (the table stays together)."],
        ["轮流各一次：1 倍、2 倍、3 倍或不叫，须高于前者；叫 3 倍立即为地主。最高者为地主，叫分即底分；都不叫重新发牌。没有抢地主、加倍和明牌。", "Each once in turn: 1, 2 or 3, or pass, each higher than the last; 3 makes the landlord at once. The highest bidder is landlord and his bid is the base; all pass is a new deal. No robbing, no doubling, no open hand."],
      ],
    },
    {
      id: "multipliers",
      title: ["倍数", "Multipliers"],
      items: [["每打出一个炸弹或火箭 ×2；春天、反春结果翻倍。", "×2 each bomb or rocket played; spring and anti-spring double the result."]],
    },
    {
      id: "settlement",
      title: ["结算（积分场）", "Settlement (points only)"],
      items: [
        ["地主 ± 底分 × 倍数 × 2，每个农民 ∓ 底分 × 倍数。只计积分（排行榜），不动游戏币。", "Landlord ± base × multiplier × 2, each farmer ∓ base × multiplier. Points only (the leaderboard): no coin moves."],
        ["逃跑：地主 − 底分 × 倍数 × 2 × 2，农民 − 底分 × 倍数 × 2；其余玩家得 0。", "Escape: a landlord − base × multiplier × 2 × 2, a farmer − base × multiplier × 2; the others get 0."],
      ],
    },
    {
      id: "example",
      title: ["例子", "Worked example"],
      items: [["叫 2 倍，打出一个炸弹（×2），地主赢：地主 +2 × 2 × 2 = +8 分，每个农民 −4 分。", "Bid 2, one bomb played (×2), the landlord wins: landlord +2 × 2 × 2 = +8 points, each farmer −4."]],
    },
  ],
  jj: [
    {
      id: "bidding",
      title: ["发牌、明牌、叫地主", "Deal, showing, calling"],
      items: [
        ["牌按从大到小的顺序发出。明牌：发牌前 ×10，发牌中 ×5（发到第 8 张前）或 ×3，地主拿底牌后 ×2（此前无人明牌时）；取最大倍数。", "Each player gets his cards highest first. Open hand: before the deal ×10, during the deal ×5 (up to his 8th card) or ×3, by the landlord after the bottom ×2 (if nobody showed before); the largest counts."],
        ["叫牌前有人明牌则不再叫抢，第一个明牌者为地主，底分 1。否则叫地主、抢地主同欢乐玩法；都不叫重新发牌（比赛可设为强制记分）。", "If anybody showed before the bidding there is no calling or robbing: the first shower is landlord, at base 1. Otherwise calling and robbing as huanle; all pass is a new deal (or forced scoring, where a match says so)."],
        ["加倍：三人同时选择；地主加倍则两对都 ×2，农民加倍只有他和地主之间 ×2。", "Doubling: all three choose at once; a doubling landlord doubles both pairs, a doubling farmer only his own pair."],
      ],
    },
    {
      id: "multipliers",
      title: ["倍数", "Multipliers"],
      items: [
        ["底牌翻倍：底牌有双王 ×4，一个王 ×2，三张同点 ×3，三张连号 ×3，否则 ×1。", "Bottom cards: the rocket ×4, one joker ×2, three of a rank ×3, three consecutive ranks ×3, otherwise ×1."],
        ["炸弹、火箭每个 ×2，春天 ×2，反春 ×2（比赛可选“JJ 炸弹积分规则”：倍数 × (1 + 炸弹个数)）。", "×2 each bomb and rocket, ×2 spring, ×2 anti-spring (a match may choose the JJ bomb rule: × (1 + number of bombs))."],
      ],
    },
    {
      id: "settlement",
      title: ["结算与托管", "Settlement and auto-play"],
      items: [
        ["农民得分 = 胜负 (±1) × 基数 × 该对倍数；地主得分 = −(农民1 + 农民2)。", "Each farmer ±1 × base × his pair's multiplier; the landlord minus their sum."],
        ["超时：首出时自动出最小单牌并托管，跟牌时不出并托管。没有逃跑罚分，离开即托管打完。", "Out of time: leading, the smallest single is played and auto-play starts; following, a pass and auto-play. No escape penalty: a player who leaves is played by auto-play to the end."],
        ["托管包赔：农民托管且农民输，两个农民的失分由托管者承担；农民赢，未托管者得全部，托管者得 0。剩最后一张时托管正常计分。", "Auto-play liability: if a farmer in auto-play and the farmers lose, he pays both farmers' loss; if they win, the other farmer takes the whole gain and he gets 0. Auto-play with one card left is scored normally."],
      ],
    },
    {
      id: "example",
      title: ["例子", "Worked example"],
      items: [
        ["基数 10，底牌一个王（×2），打出一个炸弹（×2），地主加倍（两对 ×2），农民赢：每个农民 +10 × 8 = +80，地主 −160。", "Base 10, one joker in the bottom (×2), one bomb played (×2), the landlord doubles (both pairs ×2), the farmers win: each farmer +10 × 8 = +80, the landlord −160."],
      ],
    },
  ],
};

/** The sections of rule set ``preset`` (null: a rule set the page has no text for). */
export function rulesOf(preset) {
  const own = PRESETS[preset];
  if (!own) return null;
  return [...own, PLAY, preset === "zhengtu" ? ZHENGTU_COMBOS : COMBOS];
}
