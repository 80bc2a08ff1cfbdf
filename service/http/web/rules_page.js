// The rules pages (#/rules/paohuzi, #/rules/mcr): our own wording, every item under its rule id.
import { t, getLang } from "./i18n.js";
import { pieceHtml, phKindLabel, mcTileName } from "./cards.js";
import { RULES } from "./rules.js";
import { esc, $ } from "./net.js";

const app = () => $("#app");

export function renderRules(game) {
  const g = RULES[game] ? game : "paohuzi";
  const doc = RULES[g][getLang()] || RULES[g].en;
  app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>
    ${g === "paohuzi" ? `<div class="sample" aria-hidden="true">${[0, 4, 8, 40, 44, 48, 20, 64, 76].map((c) => pieceHtml("paohuzi", c, { cls: "sm" })).join("")}</div>`
      : `<div class="sample" aria-hidden="true">${[0, 40, 76, 108, 112, 124, 128, 132, 136].map((c) => pieceHtml("mcr", c, { cls: "sm" })).join("")}</div>`}
    <nav class="toc" aria-label="${t("rules.toc")}"><ol>${doc.sections.map((s, i) => `<li><a href="#/rules/${g}/${i}">${esc(s.h)}</a></li>`).join("")}</ol></nav>
    ${doc.sections.map((s, i) => `<section id="sec-${i}"><h2>${esc(s.h)}</h2>${s.p ? `<p>${esc(s.p)}</p>` : ""}<dl>${s.items.map(([id, text]) => `<dt id="${id}"><span class="rule-id">${id}</span></dt><dd>${esc(text)}</dd>`).join("")}</dl></section>`).join("")}
    ${g === "paohuzi" ? `<section><h2>${t("rules.cards")}</h2><ul class="names">${[...Array(20).keys()].map((k) => `<li>${pieceHtml("paohuzi", k * 4, { cls: "xs" })} ${esc(phKindLabel(k))}</li>`).join("")}</ul></section>`
      : `<section><h2>${t("rules.tiles")}</h2><ul class="names">${[...Array(34).keys()].map((k) => `<li>${pieceHtml("mcr", k * 4, { cls: "xs" })} ${esc(mcTileName(k * 4))}</li>`).join("")}${[136, 137].map((k) => `<li>${pieceHtml("mcr", k, { cls: "xs" })} ${esc(mcTileName(k))}</li>`).join("")}</ul></section>`}
  </article>`;
}
