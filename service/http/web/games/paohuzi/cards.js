// Paohuzi's cards: small and big ranks one to ten, four copies each (card id >> 2 is the kind,
// 0..9 small, 10..19 big), drawn as inline SVG; names come from the translation table.
import { t } from "../../i18n.js";
import { SVGNS, CJK, strokes, hasCjk } from "../../cards.js";

const SMALL_ZH = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const BIG_ZH = ["壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];

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
