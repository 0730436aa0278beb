// The service worker: the app's own files come from the browser's cache, so a slow
// server still opens the page at once; the game itself (the API and the sockets) always
// goes to the server. The server fills in VERSION and FILES (the hash and list of the
// web files, each under /static/VERSION/) when it serves this file, so a new version
// installs a new cache whole, and a page names only its own version's files.

const VERSION = "@VERSION@";
const FILES = @FILES@;
const CACHE = `bones-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(["/", ...FILES])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("bones-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
  } else if (event.request.mode === "navigate") {
    // the page is the same for every path: the server's, or the cached one if it fails
    event.respondWith(fetch(event.request).catch(() => caches.match("/")));
  }
});
