// dealstream web table: the page chrome (language, Display settings), the router, and hooks for
// tests. The pages live in lobby.js, play.js (play and watch), replay.js, people.js (join),
// tournament.js (a tournament, its form and its arbiter) and rules_page.js.
import "./games.js"; // first: fills registry.js with every game's module before a page draws
import { t, setLang, getLang, LANGS, isRtl } from "./i18n.js";
import { store, $ } from "./net.js";
import { renderLobby, stopLobby } from "./lobby.js";
import { renderPlay, renderWatch, stopLive, relabelLive, currentLive, liveState, liveSend } from "./play.js";
import { renderReplay, stopReplay, currentReplay, drawReplay } from "./replay.js";
import { renderRules, rulesNav, relabelRulesNav } from "./rules_page.js";
import { renderJoin } from "./people.js";
import { soundOn, setSound, tone, tones, canVibrate, vibrateOn, setVibrate } from "./sound.js";
import { games, gameUi } from "./registry.js";
import { renderMatch, stopMatchPage, openReview } from "./matches.js";
import { seatFromAccount } from "./account.js";
import { renderPlayer, renderRatings } from "./ratings.js";
import { renderTournament, renderTournamentForm, renderArbiter, stopTournamentPage } from "./tournament.js";

// ------------------------------------------------------------------ Display settings
const SETTINGS = ["contrast", "grain", "temperature"];
function applySettings() {
  const v = Object.fromEntries(SETTINGS.map((k) => [k, store.get("set." + k, 50)]));
  const contrast = 0.6 + (v.contrast / 100) * 0.8; // 50 % -> 1.0
  document.body.style.setProperty("--contrast", contrast.toFixed(3));
  $("#stage").style.filter = `contrast(${contrast.toFixed(3)})`;
  $("#grain").style.opacity = ((v.grain / 100) * 0.7).toFixed(3);
  const temp = (v.temperature - 50) / 50; // -1 cool .. +1 warm
  const a = Math.abs(temp) * 0.5;
  $("#tint").style.backgroundColor = temp >= 0 ? `rgba(255, 140, 40, ${a.toFixed(3)})` : `rgba(60, 140, 255, ${a.toFixed(3)})`;
  for (const k of SETTINGS) {
    const input = $("#set-" + k);
    if (input) { input.value = v[k]; $("#out-" + k).textContent = v[k] + " %"; }
  }
  $("#set-sound").checked = soundOn();
  $("#row-vibrate").hidden = !canVibrate(); // where the browser cannot vibrate: hidden, and off
  $("#set-vibrate").checked = vibrateOn();
}
function bindSettings() {
  for (const k of SETTINGS) {
    $("#set-" + k).addEventListener("input", (e) => { store.set("set." + k, Number(e.target.value)); applySettings(); });
  }
  $("#set-reset").onclick = () => { for (const k of SETTINGS) store.set("set." + k, 50); applySettings(); };
  $("#set-sound").onchange = (e) => { setSound(e.target.checked); if (e.target.checked) tone("turn"); };
  $("#set-vibrate").onchange = (e) => { setVibrate(e.target.checked); applySettings(); };
  // on a phone the page links fold into a menu (style.css); a link followed closes it
  $("#menu-toggle").onclick = () => setMenu($("#menu-toggle").getAttribute("aria-expanded") !== "true");
  $("#settings-toggle").onclick = () => {
    const panel = $("#settings");
    panel.hidden = !panel.hidden;
    $("#settings-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  };
}

function setMenu(open) {
  $("#menu-toggle").setAttribute("aria-expanded", String(open));
  document.querySelector(".topbar").classList.toggle("menu-open", open);
}

// ------------------------------------------------------------------ chrome
function renderChrome() {
  document.documentElement.lang = getLang();
  document.documentElement.dir = isRtl() ? "rtl" : "ltr";
  document.title = t("app.title");
  $("#brand").textContent = t("app.title");
  $("#nav-lobby").textContent = t("nav.lobby");
  relabelRulesNav();
  $("#nav-rules-tb").textContent = t("rules.table");
  $("#lang-label").textContent = t("language");
  $("#settings-toggle").textContent = t("settings");
  $("#menu-toggle").textContent = t("nav.menu");
  $("#settings-title").textContent = t("settings.title");
  for (const k of SETTINGS) $("#lbl-" + k).textContent = t("settings." + k);
  $("#set-reset").textContent = t("settings.reset");
  $("#lbl-sound").textContent = t("settings.sound");
  $("#lbl-vibrate").textContent = t("settings.vibrate");
  $("#skip").textContent = t("skip");
  const sel = $("#lang");
  sel.innerHTML = LANGS.map(([code, name]) => `<option value="${code}"${code === getLang() ? " selected" : ""}>${name}</option>`).join("");
}

// ------------------------------------------------------------------ router
function stopAll() { stopLive(); stopReplay(); stopLobby(); stopMatchPage(); stopTournamentPage(); }

function route() {
  stopAll();
  setMenu(false);
  $("#toast").hidden = true;
  window.scrollTo(0, 0); // every page opens at its top
  const parts = (location.hash || "#/").slice(2).split("/").filter(Boolean);
  for (const a of document.querySelectorAll("header nav a")) a.removeAttribute("aria-current");
  if (parts[0] === "play" && parts[1]) return seatFromAccount(parts[1], parts[2]).then(() => renderPlay(parts[1], parts[2]));
  if (parts[0] === "watch" && parts[1]) return renderWatch(parts[1]);
  if (parts[0] === "replay" && parts[1]) { // #/replay/<deal>/review/<seat>: the review of that seat
    // the review's link from My games names the person's seat: "You" there too (one name per seat)
    const shown = renderReplay(parts[1], parts[2] === "review" && parts[3] !== undefined ? Number(parts[3]) : null);
    if (parts[2] === "review" && parts[3] !== undefined) openReview(parts[1], Number(parts[3]));
    return shown;
  }
  if (parts[0] === "match" && parts[1]) return renderMatch(parts[1]);
  if (parts[0] === "tournament" && parts[1] === "new") return renderTournamentForm();
  if (parts[0] === "tournament" && parts[1] && parts[2] === "arbiter") return renderArbiter(parts[1]);
  if (parts[0] === "tournament" && parts[1]) return renderTournament(parts[1]);
  if (parts[0] === "ratings") return renderRatings(parts[1] || games()[0].name);
  if (parts[0] === "player" && parts[1]) return renderPlayer(decodeURIComponent(parts[1]));
  // an invite (#/join/<deal>/<code>) or a lobby table's seat (#/join/<deal>/seat/<n>)
  if (parts[0] === "join" && parts[1]) return parts[2] === "seat" ? renderJoin(parts[1], undefined, parts[3]) : renderJoin(parts[1], parts[2]);
  if (parts[0] === "rules") {
    renderRules(parts[1] || games()[0].name);
    const a = $(parts[1] === "table" ? "#nav-rules-tb" : "#" + (gameUi(parts[1]) || games()[0]).navId); if (a) a.setAttribute("aria-current", "page");
    if (parts[2] !== undefined) { const s = $("#sec-" + parts[2]); if (s) s.scrollIntoView(); }
    return;
  }
  $("#nav-lobby").setAttribute("aria-current", "page");
  return renderLobby();
}

function init() {
  const saved = store.get("lang", null);
  const browser = (navigator.language || "en").slice(0, 2);
  setLang(saved || (LANGS.some(([c]) => c === browser) ? browser : "en"));
  renderChrome();
  rulesNav();
  bindSettings();
  applySettings();
  $("#lang").onchange = (e) => {
    setLang(e.target.value); store.set("lang", e.target.value); renderChrome();
    if (currentLive()) relabelLive();
    else if (currentReplay() && currentReplay().frame) drawReplay(currentReplay());
    else { const y = window.scrollY; route(); window.scrollTo(0, y); }
  };
  window.addEventListener("hashchange", route);
  route();
}

// for tests and the console
window.dealstream = { send: liveSend, state: liveState, tones };
init();
// the service worker keeps the page's shell for the home screen (sw.js says what it never keeps)
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/web/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((reg) => {
    const urls = performance.getEntriesByType("resource").map((e) => e.name).filter((u) => u.startsWith(location.origin + "/web/"));
    if (reg.active) reg.active.postMessage({ type: "shell", urls: [location.origin + "/", ...urls] });
  }).catch(() => { /* no worker (a private window, an old browser): the page works without one */ });
}
