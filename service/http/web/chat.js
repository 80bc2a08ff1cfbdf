// A word at the table: the chat panel of a live page, opened by a button. A seat's page shows the
// seats' chat; a spectator's page, at a table open to spectators, the spectators' room instead
// (read by anyone, written by a signed-in account; the two never mix, the server keeps them
// apart). Every message is shown with textContent, never as markup. Muting a person is this
// browser's own choice: the muted seats (or, in the room, names) of a deal are kept in
// localStorage, and their messages are not shown here; the server stores no mutes.
import { t, addStrings } from "./i18n.js";
import { api, store } from "./net.js";
import { CHAT_STRINGS } from "./i18n_chat.js";
import { currentAccount } from "./account.js";

addStrings(CHAT_STRINGS);

const PHRASES = ["gg", "nice", "thanks", "hurry", "oops", "hello", "sorry"];
let current = null; // { ctx, root, list, messages, watch, me }

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// the seats' mutes by seat number, the room's by name, each deal's in its own key
const muteKey = (chat) => (chat.watch ? "chat.mute.watch." : "chat.mute.") + chat.ctx.deal;
const muted = (chat) => new Set(store.get(muteKey(chat), []));
const person = (chat, m) => (chat.watch ? m.name : m.seat);
const same = (x, m) => x.at === m.at && x.seat === m.seat && x.name === m.name && x.text === m.text;
const chatPath = (chat) => `/deals/${chat.ctx.deal}/${chat.watch ? "watchers/chat" : "chat"}`;

function who(m) { return m.name || t("chat.seat", { n: m.seat + 1 }); }
function wording(m) { return m.phrase ? t("chat.phrase." + m.text) : m.text; }

function draw(chat) {
  const { list, messages } = chat;
  const off = muted(chat);
  list.replaceChildren();
  const shown = messages.filter((m) => !off.has(person(chat, m)));
  if (!shown.length) list.append(el("li", { class: "chat-empty" }, t("chat.empty")));
  for (const m of shown) {
    const li = el("li", { class: "chat-line" });
    li.append(el("b", { class: "chat-who" }, who(m) + ": "), el("span", { class: "chat-text" }, wording(m)));
    if (chat.watch ? m.name !== chat.me : m.seat !== chat.ctx.seat) {
      const b = el("button", { type: "button", class: "chat-mute", "aria-label": t("chat.mute", { name: who(m) }) }, "🔇");
      b.addEventListener("click", () => {
        const set = muted(chat); set.add(person(chat, m)); store.set(muteKey(chat), [...set]); draw(chat); drawMutes(chat);
      });
      li.append(b);
    }
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

function drawMutes(chat) {
  const { mutes } = chat;
  mutes.replaceChildren();
  for (const one of muted(chat)) {
    const name = chat.watch ? one : chat.messages.find((m) => m.seat === one)?.name || t("chat.seat", { n: one + 1 });
    const b = el("button", { type: "button", class: "chat-unmute" }, t("chat.unmute", { name }));
    b.addEventListener("click", () => {
      const set = muted(chat); set.delete(one); store.set(muteKey(chat), [...set]); draw(chat); drawMutes(chat);
    });
    mutes.append(b);
  }
}

async function say(chat, body) {
  try {
    // the room is written with the session cookie, never a seat token
    const m = await api(chatPath(chat), { method: "POST", token: chat.watch ? undefined : chat.ctx.token, body });
    if (!chat.messages.some((x) => same(x, m))) { chat.messages.push(m); draw(chat); }
    return true;
  } catch (e) {
    chat.status.textContent = t("chat.refused", { why: e?.problem?.detail || e?.message || "" });
    return false;
  }
}

function build(ctx, watch = false, me = null) {
  if (!document.querySelector("link[data-chat-css]")) {
    document.head.append(el("link", { rel: "stylesheet", href: "/web/chat.css", "data-chat-css": "" }));
  }
  const root = el("div", { class: "chat", id: "chat" });
  const title = watch ? t("chat.watch.title") : t("chat.title");
  const opener = watch ? t("chat.watch.open") : t("chat.open");
  const toggle = el("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": "false" }, opener);
  const panel = el("section", { class: "chat-panel", id: "chat-panel", hidden: "", "aria-label": title });
  const list = el("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const mutes = el("div", { class: "chat-mutes" });
  const phrases = el("div", { class: "chat-phrases" });
  const form = el("form", { class: "chat-form" });
  const input = el("input", { type: "text", maxlength: "200", id: "chat-input", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
  const send = el("button", { type: "submit", id: "chat-send" }, t("chat.send"));
  const status = el("p", { class: "chat-status", role: "status" });
  form.append(input, send);
  if (watch && !me) { // reading for anyone, writing for the signed-in
    panel.append(el("h2", {}, title), list, mutes, el("p", { class: "chat-signin", id: "chat-signin" }, t("chat.watch.signin")), status);
  } else {
    panel.append(el("h2", {}, title), list, mutes, phrases, form, status);
  }
  root.append(toggle, panel);
  const chat = { ctx, root, list, mutes, status, messages: [], watch, me };
  for (const id of PHRASES) {
    const b = el("button", { type: "button", class: "chat-phrase", "data-phrase": id }, t("chat.phrase." + id));
    b.addEventListener("click", () => say(chat, { phrase: id }));
    phrases.append(b);
  }
  toggle.addEventListener("click", async () => {
    const open = panel.hidden;
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? t("chat.close") : opener;
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
    const { messages } = await api(chatPath(chat), { token: chat.watch ? undefined : chat.ctx.token });
    // merged with what the stream brought meanwhile, each message once, in the order said
    const has = (m, list) => list.some((x) => same(x, m));
    chat.messages = [...messages, ...chat.messages.filter((m) => !has(m, messages))].sort((a, b) => a.at - b.at).slice(-200);
    draw(chat); drawMutes(chat);
  } catch { /* the stream brings what follows */ }
}

/** A spectator's page: the spectators' room, if the table has one (a GET answers 404 where
 * spectators are off), with a form for a signed-in account. */
async function mountRoom(ctx, es) {
  if (!ctx.roomAsked) {
    ctx.roomAsked = (async () => {
      let messages;
      try { ({ messages } = await api(`/deals/${ctx.deal}/watchers/chat`)); } catch { return null; }
      const me = (await currentAccount())?.name || null;
      if (ctx.closed) return null;
      if (current && current.ctx !== ctx) { current.root.remove(); current = null; }
      current = build(ctx, true, me);
      current.messages = messages.slice(-200);
      draw(current); drawMutes(current);
      const watch = setInterval(() => {
        if (ctx.closed && current?.ctx === ctx) { current.root.remove(); current = null; }
        if (!current || current.ctx !== ctx) clearInterval(watch);
      }, 1000);
      return current;
    })();
  }
  const chat = await ctx.roomAsked;
  if (chat) listen(chat, es);
}

function listen(chat, es) {
  // once this stream is in place (its first view), read the chat again: a word said between the
  // first read and the stream's start reaches the page that way
  es.addEventListener("view", () => { if (!es.chatSynced) { es.chatSynced = true; load(chat); } });
  es.addEventListener("chat", (e) => {
    let m; try { m = JSON.parse(e.data); } catch { return; }
    if (chat.messages.some((x) => same(x, m))) return;
    chat.messages.push(m);
    if (chat.messages.length > 200) chat.messages.shift();
    draw(chat);
    const panel = chat.root.querySelector("#chat-panel");
    if (panel.hidden && !muted(chat).has(person(chat, m))) chat.root.querySelector("#chat-toggle").classList.add("chat-new");
  });
}

/** Called with each live stream the page opens: a seat's page gets the seats' chat panel, a
 * spectator's page the spectators' room where the table has one (one panel per page), and the
 * stream's `chat` messages go into it. */
export function mountChat(ctx, es) {
  if (current && current.ctx !== ctx) { current.root.remove(); current = null; }
  if (!ctx.token) { mountRoom(ctx, es); return; }
  if (!current) {
    current = build(ctx);
    const watch = setInterval(() => { // the page left the table
      if (ctx.closed && current?.ctx === ctx) { current.root.remove(); current = null; }
      if (!current || current.ctx !== ctx) clearInterval(watch);
    }, 1000);
    load(current);
  }
  listen(current, es);
}
