// The staff session in the browser (staff-side §4, §8): what happens when it ends. No framework and no
// imports, so the admin pages' plain script and the React islands share it. Logging out is logout.ts, which the admin
// script fetches when Logout is pressed (docs/decisions.md#79).

/** Where a signed-out browser goes (staff-side §7: the login page for session expiry). */
export const LOGIN_PATH = "/api/login";
/** Logged-out redirect delay (staff-side §9). */
export const LOGGED_OUT_REDIRECT_MS = 500;
export const UNAUTHORIZED_TITLE = "Unauthorized";
export const UNAUTHORIZED_MESSAGE = "You are logged out. Logging in again...";
/** Fired on window before the cached data goes, so that an island can drop its in-memory cache. */
export const LOGOUT_EVENT = "haven:logout";

let leaving = false;

/**
 * Goes to the login page after the redirect delay; several failing calls at once still go only once.
 * `notify` shows the 'Unauthorized' notice in whatever way the page can (a toast).
 */
export function sendToLogin(notify: (title: string, description: string) => void): void {
  if (leaving) return;
  leaving = true;
  notify(UNAUTHORIZED_TITLE, UNAUTHORIZED_MESSAGE);
  setTimeout(() => window.location.assign(LOGIN_PATH), LOGGED_OUT_REDIRECT_MS);
}

/** The inspection form's IndexedDB database (islands/inspections/store.ts). */
export const INSPECTION_FORM_DB = "haven-inspections";
