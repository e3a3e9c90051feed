// /admin/my-day readable offline once loaded (docs/decisions.md#38), like the inspection form (#18): a service
// worker scoped to /admin/my-day answers the page from the network and keeps the last copy; offline, it answers
// that copy and the styles it kept. A redirect (signed out) is never kept. Logging out from the page drops it.

export const MY_DAY_CACHE = "haven-my-day";
const PAGE = "/admin/my-day";

export const myDayWorker = `"use strict";
const CACHE = ${JSON.stringify(MY_DAY_CACHE)};
const PAGE = ${JSON.stringify(PAGE)};
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === PAGE) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && !response.redirected) {
            const copy = response.clone();
            event.waitUntil(caches.open(CACHE).then((cache) => cache.put(PAGE, copy)));
          }
          return response;
        })
        .catch(() => caches.open(CACHE).then((cache) => cache.match(PAGE)).then((kept) => kept || Response.error())),
    );
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then(
          (kept) =>
            kept ||
            fetch(request).then((response) => {
              if (response.ok) cache.put(request, response.clone());
              return response;
            }),
        ),
      ),
    );
  }
});
`;

export const myDayScript = `"use strict";
(() => {
  const CACHE = ${JSON.stringify(MY_DAY_CACHE)};
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/my-day-sw.js", { scope: ${JSON.stringify(PAGE)} }).catch(() => undefined);
  }
  // A door code is shown on a tap, fetched each time (no-store), so no kept copy of the page ever holds it.
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-access-code]") : null;
    if (!button) return;
    const out = document.getElementById(button.getAttribute("aria-controls") || "");
    if (!out) return;
    out.textContent = "Fetching…";
    fetch("/api/inspection-bookings/" + button.getAttribute("data-access-code") + "/access-code", {
      headers: { accept: "application/json" },
      cache: "no-store",
    })
      .then((r) => (r.ok ? r.json() : Promise.reject(r)))
      .then((answer) => {
        out.textContent = answer.accessCode || "None given";
        button.hidden = true;
      })
      .catch(() => {
        out.textContent = "The code needs a connection; try again when online.";
      });
  });
  if (!("caches" in window)) return;
  // The first visit is not yet under the worker: keep this page and its styles and scripts now.
  if (navigator.onLine) {
    const files = [...document.querySelectorAll('link[rel="stylesheet"], script[src], link[rel="modulepreload"]')]
      .map((el) => el.href || el.src)
      .filter((href) => href && new URL(href).origin === location.origin && new URL(href).pathname.startsWith("/assets/"));
    caches
      .open(CACHE)
      .then((cache) => Promise.all([cache.add(${JSON.stringify(PAGE)}), ...files.map((f) => cache.add(f))]))
      .catch(() => undefined);
  }
  // Nothing of the day stays on a shared phone after logout.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && new URL(form.action, location.href).pathname === "/logout") caches.delete(CACHE);
  });
})();
`;
