// The coach beside the live hand (GET /deals/{id}/coach, the seat's own advice): a toggle this
// browser remembers, a strip above the hand, the effect of a discard on hover or focus, and notes
// inside the claim buttons. Pure rendering from the server's advice: nothing is computed here
// from cards, so the page can never show more than the seat's own view holds.
import { t, getLang } from "./i18n.js";
import { pieceHtml, mcCode, mcTileOfCode, phKindFromName, phKindLabel, mcTileName } from "./cards.js";
import { fanName } from "./fans.js";
import { store, esc } from "./net.js";

export const coachOn = () => !!store.get("coach", false);
export const setCoach = (on) => store.set("coach", !!on);

// ------------------------------------------------------------------ names and small pieces
const mcName = (code) => mcTileName(mcTileOfCode(code));
const phName = (kind) => phKindLabel(phKindFromName(kind));
const mcPiece = (code) => pieceHtml("mcr", mcTileOfCode(code), { cls: "xs" });
const phPiece = (kind) => pieceHtml("paohuzi", phKindFromName(kind) * 4, { cls: "xs" });
const rule = (id) => ` <span class="rule-id">${id}</span>`;
const signed = (n) => (n > 0 ? "+" + n : n < 0 ? "−" + -n : "±0");

function fansText(fans) {
  const lang = getLang();
  return fans.map((f) => `${fanName(f, lang)} ${f.points * f.count}`).join(", ");
}

// ------------------------------------------------------------------ MCR
// What one wait scores before flowers, or that it falls under the minimum (MC-4.3)
function mcScoreHtml(w) {
  const d = w.discard, s = w.self_drawn;
  const dOk = d && !d.under_minimum, sOk = s && !s.under_minimum;
  if (dOk) return `<span class="pts">${esc(t("coach.pts", { n: d.points }))}</span>${s ? " · " + esc(t("coach.selfpts", { n: s.points })) : ""}`;
  if (sOk) return `<span class="under8">${esc(t("coach.under8.discard", { n: d ? d.points : "—" }))}</span>${rule("MC-4.3")} · <span class="pts">${esc(t("coach.selfpts", { n: s.points }))}</span>`;
  const both = t("coach.under8.both", { d: d ? d.points : "—", s: s ? s.points : "—" });
  return `<span class="under8">${esc(t("coach.under8"))}</span> <span class="muted">${esc(both)}</span>${rule("MC-4.3")}`;
}

function mcWaitsHtml(waits) {
  if (!waits.length) return `<p class="muted">${esc(t("coach.nowaits"))}</p>`;
  return `<ul class="coach-waits">${waits.map((w) => `<li class="wait${w.discard && w.discard.under_minimum && !(w.self_drawn && !w.self_drawn.under_minimum) ? " short" : ""}" data-tile="${esc(w.tile)}">${mcPiece(w.tile)} <strong>${esc(mcName(w.tile))}</strong> · ${esc(t("coach.unseen", { n: w.unseen }))} · ${mcScoreHtml(w)}</li>`).join("")}</ul>`;
}

function shantenText(s) {
  if (s === -1) return t("coach.complete");
  if (s === 0) return t("coach.ready");
  if (s === 1) return t("coach.shanten1");
  return t("coach.shanten", { n: s });
}

function noWinHtml(nw) {
  if (!nw) return "";
  const p = { tile: nw.tile ? mcName(nw.tile) : t("the.card"), points: nw.points ?? "—" };
  const fans = nw.fans && nw.fans.length ? ` <span class="muted">(${esc(fansText(nw.fans))})</span>` : "";
  return `<p class="coach-nowin" id="coach-nowin" data-reason="${esc(nw.reason)}">${esc(t("coach.nowin." + nw.reason, p))}${fans}${rule(nw.rule)}</p>`;
}

function mcDiscardHtml(d) {
  const head = t("coach.after", { card: mcName(d.tile) });
  if (d.shanten === 0) return `${mcPiece(d.tile)} <strong>${esc(head)}</strong> ${esc(t("coach.ready"))}${mcWaitsHtml(d.waits)}`;
  const useful = d.useful.map((u) => mcPiece(u.tile)).join("");
  return `${mcPiece(d.tile)} <strong>${esc(head)}</strong> ${esc(shantenText(d.shanten))} ${esc(t("coach.useful", { n: d.useful_unseen, k: d.useful.length }))} <span class="coach-useful" dir="ltr">${useful}</span>`;
}

function mcBody(a) {
  const out = [];
  if (a.shanten === null || a.shanten === undefined) return `<p class="muted">${esc(t("coach.nothing"))}</p>`;
  out.push(`<p class="coach-line"><strong id="coach-shanten" data-shanten="${a.shanten}">${esc(shantenText(a.shanten))}</strong>${rule("MC-4.1")}</p>`);
  if (a.win) out.push(`<p class="coach-win">${esc(t("coach.win", { fans: fansText(a.win.fans), total: a.win.total }))}</p>`);
  out.push(noWinHtml(a.no_win));
  if (a.discards.length) {
    const best = Math.min(...a.discards.map((d) => d.shanten));
    const top = a.discards.filter((d) => d.shanten === best).sort((x, y) => y.useful_unseen - x.useful_unseen).slice(0, 4);
    const key = best === 0 ? "coach.best.ready" : "coach.best";
    out.push(`<p class="coach-line" id="coach-best">${esc(t(key))} ${top.map((d) => `<span class="coach-pick" data-tile="${esc(d.tile)}">${mcPiece(d.tile)} ${esc(mcName(d.tile))} (${esc(t("coach.useful.short", { n: d.useful_unseen }))})</span>`).join(" ")}</p>`);
  } else if (a.shanten === 0) {
    out.push(`<div id="coach-waits-box"><p class="coach-line">${esc(t("coach.waits"))}</p>${mcWaitsHtml(a.waits)}</div>`);
  } else if (a.shanten > 0) {
    out.push(`<p class="coach-line">${esc(t("coach.useful", { n: a.useful_unseen, k: a.useful.length }))} <span class="coach-useful" dir="ltr">${a.useful.map((u) => mcPiece(u.tile)).join("")}</span></p>`);
  }
  return out.join("");
}

// ------------------------------------------------------------------ Paohuzi
function phWinText(w) {
  const parts = [];
  if (w.other_reveal) parts.push(t("coach.ph.byother", { huxi: w.other_reveal.huxi, tun: w.other_reveal.tun }));
  if (w.own_reveal) parts.push(t("coach.ph.byown", { huxi: w.own_reveal.huxi, tun: w.own_reveal.tun }));
  return parts.join(" · ");
}

function phWinsHtml(wins) {
  if (!wins.length) return `<p class="muted" id="coach-nowins">${esc(t("coach.ph.nowins"))}</p>`;
  return `<p class="coach-line">${esc(t("coach.ph.wins"))}${rule("PH-4.6")}</p><ul class="coach-waits">${wins.map((w) => `<li class="wait" data-kind="${esc(w.kind)}">${phPiece(w.kind)} <strong>${esc(phName(w.kind))}</strong> · ${esc(t("coach.unseen", { n: w.unseen }))} · ${esc(phWinText(w))}</li>`).join("")}</ul>`;
}

function layoutHtml(l) {
  const groups = l.groups.map((g) => `<span class="coach-group${g.exposed ? " exposed" : ""}" data-group="${esc(g.group)}"><span class="meld-tag">${esc(t("meld." + g.group))} ${g.huxi}</span>${g.kinds.map(phPiece).join("")}</span>`).join("");
  const loose = l.loose.length ? `<span class="coach-group loose"><span class="meld-tag">${esc(t("coach.ph.loose"))}</span>${l.loose.map(phPiece).join("")}</span>` : "";
  return `<p class="coach-line"><strong id="coach-huxi" data-huxi="${l.huxi}">${esc(t("coach.ph.layout", { huxi: l.huxi }))}</strong>${rule("PH-3")}</p><div class="coach-layout" dir="ltr">${groups}${loose}</div>`;
}

function phBody(a) {
  const out = [layoutHtml(a.layout)];
  if (a.dead) out.push(`<p class="coach-nowin">${esc(t("coach.ph.dead"))}${rule("PH-6.6")}</p>`);
  else if (a.discards.length) out.push(`<p class="coach-line muted">${esc(t("coach.ph.discardhint"))}</p>`);
  else out.push(phWinsHtml(a.wins));
  return out.join("");
}

function phDiscardHtml(d) {
  const wins = d.wins.length
    ? `${esc(t("coach.ph.thenwins"))} ${d.wins.map((w) => `${phPiece(w.kind)} ${esc(phName(w.kind))} (${esc(phWinText(w))})`).join("; ")}`
    : esc(t("coach.ph.thennowins"));
  return `${phPiece(d.kind)} <strong>${esc(t("coach.after", { card: phName(d.kind) }))}</strong> ${esc(t("coach.ph.after", { huxi: d.huxi_after }))} · <span class="chou-note">${esc(t("coach.ph.chou", { kinds: phName(d.kind) }))}</span> · ${wins}`;
}

// ------------------------------------------------------------------ the strip, the detail, the notes
/** The effect of discarding card/tile `id` (hover, focus or selection); "" when not discarding. */
export function coachDetailHtml(m, a, id) {
  if (!a || id === null || id === undefined || !a.discards || !a.discards.length) return "";
  if (m.game === "mcr") {
    const d = a.discards.find((x) => x.tile === mcCode(id));
    return d ? mcDiscardHtml(d) : "";
  }
  const kind = (id >> 2 >= 10 ? "b" : "s") + (((id >> 2) % 10) + 1);
  const d = a.discards.find((x) => x.kind === kind);
  return d ? phDiscardHtml(d) : "";
}

/** The coach box of the live seat: the toggle and, when on, the advice for the view shown. */
export function coachBoxHtml(m, ctx) {
  if (!ctx.coachAllowed || m.result) return "";
  const on = coachOn();
  const toggle = `<label class="coach-toggle"><input type="checkbox" id="coach-toggle"${on ? " checked" : ""}> ${esc(t("coach.toggle"))}</label>`;
  if (!on) return `<div class="coach-box off" id="coach-box">${toggle}</div>`;
  const a = m.coach;
  let body;
  if (ctx.coachError) body = `<p class="muted">${esc(t("coach.error"))}</p>`;
  else if (!a) body = `<p class="muted">${esc(t("coach.loading"))}</p>`;
  else body = m.game === "mcr" ? mcBody(a) : phBody(a);
  // the effect of a discard: a box of its own height, so pointing at a tile never moves the hand
  const detail = a && a.discards && a.discards.length
    ? `<div class="coach-detail" id="coach-detail" aria-live="polite">${coachDetailHtml(m, a, ctx.coachHover ?? ctx.selected) || coachHintHtml()}</div>` : "";
  return `<div class="coach-box" id="coach-box">${toggle}
    <section class="coach" id="coach" aria-label="${esc(t("coach.title"))}" data-version="${a ? a.version : ""}">${body}</section>${detail}</div>`;
}

export const coachHintHtml = () => `<p class="coach-hint muted">${esc(t("coach.hover"))}</p>`;

/** Inside a claim button: what the answer is worth (Paohuzi huxi and chou, MCR the win's fans). */
export function coachNoteHtml(m, action, index) {
  const a = m.coach;
  if (!a) return "";
  if (m.game === "mcr") {
    const win = action.type === "DeclareWin" || (action.type === "Claim" && action.claim === "win");
    if (!win || !a.win) return "";
    return `<span class="coach-note win-note">${esc(t("coach.win", { fans: fansText(a.win.fans), total: a.win.total }))}</span>`;
  }
  const x = (a.actions || []).find((y) => y.index === index);
  if (!x) return "";
  const parts = [];
  if (x.action === "win") parts.push(t("coach.ph.winnote", { huxi: x.huxi_after, tun: x.tun }));
  else if (x.action !== "pass") parts.push(t("coach.ph.adds", { n: signed(x.huxi_added) }));
  if (x.chou.length) parts.push(t("coach.ph.chou", { kinds: x.chou.map(phName).join(", ") }));
  if (x.pairs_broken && x.pairs_broken.length) parts.push(t("coach.ph.breaks", { kinds: x.pairs_broken.map(phName).join(", ") }));
  if (x.must_discard) parts.push(t("coach.ph.thendiscard"));
  if (!parts.length) parts.push(t("coach.ph.nochou"));
  return `<span class="coach-note" data-added="${x.huxi_added}" data-chou="${esc(x.chou.join(" "))}">${esc(parts.join(" · "))}</span>`;
}
