// Chinese first, English second: t(key, {vars}) in the current language.

import { storage } from "./storage.js";
import { h } from "./dom.js";
import { STRINGS } from "./strings.js";

let current = storage.lang() === "en" ? "en" : "zh";
document.documentElement.lang = current === "zh" ? "zh-CN" : "en";

/** The current language, "zh" or "en". */
export function lang() {
  return current;
}

/** Switch the language (kept in localStorage). */
export function setLang(next) {
  current = next === "en" ? "en" : "zh";
  storage.setLang(current);
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
}

/** Add a game module's texts (games/index.js, as the game registers): its keys join the
 * client's; a key the client has already keeps its text. */
export function addStrings(table) {
  for (const [key, entry] of Object.entries(table)) if (!(key in STRINGS)) STRINGS[key] = entry;
}

/** The text of ``key`` in the current language, with {name} placeholders filled. */
export function t(key, vars = {}) {
  const entry = STRINGS[key];
  let text = entry ? entry[current === "zh" ? 0 : 1] ?? entry[0] : key;
  for (const [name, value] of Object.entries(vars)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

/** A player's name as shown: the hall's bots (机器人N) and guests (游客…) are named in
 * the current language; every other name is the player's own. */
export function playerName(name) {
  if (current === "zh" || !name) return name;
  const bot = /^机器人(\d+)$/.exec(name);
  if (bot) return `Bot ${bot[1]}`;
  const deleted = /^已注销(\d+)$/.exec(name);
  if (deleted) return `Deleted ${deleted[1]}`;
  return name.startsWith("游客") ? `Guest ${name.slice(2)}` : name;
}

/** A room's name as shown: its operator's name, or in English, when that name is
 * Chinese, its game, preset and level in English. */
export function roomTitle(room) {
  if (current === "zh" || !CHINESE.test(room.name)) return room.name;
  const stake = room.points_only ? "stake.points" : `stake.${room.level}`;
  const level = (room.points_only || room.level) && has(stake) ? ` · ${t(stake)}` : "";
  return `${t(`game.${room.game}`)} · ${t(`rules.${room.rules}`)}${level}`;
}

/** A match's title as shown: its operator's, or in English, when that title is Chinese,
 * its kind, game, size and fee (as `roomTitle` does for a room; two matches of one game
 * and size differ by their fee). */
export function matchTitle(match) {
  if (current === "zh" || !CHINESE.test(match.title)) return match.title;
  const fee = match.entry_fee ? t("match.feeN", { n: match.entry_fee }) : t("match.free");
  return t("match.titleOf", { kind: t(`match.kind.${match.kind}`), game: t(`game.${match.game}`), n: match.players, fee });
}

/** A stage's name as shown: the common ones (预赛, 初赛, 复赛, 半决赛, 决赛) in the current
 * language, the hall's default 第N阶段 too; any other name the operator gave as it is. */
export function stageText(name) {
  if (has(`stageName.${name}`)) return t(`stageName.${name}`);
  const numbered = /^第(\d+)阶段$/.exec(name || "");
  return numbered ? t("match.stageN", { n: numbered[1] }) : name;
}

const CHINESE = /[\u4e00-\u9fff]/;

/** Whether a key has a text (used for server codes: error and reason words). */
export function has(key) {
  return key in STRINGS;
}

/** The header's EN / 中文 button: switch the language, then `render` the page again. */
export function langButton(render) {
  return h("button", {
    class: "btn small quiet",
    "data-testid": "lang",
    onclick: () => {
      setLang(lang() === "zh" ? "en" : "zh");
      render();
    },
    text: lang() === "zh" ? "EN" : "中文",
  });
}
