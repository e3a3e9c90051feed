// The service worker (vite-plugin-pwa + Workbox, vite.config.ts) keeps the form's code; this keeps the
// page of each opened inspection in its cache too, so the inspection reopens with no network.
export const SW_URL = "/inspections-sw.js";
export const SW_SCOPE = "/admin/inspections/";
/** The worker's cache of inspection pages (inspections-sw.ts), which this file also fills. */
export const PAGE_CACHE = "haven-inspection-pages";
export const PHOTO_CACHE = "haven-inspection-photos";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker
    .register(SW_URL, { scope: SW_SCOPE })
    .catch((error) => console.warn("Service worker not registered", error));
}

/** Puts the edit page of this inspection into the page cache (the first visit is not yet under the worker). */
export async function keepPageForOffline(inspectionId: number): Promise<void> {
  if (!("caches" in window) || !navigator.onLine) return;
  try {
    const cache = await caches.open(PAGE_CACHE);
    await cache.add(new Request(`/admin/inspections/edit/${inspectionId}`, { credentials: "include" }));
  } catch (error) {
    console.warn("Could not keep the page for offline use", error);
  }
}
