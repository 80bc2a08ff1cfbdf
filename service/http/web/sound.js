// The table's sounds, synthesised with Web Audio (no file is downloaded), off until switched on in
// Display, and remembered in localStorage. Four distinct sounds: a discard (a short low knock), a
// call (a claim taken: two quick rising notes), your turn (a soft two-tone chime, also when a
// claim is offered to you) and the clock (three short equal beeps at 5 s left).
import { store } from "./net.js";

let ctx = null;
// what the tests (and the console) can read: how many sounds started, the clock's, each kind's
// count and its signature (waveform and notes), and whether an AudioContext was made
// (and its state), and how many vibrations the browser accepted
export const tones = { played: 0, clock: 0, kinds: {}, signatures: {}, contexts: 0, state: null, vibrations: 0 };

export function soundOn() { return store.get("set.sound", false) === true; }
export function setSound(on) {
  store.set("set.sound", !!on);
  if (on) audio(); // the click that switched it on lets the browser start the audio context
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
    tones.contexts += 1;
    tones.state = ctx.state;
    ctx.onstatechange = () => { tones.state = ctx.state; };
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// A phone starts audio only inside a tap: the page's first tap, click or key (with sound on)
// makes or resumes the context and plays one silent sample, which is what unlocks it on iOS; the
// listeners stay until the context runs.
const UNLOCK_EVENTS = ["pointerdown", "touchend", "click", "keydown"];
function unlock() {
  if (!soundOn()) return;
  const a = audio();
  if (!a) return;
  try {
    const src = a.createBufferSource();
    src.buffer = a.createBuffer(1, 1, 22050);
    src.connect(a.destination);
    src.start(0);
  } catch { /* an old engine: the resume above is all it needs */ }
  if (a.state === "running") stopUnlock();
  else a.addEventListener("statechange", () => { if (a.state === "running") stopUnlock(); }, { once: true });
}
function stopUnlock() { for (const e of UNLOCK_EVENTS) document.removeEventListener(e, unlock, true); }
for (const e of UNLOCK_EVENTS) document.addEventListener(e, unlock, { capture: true, passive: true });

// Vibration when the table waits on you (your turn, a claim offered): only where the browser has
// it (navigator.vibrate), off by default, remembered like the sound.
export const canVibrate = () => typeof navigator !== "undefined" && typeof navigator.vibrate === "function";
export function vibrateOn() { return canVibrate() && store.get("set.vibrate", false) === true; }
export function setVibrate(on) {
  store.set("set.vibrate", !!on && canVibrate());
  if (on) buzz(); // the switch's own tap lets the browser vibrate: a sample of what it will do
}
function buzz() {
  if (!canVibrate()) return false;
  let done = false;
  try { done = navigator.vibrate([60, 50, 60]) === true; } catch { /* refused */ }
  if (done) tones.vibrations += 1;
  return done;
}

// each sound: a waveform, its notes (Hz), the gap between notes, each note's length and loudness
const SOUNDS = {
  discard: { wave: "triangle", notes: [196, 147], gap: 0.035, len: 0.07, peak: 0.22 },
  call: { wave: "square", notes: [523, 659, 784], gap: 0.07, len: 0.09, peak: 0.07 },
  turn: { wave: "sine", notes: [880, 1175], gap: 0.16, len: 0.34, peak: 0.16 },
  clock: { wave: "sine", notes: [988, 988, 988], gap: 0.11, len: 0.16, peak: 0.18 },
};
SOUNDS.claim = SOUNDS.turn; // a claim offered to you is your turn to answer

export const soundSignature = (kind) => {
  const s = SOUNDS[kind] || SOUNDS.turn;
  return `${s.wave}:${s.notes.join("-")}:${s.len}`;
};

export function tone(kind = "turn") {
  if ((kind === "turn" || kind === "claim") && vibrateOn()) buzz(); // the table waits on you
  if (!soundOn()) return false;
  const a = audio();
  if (!a) return false;
  const s = SOUNDS[kind] || SOUNDS.turn;
  const now = a.currentTime;
  s.notes.forEach((f, i) => {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = s.wave;
    osc.frequency.value = f;
    const start = now + i * s.gap;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(s.peak, start + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + s.len);
    osc.connect(gain).connect(a.destination);
    osc.start(start);
    osc.stop(start + s.len + 0.02);
  });
  tones.played += 1;
  if (kind === "clock") tones.clock += 1;
  const k = kind === "claim" ? "turn" : kind;
  tones.kinds[k] = (tones.kinds[k] || 0) + 1;
  tones.signatures[k] = soundSignature(k);
  return true;
}
