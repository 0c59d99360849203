// Quick chat 快捷聊天 at the table: a fixed set of phrases and emoji (no free text), as in
// the QQ and JJ card-game apps. The 聊天 button of the toolbar opens the panel: a phrase or an emoji
// sends `{"type": "chat", "phrase": ID}` and closes it; the hall sends every `chat` frame of
// the table (the player's own included) to everyone seated there, and each shows as a bubble
// at the speaker's seat for BUBBLE_MS. The panel also mutes a player: his bubbles are no
// longer shown. Muted players are kept by name in sessionStorage (js/storage.js): for this
// tab, across reloads, until it closes. The hall allows 3 messages at once, then one every
// 2 s (src/qipai/hall/chat.py): past that it answers `chat_too_fast`, which the table shows
// as a toast.

import { h, dialog } from "./dom.js";
import { has, playerName, t } from "./i18n.js";
import { storage } from "./storage.js";

/** The phrase ids, in the hall's order (src/qipai/hall/chat.py PHRASES). */
export const PHRASES = ["hello", "hurry", "well_played", "great_team", "till_dawn", "focus", "step_away", "goodbye"];
/** The emoji ids (src/qipai/hall/chat.py EMOJI). */
export const EMOJI = ["smile", "laugh", "cool", "love", "cry", "angry", "shock", "sleepy"];
const BUBBLE_MS = 3000;

/** Whether the player named `name` is muted (for this tab). */
function isMuted(name) {
  return storage.muted().includes(name);
}

function setMuted(name, on) {
  const others = storage.muted().filter((muted) => muted !== name);
  storage.setMuted(on ? [...others, name] : others);
}

/** One table's quick chat: the button, the panel, the bubbles shown now. */
export class Chat {
  constructor(table) {
    this.T = table;
    this.bubbles = new Map(); // seat -> {phrase, timer}
    this.closePanel = null;
  }

  /** The toolbar's 聊天 button. */
  button() {
    return h("button", { class: "btn small quiet", "data-testid": "chat", onclick: () => this.open(), text: t("chat.open") });
  }

  /** A `chat` frame: the bubble at the speaker's seat, unless he is muted. */
  heard(frame) {
    const s = this.T.state;
    const player = s.players[frame.seat];
    if (!player || !has(`chat.${frame.phrase}`)) return;
    if (frame.seat !== s.seat && isMuted(player.name)) return;
    const shown = this.bubbles.get(frame.seat);
    if (shown) clearTimeout(shown.timer);
    const timer = setTimeout(() => this.expire(frame.seat), BUBBLE_MS);
    this.bubbles.set(frame.seat, { phrase: frame.phrase, timer });
  }

  expire(seat) {
    this.bubbles.delete(seat);
    const view = this.T.view.el;
    if (view) for (const el of view.querySelectorAll(`[data-testid=chat-bubble][data-seat="${seat}"]`)) el.remove();
  }

  /** Put the bubbles shown now on their seats (after each render of the table page). */
  decorate(root) {
    for (const [seat, { phrase }] of this.bubbles) {
      const box = root.querySelector(`[data-testid=seat][data-seat="${seat}"]`);
      const who = box && (box.classList.contains("who") ? box : box.querySelector(".who"));
      if (!who) continue; // (a new box each render: no old bubble in it)
      who.append(this.bubble(seat, phrase, who));
    }
  }

  bubble(seat, phrase, who) {
    const mine = seat === this.T.state.seat;
    const box = who.getBoundingClientRect();
    const middle = (box.left + box.right) / 2 / window.innerWidth;
    const side = mine ? "up" : middle < 0.34 ? "start" : middle > 0.66 ? "end" : "mid";
    return h("div", {
      class: `chat-bubble ${side} ${EMOJI.includes(phrase) ? "emoji" : ""}`,
      "data-testid": "chat-bubble",
      "data-seat": seat,
      "data-phrase": phrase,
      role: "status",
      text: t(`chat.${phrase}`),
    });
  }

  /** Say `phrase` (the hall echoes it back as a frame: the bubble comes from there). */
  say(phrase) {
    if (this.closePanel) this.closePanel();
    this.T.app.send({ type: "chat", phrase });
  }

  /** The panel: the phrases, the emoji, and a mute toggle per other seated player. */
  open() {
    if (this.closePanel) this.closePanel();
    const pick = (phrase) =>
      h("button", { class: "btn quiet", "data-testid": "chat-phrase", "data-phrase": phrase, onclick: () => this.say(phrase), text: t(`chat.${phrase}`) });
    this.closePanel = dialog(
      [
        h("h2", { text: t("chat.title") }),
        h("div", { class: "chat-phrases" }, PHRASES.map(pick)),
        h("div", { class: "chat-emoji" }, EMOJI.map(pick)),
        this.muteRow(),
        h("div", { class: "buttons" }, h("button", { class: "btn quiet", onclick: () => this.closePanel(), text: t("common.close") })),
      ],
      { testid: "chat-panel", attrs: { class: "dialog chat-panel" }, onClose: () => (this.closePanel = null) },
    );
  }

  muteRow() {
    const s = this.T.state;
    const toggles = s.players.flatMap((player, seat) => (seat === s.seat || !player ? [] : [this.muteToggle(player.name, seat)]));
    return toggles.length ? h("div", { class: "chat-mutes" }, h("span", { class: "muted", text: t("chat.mute") }), toggles) : null;
  }

  muteToggle(name, seat) {
    const on = isMuted(name);
    const el = h(
      "button",
      {
        class: `btn small quiet chat-mute ${on ? "on" : ""}`,
        "data-testid": "chat-mute",
        "data-seat": seat,
        "aria-pressed": on ? "true" : "false",
        title: t(on ? "chat.unmuteName" : "chat.muteName", { name: playerName(name) }),
      },
      h("span", { class: "nm", text: playerName(name) }),
      on ? h("span", { class: "tag away", text: t("chat.mutedTag") }) : null,
    );
    el.addEventListener("click", () => {
      setMuted(name, !on);
      el.replaceWith(this.muteToggle(name, seat));
      if (!on) this.expire(seat);
    });
    return el;
  }
}
