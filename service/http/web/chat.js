// A word at the table: the seats' chat panel of a live page, opened by a button. Every message
// is shown with textContent, never as markup. Spectators have no chat (the server gives them
// none). Muting a person is this browser's own choice: the muted seats of a deal are kept in
// localStorage, and their messages are not shown here; the server stores no mutes.
import { t, addStrings } from "./i18n.js";
import { api, store } from "./net.js";
import { CHAT_STRINGS } from "./i18n_chat.js";

addStrings(CHAT_STRINGS);

const PHRASES = ["gg", "nice", "thanks", "hurry", "oops", "hello", "sorry"];
let current = null; // { ctx, root, list, messages }

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const muteKey = (deal) => "chat.mute." + deal;
const muted = (deal) => new Set(store.get(muteKey(deal), []));

function who(m) { return m.name || t("chat.seat", { n: m.seat + 1 }); }
function wording(m) { return m.phrase ? t("chat.phrase." + m.text) : m.text; }

function draw(chat) {
  const { ctx, list, messages } = chat;
  const off = muted(ctx.deal);
  list.replaceChildren();
  const shown = messages.filter((m) => !off.has(m.seat));
  if (!shown.length) list.append(el("li", { class: "chat-empty" }, t("chat.empty")));
  for (const m of shown) {
    const li = el("li", { class: "chat-line" });
    li.append(el("b", { class: "chat-who" }, who(m) + ": "), el("span", { class: "chat-text" }, wording(m)));
    if (m.seat !== ctx.seat) {
      const b = el("button", { type: "button", class: "chat-mute", "aria-label": t("chat.mute", { name: who(m) }) }, "🔇");
      b.addEventListener("click", () => {
        const set = muted(ctx.deal); set.add(m.seat); store.set(muteKey(ctx.deal), [...set]); draw(chat); drawMutes(chat);
      });
      li.append(b);
    }
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

function drawMutes(chat) {
  const { ctx, mutes } = chat;
  mutes.replaceChildren();
  for (const seat of muted(ctx.deal)) {
    const name = chat.messages.find((m) => m.seat === seat)?.name || t("chat.seat", { n: seat + 1 });
    const b = el("button", { type: "button", class: "chat-unmute" }, t("chat.unmute", { name }));
    b.addEventListener("click", () => {
      const set = muted(ctx.deal); set.delete(seat); store.set(muteKey(ctx.deal), [...set]); draw(chat); drawMutes(chat);
    });
    mutes.append(b);
  }
}

async function say(chat, body) {
  try {
    const m = await api(`/deals/${chat.ctx.deal}/chat`, { method: "POST", token: chat.ctx.token, body });
    if (!chat.messages.some((x) => x.at === m.at && x.seat === m.seat && x.text === m.text)) { chat.messages.push(m); draw(chat); }
    return true;
  } catch (e) {
    chat.status.textContent = t("chat.refused", { why: e?.problem?.detail || e?.message || "" });
    return false;
  }
}

function build(ctx) {
  if (!document.querySelector("link[data-chat-css]")) {
    document.head.append(el("link", { rel: "stylesheet", href: "/web/chat.css", "data-chat-css": "" }));
  }
  const root = el("div", { class: "chat", id: "chat" });
  const toggle = el("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": "false" }, t("chat.open"));
  const panel = el("section", { class: "chat-panel", id: "chat-panel", hidden: "", "aria-label": t("chat.title") });
  const list = el("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const mutes = el("div", { class: "chat-mutes" });
  const phrases = el("div", { class: "chat-phrases" });
  const form = el("form", { class: "chat-form" });
  const input = el("input", { type: "text", maxlength: "200", id: "chat-input", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
  const send = el("button", { type: "submit", id: "chat-send" }, t("chat.send"));
  const status = el("p", { class: "chat-status", role: "status" });
  form.append(input, send);
  panel.append(el("h2", {}, t("chat.title")), list, mutes, phrases, form, status);
  root.append(toggle, panel);
  const chat = { ctx, root, list, mutes, status, messages: [] };
  for (const id of PHRASES) {
    const b = el("button", { type: "button", class: "chat-phrase", "data-phrase": id }, t("chat.phrase." + id));
    b.addEventListener("click", () => say(chat, { phrase: id }));
    phrases.append(b);
  }
  toggle.addEventListener("click", async () => {
    const open = panel.hidden;
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? t("chat.close") : t("chat.open");
    toggle.classList.remove("chat-new");
    if (open) { await load(chat); input.focus(); }
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    status.textContent = "";
    if (await say(chat, { text })) input.value = "";
  });
  document.body.append(root);
  return chat;
}

async function load(chat) {
  try {
    const { messages } = await api(`/deals/${chat.ctx.deal}/chat`, { token: chat.ctx.token });
    // merged with what the stream brought meanwhile, each message once, in the order said
    const has = (m, list) => list.some((x) => x.at === m.at && x.seat === m.seat && x.text === m.text);
    chat.messages = [...messages, ...chat.messages.filter((m) => !has(m, messages))].sort((a, b) => a.at - b.at).slice(-200);
    draw(chat); drawMutes(chat);
  } catch { /* the stream brings what follows */ }
}

/** Called with each live stream the page opens: a seat's page gets the chat panel (one per
 * page), and the stream's `chat` messages go into it. */
export function mountChat(ctx, es) {
  if (current && current.ctx !== ctx) { current.root.remove(); current = null; }
  if (!ctx.token) return; // spectators: no chat
  if (!current) {
    current = build(ctx);
    const watch = setInterval(() => { // the page left the table
      if (ctx.closed && current?.ctx === ctx) { current.root.remove(); current = null; }
      if (!current || current.ctx !== ctx) clearInterval(watch);
    }, 1000);
    load(current);
  }
  const chat = current;
  // once this stream is in place (its first view), read the chat again: a word said between the
  // first read and the stream's start reaches the page that way
  es.addEventListener("view", () => { if (!es.chatSynced) { es.chatSynced = true; load(chat); } });
  es.addEventListener("chat", (e) => {
    let m; try { m = JSON.parse(e.data); } catch { return; }
    if (chat.messages.some((x) => x.at === m.at && x.seat === m.seat && x.text === m.text)) return;
    chat.messages.push(m);
    if (chat.messages.length > 200) chat.messages.shift();
    draw(chat);
    const panel = chat.root.querySelector("#chat-panel");
    if (panel.hidden && !muted(ctx.deal).has(m.seat)) chat.root.querySelector("#chat-toggle").classList.add("chat-new");
  });
}
