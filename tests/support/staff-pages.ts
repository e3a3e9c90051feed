// Staff pages in the browser tests: a site with one staff user, and that user signed in through /login.
import type { Page } from "playwright-core";
import type { StaffUser } from "../../src/modules/auth/auth.schemas.js";
import { type BrowserSite, DESKTOP, PHONE, openBrowserSite, waitForIslands } from "./browser.js";

export interface StaffLogin {
  email: string;
  password: string;
}

/** The two widths a staff page is tried at, named for the test titles. */
export const BOTH_SIZES = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;

/** A fresh site (openBrowserSite) with one staff user who signs in with `login`; an owner unless `role` says. */
export async function openStaffSite(
  login: StaffLogin & { firstName: string; lastName: string; role?: string },
): Promise<{ site: BrowserSite; user: StaffUser }> {
  const site = await openBrowserSite();
  const user = await site.ctx.container.users.create(login);
  return { site, user };
}

/**
 * Signs staff in through /login?next=…, and waits for `next`; then, as the page needs, for its islands and for the
 * admin script (share dialog, htmx: `data-admin-ready`).
 */
export async function signInAt(
  site: BrowserSite,
  page: Page,
  login: StaffLogin,
  next: string,
  wait: { islands?: boolean; adminReady?: boolean } = {},
): Promise<void> {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  if (wait.islands) await waitForIslands(page);
  if (wait.adminReady) await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}
