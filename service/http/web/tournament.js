// Tournaments: the organiser's form (#/tournament/new), a tournament's page (#/tournament/<id>)
// and the arbiter's page (#/tournament/<id>/arbiter).
// The page: its standings with table points, scores, rulings and, in duplicate, the duplicate
// score, the result against the house bots and each board's results table by table; every round
// with its seed commitment (and the seed once the round is over) and its tables, each with its
// scores and links to watch or replay its match; for a signed-in entrant, their seat this round
// (one click); a join button while entries are open. Everything comes from GET /tournaments/<id>
// (nothing secret is in it); the page reads it again every few seconds until the tournament is
// over. The arbiter's token is answered once, at creation: it is shown then and kept in this
// browser's storage only (never in a URL), where the arbiter's page finds it.
import { t } from "./i18n.js";
import { api, esc, store, $ } from "./net.js";
import { games } from "./registry.js";
import { currentAccount } from "./account.js";

const REFRESH_MS = 3000;
const PACES = ["slow", "normal", "fast"];
const CLOCK = { move_s: [20, 2, 600], claim_s: [10, 2, 600], bank_s: [60, 0, 600] };
const HOUSE_BOTS = ["bot:greedy", "bot:strong", "bot:random"];
let page = null;

export function stopTournamentPage() { if (page) { page.closed = true; clearTimeout(page.timer); } page = null; }

const num = (x) => (x === null || x === undefined ? "–" : String(Math.round(x * 1000) / 1000));
const signed = (x) => (x > 0 ? "+" : "") + num(x);
const path = (id, rest = "") => `/tournaments/${encodeURIComponent(id)}${rest}`;
/** The arbiter's token of tournament ``id`` this browser holds (from its creation here), or null. */
const arbiterToken = (id) => store.get("arbiter." + id, null);

/** A refusal in words: the rule it broke and, for the ones a person meets here, why. */
function problemHtml(err) {
  const p = (err && err.problem) || {};
  const rule = p.rule || "";
  const known = { "TN-1.2": "tn.err.count", "DS-56": "tn.err.token", "DS-57": "tn.err.closed", "DS-34": "tn.err.signin" };
  const words = known[rule] ? t(known[rule]) : `${p.title || t("err.network")} ${p.detail || ""}`.trim();
  return `${esc(words)}${rule ? ` <span class="rule-id">${esc(rule)}</span>` : ""}${known[rule] && p.detail ? `<br><small class="muted">${esc(p.detail)}</small>` : ""}`;
}
function showError(sel, err) { const box = $(sel); if (box) { box.hidden = false; box.innerHTML = problemHtml(err); } }

// ------------------------------------------------------------------ the organiser's form
export function renderTournamentForm() {
  stopTournamentPage();
  const gameOptions = games().map((g) => `<option value="${esc(g.name)}">${esc(t("game." + g.name))}</option>`).join("");
  const clockRows = Object.entries(CLOCK).map(([k, [d, lo, hi]]) => `<label class="clock-field" for="tn-clock-${k}">${esc(t("lobby." + k))}
      <input type="number" id="tn-clock-${k}" min="${lo}" max="${hi}" step="1" value="${d}"></label>`).join("");
  $("#app").innerHTML = `<section class="card-panel tn-form" id="tn-new" aria-labelledby="tn-new-title">
    <h1 id="tn-new-title">${esc(t("tn.new"))}</h1>
    <p class="help">${esc(t("tn.newhelp"))}</p>
    <form id="tn-create">
      <label for="tn-name">${esc(t("tn.name"))}</label><input id="tn-name" maxlength="80" autocomplete="off">
      <label for="tn-game">${esc(t("lobby.game"))}</label><select id="tn-game">${gameOptions}</select>
      <fieldset><legend>${esc(t("tn.format"))}</legend>
        <label class="check"><input type="radio" name="tn-format" value="swiss" checked> ${esc(t("tn.format.swiss"))}</label>
        <label class="check"><input type="radio" name="tn-format" value="duplicate"> ${esc(t("tn.format.duplicate"))}</label>
        <p class="help">${esc(t("tn.formathelp"))} <span class="rule-id">TN-3.6</span></p></fieldset>
      <div class="tn-numbers">
        <label for="tn-rounds">${esc(t("tn.rounds"))} <input type="number" id="tn-rounds" min="1" max="32" value="3"></label>
        <label for="tn-deals">${esc(t("tn.deals"))} <input type="number" id="tn-deals" min="1" max="64" value="1"></label>
      </div>
      <fieldset class="pace"><legend>${esc(t("lobby.pace"))}</legend>
        ${PACES.map((p) => `<label class="pace-choice"><input type="radio" name="tn-pace" value="${p}"${p === "normal" ? " checked" : ""}> ${esc(t("pace." + p))}</label>`).join("")}</fieldset>
      <fieldset class="clock"><legend>${esc(t("lobby.clock"))}</legend>${clockRows}
        <p class="help">${esc(t("tn.clockhelp"))} <span class="rule-id">TB-2.1</span></p></fieldset>
      <fieldset><legend>${esc(t("tn.entrants"))}</legend>
        <label class="check"><input type="checkbox" id="tn-open"> ${esc(t("tn.open"))}</label>
        <label for="tn-players" class="tn-block">${esc(t("tn.players"))}</label>
        <textarea id="tn-players" rows="5" spellcheck="false" placeholder="ada&#10;bot:greedy&#10;bot:strong"></textarea>
        <p class="help">${esc(t("tn.playershelp", { bots: HOUSE_BOTS.join(", ") }))}</p>
        <label class="check"><input type="checkbox" id="tn-fill"> ${esc(t("tn.fill"))}</label>
        <p class="help">${esc(t("tn.fillhelp"))} <span class="rule-id">TN-1.2</span></p></fieldset>
      <p id="tn-error" class="tn-error" role="alert" hidden></p>
      <div class="actions"><button class="primary" id="tn-submit">${esc(t("tn.create"))}</button></div>
    </form></section>`;
  $("#tn-open").onchange = (e) => { $("#tn-players").disabled = e.target.checked; };
  $("#tn-create").onsubmit = async (e) => {
    e.preventDefault();
    const players = $("#tn-open").checked ? [] : $("#tn-players").value.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);
    const body = {
      game: $("#tn-game").value, name: $("#tn-name").value.trim(),
      format: document.querySelector('input[name="tn-format"]:checked').value,
      rounds: Number($("#tn-rounds").value), deals_per_round: Number($("#tn-deals").value),
      pace: document.querySelector('input[name="tn-pace"]:checked').value,
      clock: Object.fromEntries(Object.keys(CLOCK).map((k) => [k, Number($("#tn-clock-" + k).value)])),
      players, fill_with_bots: $("#tn-fill").checked,
    };
    $("#tn-submit").disabled = true;
    $("#tn-error").hidden = true; // the last refusal goes with the next try
    try {
      const made = await api("/tournaments", { method: "POST", body });
      store.set("arbiter." + made.tournament_id, made.arbiter_token);
      createdHtml(made);
    } catch (err) {
      showError("#tn-error", err);
      $("#tn-submit").disabled = false;
    }
  };
}

/** The one time the arbiter's token is shown: to the organiser, who may keep a copy elsewhere. */
function createdHtml(made) {
  $("#app").innerHTML = `<section class="card-panel" id="tn-created">
    <h1>${esc(t("tn.created"))}</h1>
    <p>${esc(t("tn.tokenonce"))}</p>
    <p class="tn-token"><code id="tn-token" dir="ltr">${esc(made.arbiter_token)}</code></p>
    <p class="help">${esc(t("tn.tokenkept"))} <span class="rule-id">TN-4.1</span></p>
    <div class="actions"><a class="button primary" id="tn-open-page" href="#/tournament/${esc(made.tournament_id)}">${esc(t("tn.gopage"))}</a></div>
  </section>`;
}

// ------------------------------------------------------------------ a tournament's page
function standings(view) {
  const dup = view.format === "duplicate";
  const head = `<tr><th scope="col">#</th><th scope="col">${esc(t("tn.player"))}</th><th scope="col">${esc(t("tn.points"))}</th>
    <th scope="col">${esc(t("tn.score"))}</th>${dup ? `<th scope="col">${esc(t("tn.dup"))}</th><th scope="col">${esc(t("tn.house"))}</th>` : ""}
    <th scope="col">${esc(t("tn.rulings"))}</th></tr>`;
  const rows = view.standings.map((r) => `<tr data-player="${esc(r.player)}"><td>${r.rank}</td><th scope="row"><bdi>${esc(r.player)}</bdi>${r.withdrawn ? ` <small class="muted">${esc(t("tn.withdrawn"))}</small>` : ""}</th>
    <td>${num(r.table_points)}</td><td>${r.score}</td>${dup ? `<td>${num(r.duplicate_score)}</td><td>${num(r.vs_house)}</td>` : ""}
    <td>${r.rulings ? signed(r.rulings) : ""}</td></tr>`).join("");
  // on a phone the table scrolls sideways inside its box, its cells kept on one line
  return `<div class="table-scroll"><table class="rate-table" id="tn-standings" style="white-space: nowrap"><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

function table(tb, dup) {
  const last = tb.deals.length ? tb.deals[tb.deals.length - 1] : null;
  const link = tb.match_id ? ` <a href="#/match/${esc(tb.match_id)}">${esc(t("tn.match"))}</a>` : "";
  // a Swiss table is open to spectators (a duplicate round's are not: TN-3.6); a finished one is
  // replayed from its match
  const watch = last && !tb.over && !dup ? ` <a href="#/watch/${esc(last)}">${esc(t("tn.watch"))}</a>` : "";
  const who = tb.players.map((p, i) => `<bdi>${esc(p)}</bdi>${tb.scores ? ` <b class="tn-score">${signed(tb.scores[i])}</b>` : ""}`).join(", ");
  return `<li data-table="${esc(tb.table)}">${esc(t("tn.table", { n: tb.table }))}: ${who}
    <small class="muted">${esc(tb.over ? t("tn.over") : t("tn.live"))}</small>${watch}${link}</li>`;
}

/** Duplicate: each board of a round, seat by seat, every table's result beside the house's. */
function boards(r, house) {
  const tables = r.tables.filter((tb) => tb.payments);
  if (!tables.length) return "";
  const count = Math.max(...tables.map((tb) => tb.payments.length));
  const seats = tables[0].players.length;
  const hp = house && house.payments;
  let out = "";
  for (let j = 0; j < count; j++) {
    const head = `<tr><th scope="col">${esc(t("tn.seat"))}</th>${tables.map((tb) => `<th scope="col">${esc(t("tn.table", { n: tb.table }))}</th>`).join("")}${hp ? `<th scope="col">${esc(t("tn.housetable"))}</th>` : ""}</tr>`;
    const rows = [];
    for (let s = 0; s < seats; s++) {
      const ref = hp && hp[j] ? hp[j][s] : null;
      const cells = tables.map((tb) => {
        const pay = tb.payments[j] ? tb.payments[j][s] : null;
        const vs = ref === null || pay === null ? "" : ` <small class="muted">(${signed(pay - ref)})</small>`;
        return `<td><bdi>${esc(tb.players[s])}</bdi> <b>${pay === null ? "–" : signed(pay)}</b>${vs}</td>`;
      }).join("");
      rows.push(`<tr><th scope="row">${s + 1}</th>${cells}${hp ? `<td>${ref === null ? "–" : signed(ref)}</td>` : ""}</tr>`);
    }
    out += `<h4>${esc(t("tn.board", { n: j + 1 }))}</h4><div class="table-scroll"><table class="rate-table tn-board" data-board="${j + 1}" style="white-space: nowrap"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>`;
  }
  return `<details class="tn-boards"><summary>${esc(t("tn.boards"))}</summary><p class="help">${esc(t("tn.boardshelp"))} <span class="rule-id">TN-3.5</span></p>${out}</details>`;
}

function rounds(view) {
  return view.rounds.filter((r) => r.tables.length).map((r) => {
    const house = (view.benchmark || []).filter((b) => b.round === r.round);
    const dup = view.format === "duplicate";
    return `<section class="tn-round" data-round="${r.round}"><h3>${esc(t("tn.round", { n: r.round }))}</h3>
      <p class="muted"><small>${esc(t("tn.commitment"))}: <code>${esc(r.seed_commitment.slice(0, 16))}…</code>${r.seed ? ` · ${esc(t("tn.seed"))}: <code>${esc(r.seed.slice(0, 16))}…</code>` : ""}</small></p>
      <ul>${r.tables.map((tb) => table(tb, dup)).join("")}${house.map((b) => table({ ...b, table: t("tn.housetable") }, dup)).join("")}</ul>
      ${view.format === "duplicate" ? boards(r, house[0]) : ""}</section>`;
  }).join("");
}

function rulings(view) {
  if (!view.rulings.length) return "";
  return `<h2>${esc(t("tn.rulings"))}</h2><ul id="tn-rulings">${view.rulings.map((r) =>
    `<li><bdi>${esc(r.player)}</bdi>: ${signed(r.points)} (<span class="rule-id">${esc(r.rule)}</span>) <bdi>${esc(r.reason)}</bdi></li>`).join("")}</ul>`;
}

async function mySeat(id) {
  try { return await api(path(id, "/my-table")); } catch { return null; }
}

/** Where the signed-in entrant sits now, with the one click that takes the seat. */
function seatHtml(view, seat, me) {
  if (!me || !view.entrants.some((e) => e.player === me.name)) return "";
  if (seat && seat.deal_id && !seat.over) {
    return `<p id="tn-seat" class="tn-seat">${esc(t("tn.yourtable", { n: seat.table, round: seat.round }))} <a class="button primary" id="tn-go" href="#/play/${esc(seat.deal_id)}">${esc(t("tn.go"))}</a></p>`;
  }
  if (view.over) return "";
  return `<p id="tn-seat" class="tn-seat muted">${esc(view.started ? t("tn.waitround") : t("tn.waitstart"))}</p>`;
}

/** While entries are open: who entered, a join button for a signed-in account, and the start for
 * the organiser (this browser holds the arbiter's token). */
function entriesHtml(view, me, token) {
  if (!view.open_entries) return "";
  const names = view.entrants.map((e) => `<li><bdi>${esc(e.player)}</bdi></li>`).join("") || `<li class="muted">${esc(t("tn.noentrants"))}</li>`;
  const entered = me && view.entrants.some((e) => e.player === me.name);
  const join = !me ? `<p class="muted">${esc(t("tn.signin"))} <a href="#/">${esc(t("nav.lobby"))}</a></p>`
    : entered ? `<p class="muted" id="tn-entered">${esc(t("tn.entered"))}</p>`
      : `<button class="primary" id="tn-join">${esc(t("tn.join"))}</button>`;
  const start = token ? ` <button class="secondary" id="tn-start">${esc(t("tn.start"))}</button>` : "";
  return `<section class="tn-entries" aria-labelledby="tn-entries-title"><h2 id="tn-entries-title">${esc(t("tn.entrants"))} (${view.entrants.length})</h2>
    <ul id="tn-entrant-list">${names}</ul><div class="actions">${join}${start}</div><p id="tn-error" class="tn-error" role="alert" hidden></p></section>`;
}

async function draw(id, again) {
  const view = await api(path(id));
  const me = await currentAccount();
  const seat = me ? await mySeat(id) : null;
  const token = arbiterToken(id);
  // a redraw keeps the boards a reader opened
  const opened = [...document.querySelectorAll(".tn-round .tn-boards[open]")].map((d) => d.closest(".tn-round").dataset.round);
  const arbiter = token ? ` · <a id="tn-arbiter-link" href="#/tournament/${esc(id)}/arbiter">${esc(t("tn.arbiter"))}</a>` : "";
  $("#app").innerHTML = `<section class="card-panel" id="tournament" data-over="${view.over}" data-started="${view.started}">
    <h1>${esc(view.name || t("tn.title"))}</h1>
    <p class="muted">${esc(t("game." + view.game))} · ${esc(t("tn.format." + view.format))} · ${esc(view.over ? t("tn.ended") : view.started ? t("tn.running") : t("tn.entries"))}${arbiter}</p>
    ${seatHtml(view, seat, me)}${entriesHtml(view, me, token)}<h2>${esc(t("tn.standings"))}</h2>${standings(view)}${rulings(view)}${rounds(view)}</section>`;
  for (const r of opened) { const d = $(`.tn-round[data-round="${r}"] .tn-boards`); if (d) d.open = true; }
  const act = (sel, run) => {
    const b = $(sel);
    if (b) b.onclick = async () => { b.disabled = true; try { await run(); again(); } catch (err) { showError("#tn-error", err); b.disabled = false; } };
  };
  act("#tn-join", () => api(path(id, "/entries"), { method: "POST", body: {} }));
  act("#tn-start", () => api(path(id, "/start"), { method: "POST", token }));
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
    clearTimeout(mine.timer);
    let view = null;
    try { view = await draw(id, again); } catch {
      if (!mine.closed) $("#app").innerHTML = `<section class="card-panel"><h1>${esc(t("tn.title"))}</h1><p>${esc(t("tn.none"))}</p></section>`;
      return;
    }
    if (!mine.closed && !view.over) mine.timer = setTimeout(again, REFRESH_MS);
  };
  await again();
}

// ------------------------------------------------------------------ the arbiter's page
const ms = (x) => `${(x / 1000).toFixed(1)} s`;

/** One claim window of a finished deal: who could claim, who answered what and when, by which
 * deadline, and the rule that resolved it. */
function windowHtml(w, players) {
  const seatName = (s) => (s === null || s === undefined ? "–" : players[s] !== undefined ? players[s] : String(s));
  const timing = w.timing || null;
  const after = (seat) => { const a = timing && timing.answers.find((x) => x.seat === seat); return a ? ms(a.after_ms) : "–"; };
  const deadline = (seat) => { const d = timing && timing.deadlines.find((x) => x.seat === seat); return d ? ms(d.deadline_ms - timing.opened_ms) : "–"; };
  // every seat that answered, and every seat the clock waited on that did not
  const silent = timing ? timing.deadlines.filter((d) => !(w.answers || []).some((a) => a.seat === d.seat)).map((d) => ({ seat: d.seat, answer: "–" })) : [];
  const answers = [...(w.answers || []), ...silent].map((a) => `<tr><td><bdi>${esc(seatName(a.seat))}</bdi></td><td>${esc(a.answer)}</td><td>${after(a.seat)}</td><td>${deadline(a.seat)}</td></tr>`).join("");
  const res = w.resolution;
  const winner = res && res.seat !== null && res.seat !== undefined ? `<bdi>${esc(seatName(res.seat))}</bdi> ${esc(res.claim || "")}` : esc(t("tn.noclaim"));
  const resolved = res ? `${esc(t("tn.resolved"))}: ${winner} <span class="rule-id">${esc(res.rule_id || "")}</span>` : esc(t("tn.unresolved"));
  return `<div class="tn-window" data-window="${esc(w.window)}"><p><strong>${esc(t("tn.window", { n: w.window }))}</strong> · ${esc(t("tn.from", { seat: seatName(w.source_seat) }))} · ${resolved}${w.consistent === false ? ` <strong class="tn-error">${esc(t("tn.inconsistent"))}</strong>` : ""}</p>
    ${answers ? `<div class="table-scroll"><table class="rate-table" style="white-space: nowrap"><thead><tr><th scope="col">${esc(t("tn.player"))}</th><th scope="col">${esc(t("tn.answer"))}</th><th scope="col">${esc(t("tn.after"))}</th><th scope="col">${esc(t("tn.deadline"))}</th></tr></thead><tbody>${answers}</tbody></table></div>` : ""}</div>`;
}

function dealHtml(d) {
  const windows = d.claim_windows || [];
  return `<li class="tn-deal" data-deal="${esc(d.deal_id)}"><details><summary>${esc(t("tn.round", { n: d.round }))} · ${esc(t("tn.table", { n: d.table }))} · ${esc(t("tn.hand", { n: d.index + 1 }))}
      · ${esc(t("tn.windows", { n: windows.length }))} · ${esc(d.audit_ok ? t("tn.auditok") : t("tn.auditbad"))}</summary>
    <p><a href="#/replay/${esc(d.deal_id)}">${esc(t("tn.replay"))}</a> · <code>${esc(d.deal_id)}</code> · ${d.players.map((p) => `<bdi>${esc(p)}</bdi>`).join(", ")}</p>
    ${windows.map((w) => windowHtml(w, d.players)).join("") || `<p class="muted">${esc(t("tn.nowindows"))}</p>`}</details></li>`;
}

function tokenForm(id) {
  $("#app").innerHTML = `<section class="card-panel" id="tn-arbiter"><h1>${esc(t("tn.arbiter"))}</h1>
    <form id="tn-token-form" class="seed-row"><label for="tn-token-in">${esc(t("tn.token"))}</label>
      <input id="tn-token-in" type="password" autocomplete="off" spellcheck="false"><button class="primary">${esc(t("tn.usetoken"))}</button></form>
    <p class="help">${esc(t("tn.tokenkept"))}</p></section>`;
  $("#tn-token-form").onsubmit = (e) => {
    e.preventDefault();
    const token = $("#tn-token-in").value.trim();
    if (token) { store.set("arbiter." + id, token); renderArbiter(id); }
  };
}

/** The arbiter's page of tournament ``id``: finished deals with their claim windows, rulings, withdrawals. */
export async function renderArbiter(id) {
  stopTournamentPage();
  const token = arbiterToken(id);
  if (!token) return tokenForm(id);
  $("#app").innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  let view, read;
  try {
    [view, read] = await Promise.all([api(path(id)), api(path(id, "/arbiter"), { token })]);
  } catch (err) {
    $("#app").innerHTML = `<section class="card-panel" id="tn-arbiter"><h1>${esc(t("tn.arbiter"))}</h1><p class="tn-error" role="alert">${problemHtml(err)}</p>
      <div class="actions"><button class="secondary" id="tn-forget">${esc(t("tn.forget"))}</button></div></section>`;
    $("#tn-forget").onclick = () => { store.set("arbiter." + id, null); tokenForm(id); };
    return;
  }
  const ranked = view.standings.map((r) => r.player);
  const playerOptions = ranked.map((p) => `<option value="${esc(p)}">${esc(p)}</option>`).join("");
  const dealOptions = read.deals.map((d) => `<option value="${esc(d.deal_id)}">${esc(t("tn.round", { n: d.round }))} · ${esc(t("tn.table", { n: d.table }))} · ${esc(t("tn.hand", { n: d.index + 1 }))}</option>`).join("");
  const active = view.entrants.filter((e) => !e.filler && !e.withdrawn).map((e) => `<option value="${esc(e.player)}">${esc(e.player)}</option>`).join("");
  $("#app").innerHTML = `<section class="card-panel" id="tn-arbiter" aria-labelledby="tn-arbiter-title">
    <h1 id="tn-arbiter-title">${esc(t("tn.arbiter"))}: ${esc(view.name || t("tn.title"))}</h1>
    <p><a href="#/tournament/${esc(id)}" id="tn-back">${esc(t("tn.back"))}</a> · <button class="secondary" id="tn-reload">${esc(t("tn.reload"))}</button></p>
    <p class="help">${esc(t("tn.arbiterhelp"))} <span class="rule-id">TN-4.1</span></p>
    ${view.open_entries ? `<div class="actions"><button class="primary" id="tn-start">${esc(t("tn.start"))}</button></div>` : ""}
    <h2>${esc(t("tn.ruling"))}</h2>
    <form id="tn-ruling" class="tn-form">
      <label for="tn-r-player">${esc(t("tn.player"))}</label><select id="tn-r-player">${playerOptions}</select>
      <label for="tn-r-points">${esc(t("tn.rpoints"))}</label><input type="number" id="tn-r-points" step="1" value="0" required>
      <label for="tn-r-reason">${esc(t("tn.reason"))}</label><input id="tn-r-reason" maxlength="500" required>
      <label for="tn-r-rule">${esc(t("tn.rule"))}</label><input id="tn-r-rule" maxlength="500" value="TB-4.1" required spellcheck="false">
      <label for="tn-r-deal">${esc(t("tn.deal"))}</label><select id="tn-r-deal"><option value="">${esc(t("tn.nodeal"))}</option>${dealOptions}</select>
      <div class="actions"><button class="primary" id="tn-r-submit">${esc(t("tn.record"))}</button></div>
    </form>
    <p id="tn-error" class="tn-error" role="alert" hidden></p><p id="tn-done" class="muted" role="status"></p>
    ${active && !view.over ? `<h2>${esc(t("tn.withdraw"))}</h2><form id="tn-withdraw" class="seed-row"><label for="tn-w-player">${esc(t("tn.player"))}</label>
      <select id="tn-w-player">${active}</select><button class="secondary">${esc(t("tn.withdrawbtn"))}</button></form>
      <p class="help">${esc(t("tn.withdrawhelp"))} <span class="rule-id">TN-1.4</span></p>` : ""}
    <h2>${esc(t("tn.finished"))}</h2>
    <ul id="tn-deals" class="tn-deals">${read.deals.map(dealHtml).join("") || `<li class="muted">${esc(t("tn.nodeals"))}</li>`}</ul>
  </section>`;
  $("#tn-reload").onclick = () => renderArbiter(id);
  if ($("#tn-start")) $("#tn-start").onclick = async () => { try { await api(path(id, "/start"), { method: "POST", token }); renderArbiter(id); } catch (err) { showError("#tn-error", err); } };
  $("#tn-ruling").onsubmit = async (e) => {
    e.preventDefault();
    const body = { player: $("#tn-r-player").value, points: Math.trunc(Number($("#tn-r-points").value)), reason: $("#tn-r-reason").value.trim(), rule: $("#tn-r-rule").value.trim(), deal_id: $("#tn-r-deal").value };
    try {
      await api(path(id, "/rulings"), { method: "POST", token, body });
      $("#tn-error").hidden = true;
      $("#tn-done").textContent = t("tn.recorded", { player: body.player, points: signed(body.points) });
      $("#tn-r-reason").value = "";
    } catch (err) { showError("#tn-error", err); }
  };
  if ($("#tn-withdraw")) $("#tn-withdraw").onsubmit = async (e) => {
    e.preventDefault();
    try { await api(path(id, "/withdrawals"), { method: "POST", token, body: { player: $("#tn-w-player").value } }); renderArbiter(id); } catch (err) { showError("#tn-error", err); }
  };
}
