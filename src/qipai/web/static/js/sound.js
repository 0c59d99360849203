// The table's sounds, synthesized in the browser with the Web Audio API: every sound is
// made here from oscillators, noise and envelopes (no audio file, no third-party asset).
// Short and soft: a master volume well under full scale, each sound under a second.
//
// The switch (the header's 音效 button, data-testid="sound-toggle") is kept in
// localStorage; sound is on by default. Browsers let a page make sound only after a user
// gesture, so the AudioContext is created (or resumed) on the first pointer or key event;
// sounds asked for before that are not heard.
//
// For tests, window.__qipaiSounds records the name of every sound played while the switch
// is on, whether or not the audio could be heard (a headless browser, no gesture yet).

import { h, fill, icon } from "./dom.js";
import { t } from "./i18n.js";
import { storage } from "./storage.js";

const VOLUME = 0.16;
const RECORDED = 200; // the test record keeps the last sounds only

// A sound is a list of voices, each a tone (an oscillator: `type`, `freq`, gliding to `to`)
// or a noise burst (`noise`), through an optional filter (`filter`, `cutoff` gliding to
// `cutoffTo`, `q`), shaped by an envelope: `at` (s after the start), `attack`, `dur`, `gain`.
const SOUNDS = {
  deal: [
    { noise: true, filter: "bandpass", cutoff: 2600, cutoffTo: 5200, q: 1.2, dur: 0.07, gain: 0.45 },
    { noise: true, filter: "bandpass", cutoff: 2400, cutoffTo: 4800, q: 1.2, at: 0.075, dur: 0.07, gain: 0.35 },
  ],
  play: [
    { noise: true, filter: "highpass", cutoff: 1800, dur: 0.05, gain: 0.5 },
    { type: "triangle", freq: 420, to: 180, dur: 0.09, gain: 0.35 },
  ],
  pass: [
    { type: "sine", freq: 660, dur: 0.12, gain: 0.28 },
    { type: "sine", freq: 494, at: 0.1, dur: 0.18, gain: 0.24 },
  ],
  chip: [
    { type: "sine", freq: 2400, dur: 0.07, gain: 0.2 },
    { type: "sine", freq: 3300, at: 0.02, dur: 0.09, gain: 0.14 },
    { noise: true, filter: "highpass", cutoff: 5000, dur: 0.03, gain: 0.2 },
  ],
  bomb: [
    { type: "sine", freq: 150, to: 38, dur: 0.65, gain: 0.95 },
    { noise: true, filter: "lowpass", cutoff: 1400, cutoffTo: 120, dur: 0.55, gain: 0.75 },
    { type: "square", freq: 70, to: 30, dur: 0.25, gain: 0.12 },
  ],
  rocket: [
    { type: "sawtooth", freq: 180, to: 1400, filter: "lowpass", cutoff: 2600, attack: 0.08, dur: 0.55, gain: 0.2 },
    { noise: true, filter: "bandpass", cutoff: 600, cutoffTo: 6000, q: 0.8, attack: 0.1, dur: 0.55, gain: 0.4 },
    { noise: true, filter: "lowpass", cutoff: 1800, at: 0.55, dur: 0.25, gain: 0.6 },
    { type: "triangle", freq: 1320, to: 1760, at: 0.56, dur: 0.22, gain: 0.18 },
  ],
  plane: [
    { type: "sawtooth", freq: 150, to: 104, filter: "lowpass", cutoff: 700, attack: 0.25, dur: 0.9, gain: 0.26 },
    { type: "sawtooth", freq: 153, to: 107, filter: "lowpass", cutoff: 700, attack: 0.25, dur: 0.9, gain: 0.2 },
    { noise: true, filter: "lowpass", cutoff: 500, attack: 0.3, dur: 0.9, gain: 0.3 },
  ],
  spring: [
    { type: "triangle", freq: 523, dur: 0.18, gain: 0.3 },
    { type: "triangle", freq: 659, at: 0.09, dur: 0.18, gain: 0.3 },
    { type: "triangle", freq: 784, at: 0.18, dur: 0.18, gain: 0.3 },
    { type: "triangle", freq: 1047, at: 0.27, dur: 0.3, gain: 0.3 },
    { type: "sine", freq: 1568, at: 0.36, dur: 0.35, gain: 0.12 },
  ],
  compare: [
    { type: "square", freq: 880, dur: 0.08, gain: 0.1 },
    { type: "square", freq: 932, dur: 0.08, gain: 0.1 },
    { noise: true, filter: "bandpass", cutoff: 3000, dur: 0.12, gain: 0.35 },
    { type: "triangle", freq: 660, at: 0.18, dur: 0.24, gain: 0.28 },
  ],
  win: [
    { type: "triangle", freq: 392, dur: 0.13, gain: 0.3 },
    { type: "triangle", freq: 523, at: 0.12, dur: 0.13, gain: 0.3 },
    { type: "triangle", freq: 659, at: 0.24, dur: 0.13, gain: 0.3 },
    { type: "triangle", freq: 784, at: 0.36, dur: 0.45, gain: 0.32 },
    { type: "sine", freq: 1047, at: 0.36, dur: 0.45, gain: 0.12 },
  ],
  lose: [
    { type: "triangle", freq: 392, dur: 0.22, gain: 0.26 },
    { type: "triangle", freq: 370, at: 0.2, dur: 0.22, gain: 0.24 },
    { type: "triangle", freq: 330, at: 0.4, dur: 0.45, gain: 0.22 },
  ],
};

let enabled = storage.sound() !== false; // on unless the player turned it off
let context = null;
let master = null;
let noise = null;
const playing = new Set(); // the sounds of this task (one batch of frames): each plays once

window.__qipaiSounds = [];

/** Turn the sounds on or off (kept in localStorage). */
export function setSoundOn(on) {
  enabled = Boolean(on);
  storage.setSound(enabled);
  if (enabled) unlock();
}

/** Play the sound `name` (a key of SOUNDS) if the switch is on, once in a batch of frames
 * (a card dealt to every seat sounds once): recorded in window.__qipaiSounds, heard once
 * the page has had a user gesture. */
export function play(name) {
  if (!enabled || !SOUNDS[name] || playing.has(name)) return;
  if (!playing.size) setTimeout(() => playing.clear(), 0);
  playing.add(name);
  record(name);
  if (!context || context.state !== "running") return;
  const start = context.currentTime + 0.01;
  for (const voice of SOUNDS[name]) sing(voice, start);
}

function record(name) {
  const log = window.__qipaiSounds;
  log.push(name);
  if (log.length > RECORDED) log.shift();
}

/** The header's switch: 音效 with a speaker, aria-pressed telling its state. */
export function soundToggle() {
  const button = h("button", { class: "btn small quiet sound-toggle", type: "button", "data-testid": "sound-toggle" });
  button.addEventListener("click", () => {
    setSoundOn(!enabled);
    drawToggle(button);
  });
  drawToggle(button);
  return button;
}

function drawToggle(button) {
  button.setAttribute("aria-pressed", String(enabled));
  button.title = t(enabled ? "sound.on" : "sound.off");
  button.classList.toggle("off", !enabled);
  fill(button, icon(enabled ? "sound-on" : "sound-off", "sound-icon"), h("span", { text: t("sound.label") }));
}

// ------------------------------------------------------------------ Web Audio

/** Create or resume the AudioContext: only a user gesture lets it run. */
function unlock() {
  if (!enabled) return;
  if (!context) context = createContext();
  if (context && context.state === "suspended") context.resume().catch(() => {});
}

function createContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    const created = new Context();
    master = created.createGain();
    master.gain.value = VOLUME;
    master.connect(created.destination);
    return created;
  } catch {
    return null; // no audio device: the page stays silent
  }
}

for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}

/** One voice of a sound, from `start` (the context's clock). */
function sing(voice, start) {
  const at = start + (voice.at || 0);
  const end = at + voice.dur;
  const source = voice.noise ? noiseSource() : oscillator(voice, at, end);
  const envelope = context.createGain();
  shape(envelope.gain, at, voice.attack || 0.005, end, voice.gain);
  const filter = voice.filter ? filterOf(voice, at, end) : null;
  if (filter) source.connect(filter).connect(envelope);
  else source.connect(envelope);
  envelope.connect(master);
  source.start(at, voice.noise ? Math.random() : 0);
  source.stop(end + 0.05);
}

function oscillator(voice, at, end) {
  const osc = context.createOscillator();
  osc.type = voice.type;
  osc.frequency.setValueAtTime(voice.freq, at);
  if (voice.to) osc.frequency.exponentialRampToValueAtTime(voice.to, end);
  return osc;
}

/** White noise: two seconds made once (each burst starts at a random point of the first). */
function noiseSource() {
  if (!noise) {
    noise = context.createBuffer(1, context.sampleRate * 2, context.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const source = context.createBufferSource();
  source.buffer = noise;
  return source;
}

function filterOf(voice, at, end) {
  const filter = context.createBiquadFilter();
  filter.type = voice.filter;
  filter.frequency.setValueAtTime(voice.cutoff, at);
  if (voice.cutoffTo) filter.frequency.exponentialRampToValueAtTime(voice.cutoffTo, end);
  filter.Q.value = voice.q ?? 1;
  return filter;
}

/** A quick rise to `peak`, then an exponential fall to silence at `end`. */
function shape(gain, at, attack, end, peak) {
  gain.setValueAtTime(0.0001, at);
  gain.linearRampToValueAtTime(peak, at + attack);
  gain.exponentialRampToValueAtTime(0.0001, end);
}
