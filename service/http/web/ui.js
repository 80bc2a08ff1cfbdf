// Messages outside the re-rendered page: the toast (refusals, notes) and the polite live region.
import { t } from "./i18n.js";
import { $ } from "./net.js";
import { refusalHtml } from "./words.js";

export function toast(html, kind = "error") {
  const el = $("#toast");
  el.className = "toast " + kind;
  el.innerHTML = html + ` <button type="button" class="close" aria-label="${t("close")}">×</button>`;
  el.hidden = false;
  $(".close", el).onclick = () => { el.hidden = true; };
  clearTimeout(toast.timer);
  if (kind !== "error") toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

export function showProblem(err, game) { toast(refusalHtml(err, game), "error"); }

// statuses that are not moves (the move log is a live region of its own)
export function announce(text) {
  const el = $("#announce");
  if (el && text) el.textContent = text;
}
