// The table page: toolbar, the in-match panel at a match's table, the other seats around the felt (counterclockwise from me at the
// bottom), the centre, my row (what I played, the action bar, my hand) and the clock.
// A replay draws its steps with the same page, read-only (`table.readOnly`): no tools, no
// buttons, no clock, no card selection. A spectator's page (观战, `table.spectating`) has
// no hand (no element `hand`) and no tools: a strip says 观战中 with 退出观战; a private
// table's page has the table's strip (its code, hands, watchers: js/private.js).

import * as counter from "./counter.js";
import { h, fill, icon } from "./dom.js";
import { playerName, roomTitle, t } from "./i18n.js";
import { cardEl } from "./cards.js";
import { attachSelection } from "./select.js";
import * as panels from "./panels.js";
import { matchStrip, noticeTray } from "./match.js";
import { privateStrip, spectatorStrip } from "./private.js";
import { avatarEl } from "./avatar.js";
import { openCard } from "./social.js";

const TICK_MS = 250;
/** How many watch a cash table (观战 N), to its players while anyone does (a private
 * table's strip and a spectator's say it already). */
function watchedPill(T) {
  const seen = T.app && T.app.watchers;
  if (T.spectating || T.isPrivate || T.readOnly || !seen || seen.table !== T.number || !seen.count) return null;
  return h("span", { class: "pill watchers", "data-testid": "table-watchers", "data-count": String(seen.count), title: t("private.watching", { n: seen.count }) }, `${t("private.watchers")} `, h("b", { text: String(seen.count) }));
}

/** The tools that stay in the toolbar's row on a phone held upright (the rest: ⋯). */
const PRIMARY_TOOLS = new Set(["action-trustee", "chat", "action-notices"]);

/** Whether a decision of `seat` is awaited: his turn, or one of the seats choosing at the
 * same time (`deciding`: a game's simultaneous choice, 加倍 say). */
function awaits(s, seat) {
  return s.turnSeat === seat || (s.deciding || []).includes(seat);
}

export class TableView {
  constructor(table) {
    this.T = table;
    this.el = null;
    this.handKey = null;
    this.timer = null;
    this.sweptAt = -Infinity;
  }

  build() {
    const T = this.T;
    this.toolbarEl = h("div", { class: "toolbar" });
    this.matchEl = h("div", { class: "match-slot" });
    this.arenaEl = h("div", { class: "arena" });
    this.playedEl = h("div", { class: "myplayed" });
    this.bannerEl = h("div", { class: "banner hidden", "data-testid": "trustee-banner" });
    this.actionsEl = h("div", { class: "actions", "data-testid": "actions" });
    this.meEl = h("div", { class: "bar", "data-testid": "me-box" });
    this.handEl = h("div", { class: "hand", "data-testid": "hand" });
    this.el = h(
      "div",
      { class: "table-view", "data-testid": "table" },
      this.toolbarEl,
      this.matchEl,
      this.arenaEl,
      h("div", { class: "mine" }, this.playedEl, this.bannerEl, this.actionsEl, this.meEl, this.handEl),
    );
    attachSelection(this.handEl, {
      enabled: () => Boolean(T.game && T.game.selectable && !T.readOnly),
      onSweep: (codes) => {
        this.sweptAt = performance.now();
        T.sweep(codes);
      },
    });
    // right-click anywhere on the table plays the lifted cards (the JJ rules page)
    this.el.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      if (T.game && T.game.selectable && T.state.legal.some((a) => a.startsWith("play ")) && T.ui.lifted.size) {
        T.playLifted();
      }
    });
    // a click on the felt (not on a card or a button) puts every lifted card down
    this.el.addEventListener("click", (event) => {
      if (event.target.closest("button, .card, .toolbar, a, input")) return;
      // the click that ends a press or a drag on the cards (captured by the hand) is not one
      if (this.handEl.contains(event.target) && performance.now() - this.sweptAt < 500) return;
      T.lowerAll();
    });
    this.onResize = () => this.fitHand();
    this.onMenuWatch = (event) => this.watchMenu(event);
  }

  mount(root) {
    if (!this.el) this.build();
    if (this.el.parentNode !== root) root.replaceChildren(this.el);
    this.handKey = null;
    this.render();
    if (!this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
    window.addEventListener("resize", this.onResize);
    document.addEventListener("pointerdown", this.onMenuWatch, true);
    document.addEventListener("keydown", this.onMenuWatch);
  }

  unmount() {
    clearInterval(this.timer);
    this.timer = null;
    this.setMenu(false);
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("pointerdown", this.onMenuWatch, true);
    document.removeEventListener("keydown", this.onMenuWatch);
    if (this.el) this.el.remove();
  }

  get mounted() {
    return this.el !== null && this.el.isConnected;
  }

  button(id, label, onclick, kind = "") {
    return h("button", {
      class: `btn ${kind}`,
      "data-testid": `action-${id}`,
      disabled: this.T.pending !== null,
      onclick,
      text: label,
    });
  }

  render() {
    if (!this.mounted || !this.T.state) return;
    const T = this.T;
    const s = T.state;
    Object.assign(this.el.dataset, {
      game: s.game,
      seat: String(s.seat),
      spectating: T.spectating ? "1" : "0",
      phase: s.model && s.model.phase ? s.model.phase : "",
      legal: JSON.stringify(s.legal),
      options: JSON.stringify(s.options),
      decision: s.legal.length ? `${s.hand}:${s.n}:${s.legal.length}` : "",
      busy: T.pending !== null ? "1" : "0",
      turn: !T.spectating && awaits(s, s.seat) ? "me" : String(s.turnSeat),
      hand: s.hand || "",
      n: String(s.n),
    });
    this.renderToolbar();
    this.renderMatch();
    this.renderArena();
    this.renderMine();
    if (T.chat) T.chat.decorate(this.el); // the chat bubbles shown now, on their seats
    this.renderHand();
    this.tick();
  }

  /** 排序: the hand by rank or by count (a game with a `handOrder` hook). */
  sortTool() {
    return this.tool("sort", this.T.ui.sort === "rank" ? t("table.sortCount") : t("table.sortRank"), () => this.T.sortToggle());
  }

  renderToolbar() {
    const T = this.T;
    const s = T.state;
    const me = s.players[s.seat] || {};
    const tools = [];
    if (T.readOnly) {
      if (T.game.handOrder) tools.push(this.sortTool());
    } else if (T.spectating) {
      // a spectator only watches: 退出观战 is on the strip
    } else if (s.hand && !s.over) {
      tools.push(
        me.trustee
          ? this.tool("trustee", t("table.untrustee"), () => T.setTrustee(false), "on")
          : this.tool("trustee", t("table.trustee"), () => T.setTrustee(true)),
      );
    }
    const playing = !T.readOnly && !T.spectating;
    if (T.game.handOrder && playing) tools.push(this.sortTool());
    if (T.game.tools && playing) tools.push(...T.game.tools(T, (id, label, onclick) => this.tool(id, label, onclick)));
    if (counter.offered(T)) {
      const on = counter.wanted();
      const toggle = this.tool("counter", t("counter.title"), () => { counter.toggle(); this.render(); }, on ? "on" : "quiet");
      toggle.setAttribute("aria-pressed", String(on));
      tools.push(toggle);
    }
    if (playing) {
      const tray = noticeTray(T.app, (id, label, onclick, kind) => this.tool(id, label, onclick, kind));
      if (tray) tools.push(tray);
      if (T.chat) tools.push(T.chat.button());
      tools.push(this.tool("scores", t("table.scores"), () => panels.scores(T)));
      if (s.roomInfo && s.roomInfo.rules) tools.push(this.tool("rules", t("room.rules"), () => T.openRules()));
      const tucked = Boolean(T.closeResult && T.closeResult.tucked);
      const resultTool = this.tool("result", t("table.result"), () => T.showLastResult(), tucked ? "quiet dot" : "quiet");
      resultTool.dataset.tucked = tucked ? "1" : "0";
      tools.push(resultTool);
      // a match keeps the player's seat to the end (托管 plays when he is away): no 逃跑, no 离开
      if (s.hand && !s.over && !me.escaped && !T.isMatch) tools.push(this.tool("escape", t("table.escape"), () => T.escape(), "warn"));
      if (!T.isMatch) tools.push(this.tool("leave", t("table.leave"), () => (T.state.over || !T.state.hand ? T.toLobby() : this.leaveAfterHand())));
    }
    const room = s.roomInfo;
    fill(
      this.toolbarEl,
      h(
        "div",
        { class: "info" },
        h("b", { text: room ? (T.isMatch ? room.name : roomTitle(room)) : s.room }),
        s.handNumber !== null && s.handNumber !== undefined && !T.isMatch ? h("span", { class: "pill", text: t("table.handNo", { n: s.handNumber + 1 }) }) : null,
        T.game.info(T),
        watchedPill(T),
      ),
      h("div", { class: "spacer" }),
      ...this.toolGroups(tools),
    );
  }

  /** The tools as shown: on a phone held upright only 托管 and 聊天 stay in the row, the
   * others go into the ⋯ menu (CSS; on wider screens the menu's button is hidden and its
   * tools stand in the row). */
  toolGroups(tools) {
    const inRow = tools.filter((el) => PRIMARY_TOOLS.has(el.dataset.testid));
    const more = tools.filter((el) => !PRIMARY_TOOLS.has(el.dataset.testid));
    if (!more.length) return inRow;
    const menu = h("div", { class: `more-tools ${this.moreOpen ? "open" : ""}`, "data-testid": "more-tools" }, more);
    menu.addEventListener("click", () => this.setMenu(false)); // a tool chosen
    const dot = more.some((el) => el.classList.contains("dot")); // something waits in it
    const toggle = h("button", {
      class: `btn small quiet more-toggle ${dot ? "dot" : ""}`,
      "data-testid": "action-more",
      "aria-expanded": String(Boolean(this.moreOpen)),
      "aria-label": t("table.more"),
      onclick: () => this.setMenu(!this.moreOpen),
      text: "⋯",
    });
    this.menu = { menu, toggle };
    return [...inRow, toggle, menu];
  }

  /** Open or close the ⋯ menu (on a phone held upright). It closes when a tool is chosen,
   * on a tap outside it, on Esc and when the hand's result opens. */
  setMenu(open) {
    this.moreOpen = open;
    if (!this.menu) return;
    this.menu.menu.classList.toggle("open", open);
    this.menu.toggle.setAttribute("aria-expanded", String(open));
  }

  /** A press outside the open menu, or Esc, closes it. */
  watchMenu(event) {
    if (!this.moreOpen || !this.menu) return;
    if (event.type === "keydown" ? event.key === "Escape" : !this.menu.menu.contains(event.target) && !this.menu.toggle.contains(event.target)) {
      this.setMenu(false);
    }
  }

  /** The strip above the felt: a spectator's (观战中), a private table's, or the in-match
   * panel (rank, players left, base, line, stage, hands, score). */
  renderMatch() {
    const T = this.T;
    let strip = null;
    if (T.readOnly) strip = null;
    else if (T.spectating) strip = spectatorStrip(T.app, T);
    else if (T.isPrivate) strip = privateStrip(T.app, T);
    else if (T.isMatch) strip = matchStrip(T.app, T);
    fill(this.matchEl, strip);
    this.matchEl.classList.toggle("hidden", !strip);
  }

  leaveAfterHand() {
    this.T.app.send({ type: "leave" });
    panels.note(t("table.leaveAfter"));
  }

  tool(id, label, onclick, kind = "quiet") {
    return h("button", { class: `btn small ${kind}`, "data-testid": `action-${id}`, onclick, text: label });
  }

  seatBox(seat, extra) {
    const T = this.T;
    const s = T.state;
    const player = s.players[seat] || { name: "?" };
    const tags = [...extra.tags];
    if (player.trustee) tags.push(h("span", { class: "tag trustee", "data-testid": "tag-trustee", text: t("table.inTrustee") }));
    if (!player.connected && !player.bot) tags.push(h("span", { class: "tag away", text: t("table.away") }));
    if (player.escaped) tags.push(h("span", { class: "tag away", text: t("table.escaped.tag") }));
    const acting = awaits(s, seat) && !s.over && !T.readOnly;
    return h(
      "div",
      { class: "who", role: "button", tabindex: "0", "data-testid": "seat-who", "data-seat": seat, onclick: () => openCard(T.app, player), onkeydown: (event) => (event.key === "Enter" || event.key === " ") && openCard(T.app, player) },
      avatarEl(player.name),
      h("div", { class: "nm", title: playerName(player.name), text: playerName(player.name) }),
      extra.meta,
      h("div", { class: "tags" }, tags),
      acting ? h("div", { class: "timer", "data-testid": "timer", "data-seat": seat }, h("span")) : null,
    );
  }

  renderArena() {
    const T = this.T;
    const s = T.state;
    const n = s.players.length;
    const seats = [];
    for (let seat = 0; seat < n; seat++) {
      if (seat === T.seat) continue;
      const extra = T.game.seatView(T, seat);
      const pos = (seat - T.seat + n) % n;
      seats.push(
        h(
          "div",
          { class: `seat pos${pos} ${awaits(s, seat) && !s.over ? "turn" : ""}`, "data-testid": "seat", "data-seat": seat },
          this.seatBox(seat, extra),
          h("div", { class: "side" }, extra.side),
        ),
      );
    }
    const center = s.hand === null ? [h("div", { class: "note", text: t("table.waitingHand") })] : T.game.center(T);
    this.arenaEl.dataset.seats = String(n);
    fill(this.arenaEl, counter.counterStrip(T), ...seats, h("div", { class: "center" }, center));
  }

  renderMine() {
    const T = this.T;
    const s = T.state;
    const me = s.players[T.seat] || {};
    fill(this.playedEl, T.game.mine(T));
    this.bannerEl.classList.toggle("hidden", !me.trustee || Boolean(s.over) || Boolean(T.readOnly) || T.spectating);
    fill(
      this.bannerEl,
      icon("crown", "coin-icon"),
      t("table.trusteeBanner"),
      me.escaped ? null : h("button", { class: "btn small primary", "data-testid": "cancel-trustee", onclick: () => T.setTrustee(false), text: t("table.untrustee") }),
    );
    const buttons = s.over || T.readOnly || T.spectating ? [] : T.game.buttons(T);
    fill(this.actionsEl, buttons.length ? buttons : h("div", { class: "note muted", text: this.status() }));
    const extra = T.game.seatView(T, T.seat);
    const box = this.seatBox(T.seat, extra);
    box.classList.add("me-info");
    box.dataset.testid = "seat";
    box.dataset.seat = String(T.seat);
    box.classList.toggle("turn", awaits(s, T.seat));
    fill(this.meEl, box);
  }

  status() {
    if (this.T.readOnly) return this.T.caption;
    const s = this.T.state;
    if (s.over) return s.over.voided ? t("table.voided") : t("table.over");
    if (s.hand === null) return t("table.waitingHand");
    const waiting = () => (this.T.game.waiting ? this.T.game.waiting(s) : "");
    if ((s.deciding || []).length) return s.deciding.includes(s.seat) ? t("table.yourTurn") : waiting();
    if (s.turnSeat === null || s.turnSeat === undefined) return waiting();
    if (s.turnSeat === s.seat && !this.T.spectating) return t("table.yourTurn");
    return t("table.waitingFor", { name: this.T.name(s.turnSeat) });
  }

  renderHand() {
    if (!this.mounted) return;
    const T = this.T;
    const hand = this.handEl;
    if (T.spectating) {
      // a spectator holds no cards: no hand on his page
      hand.removeAttribute("data-testid");
      hand.hidden = true;
      hand.replaceChildren();
      this.handKey = null;
      return;
    }
    if (!T.game.selectable) {
      fill(hand, T.game.handView(T));
      hand.classList.toggle("locked", true);
      this.handKey = null;
      this.fitHand();
      return;
    }
    const order = T.game.handOrder || ((codes) => codes);
    const cards = order(T.game.handCards(T), T.ui.sort);
    const present = new Set(cards);
    for (const code of [...T.ui.lifted]) if (!present.has(code)) T.ui.lifted.delete(code);
    const key = cards.join(",");
    if (key !== this.handKey) {
      this.handKey = key;
      fill(hand, cards.map((code) => cardEl(code, { testid: "card" })));
      this.fitHand();
    }
    const fresh = new Set(T.game.freshCards ? T.game.freshCards(T) : []);
    for (const el of hand.children) {
      const up = T.ui.lifted.has(el.dataset.card);
      el.classList.toggle("fresh", fresh.has(el.dataset.card));
      el.classList.toggle("lifted", up);
      el.dataset.lifted = up ? "1" : "0";
      // a card of the hand is a control: reached with Tab, lifted with Space or Enter
      el.tabIndex = 0;
      el.setAttribute("role", "checkbox");
      el.setAttribute("aria-checked", String(up));
    }
    hand.classList.toggle("locked", !T.state.legal.some((a) => a.startsWith("play ")));
  }

  /** Overlap the cards so that the whole hand fits the width. */
  fitHand() {
    const hand = this.handEl;
    if (!hand || !hand.firstElementChild) return;
    const count = hand.children.length;
    const width = hand.firstElementChild.offsetWidth;
    const room = hand.clientWidth - 24;
    if (count < 2 || width === 0) return;
    const step = Math.min(width * (this.T.game.selectable ? 0.56 : 1.08), (room - width) / (count - 1));
    hand.style.setProperty("--overlap", `${Math.floor(step - width)}px`);
  }

  shake() {
    this.handEl.classList.remove("shake");
    void this.handEl.offsetWidth;
    this.handEl.classList.add("shake");
  }

  tick() {
    if (!this.mounted) return;
    const s = this.T.state;
    const total = (s.roomInfo && s.roomInfo.decision_seconds) || 20;
    for (const el of this.el.querySelectorAll(".timer")) {
      const left = Math.min(total, Math.max(0, (s.deadline || 0) - Date.now() / 1000));
      el.style.setProperty("--p", String(Math.min(1, left / total)));
      el.classList.toggle("low", left < 5);
      el.firstChild.textContent = String(Math.ceil(left));
      el.dataset.left = String(Math.ceil(left));
    }
  }
}
