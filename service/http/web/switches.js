// The person's own table switches, kept in localStorage and sending only ordinary commands (the
// server behaves the same with them on or off): "no calls" answers Pass at once to every claim
// prompt that offers no win (as Tenhou's), "win automatically" sends the win when it is legal.
import { t } from "./i18n.js";
import { store, esc } from "./net.js";

export const noCallsOn = () => store.get("set.nocalls", false) === true;
export const autoWinOn = () => store.get("set.autowin", false) === true;
export function setNoCalls(on) { store.set("set.nocalls", !!on); }
export function setAutoWin(on) { store.set("set.autowin", !!on); }

export function switchesHtml() {
  const box = (id, on, label, help) => `<label class="switch" for="${id}" title="${esc(help)}"><input type="checkbox" id="${id}"${on ? " checked" : ""} aria-describedby="${id}-help"> ${esc(label)}<span class="sr-only" id="${id}-help">${esc(help)}</span></label>`;
  return `<div class="table-switches" role="group" aria-label="${esc(t("sw.title"))}">
    ${box("sw-nocalls", noCallsOn(), t("sw.nocalls"), t("sw.nocalls.help"))}
    ${box("sw-autowin", autoWinOn(), t("sw.autowin"), t("sw.autowin.help"))}</div>`;
}

// the command the switches send for this prompt, or null: a legal win when "win automatically"
// is on; Pass to a claim prompt without a win when "no calls" is on (a win is never passed)
export function autoCommand(m, isWin) {
  if (!m.prompt || m.prompt === "start") return null;
  const win = m.legal.find(isWin);
  if (win) return autoWinOn() ? { command: win, why: "auto.won" } : null;
  if (m.prompt !== "claim" || !noCallsOn()) return null;
  const pass = m.legal.find((a) => a.type === "Pass");
  return pass ? { command: pass, why: "auto.passed" } : null;
}
