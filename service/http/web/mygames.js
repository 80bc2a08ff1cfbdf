// "My games" in the lobby: the deals and matches this browser's player key took a seat
// in (GET /players/me/deals with X-Player-Key), newest first, with their result, status and links
// to the table, the replay, the review and the match page. Only this browser's own list: the key
// stays in a header, never in a URL.
import { t, getLang } from "./i18n.js";
import { api, esc, $ } from "./net.js";
import { keyHeaders, withPlayerKey } from "./player_key.js";
import { currentAccount } from "./account.js";

const signed = (x) => (x > 0 ? "+" : "") + x;
const unitText = (u) => t("unit." + (u || "points"));

function when(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(getLang(), { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function resultText(row) {
  const r = row.result;
  if (!r) return "";
  const word = r.winner === null || r.winner === undefined ? "mine.draw" : r.winner === row.seat ? "mine.win" : "mine.loss";
  return `<span class="mine-result ${word.slice(5)}" data-result="${word.slice(5)}">${esc(t(word))}</span> <span class="num" dir="ltr" data-score="${r.score}">${esc(signed(r.score))} ${esc(unitText(r.unit))}</span>`;
}

// the web pages of a deal: the table while it is played (this browser holds the seat's token),
// the replay and the review of the seat once it is over
function dealLinks(id, seat, status) {
  const out = [];
  if (status === "playing") out.push(`<a href="#/play/${esc(id)}/${Number(seat)}" data-link="table">${esc(t("mine.table"))}</a>`);
  else {
    out.push(`<a href="#/replay/${esc(id)}" data-link="replay">${esc(t("mine.replay"))}</a>`);
    if (status === "over") out.push(`<a href="#/replay/${esc(id)}/review/${Number(seat)}" data-link="review">${esc(t("mine.review"))}</a>`);
  }
  return out.join(" · ");
}

function dealRow(d) {
  return `<li class="mine-deal" data-deal="${esc(d.deal_id)}" data-status="${esc(d.status)}">
    <strong>${esc(t("game." + d.game))}</strong> <span class="muted">${esc(when(d.created_at))}</span>
    <span class="mine-status">${esc(t("mine.status." + d.status))}</span> ${resultText(d)}
    <span class="mine-links">${dealLinks(d.deal_id, d.seat, d.status)}</span></li>`;
}

function matchRow(mt) {
  const deals = (mt.deal_ids || []).map((id, k) => {
    const last = k === mt.deal_ids.length - 1;
    const status = last && mt.status === "playing" ? "playing" : "over";
    return `<li data-deal="${esc(id)}" data-index="${k}"><span>${esc(t("mine.hand", { k: k + 1 }))}</span> <bdi class="deal-id">${esc(id)}</bdi> <span class="mine-links">${dealLinks(id, mt.seat, status)}</span></li>`;
  }).join("");
  return `<li class="mine-match" data-match="${esc(mt.match_id)}" data-status="${esc(mt.status)}">
    <strong>${esc(t("mine.match", { game: t("game." + mt.game) }))}</strong> <span class="muted">${esc(when(mt.created_at))}</span>
    <span class="mine-status">${esc(t("mine.status." + mt.status))}</span>
    <span>${esc(t("mine.running"))} <span class="num" dir="ltr" data-score="${mt.score}">${esc(signed(mt.score))} ${esc(unitText(mt.unit))}</span></span>
    <a href="#/match/${esc(mt.match_id)}" data-link="match">${esc(t("mine.matchpage"))}</a>
    <ol class="mine-match-deals">${deals}</ol></li>`;
}

/** The lobby's "My games" section (filled by loadMyGames). */
export function myGamesHtml() {
  return `<section class="card-panel mine" aria-labelledby="mine-title" id="mine">
    <h2 id="mine-title">${esc(t("mine.title"))}</h2>
    <p class="help">${esc(t("mine.help"))}</p>
    <div id="mine-list" aria-busy="true"><p class="muted">…</p></div></section>`;
}

export async function loadMyGames() {
  let answer;
  try {
    const signedIn = await currentAccount(); // signed in: the account's list, by its cookie
    const help = $("#mine .help");
    if (signedIn && help) help.textContent = t("acct.minehelp");
    answer = signedIn ? await api("/players/me/deals?limit=50")
      : await withPlayerKey((key) => api("/players/me/deals?limit=50", { headers: keyHeaders(key) }));
  } catch { answer = null; }
  const box = $("#mine-list");
  if (!box) return;
  box.removeAttribute("aria-busy");
  if (!answer) { box.innerHTML = `<p class="muted">${esc(t("mine.unavailable"))}</p>`; return; }
  const matches = answer.matches || [];
  const deals = (answer.deals || []).filter((d) => !d.match_id); // a match's deals are listed under it
  if (!matches.length && !deals.length) { box.innerHTML = `<p class="muted" id="mine-empty">${esc(t("mine.empty"))}</p>`; return; }
  box.innerHTML = (matches.length ? `<h3>${esc(t("mine.matches"))}</h3><ul class="deal-list mine-matches" id="mine-matches">${matches.map(matchRow).join("")}</ul>` : "")
    + (deals.length ? `<h3>${esc(t("mine.deals"))}</h3><ul class="deal-list mine-deals" id="mine-deals">${deals.map(dealRow).join("")}</ul>` : "");
}
