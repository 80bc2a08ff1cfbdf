// The coach beside the live hand (GET /deals/{id}/coach, the seat's own advice): a toggle this
// browser remembers, a strip above the hand, the effect of a discard on hover or focus, and notes
// inside the claim buttons. Pure rendering from the server's advice: nothing is computed here
// from cards, so the page can never show more than the seat's own view holds.
import { t } from "./i18n.js";
import { store, esc } from "./net.js";
import { gameUi } from "./registry.js";

export const coachOn = () => !!store.get("coach", false);
export const setCoach = (on) => store.set("coach", !!on);

// a rule id after a line of advice (each game's coach, games/*.js, writes its own lines)
export const rule = (id) => ` <span class="rule-id">${id}</span>`;

// ------------------------------------------------------------------ the strip, the detail, the notes
/** The effect of discarding card/tile `id` (hover, focus or selection); "" when not discarding. */
export function coachDetailHtml(m, a, id) {
  if (!a || id === null || id === undefined || !a.discards || !a.discards.length) return "";
  return gameUi(m.game).coachDetail(a, id);
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
  else body = gameUi(m.game).coachBody(a);
  // the effect of a discard: a box of its own height, so pointing at a tile never moves the hand
  const detail = a && a.discards && a.discards.length
    ? `<div class="coach-detail" id="coach-detail" aria-live="polite">${coachDetailHtml(m, a, ctx.coachHover ?? ctx.selected) || coachHintHtml()}</div>` : "";
  return `<div class="coach-box" id="coach-box">${toggle}
    <section class="coach" id="coach" aria-label="${esc(t("coach.title"))}" data-version="${a ? a.version : ""}">${body}</section>${detail}</div>`;
}

export const coachHintHtml = () => `<p class="coach-hint muted">${esc(t("coach.hover"))}</p>`;

/** Inside a claim button: what the answer is worth (the game's coachNote says it). */
export function coachNoteHtml(m, action, index) {
  const a = m.coach;
  if (!a) return "";
  return gameUi(m.game).coachNote(a, action, index);
}
