// People at one table (TB-1 to TB-3): the join page (#/join/<deal>/<code>, and
// #/join/<deal>/seat/<n> at a lobby table), the waiting room before the deal, the lobby's open
// tables, the clocks on the seats, and the away banner with "I'm back". Names are shown as text
// only (TB-1.3): every one passes esc() on its way into the page.
import { t } from "./i18n.js";
import { api, store, esc, $, randomSeed, tokensOf, serverNow } from "./net.js";
import { namer } from "./words.js";
import { toast, showProblem } from "./ui.js";
import { postWithKey } from "./player_key.js";

export const NAME_MAX = 24;

// TB-1.3 as the server checks it: 1-24 printable characters, none a control, format (bidi) or
// markup bracket, no space at either end. The server decides; this only saves a round trip.
export function nameProblem(name) {
  const chars = [...name];
  if (!chars.length || chars.length > NAME_MAX || name.trim() !== name) return true;
  return /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>]/u.test(name);
}

let levelsCache = null;
async function botLevels(game) {
  if (!levelsCache) {
    try { levelsCache = Object.fromEntries(((await api("/games")).games || []).map((g) => [g.game, (g.levels || []).map((l) => l.level)])); } catch { levelsCache = {}; }
  }
  return levelsCache[game] && levelsCache[game].length ? levelsCache[game] : ["greedy", "random"];
}

// ------------------------------------------------------------------ clocks (TB-2)
const seconds = (ms) => Math.max(0, Math.ceil(ms / 1000));

// The words on a running clock: the wait's own time, then (for the seat itself, which alone sees
// it) the bank. `d` is one of the view's `seating.deadlines`; `banked`: the deal's clock has a
// bank. Another seat's bank left is its secret (TB-2.3), so once its own time is over the others
// see how long it has been drawing on its bank, never "time is up" while it may still have some:
// the table itself says when the time ran out (TB-2.5).
export function clockText(d, mine, now = serverNow(), banked = false) {
  const own = d.own_deadline_ms - now;
  if (own > 0) {
    return mine && d.bank_ms ? t("clock.ownbank", { s: seconds(own), bank: seconds(d.bank_ms) }) : t("clock.own", { s: seconds(own) });
  }
  if (mine && d.deadline_ms) return t("clock.bank", { bank: seconds(d.deadline_ms - now) });
  if (!mine && banked) return t("clock.onbank", { s: seconds(-own) });
  return t("clock.over");
}

export function clockBadgeHtml(d, mine, banked = false) {
  const attrs = `data-clock="${d.seat}" data-own="${d.own_deadline_ms}" data-deadline="${d.deadline_ms ?? ""}" data-bank="${d.bank_ms ?? ""}" data-mine="${mine ? 1 : 0}" data-banked="${banked ? 1 : 0}"`;
  return `<span class="badge clock${mine ? " mine" : ""}" role="timer" ${attrs}>${esc(clockText(d, mine, serverNow(), banked))}</span>`;
}

// every clock on the page again (a quarter-second tick); answers the seconds left on the
// person's own clock (own time and bank), or null when it is not running
export function tickClocks() {
  const now = serverNow();
  let mine = null;
  for (const el of document.querySelectorAll("[data-clock]")) {
    const d = {
      seat: Number(el.dataset.clock), own_deadline_ms: Number(el.dataset.own),
      deadline_ms: el.dataset.deadline ? Number(el.dataset.deadline) : null, bank_ms: el.dataset.bank ? Number(el.dataset.bank) : null,
    };
    const own = el.dataset.mine === "1";
    const text = clockText(d, own, now, el.dataset.banked === "1");
    if (el.textContent !== text) el.textContent = text;
    const left = (own && d.deadline_ms ? d.deadline_ms : d.own_deadline_ms) - now;
    el.classList.toggle("low", left <= 5000);
    if (own) mine = left;
  }
  return mine;
}

// ------------------------------------------------------------------ away (TB-2.6)
export function awayBannerHtml() {
  return `<div class="away-banner" id="away-banner" role="status"><p>${esc(t("away.you"))} <span class="rule-id">TB-2.6</span></p>
    <button type="button" class="primary" id="im-back">${esc(t("away.back"))}</button></div>`;
}

// ------------------------------------------------------------------ the waiting room (TB-1.4)
// seats whose person has sent StartDeal (their SeatReady is in the log)
export function readySeats(events) {
  return new Set(events.filter(({ ev }) => ev && ev.type === "SeatReady").map(({ ev }) => ev.seat));
}

export function isCreator(deal) { return store.get("creator." + deal, null) !== null; }

export function waitingRoomHtml(ctx, levels) {
  const s = ctx.view.seating;
  const name = namer(s.kinds, ctx.seat, s.names);
  const invites = store.get("invites." + ctx.deal, {}) || {};
  const creator = isCreator(ctx.deal);
  const ready = readySeats(ctx.log.events);
  const open = s.open_seats.length;
  const mine = tokensOf(ctx.deal);
  const rows = s.kinds.map((kind, i) => {
    let status;
    let extra = "";
    if (kind === "open") {
      status = t("room.open");
      const link = invites[String(i)];
      if (link) {
        const url = location.origin + link;
        extra += `<span class="invite"><label for="invite-${i}">${esc(t("room.invite"))}</label>
          <input id="invite-${i}" class="invite-link" readonly value="${esc(url)}" dir="ltr" spellcheck="false">
          <button type="button" class="secondary" data-copy="${i}">${esc(t("room.copy"))}</button></span>`;
      }
      if (creator) extra += fillHtml(i, levels);
    } else if (kind.startsWith("bot:")) status = t("room.bot");
    else {
      status = ready.has(i) ? t("room.ready") : t("room.seated");
      // TB-1.4: a person who joined and has not started may be replaced (the server says when)
      if (creator && !open && !ready.has(i) && !mine[String(i)]) extra += fillHtml(i, levels);
    }
    return `<li data-room-seat="${i}" data-kind="${esc(kind)}"><strong><bdi>${name.html(i)}</bdi></strong> · ${esc(t("seat.n", { n: i }))} · <span class="room-status">${esc(status)}</span>${extra}</li>`;
  }).join("");
  const waitingFor = s.kinds.map((k, i) => i).filter((i) => s.kinds[i] === "human" && !ready.has(i));
  const note = open ? t("room.waitopen", { n: open }) : t("room.waitready", { seats: waitingFor.map((i) => name(i)).join(", ") || "…" });
  const clock = s.clock ? `<p class="muted" id="room-clock">${esc(t("room.clock", { move: s.clock.move_s, claim: s.clock.claim_s, bank: s.clock.bank_s }))} <span class="rule-id">TB-2.1</span></p>` : "";
  return `<section class="card-panel waiting-room" id="waiting-room" aria-labelledby="room-title">
    <h2 id="room-title">${esc(t("room.title"))}</h2>
    <ul class="room-seats">${rows}</ul>
    <p id="room-note" role="status">${esc(note)} <span class="rule-id">TB-1.4</span></p>${clock}
  </section>`;
}

function fillHtml(i, levels) {
  return `<span class="fill"><label for="fill-${i}" class="sr-only">${esc(t("room.filllevel"))}</label>
          <select id="fill-${i}">${levels.map((l) => `<option value="${esc(l)}">${esc(t("bot.level", { level: t("level." + l) }))}</option>`).join("")}</select>
          <button type="button" class="secondary" data-fill="${i}">${esc(t("room.fill"))}</button></span>`;
}

export function bindWaitingRoom(ctx, after) {
  const room = $("#waiting-room");
  if (!room) return;
  for (const b of room.querySelectorAll("[data-copy]")) {
    b.onclick = async () => {
      const input = $("#invite-" + b.dataset.copy);
      try { await navigator.clipboard.writeText(input.value); } catch {
        input.select(); document.execCommand && document.execCommand("copy");
      }
      toast(esc(t("room.copied")), "info");
    };
  }
  for (const b of room.querySelectorAll("[data-fill]")) {
    b.onclick = async () => {
      const seat = b.dataset.fill;
      const level = $("#fill-" + seat).value;
      const token = tokensOf(ctx.deal)[String(store.get("creator." + ctx.deal, ctx.seat))] || ctx.token;
      b.disabled = true;
      try {
        await api(`/deals/${ctx.deal}/seats/${seat}/bot`, { method: "POST", token, body: { level } });
      } catch (e) { showProblem(e, ctx.game); b.disabled = false; }
      after();
    };
  }
}

export async function roomLevels(game) { return botLevels(game); }

// ------------------------------------------------------------------ the lobby's open tables
export function openTablesHtml(tables) {
  if (!tables || !tables.length) return `<li class="muted">${esc(t("open.none"))}</li>`;
  return tables.map((tb) => {
    const name = namer(tb.seats, null, tb.names);
    const seated = tb.seats.map((k, i) => i).filter((i) => tb.seats[i] !== "open").map((i) => name.html(i)).join(", ");
    const joins = tb.open_seats.map((i) => `<a class="button secondary" data-join="${i}" href="#/join/${esc(tb.deal_id)}/seat/${i}">${esc(t("open.join", { n: i }))}</a>`).join(" ");
    return `<li data-deal="${esc(tb.deal_id)}"><span>${esc(t("game." + tb.game))}</span> · <bdi>${seated}</bdi> ${joins}</li>`;
  }).join("");
}

// ------------------------------------------------------------------ the join page
export async function renderJoin(deal, code, seatStr) {
  const app = $("#app");
  app.innerHTML = `<p class="loading">${t("loading")}</p>`;
  let summary;
  try { summary = await api(`/deals/${deal}`); } catch (e) {
    showProblem(e);
    app.innerHTML = `<section class="card-panel"><h1>${esc(t("watch.missing"))}</h1><p><a href="#/">${t("nav.lobby")}</a></p></section>`;
    return;
  }
  const bySeat = seatStr !== undefined && code === undefined;
  const seat = bySeat ? Number(seatStr) : null;
  const open = summary.open_seats || [];
  const name = namer(summary.seats, null, summary.names);
  const seats = summary.seats.map((k, i) => `<li data-seat="${i}">${esc(t("seat.n", { n: i }))}: <bdi>${k === "open" ? esc(t("room.open")) : name.html(i)}</bdi></li>`).join("");
  const held = Object.keys(tokensOf(deal));
  const closed = summary.over || !open.length || (bySeat && !open.includes(seat));
  const heldNote = held.length ? `<p class="note" id="join-held">${esc(t("join.held", { n: held[0] }))} <a href="#/play/${esc(deal)}/${esc(held[0])}">${esc(t("join.open"))}</a></p>` : "";
  // a browser seated here already is sent to its seat; "no open seat for you" would contradict it
  const form = closed && held.length
    ? ""
    : closed
    ? `<p id="join-closed">${esc(t("join.closed"))} <span class="rule-id">TB-1.2</span> <a href="#/watch/${esc(deal)}">${esc(t("watch.open"))}</a></p>`
    : `<form id="join-form" class="join-form">
        <label for="join-name">${esc(t("join.name"))}</label>
        <input id="join-name" maxlength="${NAME_MAX}" autocomplete="nickname" spellcheck="false" value="${esc(store.get("my.name", ""))}" aria-describedby="join-namehelp">
        <p id="join-namehelp" class="help">${esc(t("join.namehelp"))} <span class="rule-id">TB-1.3</span></p>
        <label for="join-seed">${esc(t("lobby.seed"))}</label>
        <input id="join-seed" maxlength="200" spellcheck="false" value="${esc(randomSeed())}" aria-describedby="join-seedhelp">
        <p id="join-seedhelp" class="help">${esc(t("join.seedhelp"))} <span class="rule-id">TB-3.1</span></p>
        <button class="primary" id="join-submit">${esc(bySeat ? t("open.join", { n: seat }) : t("join.take"))}</button>
      </form>`;
  app.innerHTML = `<section class="card-panel join-page" aria-labelledby="join-title">
    <h1 id="join-title">${esc(t("join.title", { game: t("game." + summary.game) }))}</h1>
    <p class="deal-line muted"><bdi>${esc(deal)}</bdi></p>
    <ul class="join-seats">${seats}</ul>${heldNote}${form}
  </section>`;
  const f = $("#join-form");
  if (!f) return;
  f.onsubmit = async (e) => {
    e.preventDefault();
    const nameValue = $("#join-name").value;
    const seed = $("#join-seed").value;
    if (nameProblem(nameValue)) { toast(esc(t("join.badname")) + ' <span class="rule-id">TB-1.3</span>', "error"); return; }
    if (!seed.trim()) { toast(t("lobby.seedneeded"), "error"); return; }
    const btn = $("#join-submit"); btn.disabled = true;
    try {
      const body = bySeat ? { seat, name: nameValue } : { invite: code, name: nameValue };
      const joined = await postWithKey(`/deals/${deal}/join`, {}, body); // with the key: listed in "My games"
      store.set("tokens." + deal, { ...tokensOf(deal), [String(joined.seat)]: joined.token });
      store.set("seed." + deal, seed);
      store.set("ready." + deal, seed); // the table sends StartDeal with it once every seat is taken
      store.set("my.name", nameValue);
      store.set("last", { deal, seat: joined.seat });
      location.hash = `#/play/${deal}/${joined.seat}`;
    } catch (err) { showProblem(err, summary.game); btn.disabled = false; }
  };
}
