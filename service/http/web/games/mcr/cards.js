// MCR's tiles: three suits, winds, dragons and flowers (tile id >> 2 is the kind; 136..143 the
// flowers), drawn as inline SVG; names come from the translation table.
import { t } from "../../i18n.js";
import { SVGNS, CJK, strokes, hasCjk } from "../../cards.js";

const WIND_ZH = ["東", "南", "西", "北"];
const WIND_LETTER = ["E", "S", "W", "N"];
// the character for ten thousand and the red dragon, as strokes on the numerals' grid
const WAN = "M3 4H17M9 4Q8 13 3 18M8 9H15Q15 16 12 17";
const ZHONG = "M4 6H16V13H4ZM10 2V18";

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
      (hasCjk() ? `<text x="20" y="49" text-anchor="middle" font-size="17" font-family="${CJK}" fill="#b3261e">萬</text>` : strokes(WAN, 11, 30, 18, "#b3261e", 2));
  }
  if (c[0] === "F") {
    return hasCjk() ? `<text x="20" y="36" text-anchor="middle" font-size="22" font-family="${CJK}" fill="#1b1b1b">${WIND_ZH[n - 1]}</text>`
      : `<text x="20" y="38" text-anchor="middle" font-size="24" font-family="Georgia,'DejaVu Serif',serif" font-weight="700" fill="#1b1b1b">${WIND_LETTER[n - 1]}</text>`;
  }
  if (c[0] === "J") {
    if (n === 1) return strokes(ZHONG, 9, 16, 22, "#b3261e", 3.2);
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
