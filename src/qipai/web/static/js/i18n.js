// Chinese first, English second: t(key, {vars}) in the current language.

import { storage } from "./storage.js";
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

/** The text of ``key`` in the current language, with {name} placeholders filled. */
export function t(key, vars = {}) {
  const entry = STRINGS[key];
  let text = entry ? entry[current === "zh" ? 0 : 1] ?? entry[0] : key;
  for (const [name, value] of Object.entries(vars)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

/** Whether a key has a text (used for server codes: error and reason words). */
export function has(key) {
  return key in STRINGS;
}
