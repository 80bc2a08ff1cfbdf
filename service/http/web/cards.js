// Cards (Paohuzi) and tiles (MCR) drawn as inline SVG; names come from the translation table.
import { t } from "./i18n.js";
import { gameUi } from "./registry.js";

const SVGNS = 'xmlns="http://www.w3.org/2000/svg"';
const CJK = "'Noto Sans CJK SC','Noto Sans SC','WenQuanYi Micro Hei','Microsoft YaHei','PingFang SC',serif";
const SMALL_ZH = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const BIG_ZH = ["壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];
const WIND_ZH = ["東", "南", "西", "北"];
const WIND_LETTER = ["E", "S", "W", "N"];

// Chinese numerals drawn as strokes on a 20x20 grid, so cards read well without any CJK font.
const STROKES = {
  1: "M3 10H17",
  2: "M5 6H15M3 14H17",
  3: "M5 4H15M6 10H14M3 16H17",
  4: "M3 4V17M3 4H17V17M3 17H17M8 4Q8 11 5 13M12 4V10Q12 12 15 12",
  5: "M4 3H16M9 3L7 16M5 9H14V16M2 16H18",
  6: "M10 2L11 5M3 7H17M8 10L4 17M12 10L16 17",
  7: "M3 9L17 7M9 2V14Q9 17 12 17H17V14",
  8: "M8 4Q8 12 3 17M12 4Q13 12 17 17",
  9: "M3 7H12Q13 7 13 10V15Q13 17 16 17H17V14M9 2Q9 12 3 17",
  10: "M3 9H17M10 2V18",
  wan: "M3 4H17M9 4Q8 13 3 18M8 9H15Q15 16 12 17",
  zhong: "M4 6H16V13H4ZM10 2V18",
};
function strokes(key, x, y, size, color, width) {
  const k = size / 20;
  return `<path d="${STROKES[key]}" transform="translate(${x} ${y}) scale(${k})" fill="none" stroke="${color}" stroke-width="${(width / k).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}
// Does this browser have a font for CJK? (missing glyphs all draw the same box)
let cjk = null;
export function hasCjk() {
  if (cjk !== null) return cjk;
  try {
    const c = document.createElement("canvas"); c.width = c.height = 32;
    const x = c.getContext("2d", { willReadFrequently: true });
    const draw = (ch) => { x.clearRect(0, 0, 32, 32); x.font = `24px ${CJK}`; x.fillText(ch, 2, 26); return x.getImageData(0, 0, 32, 32).data.join(","); };
    cjk = draw("壹") !== draw("拾") && draw("萬") !== draw("發");
  } catch { cjk = false; }
  // said on the page: a card's name carries its numeral, "small 5 (五)", only where a font draws it
  document.documentElement.dataset.cjk = cjk ? "yes" : "no";
  return cjk;
}

// ---------------------------------------------------------------- Paohuzi
export function phKind(card) { return card >> 2; }
export function phKindName(kind) { return (kind >= 10 ? "b" : "s") + ((kind % 10) + 1); }
export function phKindFromName(name) { return (name[0] === "b" ? 10 : 0) + Number(name.slice(1)) - 1; }

export function phCardName(card) { return phKindLabel(phKind(card)); }
export function phKindLabel(kind) {
  const big = kind >= 10, rank = (kind % 10) + 1;
  const name = t(big ? "card.big" : "card.small", { n: rank, zh: (big ? BIG_ZH : SMALL_ZH)[rank - 1] });
  return hasCjk() ? name : name.replace(/\s*\([^)]*\)/, "");
}

export function phCardSvg(card, opts = {}) {
  if (card === null || card === undefined || opts.back) {
    return `<svg ${SVGNS} viewBox="0 0 40 64" class="face back" aria-hidden="true"><rect x="1" y="1" width="38" height="62" rx="5" fill="#2f5d8a" stroke="#f4ecd8" stroke-width="2"/><path d="M8 10h24v44H8z" fill="none" stroke="#9cc3e6" stroke-dasharray="3 2"/></svg>`;
  }
  const kind = phKind(card), big = kind >= 10, rank = (kind % 10) + 1;
  const red = rank === 2 || rank === 7 || rank === 10;
  const ink = red ? "#b3261e" : "#1b1b1b";
  const zh = (big ? BIG_ZH : SMALL_ZH)[rank - 1];
  const frame = big
    ? `<rect x="4" y="4" width="32" height="56" rx="3" fill="none" stroke="${ink}" stroke-width="1.2"/><rect x="6" y="6" width="28" height="52" rx="2" fill="none" stroke="${ink}" stroke-width="0.6"/>`
    : `<rect x="4" y="4" width="32" height="56" rx="3" fill="none" stroke="${ink}" stroke-width="0.6" stroke-dasharray="2 2"/>`;
  return `<svg ${SVGNS} viewBox="0 0 40 64" class="face" aria-hidden="true"><rect x="1" y="1" width="38" height="62" rx="5" fill="#f7f0dc" stroke="#857a5e"/>${frame}` +
    (big && hasCjk()
      ? `<text x="20" y="38" text-anchor="middle" font-size="19" font-family="${CJK}" fill="${ink}" font-weight="700">${zh}</text>`
      : strokes(rank, 9, 20, 22, ink, big ? 3 : 1.8)) +
    `<text x="8" y="15" font-size="9" font-family="sans-serif" fill="${ink}" font-weight="700">${rank}</text>` +
    `<text x="20" y="55" text-anchor="middle" font-size="8" font-family="sans-serif" fill="${ink}">${big ? "B" : "s"}${rank}</text></svg>`;
}

// ---------------------------------------------------------------- MCR
const KIND_CODES = [];
for (const s of ["W", "T", "B"]) for (let i = 1; i <= 9; i++) KIND_CODES.push(s + i);
for (let i = 1; i <= 4; i++) KIND_CODES.push("F" + i);
for (let i = 1; i <= 3; i++) KIND_CODES.push("J" + i);
export function mcCode(tile) { return tile >= 136 ? "H" + (tile - 135) : KIND_CODES[tile >> 2]; }
export function mcKind(tile) { return tile >= 136 ? 34 + tile - 136 : tile >> 2; }
/** The first copy of a kind code ("W1" .. "J3", as the coach and the calculator name kinds). */
export function mcTileOfCode(code) { return KIND_CODES.indexOf(code) * 4; }

export function mcTileName(tile) {
  const c = mcCode(tile), n = Number(c.slice(1));
  switch (c[0]) {
    case "W": return t("tile.characters", { n });
    case "T": return t("tile.bamboo", { n });
    case "B": return t("tile.dots", { n });
    case "F": return t("tile.wind" + n);
    case "J": return t("tile.dragon" + n);
    default: return t("tile.flower", { n });
  }
}

const DOTS = {
  1: [[20, 28]], 2: [[20, 16], [20, 40]], 3: [[11, 13], [20, 28], [29, 43]],
  4: [[12, 16], [28, 16], [12, 40], [28, 40]], 5: [[12, 14], [28, 14], [20, 28], [12, 42], [28, 42]],
  6: [[12, 12], [28, 12], [12, 28], [28, 28], [12, 44], [28, 44]],
  7: [[10, 10], [20, 15], [30, 20], [12, 32], [28, 32], [12, 45], [28, 45]],
  8: [[12, 9], [28, 9], [12, 22], [28, 22], [12, 35], [28, 35], [12, 48], [28, 48]],
  9: [[10, 12], [20, 12], [30, 12], [10, 28], [20, 28], [30, 28], [10, 44], [20, 44], [30, 44]],
};
const BAMBOO = {
  1: [[20, 28]], 2: [[20, 16], [20, 40]], 3: [[20, 16], [12, 40], [28, 40]],
  4: [[13, 16], [27, 16], [13, 40], [27, 40]], 5: [[11, 16], [29, 16], [20, 28], [11, 40], [29, 40]],
  6: [[10, 16], [20, 16], [30, 16], [10, 40], [20, 40], [30, 40]],
  7: [[20, 10], [10, 28], [20, 28], [30, 28], [10, 46], [20, 46], [30, 46]],
  8: [[8, 16], [16, 16], [24, 16], [32, 16], [8, 40], [16, 40], [24, 40], [32, 40]],
  9: [[10, 10], [20, 10], [30, 10], [10, 28], [20, 28], [30, 28], [10, 46], [20, 46], [30, 46]],
};

function tileBody(tile) {
  const c = mcCode(tile), n = Number(c.slice(1));
  if (c[0] === "B") {
    const r = n === 1 ? 10 : n >= 7 ? 4.2 : 5.2;
    return DOTS[n].map(([x, y], i) => {
      const col = n === 1 ? "#1f5fa8" : (i % 3 === 1 ? "#b3261e" : i % 3 === 2 ? "#1f7a3a" : "#1f5fa8");
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${col}" stroke-width="2"/><circle cx="${x}" cy="${y}" r="${r / 3}" fill="${col}"/>`;
    }).join("");
  }
  if (c[0] === "T") {
    if (n === 1) {
      return `<ellipse cx="20" cy="30" rx="9" ry="14" fill="#1f7a3a"/><circle cx="20" cy="17" r="5" fill="#b3261e"/><path d="M20 44l-6 8M20 44l6 8" stroke="#1f7a3a" stroke-width="2"/>`;
    }
    return BAMBOO[n].map(([x, y], i) => {
      const col = (n === 5 || n === 7 || n === 9) && i === (n === 7 ? 0 : Math.floor(n / 2)) ? "#b3261e" : "#1f7a3a";
      return `<rect x="${x - 2.4}" y="${y - 7.5}" width="4.8" height="15" rx="2" fill="${col}"/><line x1="${x - 2.4}" x2="${x + 2.4}" y1="${y}" y2="${y}" stroke="#f7f4ea" stroke-width="0.8"/>`;
    }).join("");
  }
  if (c[0] === "W") {
    return strokes(n, 11, 6, 18, "#1b1b1b", 1.9) +
      (hasCjk() ? `<text x="20" y="49" text-anchor="middle" font-size="17" font-family="${CJK}" fill="#b3261e">萬</text>` : strokes("wan", 11, 30, 18, "#b3261e", 2));
  }
  if (c[0] === "F") {
    return hasCjk() ? `<text x="20" y="36" text-anchor="middle" font-size="22" font-family="${CJK}" fill="#1b1b1b">${WIND_ZH[n - 1]}</text>`
      : `<text x="20" y="38" text-anchor="middle" font-size="24" font-family="Georgia,'DejaVu Serif',serif" font-weight="700" fill="#1b1b1b">${WIND_LETTER[n - 1]}</text>`;
  }
  if (c[0] === "J") {
    if (n === 1) return strokes("zhong", 9, 16, 22, "#b3261e", 3.2);
    if (n === 2) {
      return hasCjk() ? `<text x="20" y="37" text-anchor="middle" font-size="22" font-family="${CJK}" fill="#1f7a3a" font-weight="700">發</text>`
        : `<path d="M20 10c-6 6-8 10-8 14 0 6 4 10 8 16M20 10c6 6 8 10 8 14 0 6-4 10-8 16M12 26h16M20 14v28" fill="none" stroke="#1f7a3a" stroke-width="2.6" stroke-linecap="round"/>`;
    }
    return `<rect x="9" y="10" width="22" height="36" rx="2" fill="none" stroke="#1f5fa8" stroke-width="2.5"/><rect x="13" y="14" width="14" height="28" fill="none" stroke="#1f5fa8" stroke-width="1"/>`;
  }
  // flower: petals and its number
  const cols = ["#b3261e", "#c77700", "#1f7a3a", "#1f5fa8"];
  const col = cols[(n - 1) % 4];
  let petals = "";
  for (let i = 0; i < 5; i++) {
    const a = (i / 5) * Math.PI * 2;
    petals += `<circle cx="${(20 + 7 * Math.cos(a)).toFixed(1)}" cy="${(26 + 7 * Math.sin(a)).toFixed(1)}" r="5" fill="${col}" opacity="0.8"/>`;
  }
  return petals + `<circle cx="20" cy="26" r="3.5" fill="#f1c232"/>`;
}

function tileCorner(tile) {
  const c = mcCode(tile);
  const label = c[0] === "F" ? WIND_LETTER[Number(c[1]) - 1] : c[0] === "J" ? "" : c[0] === "H" ? c : c.slice(1);
  return label ? `<text x="4" y="9" font-size="7.5" font-family="sans-serif" fill="#555" font-weight="700">${label}</text>` : "";
}

export function mcTileSvg(tile, opts = {}) {
  if (tile === null || tile === undefined || opts.back) {
    return `<svg ${SVGNS} viewBox="0 0 40 56" class="face back" aria-hidden="true"><rect x="1" y="1" width="38" height="54" rx="5" fill="#1f6f4a" stroke="#e9e2c8" stroke-width="2"/><rect x="5" y="5" width="30" height="46" rx="3" fill="none" stroke="#8fd1ad" stroke-width="1"/></svg>`;
  }
  return `<svg ${SVGNS} viewBox="0 0 40 56" class="face" aria-hidden="true"><rect x="1" y="2.5" width="38" height="53" rx="5" fill="#cdbf95"/><rect x="1" y="1" width="38" height="52" rx="5" fill="#fbf8ee" stroke="#a69a78"/>` +
    tileBody(tile) + tileCorner(tile) + `</svg>`;
}

// Generic: one card/tile element (button when interactive)
export function pieceHtml(game, id, { cls = "", attrs = "", back = false, tag = "span" } = {}) {
  const ui = gameUi(game);
  const svg = ui.pieceSvg(id, { back });
  const name = back ? t("hidden") : ui.pieceName(id);
  const role = tag === "span" ? ` role="img"` : "";
  return `<${tag} class="piece ${game} ${cls}"${role} aria-label="${name}" title="${name}" ${attrs}>${svg}</${tag}>`;
}
