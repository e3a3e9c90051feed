// /admin/notifications (src/modules/notifications/README.md): an office user reads what to act on, filters it by
// kind and unread, follows a link and marks one read; axe on each state, screenshots at 390 px and 1280 px with
// SCREENSHOTS=1.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSite, expectAccessible, screenshotBothWidths } from "../support/browser.js";
import { BOTH_SIZES, openStaffSite, signInAt } from "../support/staff-pages.js";

let site: BrowserSite;
const office = { email: "bell-office@haven.test", password: "bell-test-password" };

beforeAll(async () => {
  ({ site } = await openStaffSite({ ...office, firstName: "Olive", lastName: "Office", role: "office" }));
  const { ctx } = site;
  const raise = (kind: "payment-failed" | "cancel-scheduled" | "booking-cancelled", id: number, text: string) =>
    ctx.container.transaction((tx) =>
      ctx.container.notifications.raise(tx, {
        kind,
        recordType: kind === "booking-cancelled" ? "booking" : "subscription",
        recordId: id,
        link: `/admin/subscriptions/${id}`,
        text,
      }),
    );
  await raise("payment-failed", 41, "Priya Longname-Householder's payment of $43.00 failed: Your card was declined.");
  await raise("cancel-scheduled", 42, "Sam Saunders's plan is set to end on 2027-01-10");
  await raise("booking-cancelled", 43, "Nora Notice cancelled the inspection of 2026-12-04 (12 Bell Road)");
});
afterAll(() => site?.close());

const signIn = (page: Page, next: string) => signInAt(site, page, office, next, { adminReady: true });

describe("/admin/notifications", () => {
  it("has its own sidebar entry, highlighted, and the bell counts the same there as on the dashboard", async () => {
    // docs/decisions.md#55: one count, and the page's own place in the sidebar.
    const page = await site.newPage(BOTH_SIZES[0][1]);
    await signIn(page, "/admin");
    const count = () => page.locator("[data-bell-count]").textContent();
    await expect(count()).resolves.toBe("3");
    await page.locator("[data-bell]").click();
    await page.waitForURL(/\/admin\/notifications$/);
    await expect(count()).resolves.toBe("3");
    await expect(page.getByTestId("notifications-new").textContent()).resolves.toBe("3 new");
    // Every copy of the sidebar (the phone's drawer and the desktop's) marks the same entry.
    const current = await page
      .locator(".admin-nav-link[aria-current='page']")
      .evaluateAll((links) => links.map((a) => [a.getAttribute("href"), a.textContent?.trim()]));
    expect(current.length).toBeGreaterThan(0);
    for (const link of current) expect(link).toEqual(["/admin/notifications", "Notifications"]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "notifications-sidebar");
    await page.goto(`${site.baseUrl}/admin/quote-requests`);
    await expect(count()).resolves.toBe("3");
    await page.close();
  });

  for (const [name, size] of BOTH_SIZES) {
    it(`lists what to act on, filters it and marks one read (${name})`, async () => {
      const page = await site.newPage(size);
      await signIn(page, "/admin/notifications");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Notifications");
      const items = page.locator("[data-notice]");
      expect(await items.count()).toBe(3);
      await expect(items.first().textContent()).resolves.toContain("Homeowner cancelled a booking");
      await expectAccessible(page);
      await screenshotBothWidths(page, `notifications-list-${name}`);

      await page.getByLabel("Kind").selectOption("payment-failed");
      await page.getByLabel("Read", { exact: true }).selectOption("true");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/kind=payment-failed/);
      expect(await items.count()).toBe(1);
      await expect(items.first().locator("a").getAttribute("href")).resolves.toBe("/admin/subscriptions/41");
      await expectAccessible(page);

      // Mark it read: back to the same filters, and now nothing unread of that kind.
      await items
        .first()
        .getByRole("button", { name: /Mark read/ })
        .click();
      await page.waitForURL(/kind=payment-failed/);
      expect(await page.locator("[data-notice]").count()).toBe(0);
      await expect(page.getByText("No notifications match these filters.").isVisible()).resolves.toBe(true);
      await expectAccessible(page);
      await screenshotBothWidths(page, `notifications-filtered-${name}`);
      // The next run starts from three unread again.
      await site.ctx.db("notification_reads").del();
      await page.close();
    });
  }
});
