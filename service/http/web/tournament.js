// A tournament's page (#/tournament/<id>): its standings with table points, scores, rulings and,
// in duplicate, the duplicate score and the result against the house bots; every round with its
// seed commitment (and the seed once the round is over) and its tables, each with a link to
// watch or replay its match; and, for a signed-in entrant, a link to their seat this round.
// Everything comes from GET /tournaments/<id> (nothing secret is in it); the page reads it again
// every few seconds until the tournament is over.
import { t } from "./i18n.js";
import { api, esc, $ } from "./net.js";

const REFRESH_MS = 3000;
let page = null;

export function stopTournamentPage() { if (page) { page.closed = true; clearTimeout(page.timer); } page = null; }

const num = (x) => (x === null || x === undefined ? "–" : String(Math.round(x * 1000) / 1000));

function standings(view) {
  const dup = view.format === "duplicate";
  const head = `<tr><th scope="col">#</th><th scope="col">${esc(t("tn.player"))}</th><th scope="col">${esc(t("tn.points"))}</th>
    <th scope="col">${esc(t("tn.score"))}</th>${dup ? `<th scope="col">${esc(t("tn.dup"))}</th><th scope="col">${esc(t("tn.house"))}</th>` : ""}
    <th scope="col">${esc(t("tn.rulings"))}</th></tr>`;
  const rows = view.standings.map((r) => `<tr data-player="${esc(r.player)}"><td>${r.rank}</td><th scope="row"><bdi>${esc(r.player)}</bdi></th>
    <td>${num(r.table_points)}</td><td>${r.score}</td>${dup ? `<td>${num(r.duplicate_score)}</td><td>${num(r.vs_house)}</td>` : ""}
    <td>${r.rulings ? (r.rulings > 0 ? "+" : "") + r.rulings : ""}</td></tr>`).join("");
  // on a phone the table scrolls sideways inside its box, its cells kept on one line
  return `<div class="table-scroll"><table class="rate-table" id="tn-standings" style="white-space: nowrap"><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

function table(tb) {
  const last = tb.deals.length ? tb.deals[tb.deals.length - 1] : null;
  const link = tb.match_id ? ` <a href="#/match/${esc(tb.match_id)}">${esc(t("tn.match"))}</a>` : "";
  const watch = last && !tb.over ? ` <a href="#/watch/${esc(last)}">${esc(t("tn.watch"))}</a>` : "";
  return `<li data-table="${tb.table}">${esc(t("tn.table", { n: tb.table }))}: ${tb.players.map((p) => `<bdi>${esc(p)}</bdi>`).join(", ")}
    <small class="muted">${esc(tb.over ? t("tn.over") : t("tn.live"))}</small>${watch}${link}</li>`;
}

function rounds(view) {
  return view.rounds.filter((r) => r.tables.length).map((r) => {
    const house = (view.benchmark || []).filter((b) => b.round === r.round);
    return `<section class="tn-round" data-round="${r.round}"><h3>${esc(t("tn.round", { n: r.round }))}</h3>
      <p class="muted"><small>${esc(t("tn.commitment"))}: <code>${esc(r.seed_commitment.slice(0, 16))}…</code>${r.seed ? ` · ${esc(t("tn.seed"))}: <code>${esc(r.seed.slice(0, 16))}…</code>` : ""}</small></p>
      <ul>${r.tables.map(table).join("")}${house.map((b) => table({ ...b, table: t("tn.housetable") })).join("")}</ul></section>`;
  }).join("");
}

function rulings(view) {
  if (!view.rulings.length) return "";
  return `<h2>${esc(t("tn.rulings"))}</h2><ul id="tn-rulings">${view.rulings.map((r) =>
    `<li><bdi>${esc(r.player)}</bdi>: ${r.points > 0 ? "+" : ""}${r.points} (${esc(r.rule)}) <bdi>${esc(r.reason)}</bdi></li>`).join("")}</ul>`;
}

async function mySeat(id) {
  try { return await api(`/tournaments/${encodeURIComponent(id)}/my-table`); } catch { return null; }
}

async function draw(id) {
  const view = await api(`/tournaments/${encodeURIComponent(id)}`);
  const seat = await mySeat(id);
  const go = seat && seat.deal_id && !seat.over
    ? `<p id="tn-seat">${esc(t("tn.yourtable", { n: seat.table, round: seat.round }))} <a class="button" href="#/play/${esc(seat.deal_id)}">${esc(t("tn.go"))}</a></p>` : "";
  $("#app").innerHTML = `<section class="card-panel" id="tournament" data-over="${view.over}">
    <h1>${esc(view.name || t("tn.title"))}</h1>
    <p class="muted">${esc(t("game." + view.game))} · ${esc(t("tn.format." + view.format))} · ${esc(view.over ? t("tn.ended") : t("tn.running"))}</p>
    ${go}<h2>${esc(t("tn.standings"))}</h2>${standings(view)}${rulings(view)}${rounds(view)}</section>`;
  return view;
}

/** The page of tournament ``id``, read again until it is over. */
export async function renderTournament(id) {
  stopTournamentPage();
  const mine = { closed: false, timer: 0 };
  page = mine;
  $("#app").innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  const again = async () => {
    if (mine.closed) return;
    let view = null;
    try { view = await draw(id); } catch {
      if (!mine.closed) $("#app").innerHTML = `<section class="card-panel"><h1>${esc(t("tn.title"))}</h1><p>${esc(t("tn.none"))}</p></section>`;
      return;
    }
    if (!mine.closed && !view.over) mine.timer = setTimeout(again, REFRESH_MS);
  };
  await again();
}
