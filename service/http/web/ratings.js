// The ratings pages: a leaderboard per game (#/ratings/<game>) and a rated player's profile
// (#/player/<name>) with its rating drawn as a line over its rated results. The numbers come from
// GET /ratings/<game> and GET /accounts/<name>; the rating shown is mu - 3 sigma, marked
// "provisional" while sigma is above 3.
import { t } from "./i18n.js";
import { api, esc, $ } from "./net.js";
import { games } from "./registry.js";

const shown = (x) => (Math.round(x * 10) / 10).toFixed(1);
const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;
const playerName = (name) => (name.startsWith("bot:") ? t("rate.bot", { level: name.slice(4) }) : name);

function gameTabs(current) {
  return `<nav class="rate-tabs" aria-label="${esc(t("rate.games"))}">${games().map((g) =>
    `<a href="#/ratings/${esc(g.name)}"${g.name === current ? ' aria-current="page"' : ""}>${esc(t("game." + g.name))}</a>`).join(" ")}</nav>`;
}

/** The leaderboard of ``game``. */
export async function renderRatings(game) {
  $("#app").innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  let board;
  try { board = await api(`/ratings/${encodeURIComponent(game)}`); } catch {
    $("#app").innerHTML = `<section class="card-panel"><h1>${esc(t("rate.title"))}</h1>${gameTabs(game)}<p>${esc(t("rate.none"))}</p></section>`;
    return;
  }
  const rows = board.players.map((p, i) => `<tr><td>${i + 1}</td>
    <th scope="row"><a href="${playerHref(p.name)}"><bdi>${esc(playerName(p.name))}</bdi></a></th>
    <td>${shown(p.rating)}${p.provisional ? ` <small class="muted">${esc(t("rate.provisional"))}</small>` : ""}</td>
    <td>${p.games}</td></tr>`).join("");
  $("#app").innerHTML = `<section class="card-panel" id="leaderboard"><h1>${esc(t("rate.title"))}</h1>${gameTabs(game)}
    <p class="help">${esc(t("rate.help"))}</p>
    ${board.players.length ? `<table class="rate-table"><thead><tr><th scope="col">#</th><th scope="col">${esc(t("rate.player"))}</th>
      <th scope="col">${esc(t("rate.rating"))}</th><th scope="col">${esc(t("rate.games.played"))}</th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p>${esc(t("rate.none"))}</p>`}</section>`;
}

/** An SVG line of the rating after each result (drawn, with a text summary for screen readers). */
export function ratingChart(history) {
  const w = 320, h = 120, pad = 8;
  const ys = history.map((p) => p.rating);
  const lo = Math.min(...ys, 0), hi = Math.max(...ys, 1);
  const x = (i) => pad + (history.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (history.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo || 1);
  const points = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const label = t("rate.chart", { n: history.length, last: shown(ys[ys.length - 1] ?? 0) });
  return `<svg class="rate-chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(label)}">
    <line x1="${pad}" y1="${y(0).toFixed(1)}" x2="${w - pad}" y2="${y(0).toFixed(1)}" stroke="currentColor" stroke-opacity="0.25"/>
    <polyline points="${points}" fill="none" stroke="currentColor" stroke-width="2"/>
    ${history.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="2.5" fill="currentColor"><title>${esc(shown(p.rating))}</title></circle>`).join("")}</svg>`;
}

/** A rated player's profile: per game its rating and the chart of its history. */
export async function renderPlayer(name) {
  $("#app").innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  let profile;
  try { profile = await api(`/accounts/${encodeURIComponent(name)}`); } catch {
    $("#app").innerHTML = `<section class="card-panel"><h1><bdi>${esc(playerName(name))}</bdi></h1><p>${esc(t("rate.unrated"))}</p></section>`;
    return;
  }
  const parts = Object.entries(profile.ratings).map(([game, r]) => `<section aria-labelledby="rate-${esc(game)}">
    <h2 id="rate-${esc(game)}"><a href="#/ratings/${esc(game)}">${esc(t("game." + game))}</a></h2>
    <p>${esc(t("rate.rating"))}: <strong>${shown(r.rating)}</strong>${r.provisional ? ` <small class="muted">${esc(t("rate.provisional"))}</small>` : ""}
      · ${esc(t("rate.games.played"))}: ${r.games}</p>
    ${ratingChart(profile.history[game] || [])}</section>`).join("");
  $("#app").innerHTML = `<section class="card-panel" id="profile"><h1><bdi>${esc(playerName(profile.name))}</bdi></h1>${parts}</section>`;
}

/** The signed-in account's rating change from deal ``deal`` (HTML), or "" when the deal was not
 * rated for it. The result may reach the ratings a moment after the deal's end: asked a few times. */
export async function ratingChangeHtml(deal, accountName) {
  if (!accountName) return "";
  for (let tries = 0; tries < 6; tries++) {
    let profile = null;
    try { profile = await api(`/accounts/${encodeURIComponent(accountName)}`); } catch { profile = null; }
    for (const history of Object.values(profile?.history || {})) {
      const at = history.findIndex((p) => p.deal_id === deal);
      if (at < 0) continue;
      const before = at > 0 ? history[at - 1].rating : 0; // a new player's shown rating: 25 - 3 * 25/3
      const change = history[at].rating - before;
      const sign = change >= 0 ? "+" : "−";
      return `<p id="rating-change">${esc(t("rate.change", { rating: shown(history[at].rating), change: sign + shown(Math.abs(change)) }))}
        <a href="${playerHref(accountName)}">${esc(t("rate.mine"))}</a></p>`;
    }
    await new Promise((done) => setTimeout(done, 400));
  }
  return "";
}
