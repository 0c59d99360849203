// One table: its state built from the snapshot and the frames that follow (numbered
// events, turn frames, hand_over), the player's actions, and the page that shows it.
//
// The state is plain JSON and is saved (with the last event number) after every batch of
// frames, so a reload sends `last` in `hello`, restores the state and applies the replayed
// frames; when the server answers with a snapshot instead, the snapshot rebuilds it.
//
// On every hand_start of the player's table (and a snapshot of a hand not dealt yet) the
// table sends the hand's entropy: 32 bytes from crypto.getRandomValues, mixed into the seed
// the hand is dealt from (docs/records.md); once the hand is over it checks that the record
// holds them.
//
// A spectator's table (观战: its snapshot's `seat` is null) is drawn from the side of the
// player he watches by name (seat 0's when he watches by number or code)
// without a hand: no action, no entropy, nothing saved for a reload; at the hand's end the
// result as the players see it (its title names the player watched by name).

import { toast } from "./dom.js";
import { playerName, t } from "./i18n.js";
import { storage } from "./storage.js";
import { gameNamed, roomGame } from "./games/index.js";
import { liftAfterSweep } from "./select.js";
import { TableView } from "./tableview.js";
import * as panels from "./panels.js";
import { listed, loadMatches, matchOfRoom, matchRoomInfo, onMatchHand } from "./match.js";
import { Chat } from "./chat.js";
import { isPrivateRoom, privateGame, privateRoomInfo } from "./private.js";
import { effects } from "./fx.js";
import { openRules } from "./rules.js";

const QUIET_ERRORS = new Set(["not_in_room", "not_seated", "not_queued"]);
const ENTROPY_BYTES = 32;

/** An escape's price: one number, or least–most where it depends on unseen cards. */
function escapeText(key, least, most) {
  if (least === undefined || least === null || least === most) return t(key, { n: most });
  return t(`${key}Range`, { least, n: most });
}

/** The game module of a table in ``roomId`` (js/games/index.js): its room's `web_module`
 * (GET /api/rooms), a match's game (the match list, for a table `match:<name>`), or a
 * private table's (`private:<id>`, js/private.js); null when none is known yet. */
function gameOf(app, roomId) {
  const room = app.rooms.find((r) => r.id === roomId);
  if (room) return roomGame(room);
  if (isPrivateRoom(roomId)) return privateGame(app, roomId);
  const match = listed(app, matchOfRoom(roomId));
  return match ? gameNamed(match.game) : null;
}

export class Table {
  constructor(app, number, saved) {
    this.app = app;
    this.number = number;
    this.state = saved;
    this.game = saved ? gameNamed(saved.game) : null;
    this.ui = { lifted: new Set(), hint: -1, hintKey: null, sort: "rank", peek: false };
    this.pending = null;
    this.needResync = false;
    this.justEnded = false;
    this.notes = [];
    this.view = new TableView(this);
    this.closeResult = null;
    this.carried = null; // the match's table before this one: {scores, from}
    this.chat = new Chat(this); // quick chat 快捷聊天: the panel, the bubbles
    // the hall's welcomes when this table last settled a batch (see `live`); -1: a table the
    // player comes back to, whose first frames replay what he missed
    this.welcomes = saved || storage.loadTable(number) ? -1 : app.frameCounts.welcome || 0;
  }

  /** Whether frames come as they happen (their effects play: js/fx.js): not the batch that
   * catches up after a reload or a reconnection (a new welcome since the last batch). */
  get live() {
    return this.welcomes === (this.app.frameCounts.welcome || 0);
  }

  /** The match's table before this one: its scores go on; its result (shown when its
   * batch of frames settles, which may come after this table opened) stays open until the
   * player has something to do here, or closes it. */
  carryFrom(before) {
    this.carried = { scores: before.state.scores, from: before };
  }

  /** The player's seat; a spectator's view is drawn from the side of the player he
   * watches by name (his seat at the bottom), else from seat 0's. */
  get seat() {
    if (this.state.seat !== null && this.state.seat !== undefined) return this.state.seat;
    const name = this.app.watchingName;
    const at = name ? this.state.players.findIndex((player) => player.name === name) : -1;
    return Math.max(at, 0);
  }

  /** Whether the player only watches this table (观战: no seat of his). */
  get spectating() {
    return Boolean(this.state) && this.state.seat === null;
  }

  /** Whether this is a private table's (好友房: room `private:<id>`). */
  get isPrivate() {
    return Boolean(this.state) && isPrivateRoom(this.state.room);
  }

  /** Whether the result offers 换桌: a table that plays on, not a private one. */
  get canChangeTable() {
    return this.playsOn && !this.isPrivate;
  }

  get seated() {
    return this.state !== null;
  }

  /** Whether the room keeps its tables (`regroup: false`): the next hand comes here. */
  get playsOn() {
    const room = this.state && this.state.roomInfo;
    return Boolean(room) && room.regroup === false;
  }

  /** Whether this is a match's table (room `match:<name>`): match points, no coins; the
   * match seats the player at its next table by itself. */
  get isMatch() {
    return Boolean(this.state) && matchOfRoom(this.state.room) !== null;
  }

  /** A match table's 基数 (the match's base now, which multiplies the game's 底分 and
   * 倍数 into match points); null at any other table. */
  get matchBase() {
    const status = this.isMatch && this.app.match ? this.app.match.status : null;
    return status && status.base != null ? status.base : null;
  }

  /** A seat's display name. */
  name(seat) {
    const player = this.state.players[seat];
    return player ? playerName(player.name) : `#${seat}`;
  }

  // ---------------------------------------------------------------- frames

  apply(frame) {
    const handler = this[`on_${frame.type}`];
    if (handler && (this.state || frame.type === "snapshot")) handler.call(this, frame);
  }

  on_snapshot(frame) {
    const game = gameOf(this.app, frame.room);
    if (!game) {
      this.unknownGame(frame);
      return;
    }
    const players = frame.players;
    const prev = this.state;
    const sameHand = prev && prev.hand === frame.hand && frame.hand !== null;
    let model = frame.view ? game.fromView(frame.view, frame.seat) : game.empty(players.length);
    if (sameHand && prev.model && frame.view) model = game.merge(prev.model, model);
    const view = frame.view;
    const deciding = (view && view.deciding) || [];
    const mine = view && frame.seat !== null && (view.current_player === frame.seat || deciding.includes(frame.seat));
    const actions = view ? view.legal_actions : [];
    this.game = game;
    this.state = {
      table: frame.table,
      n: frame.n,
      seat: frame.seat,
      room: frame.room,
      roomInfo: this.app.rooms.find((r) => r.id === frame.room) || matchRoomInfo(this.app, frame.room) || privateRoomInfo(this.app, frame.room),
      game: game.name,
      hand: frame.hand,
      handNumber: prev && sameHand ? prev.handNumber : null,
      commitment: frame.commitment,
      players,
      deadline: frame.deadline,
      turnSeat: view ? view.current_player : null,
      deciding,
      legal: mine ? actions : [],
      options: mine ? [] : actions,
      model,
      over: sameHand ? prev.over : null,
      scores: prev ? prev.scores : this.carried ? [...this.carried.scores] : [],
      entropy: prev ? prev.entropy : this.entropySaved(frame.hand),
    };
    this.showEnd();
    if (frame.entropy_deadline != null) this.contribute(frame.hand);
  }

  /** A snapshot of a table whose game the page does not know yet: a match missing from
   * the list it has (fetch the list again), or a private table whose `private_table` has
   * not come (the hall sends it first: this is a stray); then ask for the snapshot again,
   * once. */
  unknownGame(frame) {
    if (this.askedGame) return;
    this.askedGame = true;
    const known = isPrivateRoom(frame.room) ? Promise.resolve() : loadMatches(this.app);
    known.then(() => this.app.send({ type: "resync" }));
  }

  /** The entropy this tab sent for `hand` before a reload answered by a snapshot (the
   * table's state saved in localStorage holds it), or null: the result still checks it. */
  entropySaved(hand) {
    const saved = storage.loadTable(this.number);
    const entropy = saved ? saved.entropy : null;
    return entropy && entropy.hand === hand ? entropy : null;
  }

  /** Send the seat's entropy for `hand`, once: random bytes as hex digits, kept (with the
   * message's id, and whether the hall took them) to check the hand's record against. */
  contribute(hand) {
    const s = this.state;
    if (this.spectating || (s.entropy && s.entropy.hand === hand)) return;
    const bytes = crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES));
    const value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const id = this.app.send({ type: "entropy", table: this.number, hand, value });
    s.entropy = { hand, value, id, accepted: null };
  }

  on_hand_start(frame) {
    const s = this.state;
    if (frame.entropy_deadline != null) this.contribute(frame.hand);
    if (s.hand === frame.hand) return; // replayed: already have it
    Object.assign(s, {
      hand: frame.hand,
      handNumber: frame.hand_number,
      commitment: frame.commitment,
      players: frame.players,
      model: this.game.empty(frame.players.length),
      over: null,
      legal: [],
      options: [],
      turnSeat: null,
      deciding: [],
      n: Math.max(s.n, frame.n),
    });
    this.ui.lifted = new Set();
    this.ui.peek = false;
    // the last hand's result stays open at a table that plays on: its 换桌 with it
    if (this.closeResult && this.playsOn && this.closeResult.nextHand) this.closeResult.nextHand();
    else if (this.closeResult) this.closeResult();
  }

  on_event(frame) {
    const s = this.state;
    if (frame.n <= s.n) return; // a number already applied
    s.n = frame.n;
    if (frame.hidden) return;
    const ctx = { seat: s.seat, name: (seat) => this.name(seat), note: (text) => this.notes.push(text) };
    if (frame.event.kind === "TrusteeChanged") s.players[frame.event.seat].trustee = frame.event.on;
    if (this.game.apply(s.model, frame.event, ctx)) this.needResync = true;
    if (frame.event.kind === "Played" && frame.event.seat === s.seat) this.ui.lifted = new Set();
    effects(this, frame);
  }

  on_turn(frame) {
    const s = this.state;
    if (frame.n < s.n || s.over) return;
    Object.assign(s, {
      turnSeat: frame.seat,
      deciding: frame.deciding || [],
      deadline: frame.deadline,
      players: frame.players,
      legal: frame.legal || [],
      options: frame.options || [],
    });
    const key = `${s.hand}:${frame.n}`;
    if (this.ui.hintKey !== key) {
      this.ui.hintKey = key;
      this.ui.hint = -1;
    }
  }

  on_hand_over(frame) {
    const s = this.state;
    if (s.over && s.over.hand === frame.hand) return;
    s.over = {
      hand: frame.hand,
      result: frame.result,
      points: frame.points,
      rake: frame.rake,
      fees: frame.fees,
      winners: frame.winners,
      escaper: frame.escaper,
      voided: frame.voided,
      seed: frame.seed,
      commitment: s.commitment,
      entropy: this.entropyInRecord(frame),
      limited: frame.limited || null,
      explain: frame.explain || null,
      cards: frame.cards || null,
      coins: frame.coins || null,
    };
    this.showEnd();
    Object.assign(s, { legal: [], options: [], turnSeat: null, deciding: [], deadline: null });
    s.scores.push({ hand: frame.hand, net: frame.result[s.seat], points: frame.points[s.seat], voided: frame.voided });
    this.ui.lifted = new Set();
    this.justEnded = true;
    if (this.isMatch) onMatchHand(this.app, s.room);
    effects(this, frame);
  }

  /** The end of the hand on the felt (again after a snapshot of it): every seat's cards
   * face up, and what the game shows of the result (the coins each seat holds after
   * settlement, the final multipliers). */
  showEnd() {
    const s = this.state;
    const over = s.over;
    if (!over || !over.cards) return;
    this.game.reveal(s.model, over.cards, this.seat);
    this.game.ended(s.model, over);
  }

  /** What the result says of the entropy this seat sent for the hand (`fairness` in
   * js/panels.js): "ok" (the record holds it), "bad" (the hall took it, the record does not
   * hold it), "late" (it came after the deal: the hall refused it, the seed alone dealt),
   * "unsent" (the page sent none: it came to the table after the deal); null when there is
   * nothing to say (a spectator, a hand without a record, a room that takes no entropy). */
  entropyInRecord(frame) {
    const recorded = frame.record ? frame.record.entropy : null;
    if (this.spectating || !Array.isArray(recorded)) return null;
    const mine = this.state.entropy;
    if (!mine || mine.hand !== frame.hand) return "unsent";
    if (recorded[this.state.seat] === mine.value) return "ok";
    return mine.accepted ? "bad" : "late";
  }

  on_chat(frame) {
    this.chat.heard(frame);
  }

  on_hand_voided(frame) {
    const s = this.state;
    s.over = { hand: frame.hand, voided: true, reason: frame.reason || null, message: frame.message || null, result: s.players.map(() => 0), points: s.players.map(() => 0), winners: [] };
    Object.assign(s, { legal: [], options: [], turnSeat: null, deciding: [], deadline: null });
    this.justEnded = true;
  }

  on_ack(frame) {
    if (frame.id === this.pending) this.pending = null;
    const mine = this.state.entropy;
    if (mine && frame.id === mine.id) mine.accepted = true;
  }

  on_error(frame) {
    const mine = this.state.entropy;
    if (mine && frame.id === mine.id) {
      mine.accepted = false; // too late (dealt already), or sent twice: the result says so
      return;
    }
    if (frame.id !== undefined && frame.id === this.pending) this.pending = null;
    if (QUIET_ERRORS.has(frame.code)) return;
    if (this.spectating && frame.id === undefined) return; // a resync a hall may refuse a spectator
    toast(this.app.errorText(frame.code));
    if (frame.id !== undefined && frame.id !== null && !this.state.over) this.needResync = true;
  }

  /** After a batch of frames: save, ask for a snapshot if needed, show the hand's end, draw. */
  settle() {
    const s = this.state;
    if (!s) return;
    this.welcomes = this.app.frameCounts.welcome || 0;
    if (s.over || this.spectating) storage.forgetTables();
    else storage.saveTable(this.number, s.n, s);
    if (this.needResync && !s.over) this.app.send({ type: "resync" });
    this.needResync = false;
    if (this.carried && this.carried.from && (s.legal.length || s.over)) {
      const before = this.carried.from;
      if (before.closeResult) before.closeResult(); // the last hand's result: he acts here now
      this.carried.from = null;
    }
    if (s.legal.length && !s.over) this.clearForTurn();
    for (const note of this.notes.splice(0)) toast(note);
    if (this.justEnded && this.spectating) {
      this.justEnded = false; // the felt shows the end, and the result as the players see it
      this.showResult();
    }
    if (this.justEnded) {
      this.justEnded = false;
      // the hall lets him go (he joined for one hand): the player chooses what next; a table
      // that plays on deals its next hand to the same players by itself, and a match
      // seats him by itself
      this.app.refreshMe();
      this.showResult();
    }
    this.view.render();
  }

  // ---------------------------------------------------------------- actions

  /** Send an action text of the legal list (one at a time until it is answered). */
  act(text) {
    if (this.pending) return;
    const id = this.app.send({ type: "act", action: text });
    if (id) {
      this.pending = id;
      this.view.render();
    }
  }

  setTrustee(on) {
    this.app.send({ type: "trustee", on });
  }

  /** 逃跑: ask what leaving costs; the confirmation says it (on_escape_cost). */
  escape() {
    this.app.send({ type: "escape_cost" });
  }

  /** The price is a range where it depends on cards this player cannot see (a preset
   * that prices an escape by the unplayed bombs): least_coins–coins. */
  on_escape_cost(frame) {
    let text = t("table.escapeTrustee");
    if (frame.coins) text = escapeText("table.escapeCost", frame.least_coins, frame.coins);
    else if (frame.points !== null) {
      text = escapeText("table.escapePoints", frame.least_points, frame.points);
    }
    panels.confirm(text, () => this.app.send({ type: "escape" }), "escape-cost");
  }

  /** A button of the action bar: data-testid="action-ID". */
  button(id, label, onclick, kind = "") {
    return this.view.button(id, label, onclick, kind);
  }

  choose(title, choices) {
    panels.choose(title, choices, (action) => this.act(action));
  }

  lifted() {
    const hand = this.game.handCards ? this.game.handCards(this) : [];
    return hand.filter((code) => this.ui.lifted.has(code));
  }

  /** 出牌: the lifted cards played (the game's `playLifted` hook). */
  playLifted() {
    this.game.playLifted(this);
  }

  /** 提示: the next play's cards lifted (the game's `hint` hook). */
  hint() {
    this.game.hint(this);
  }

  sweep(codes) {
    this.ui.lifted = liftAfterSweep(this.ui.lifted, codes);
    this.view.renderHand();
  }

  lowerAll() {
    if (!this.ui.lifted.size) return;
    this.ui.lifted = new Set();
    this.view.renderHand();
  }

  sortToggle() {
    this.ui.sort = this.ui.sort === "rank" ? "count" : "rank";
    this.view.renderHand();
  }

  peek(on) {
    this.ui.peek = on;
    this.view.render();
  }

  // ---------------------------------------------------------------- panels

  showResult() {
    if (!this.state.over) {
      toast(t("table.noResult"));
      return;
    }
    if (this.closeResult) this.closeResult();
    this.view.setMenu(false); // never left open behind the result
    this.closeResult = panels.result(this, () => {
      this.closeResult = null;
    });
  }

  /** The player's turn: what is left open of the hand before (its result, the private
   * table's scoreboard) never covers the actions. The result is put away (the 结果 tool
   * shows it again), the scoreboard closed (the strip's 战绩 opens it again). */
  clearForTurn() {
    const s = this.state;
    const turn = `${s.hand}:${s.n}`;
    if (this.clearedFor === turn) return; // once a turn: the player may look at them again
    this.clearedFor = turn;
    const result = this.closeResult;
    if (result && result.past && !result.tucked) result.tuck(true);
    if (this.closeRules) this.closeRules(); // the rules page: open again from the toolbar
    const board = this.app.scoreboard;
    if (this.app.closeScoreboard && board && !board.over) this.app.closeScoreboard();
  }

  /** 规则: the rules page of this table's room (js/rules.js), closed when his turn comes.
   * A private table's stakes are its own (not its template room's) and a match's are on
   * its strip: their page shows the rule set alone. */
  openRules() {
    const info = this.state.roomInfo || {};
    const game = info.game || this.state.game;
    const room = this.isPrivate || this.isMatch ? { game, rules: info.rules } : { ...info, game };
    this.closeRules = openRules(room);
  }

  /** 结果: the result put away at the player's turn, else the hand's (if it is over). */
  showLastResult() {
    const result = this.closeResult;
    if (result && result.tucked) {
      result.tuck(false);
      this.view.setMenu(false);
      this.view.render();
      return;
    }
    this.showResult();
  }

  again() {
    if (this.closeResult) this.closeResult();
    if (!this.playsOn) this.app.playAgain(this.state.room);
  }

  /** 换桌: leave a table that plays on (it breaks up once the hand is over) and queue
   * again in its room: the hall seats the player with whoever is waiting. */
  changeTable() {
    if (this.closeResult) this.closeResult();
    this.app.rejoin = this.state.room; // joined again once the hall says he left (main.js)
    this.app.send({ type: "leave" });
    if (!this.state.over) toast(t("table.changeAfterNote")); // the next hand started: after it
  }

  toLobby() {
    if (this.closeResult) this.closeResult();
    if (this.isMatch) {
      if (this.state.over && this.app.match && this.app.match.state !== "playing") this.app.table = null;
      this.app.go("matches");
      return;
    }
    if (this.state.over && this.playsOn) this.app.send({ type: "leave" }); // the table breaks up
    if (this.state.over) this.app.table = null;
    this.app.toLobby();
  }

  /** 回放 of `hand` (the hand just over by default). */
  replay(hand = this.state.over && this.state.over.hand) {
    if (this.closeResult) this.closeResult();
    if (hand) this.app.go(`replay/${hand}/${this.state.seat}`);
  }

  mount(root) {
    this.view.mount(root);
  }

  unmount() {
    this.view.unmount();
  }
}
