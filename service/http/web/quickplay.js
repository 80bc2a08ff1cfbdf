// Quick play in the lobby: one button per game. Signed in, a click asks the server for a table
// (POST /seeks) and shows the wait; the page reads the seek every second (reading keeps it
// alive), and once seated opens its own seat of the new deal with the token the seek gave it.
// "Cancel", or leaving the lobby, ends the seek (DELETE /seeks/<id>).
import { t } from "./i18n.js";
import { api, esc, $, store, tokensOf, randomSeed } from "./net.js";
import { games as registered } from "./registry.js";
import { showProblem } from "./ui.js";

const POLL_MS = 1000;
const BOTS_AFTER_S = 20;
let seeking = null; // {game, id, since, stop}

export function quickPlayHtml() {
  const buttons = registered().map((ui) => ui.name).map((g) =>
    `<button type="button" class="secondary quick-play" data-game="${esc(g)}" id="quick-${esc(g)}">${esc(t("quick.play", { game: t("game." + g) }))}</button>`).join(" ");
  return `<section class="quick card-panel" id="quick-play" aria-labelledby="quick-title">
    <h2 id="quick-title">${t("quick.title")}</h2>
    <p class="help">${t("quick.help", { s: BOTS_AFTER_S })}</p>
    <p class="links">${buttons}</p>
    <p id="quick-wait" role="status" aria-live="polite" hidden></p>
    <button type="button" class="secondary" id="quick-cancel" hidden>${t("quick.cancel")}</button>
  </section>`;
}

function showWait() {
  const box = $("#quick-wait"); const cancel = $("#quick-cancel");
  if (!box || !cancel) return;
  box.hidden = !seeking; cancel.hidden = !seeking;
  for (const b of document.querySelectorAll(".quick-play")) b.disabled = !!seeking;
  if (seeking) {
    const s = Math.floor((Date.now() - seeking.since) / 1000);
    box.textContent = t("quick.wait", { game: t("game." + seeking.game), s });
  }
}

async function stopSeek(seek) {
  if (!seek || seek.stopped) return;
  seek.stopped = true;
  if (seeking === seek) seeking = null;
  try { await api(`/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE" }); } catch { /* ended already */ }
}

function sit(state) {
  const deal = state.deal_id; const seat = state.seat;
  store.set("tokens." + deal, { ...tokensOf(deal), [String(seat)]: state.token });
  const seed = randomSeed();
  store.set("seed." + deal, seed);
  store.set("ready." + deal, seed); // deal it as soon as every person is in (TB-3.1)
  store.set("last", { deal, seat });
  location.hash = `#/play/${deal}/${seat}`;
}

async function follow(seek) {
  while (!seek.stopped) {
    if (!document.getElementById("quick-play")) { await stopSeek(seek); return; } // the lobby was left
    showWait();
    try {
      const state = await api(`/seeks/${encodeURIComponent(seek.id)}`);
      if (state.status === "seated" && state.token) { seek.stopped = true; seeking = null; sit(state); return; }
    } catch (e) {
      if (e.problem && e.problem.rule === "DS-51") { seeking = null; showWait(); return; } // it ended
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export function bindQuickPlay() {
  for (const b of document.querySelectorAll(".quick-play")) {
    b.onclick = async () => {
      if (seeking) return;
      const game = b.dataset.game;
      try {
        const made = await api("/seeks", { method: "POST", body: { game, bots_after_s: BOTS_AFTER_S } });
        seeking = { game, id: made.seek_id, since: Date.now(), stopped: false };
        follow(seeking);
      } catch (e) { showProblem(e, game); }
      showWait();
    };
  }
  const cancel = $("#quick-cancel");
  if (cancel) cancel.onclick = async () => { await stopSeek(seeking); showWait(); };
  if (seeking && !seeking.stopped) showWait(); // the lobby drew itself again while seeking
}
