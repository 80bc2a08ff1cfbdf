// The rules pages (#/rules/<game> for each registered game, and #/rules/table for the rules every
// game shares): our own wording, every item under its rule id.
import { t, getLang } from "./i18n.js";
import { rulesOf, tableNotes } from "./rules.js";
import { esc, $, api } from "./net.js";
import { games, gameUi } from "./registry.js";

const app = () => $("#app");

// The other rules pages, so the table rules are one link from each game's rules and back.
const gameNames = () => games().map((g) => g.name);
const otherPages = (g) => (g === "table" ? gameNames() : ["table", ...gameNames().filter((o) => o !== g)]);
const pageLabel = (g) => (g === "table" ? "rules.table" : "nav.rules." + g);

const tocHtml = (g, doc, extra) => `<nav class="toc" aria-label="${t("rules.toc")}"><ol>${doc.sections.map((s, i) => `<li><a href="#/rules/${g}/${i}">${esc(s.h)}</a></li>`).join("")}
      ${extra}</ol></nav>`;
// `more(id)`: what is added to an item's text (the table rules: what each game adds)
const sectionsHtml = (doc, more = () => "") => doc.sections.map((s, i) => `<section id="sec-${i}"><h2>${esc(s.h)}</h2>${s.p ? `<p>${esc(s.p)}</p>` : ""}<dl>${s.items.map(([id, text]) => `<dt id="${id}"><span class="rule-id">${id}</span></dt><dd>${esc([text, more(id)].filter(Boolean).join(" "))}</dd>`).join("")}</dl></section>`).join("");
const seeAlsoHtml = (g) => `<p class="help" id="rules-see-also">${esc(t("rules.seealso"))} ${otherPages(g).map((o) => `<a href="#/rules/${o}" data-rules="${o}">${esc(t(pageLabel(o)))}</a>`).join(" · ")}</p>`;

export function renderRules(game) {
  const g = rulesOf(game) ? game : gameNames()[0];
  const all = rulesOf(g);
  const doc = all[getLang()] || all.en;
  if (g === "table") {
    app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>${seeAlsoHtml(g)}
    ${tocHtml(g, doc, "")}
    ${sectionsHtml(doc, (id) => tableNotes(id, getLang()))}
  </article>`;
    return;
  }
  // a game's page: its samples, its own tables (games/<name>/) and the names of its pieces
  const ui = gameUi(g);
  app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>
    ${ui.rulesSampleHtml()}
    ${seeAlsoHtml(g)}
    ${tocHtml(g, doc, ui.rulesTocHtml())}
    ${sectionsHtml(doc)}
    ${ui.rulesTablesHtml()}
    ${ui.rulesNamesHtml()}
  </article>`;
}

// ------------------------------------------------------------------ the header's links
// One link per game to its rules page, as GET /games lists them (`rules_page`), before the table
// rules' link; a game the client has no module for gets none. Should the list not come, each
// registered game's page is linked as the router knows it.
export async function rulesNav() {
  let listed;
  try {
    listed = ((await api("/games")).games || []).filter((g) => g.rules_page && gameUi(g.game)).map((g) => [g.game, g.rules_page]);
  } catch {
    listed = gameNames().map((n) => [n, "#/rules/" + n]);
  }
  const tb = $("#nav-rules-tb");
  for (const [name, href] of listed) {
    const ui = gameUi(name);
    if (!tb || document.getElementById(ui.navId)) continue;
    const a = document.createElement("a");
    a.id = ui.navId;
    a.href = href;
    a.dataset.rules = name;
    tb.before(a);
  }
  relabelRulesNav();
  // the page already open may be one of them
  const open = (location.hash || "").match(/^#\/rules(?:\/([^/]+))?/);
  if (open && open[1] !== "table") {
    const a = document.getElementById((gameUi(open[1]) || games()[0]).navId);
    if (a) a.setAttribute("aria-current", "page");
  }
}

/** The header's rules links in the current language. */
export function relabelRulesNav() {
  for (const g of games()) {
    const a = document.getElementById(g.navId);
    if (a) a.textContent = t("nav.rules." + g.name);
  }
}
