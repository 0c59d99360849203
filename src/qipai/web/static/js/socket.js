// The WebSocket to the hall (/ws): hello with the token and `last`, frames in (one object or
// an array of frames sent together), messages out with ids, reconnection with backoff.
//
// Reconnecting waits the next step of RETRY_MS, with up to JITTER of it added at random so
// that many pages dropped at once do not come back at once; when the hall said how long to
// wait (an error frame's `retry_after`: `too_many_connections`, `database_unavailable`,
// `rate_limited`) before closing, the page waits at least that long.

const RETRY_MS = [200, 500, 1000, 2000, 4000, 8000];
const JITTER = 0.5;
const OUTBOX = 50;
/** The messages sent with an `id` (answered by ack or error): the table's, and those of
 * private tables and spectating (js/private.js). */
const WITH_ID = new Set([
  "act", "entropy", "trustee", "escape",
  "private_create", "private_join", "ready", "private_start", "private_kick", "private_close", "spectate", "stop_spectating", "watch_by_name",
]);

export class HallSocket {
  /**
   * @param {object} options
   * @param {string} options.token the session token
   * @param {() => object} options.last the `last` map to send in `hello`
   * @param {(frames: object[]) => void} options.onFrames every batch of frames received
   * @param {(status: string) => void} options.onStatus "connecting", "open", "closed", "signed-out",
   *   "ended" (an operator banned the account: `error` `session_ended`, close 4003; no retry)
   */
  constructor({ token, last, onFrames, onStatus }) {
    this.token = token;
    this.last = last;
    this.onFrames = onFrames;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextId = 1;
    this.retries = 0;
    this.retryAfterMs = 0; // the wait this connection's hall asked for (retry_after)
    this.stopped = false;
    this.welcomed = false;
    this.outbox = []; // the last messages sent (a debugging and test aid)
    this.received = 0; // the messages taken in, whole (a test aid: a stub hall waits on it)
  }

  open() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.welcomed = false;
    this.retryAfterMs = 0;
    this.onStatus("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, last: this.last() }));
    };
    ws.onmessage = (message) => this.receive(message.data);
    ws.onclose = () => this.closed(ws);
  }

  receive(data) {
    let parsed;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.received += 1;
      return;
    }
    const frames = Array.isArray(parsed) ? parsed : [parsed];
    for (const frame of frames) {
      if (frame.type === "welcome") {
        this.welcomed = true;
        this.retries = 0;
        this.onStatus("open");
      }
      if (frame.type === "error" && frame.code === "bad_token") this.badToken = true;
      if (frame.type === "error" && frame.code === "session_ended") this.ended = true;
      if (frame.type === "error" && typeof frame.retry_after === "number") {
        this.retryAfterMs = Math.max(this.retryAfterMs, frame.retry_after * 1000);
      }
    }
    this.onFrames(frames);
    this.received += 1;
  }

  closed(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    if (this.stopped) {
      this.onStatus("closed");
      return;
    }
    if (this.badToken) {
      this.onStatus("signed-out");
      return;
    }
    if (this.ended) {
      this.stopped = true; // banned: connecting again would only be refused
      this.onStatus("ended");
      return;
    }
    this.onStatus("connecting");
    const wait = this.nextWait();
    this.retries += 1;
    setTimeout(() => {
      if (!this.stopped) this.open();
    }, wait);
  }

  /** Milliseconds before the next attempt: the back-off step with jitter, at least what the
   * hall asked for on the connection that closed. */
  nextWait() {
    const step = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
    return Math.max(step * (1 + JITTER * Math.random()), this.retryAfterMs);
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  /** Send a message; returns its id (for those that carry one) or null if offline. */
  send(message) {
    if (!this.isOpen) return null;
    const withId = WITH_ID.has(message.type);
    const sent = withId ? { ...message, id: this.nextId++ } : message;
    this.ws.send(JSON.stringify(sent));
    this.outbox.push(sent);
    if (this.outbox.length > OUTBOX) this.outbox.shift();
    return withId ? sent.id : 0;
  }

  close() {
    this.stopped = true;
    if (this.ws) this.ws.close(1000);
  }
}
