// The rules pages (#/rules/paohuzi, #/rules/mcr, and #/rules/table for the rules both games share):
// our own wording, every item under its rule id.
import { t, getLang } from "./i18n.js";
import { pieceHtml, phKindLabel, mcTileName, phKindFromName, hasCjk } from "./cards.js";
import { RULES, HUXI, groupHuxi, tunFor, HUXI_EXAMPLES } from "./rules.js";
import { FANS, FAN_POINTS, COMBINED_FAN, fanName } from "./fans.js";
import { esc, $ } from "./net.js";

const app = () => $("#app");

// The other rules pages, so the table rules are one link from each game's rules and back.
const OTHER_PAGES = { paohuzi: ["table", "mcr"], mcr: ["table", "paohuzi"], table: ["paohuzi", "mcr"] };
const PAGE_LABEL = { paohuzi: "nav.rules.paohuzi", mcr: "nav.rules.mcr", table: "rules.table" };

const tocHtml = (g, doc, extra) => `<nav class="toc" aria-label="${t("rules.toc")}"><ol>${doc.sections.map((s, i) => `<li><a href="#/rules/${g}/${i}">${esc(s.h)}</a></li>`).join("")}
      ${extra}</ol></nav>`;
const sectionsHtml = (doc) => doc.sections.map((s, i) => `<section id="sec-${i}"><h2>${esc(s.h)}</h2>${s.p ? `<p>${esc(s.p)}</p>` : ""}<dl>${s.items.map(([id, text]) => `<dt id="${id}"><span class="rule-id">${id}</span></dt><dd>${esc(text)}</dd>`).join("")}</dl></section>`).join("");
const seeAlsoHtml = (g) => `<p class="help" id="rules-see-also">${esc(t("rules.seealso"))} ${OTHER_PAGES[g].map((o) => `<a href="#/rules/${o}" data-rules="${o}">${esc(t(PAGE_LABEL[o]))}</a>`).join(" · ")}</p>`;

export function renderRules(game) {
  const g = RULES[game] ? game : "paohuzi";
  const doc = RULES[g][getLang()] || RULES[g].en;
  if (g === "table") {
    app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>${seeAlsoHtml(g)}
    ${tocHtml(g, doc, "")}
    ${sectionsHtml(doc)}
  </article>`;
    return;
  }
  app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>
    ${g === "paohuzi" ? `<div class="sample" aria-hidden="true">${[0, 4, 8, 40, 44, 48, 20, 64, 76].map((c) => pieceHtml("paohuzi", c, { cls: "sm" })).join("")}</div>`
      : `<div class="sample" aria-hidden="true">${[0, 40, 76, 108, 112, 124, 128, 132, 136].map((c) => pieceHtml("mcr", c, { cls: "sm" })).join("")}</div>`}
    ${seeAlsoHtml(g)}
    ${tocHtml(g, doc, g === "mcr" ? `<li><a href="#/rules/mcr/fans">${esc(t("rules.fans.title"))}</a></li>` : `<li><a href="#/rules/paohuzi/huxi">${esc(t("rules.huxi.title"))}</a></li>`)}
    ${sectionsHtml(doc)}
    ${g === "mcr" ? fanTableHtml() : huxiTablesHtml()}
    ${g === "paohuzi" ? `<section><h2>${t("rules.cards")}</h2><ul class="names">${[...Array(20).keys()].map((k) => `<li>${pieceHtml("paohuzi", k * 4, { cls: "xs" })} ${esc(phKindLabel(k))}</li>`).join("")}</ul></section>`
      : `<section><h2>${t("rules.tiles")}</h2><ul class="names">${[...Array(34).keys()].map((k) => `<li>${pieceHtml("mcr", k * 4, { cls: "xs" })} ${esc(mcTileName(k * 4))}</li>`).join("")}${[136, 137].map((k) => `<li>${pieceHtml("mcr", k, { cls: "xs" })} ${esc(mcTileName(k))}</li>`).join("")}</ul></section>`}
  </article>`;
}

// ------------------------------------------------------------------ MCR: the fan table
// All 81 fans with their points, in the calculator's order (highest first), named in the page's
// language from fans.js; the calculator's one combined entry after the table.
function fanTableHtml() {
  const lang = getLang();
  const zh = hasCjk();
  const names = Object.keys(FANS).filter((en) => en !== COMBINED_FAN);
  let last = null;
  const rows = names.map((en) => {
    const p = FAN_POINTS[en];
    const start = p !== last;
    last = p;
    return `<tr data-fan="${esc(en)}" data-points="${p}"${start ? ' class="group-start"' : ""}><td class="num">${p}</td><td lang="${lang}">${esc(fanName({ name_en: en }, lang))}</td>${zh ? `<td class="zh" lang="zh">${esc(FANS[en].zh)}</td>` : ""}</tr>`;
  }).join("");
  const combined = FANS[COMBINED_FAN];
  return `<section id="sec-fans" aria-labelledby="fans-title"><h2 id="fans-title">${esc(t("rules.fans.title"))}</h2>
    <p>${esc(t("rules.fans.lead", { n: names.length }))} <span class="rule-id">MC-4.3</span></p>
    <table class="fan-table" id="fan-table"><thead><tr><th class="num">${esc(t("rules.fans.points"))}</th><th>${esc(t("rules.fans.name"))}</th>${zh ? `<th>${esc(t("rules.fans.zh"))}</th>` : ""}</tr></thead><tbody>${rows}</tbody></table>
    <p class="help" id="fan-combined" data-fan="${esc(COMBINED_FAN)}" data-points="${FAN_POINTS[COMBINED_FAN]}">${esc(t("rules.fans.combined", { name: fanName({ name_en: COMBINED_FAN }, lang), zh: combined.zh, n: FAN_POINTS[COMBINED_FAN] }))}</p></section>`;
}

// ------------------------------------------------------------------ Paohuzi: huxi per group, tun, worked examples
const kindsPieces = (kinds) => `<span class="cards" dir="ltr">${kinds.map((k) => pieceHtml("paohuzi", phKindFromName(k) * 4, { cls: "xs" })).join("")}</span>`;

function huxiTablesHtml() {
  const rows = HUXI.map((r) => `<tr data-row="${r.id}"><th scope="row">${esc(t("meld." + r.group))}</th><td>${esc(t("hx." + r.id))}</td>
      <td data-group="${r.group}" data-kinds="${r.small.join(" ")}">${kindsPieces(r.small)} <strong class="num">${groupHuxi(r.group, r.small)}</strong></td>
      <td data-group="${r.group}" data-kinds="${r.big.join(" ")}">${kindsPieces(r.big)} <strong class="num">${groupHuxi(r.group, r.big)}</strong></td></tr>`).join("");
  const tuns = [15, 18, 21, 24, 27, 30].map((h) => `<tr><td class="num">${h}–${h + 2}</td><td class="num" data-huxi="${h}">${tunFor(h)}</td></tr>`).join("");
  const examples = HUXI_EXAMPLES.map((ex) => {
    const total = ex.groups.reduce((a, g) => a + groupHuxi(g.group, g.kinds), 0);
    const sum = ex.groups.map((g) => groupHuxi(g.group, g.kinds)).join(" + ");
    const verdict = total >= 15 ? t("rules.ex.total", { sum, huxi: total, tun: tunFor(total) }) : t("rules.ex.nowin", { sum, huxi: total });
    return `<table class="huxi-ex" data-example="${ex.id}" data-huxi="${total}" data-tun="${total >= 15 ? tunFor(total) : ""}"><caption>${esc(t("rules.ex." + ex.id))} <span class="rule-id">${ex.rule}</span></caption>
      <thead><tr><th>${esc(t("rules.ex.group"))}</th><th>${esc(t("rules.ex.cards"))}</th><th class="num">${esc(t("result.huxi"))}</th></tr></thead><tbody>
      ${ex.groups.map((g) => `<tr data-group="${g.group}" data-kinds="${g.kinds.join(" ")}"><td>${esc(t("meld." + g.group))}</td><td>${kindsPieces(g.kinds)} <span class="sr-only">${esc(g.kinds.map((k) => phKindLabel(phKindFromName(k))).join(", "))}</span></td><td class="num">${groupHuxi(g.group, g.kinds)}</td></tr>`).join("")}
      </tbody><tfoot><tr><th colspan="3" class="ex-total">${esc(verdict)}</th></tr></tfoot></table>`;
  }).join("");
  return `<section id="sec-huxi" aria-labelledby="huxi-title"><h2 id="huxi-title">${esc(t("rules.huxi.title"))}</h2>
    <p>${esc(t("rules.huxi.lead"))} <span class="rule-id">PH-3</span> <span class="rule-id">PH-8.1</span></p>
    <table class="huxi-table" id="huxi-table"><thead><tr><th>${esc(t("rules.ex.group"))}</th><th>${esc(t("rules.huxi.what"))}</th><th>${esc(t("rules.huxi.small"))}</th><th>${esc(t("rules.huxi.big"))}</th></tr></thead><tbody>${rows}</tbody></table>
    <h3>${esc(t("rules.tun.title"))} <span class="rule-id">PH-8.3</span></h3>
    <table class="tun-table" id="tun-table"><thead><tr><th class="num">${esc(t("result.huxi"))}</th><th class="num">${esc(t("result.tun"))}</th></tr></thead><tbody>${tuns}</tbody></table>
    <p>${esc(t("rules.tun.formula"))} <span class="rule-id">PH-8.2</span></p>
    <h3>${esc(t("rules.ex.title"))}</h3>${examples}</section>`;
}
