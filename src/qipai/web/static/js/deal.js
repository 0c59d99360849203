// The deal's source of chance, version v2, in the browser: the twin of src/qipai/chance.py
// (docs/records.md, "The deal"). Block i is SHA-256("qipai-deal-v2:" + seed + ":" + i),
// eight big-endian 32-bit words; randbelow(n) rejects words >= 2^32 - 2^32 % n, then takes
// the word mod n; shuffle is Fisher-Yates from the last position down. The replay page
// re-deals a finished hand with it from the revealed seed and compares every seat's cards.
// A qipai-hand/3 record's hand was dealt from its house seed mixed with every seat's
// entropy (dealSeed: "The mix" in docs/records.md).

import { sha256 } from "./sha256.js";

export class DealStream {
  constructor(seed) {
    this.prefix = `qipai-deal-v2:${seed}:`;
    this.block = 0;
    this.words = [];
  }

  word() {
    if (!this.words.length) {
      const hex = sha256(`${this.prefix}${this.block++}`);
      for (let i = 0; i < 64; i += 8) this.words.push(parseInt(hex.slice(i, i + 8), 16));
    }
    return this.words.shift();
  }

  randbelow(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const word = this.word();
      if (word < limit) return word % n;
    }
  }

  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

// The engines' decks, in qipai.cards order (ranks low to high, suits s h c d), and what each
// Dou Dizhu preset draws after the shuffle (yifa: the marker card among 51, random first
// bidder: one of 3 seats; zhengtu: nothing).
const deck = (ranks) => [...ranks].flatMap((rank) => [..."shcd"].map((suit) => rank + suit));
const DECKS = { doudizhu: [...deck("3456789TJQKA2"), "BJ", "RJ"], zhajinhua: deck("23456789TJQKA"), showhand: deck("89TJQKA") };
const DDZ_DRAW = { yifa: 51, caishen: 3, huanle: 3, jj: 3 };

/** Each seat's dealt cards (Dou Dizhu: and the bottom) re-derived from ``seed``, shaped by
 * ``deal`` (the replay's: Dou Dizhu's number of deals, Zha Jin Hua's dealer, Showhand's
 * cards per seat, since folded seats get no more) and the record's ``options``. */
export function redeal(game, rules, seed, deal, options) {
  const stream = new DealStream(seed);
  const seats = deal.seats.map(() => []);
  if (game === "doudizhu") {
    let cards = [];
    for (let k = 0; k < deal.deals; k++) {
      cards = stream.shuffle([...DECKS.doudizhu]);
      if (DDZ_DRAW[rules]) stream.randbelow(DDZ_DRAW[rules]);
    }
    seats.forEach((_, s) => seats[s].push(...cards.slice(17 * s, 17 * s + 17)));
    return { seats, bottom: [...cards.slice(51), ...(rules === "caishen" ? ["W"] : [])] };
  }
  if (game === "zhajinhua") {
    const n = seats.length;
    const dealer = options.dealer === null ? stream.randbelow(n) : options.dealer;
    const cards = stream.shuffle([...DECKS.zhajinhua]);
    for (let i = 0; i < 3 * n; i++) seats[(dealer + i) % n].push(cards[i]);
    return { seats, dealer };
  }
  const cards = stream.shuffle([...DECKS.showhand]);
  let next = 0;
  for (let number = 1; number <= 5; number++) deal.seats.forEach((mine, s) => mine.length >= number && seats[s].push(cards[next++]));
  return { seats };
}

/** The seed a record's hand was dealt from (a decimal string): its `seed`, or, in a
 * qipai-hand/3 record, SHA-256("qipai-mix-v1:" + seed + ":" + each seat's entropy, "" for
 * null) read as one number: the house seed mixed with the players' entropy. */
export function dealSeed(record) {
  if (!Array.isArray(record.entropy)) return record.seed;
  const mixed = sha256(`qipai-mix-v1:${record.seed}${record.entropy.map((value) => `:${value ?? ""}`).join("")}`);
  return BigInt(`0x${mixed}`).toString();
}

const same = (a, b) => [...a].sort().join(" ") === [...b].sort().join(" ");

/** Whether the replay's deal is the one the seed gives: true, false, or null when the
 * record's chance is v1 (Python's random.Random, which no browser re-derives). */
export function dealMatches(record, deal) {
  if (!deal || deal.chance !== "v2") return null;
  const mine = redeal(record.game, record.rules, dealSeed(record), deal, record.options);
  if (mine.dealer !== undefined && mine.dealer !== deal.dealer) return false;
  if (mine.bottom && !same(mine.bottom, deal.bottom)) return false;
  return mine.seats.length === deal.seats.length && mine.seats.every((cards, s) => same(cards, deal.seats[s]));
}
