// What the client keeps in localStorage: the session, the language, the sound switch
// (js/sound.js: true / false, absent until the player turns it), the 记牌器 switch
// (js/counter.js, the same way), and for the table the
// player sits at, the number of the last event received with the table as it stood then
// (so a reload sends `last` in `hello` and rebuilds the table from the replayed frames),
// and the match he plays (its standing, for the in-match panel after a reload), and each
// account's 按名字观战 choice (true / false; absent: the hall's default), sent after each
// welcome (js/private.js).

const SESSION = "qipai.session";
const LANG = "qipai.lang";
const TABLES = "qipai.tables";
const MATCH = "qipai.match";
const MUTED = "qipai.muted";
const SOUND = "qipai.sound";
const COUNTER = "qipai.counter";
const WATCH = "qipai.watchByName";
const BOARDS = "qipai.boards";

function read(key, store = localStorage) {
  try {
    return JSON.parse(store.getItem(key) || "null");
  } catch {
    return null;
  }
}

function write(key, value, store = localStorage) {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the client still works, without resuming from it
  }
}

export const storage = {
  session: () => read(SESSION),
  setSession: (session) => write(SESSION, session),
  lang: () => read(LANG),
  setLang: (lang) => write(LANG, lang),
  sound: () => read(SOUND),
  setSound: (on) => write(SOUND, on),
  /** The 记牌器 shown (true / false; absent until the player turns it: js/counter.js). */
  counter: () => read(COUNTER),
  setCounter: (on) => write(COUNTER, on),
  /** The 按名字观战 choice of account `user` (true / false), null when he made none. */
  watchByName(user) {
    const chosen = (read(WATCH) || {})[String(user)];
    return typeof chosen === "boolean" ? chosen : null;
  },
  setWatchByName(user, allow) {
    const all = { ...(read(WATCH) || {}) };
    if (allow === null) delete all[String(user)];
    else all[String(user)] = allow;
    write(WATCH, Object.keys(all).length ? all : null);
  },
  /** {"12": {n, state}} for the table(s) being played. */
  tables: () => read(TABLES) || {},
  /** The `last` map of `hello`: table number -> last event number. */
  lastNumbers() {
    const last = {};
    for (const [table, saved] of Object.entries(this.tables())) last[table] = saved.n;
    return last;
  },
  saveTable(table, n, state) {
    write(TABLES, { [String(table)]: { n, state } });
  },
  loadTable(table) {
    const saved = this.tables()[String(table)];
    return saved ? saved.state : null;
  },
  forgetTables: () => write(TABLES, null),
  /** The match the player plays (js/match.js), or null. */
  match: () => read(MATCH),
  setMatch: (match) => write(MATCH, match || null),
  /** The names of the players whose quick chat is muted (js/chat.js): in sessionStorage,
   * for this tab only, across its reloads. */
  muted() {
    const names = read(MUTED, sessionStorage);
    return Array.isArray(names) ? names : [];
  },
  setMuted: (names) => write(MUTED, names, sessionStorage),
  /** The private tables' scoreboards this tab has shown (js/private.js): code -> which one
   * (`its last hand:over`), in sessionStorage, so that a reload opens only a newer one. */
  boardSeen: (code) => (read(BOARDS, sessionStorage) || {})[code] || null,
  setBoardSeen(code, which) {
    write(BOARDS, { ...(read(BOARDS, sessionStorage) || {}), [code]: which }, sessionStorage);
  },
};
