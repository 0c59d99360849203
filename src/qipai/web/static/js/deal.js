// The deal's source of chance, version v2, in the browser: the twin of src/qipai/chance.py
// (docs/records.md, "The deal"). Block i is SHA-256("qipai-deal-v2:" + seed + ":" + i),
// eight big-endian 32-bit words; randbelow(n) rejects words >= 2^32 - 2^32 % n, then takes
// the word mod n; shuffle is Fisher-Yates from the last position down. The replay page
// re-deals a finished hand with it from the revealed seed (each game's `redeal` hook, in
// js/games/) and compares every seat's cards.
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

/** A deck in qipai.cards order: ranks low to high (as given), suits s h c d. */
export const deckOf = (ranks) => [...ranks].flatMap((rank) => [..."shcd"].map((suit) => rank + suit));

/** The seed a record's hand was dealt from (a decimal string): its `seed`, or, in a
 * qipai-hand/3 record, SHA-256("qipai-mix-v1:" + seed + ":" + each seat's entropy, "" for
 * null) read as one number: the house seed mixed with the players' entropy. */
export function dealSeed(record) {
  if (!Array.isArray(record.entropy)) return record.seed;
  const mixed = sha256(`qipai-mix-v1:${record.seed}${record.entropy.map((value) => `:${value ?? ""}`).join("")}`);
  return BigInt(`0x${mixed}`).toString();
}

const same = (a, b) => [...a].sort().join(" ") === [...b].sort().join(" ");

/** Whether the replay's deal is the one the seed gives, re-dealt by the game's `redeal`
 * hook (js/games/): true, false, or null when the record's chance is v1 (Python's
 * random.Random, which no browser re-derives) or the game has no such hook. */
export function dealMatches(record, deal, game) {
  if (!deal || deal.chance !== "v2" || !game.redeal) return null;
  const mine = game.redeal(new DealStream(dealSeed(record)), record.rules, deal, record.options);
  if (mine.dealer !== undefined && mine.dealer !== deal.dealer) return false;
  if (mine.bottom && !same(mine.bottom, deal.bottom)) return false;
  return mine.seats.length === deal.seats.length && mine.seats.every((cards, s) => same(cards, deal.seats[s]));
}
