// What every game's pieces share: the SVG namespace, the CJK font stack, numerals drawn as strokes,
// whether the browser draws CJK, and pieceHtml, which asks the game's module (games/<name>/cards.js
// draws each game's own pieces).
import { t } from "./i18n.js";
import { gameUi } from "./registry.js";

export const SVGNS = 'xmlns="http://www.w3.org/2000/svg"';
export const CJK = "'Noto Sans CJK SC','Noto Sans SC','WenQuanYi Micro Hei','Microsoft YaHei','PingFang SC',serif";

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
};
/** A numeral (1..10), or any path `d` on the same 20x20 grid, drawn as strokes at (x, y). */
export function strokes(key, x, y, size, color, width) {
  const k = size / 20;
  return `<path d="${STROKES[key] ?? key}" transform="translate(${x} ${y}) scale(${k})" fill="none" stroke="${color}" stroke-width="${(width / k).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/>`;
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

// Generic: one card/tile element (button when interactive)
export function pieceHtml(game, id, { cls = "", attrs = "", back = false, tag = "span" } = {}) {
  const ui = gameUi(game);
  const svg = ui.pieceSvg(id, { back });
  const name = back ? t("hidden") : ui.pieceName(id);
  const role = tag === "span" ? ` role="img"` : "";
  return `<${tag} class="piece ${game} ${cls}"${role} aria-label="${name}" title="${name}" ${attrs}>${svg}</${tag}>`;
}
