// Xeri Companion's service worker: offline, cache-first. Served as flutter_service_worker.js and
// registered as flutter_service_worker.js?v=<serviceWorkerVersion> (the URL flutter_bootstrap.js
// re-registers whenever a registration exists: any other name or query would be replaced by the
// flet-web stub, which unregisters itself). Written by pwa/build.py; the build id changes with any file.
const BUILD = "__BUILD_ID__";
const CACHE = "xeri-" + BUILD;
const PRECACHE = __PRECACHE__;
// Cached on first use, or when the page reports what it loaded (message "cache-urls"): one CanvasKit per
// browser engine (canvaskit/chromium/* on Chrome, canvaskit/* elsewhere), and the script fonts (Hangul,
// emoji), which only a page showing Korean or such a name fetches.
const LAZY = new Set(__LAZY__);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" })));
    // First install: take over at once. An update waits until every tab of the old version closed
    // (a page must not get half its files from one build and half from another).
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("xeri-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "cache-urls") {
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      for (const url of data.urls) {
        const path = new URL(url, self.registration.scope).pathname.replace(new URL(self.registration.scope).pathname, "");
        if (LAZY.has(path) && !(await cache.match(url))) {
          try { await cache.add(new Request(url, { cache: "force-cache" })); } catch (e) {}
        }
      }
    })());
  } else if (data.type === "build") {
    // Asked by a page of the build before, once this one is installed and waiting: it makes this build's
    // Python snapshot ahead of its first start (head.html, xeriWatchUpdate).
    const reply = (event.ports && event.ports[0]) || event.source;
    reply && reply.postMessage({ type: "build", build: BUILD });
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      return (await cache.match("./")) || fetch(request);
    })());
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request);
    if (hit) return hit;
    const response = await fetch(request);
    const path = url.pathname.replace(new URL(self.registration.scope).pathname, "");
    if (response.ok && LAZY.has(path)) await cache.put(request, response.clone());
    return response;
  })());
});
