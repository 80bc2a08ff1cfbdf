// A short tone when the table asks the person something: synthesised with Web Audio (no file is
// downloaded), off until switched on in Display, and remembered in localStorage.
import { store } from "./net.js";

let ctx = null;
export const tones = { played: 0, clock: 0 }; // how many tones were started (the tests read it)

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
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// two soft notes (a claim offer rises, your turn falls) of about a fifth of a second; three
// short equal ones when 5 s are left on the person's clock
export function tone(kind = "turn") {
  if (!soundOn()) return false;
  const a = audio();
  if (!a) return false;
  const now = a.currentTime;
  const notes = kind === "claim" ? [660, 880] : kind === "clock" ? [988, 988, 988] : [740, 587];
  notes.forEach((f, i) => {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = "sine";
    osc.frequency.value = f;
    const start = now + i * 0.11;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
    osc.connect(gain).connect(a.destination);
    osc.start(start);
    osc.stop(start + 0.18);
  });
  tones.played += 1;
  if (kind === "clock") tones.clock += 1;
  return true;
}
