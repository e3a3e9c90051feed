// /admin/audit (docs/decisions.md#39): the owner reads the trail, filters it by record, and exports it; axe on each
// state, screenshots at 390 px and 1280 px with SCREENSHOTS=1.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asActor } from "../../src/modules/audit/index.js";
import { type BrowserSite, expectAccessible, screenshotBothWidths } from "../support/browser.js";
import { BOTH_SIZES, openStaffSite, signInAt } from "../support/staff-pages.js";

let site: BrowserSite;
const owner = { email: "audit-owner@haven.test", password: "audit-test-password" };
let propertyId: number;

beforeAll(async () => {
  const opened = await openStaffSite({ ...owner, firstName: "Odile", lastName: "Owner" });
  site = opened.site;
  const { ctx } = site;
  const { user } = opened;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "audit-client@example.com", name: "Cléo Client", phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: "12 Elgin Street", city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1800 },
  );
  propertyId = property.id;
  await asActor(`staff:${user.id}`, async () => {
    await ctx.container.customers.editProperty(property.id, { property: { city: "Nepean" }, customer: {} });
    await ctx.container.customers.editProperty(property.id, {
      property: { notes: "Side gate; the dog is friendly" },
      customer: {},
    });
  });
});
afterAll(() => site?.close());

const signIn = (page: Page, next: string) => signInAt(site, page, owner, next, { adminReady: true });

describe("/admin/audit", () => {
  for (const [name, size] of BOTH_SIZES) {
    it(`lists who changed what, filters by record and offers the CSV (${name})`, async () => {
      const page = await site.newPage(size);
      await signIn(page, "/admin");
      // Reached from the sidebar (the phone's menu).
      if (name === "phone") await page.locator("[data-admin-menu] > summary").click();
      const nav = page.getByRole("navigation", { name: name === "phone" ? "Admin menu" : "Admin" });
      await nav.getByRole("link", { name: "Audit Trail" }).click();
      await page.waitForURL(`${site.baseUrl}/admin/audit`);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Audit trail");
      const rows = page.getByTestId("audit-row");
      expect(await rows.count()).toBeGreaterThanOrEqual(2);
      await expect(rows.first().textContent()).resolves.toContain(owner.email);
      await expect(rows.first().textContent()).resolves.toContain("property.update");
      await expectAccessible(page);
      await screenshotBothWidths(page, `audit-list-${name}`);

      await page.getByLabel("Record type").fill("property");
      await page.getByLabel("Record id").fill(String(propertyId));
      await page.getByRole("button", { name: "Show" }).click();
      await page.waitForURL(/recordId=/);
      expect(await page.getByTestId("audit-row").count()).toBe(2);
      await expect(page.getByTestId("audit-row").last().textContent()).resolves.toContain("Nepean");
      const csv = await page.locator("[data-export-csv]").getAttribute("href");
      expect(csv).toContain("format=csv");
      expect(csv).toContain(`recordId=${propertyId}`);
      await expectAccessible(page);

      await page.getByLabel("From").fill("2026-12-31");
      await page.getByLabel("To").fill("2026-01-01");
      await page.getByRole("button", { name: "Show" }).click();
      await page.waitForSelector("#audit-from-error");
      await expect(page.locator("#audit-from-error").textContent()).resolves.toContain("From must be on or before To");
      await expectAccessible(page);
      await page.context().close();
    });
  }
});
