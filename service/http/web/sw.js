// The service worker: keeps the table's shell (the page, its ES modules, style sheets, the manifest
// and the icons) so the app opens from the home screen, and keeps nothing else. It is served from
// /web/sw.js with `Service-Worker-Allowed: /`, registered with the scope `/`.
//
// What it never touches: any request that is not a GET of this origin, any URL with a query, any
// request carrying a token (`Authorization`) or a player key (`X-Player-Key`), and every path that
// is not the page (`/`) or a file under `/web/` (so no `/deals`, `/matches`, `/players`, stream or
// `/log` request is ever answered from, or stored in, its cache: those go to the network as if
// there were no worker).
//
// Network first: a new release reaches the player on the next load; the cache answers only when
// the network does not (offline, or the server down). Bump VERSION when this file's logic changes:
// the new worker drops every older cache when it takes over.
const VERSION = "1";
const PREFIX = "dealstream-shell-";
const CACHE = PREFIX + VERSION;
const CORE = ["/", "/web/app.js", "/web/style.css", "/web/matches.css", "/web/manifest.webmanifest",
  "/web/icons/icon-192.png", "/web/icons/icon-512.png", "/web/icons/maskable-512.png"];
const SHELL_FILE = /^\/web\/[A-Za-z0-9_\-/]+\.(?:js|css|png|svg|webmanifest|woff2)$/;

// the one key a shell URL is kept under, or null when the request is none of the shell's
function shellKey(request) {
  if (request.method !== "GET") return null;
  if (request.headers.has("Authorization") || request.headers.has("X-Player-Key")) return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.search || url.pathname.includes("..")) return null;
  if (url.pathname === "/web/sw.js") return null; // the browser fetches the worker itself
  if (url.pathname === "/" || SHELL_FILE.test(url.pathname)) return url.origin + url.pathname;
  return null;
}

async function keep(cache, key, response) {
  // only whole answers of this origin: never an error, a redirect or a partial answer
  if (response && response.ok && response.status === 200 && response.type === "basic") {
    await cache.put(key, response.clone());
  }
}

async function fill(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(urls.map(async (u) => {
    const key = shellKey(new Request(u));
    if (!key) return;
    try { await keep(cache, key, await fetch(key, { cache: "no-cache" })); } catch { /* offline: later */ }
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(fill(CORE.map((p) => self.location.origin + p)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// the page names the modules it loaded (its import graph), so the shell is whole for offline use
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "shell" && Array.isArray(data.urls)) event.waitUntil(fill(data.urls.slice(0, 200)));
});

self.addEventListener("fetch", (event) => {
  const key = shellKey(event.request);
  if (!key) return; // not the shell: the network answers, untouched and unkept
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      await keep(cache, key, response);
      return response;
    } catch (err) {
      const hit = await cache.match(key);
      if (hit) return hit;
      throw err;
    }
  })());
});
