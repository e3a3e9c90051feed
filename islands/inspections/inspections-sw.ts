// The inspection form's service worker (docs/decisions.md#18), built by vite-plugin-pwa (injectManifest)
// from Workbox's modules. It keeps the form's code (precache, the list comes from the build), the pages
// of opened inspections (network first, the kept copy offline) and photos (immutable by id).
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { PAGE_CACHE, PHOTO_CACHE } from "./offline";

// The worker's global, typed by hand: the webworker lib would clash with the DOM lib of the islands.
declare const self: {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
  skipWaiting(): Promise<void>;
};

// A new build takes over at once: the form's code and its pages stay in step.
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(
  ({ request, url }) => request.mode === "navigate" && /^\/admin\/inspections\/(new|edit\/\d+)$/.test(url.pathname),
  new NetworkFirst({
    cacheName: PAGE_CACHE,
    networkTimeoutSeconds: 5,
    matchOptions: { ignoreVary: true, ignoreSearch: true },
  }),
);

registerRoute(
  ({ url }) => /^\/api\/photos\/\d+(\/thumbnail)?$/.test(url.pathname),
  new CacheFirst({
    cacheName: PHOTO_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 1000 })],
  }),
);
