import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedInspection, quickEntries } from "../api/reports-fixtures.js";
import { addDays } from "../../src/shared/business-time.js";
import { suiteToday } from "../support/clock.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

// The dashboard's cards and recent rows are links, and the revenue never breaks inside a number.
let site: BrowserSite;
const staffLogin = { email: "desk@haven.test", password: "desk-test-password" };
let inspectionId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  await site.ctx.container.users.create({ ...staffLogin, firstName: "Dana", lastName: "Desk" });
  ({ inspectionId } = await completedInspection(site.ctx.container, quickEntries(), { address: "1 Rideau Street" }));
  // A visit booked and not started: Pending Inspections 1, listed where its card leads (docs/decisions.md#55).
  const { customer, property } = await site.ctx.container.customers.createWithProperty(
    { email: "priya@example.ca", name: "Priya Nguyen", phone: "613-555-0199", subscriptionPlan: "basic" },
    { address: "12 Elm Street", city: "Ottawa", province: "ON", postalCode: "K1P 1J1" },
  );
  await site.ctx.db("inspection_bookings").insert({
    property_id: property.id,
    customer_id: customer.id,
    scheduled_date: addDays(suiteToday(site.ctx.env.BUSINESS_TZ), 3),
    time_slot: "morning",
    source: "booking-page",
  });
  // Seven figures of revenue: the widest number the card must keep on one line.
  await site.ctx.db("payments").insert({
    provider: "demo",
    provider_id: "pi_wide_1",
    kind: "payment_intent",
    amount_cents: 123_456_789,
    status: "succeeded",
  });
});
afterAll(() => site?.close());

async function signIn(page: Page) {
  await page.goto(`${site.baseUrl}/login?next=%2Fadmin`);
  await page.getByLabel("Company e-mail").fill(staffLogin.email);
  await page.getByLabel("Password").fill(staffLogin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin`);
}

/** The revenue figure: one line, nothing cut off. */
const revenueFits = (page: Page) =>
  page.locator('[data-stat="totalRevenue"] .stat-value').evaluate((el) => {
    const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
    return {
      text: el.textContent,
      oneLine: el.getBoundingClientRect().height < lineHeight * 1.5,
      fits: el.scrollWidth <= el.clientWidth,
    };
  });

describe("the dashboard", () => {
  for (const [name, size] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
    ["narrow desktop", { width: 1024, height: 768 }],
  ] as const) {
    it(`keeps the revenue on one line (${name})`, async () => {
      const page = await site.newPage(size);
      await signIn(page);
      expect(await revenueFits(page)).toEqual({ text: "$1,234,568", oneLine: true, fits: true });
      await page.context().close();
    });
  }

  it("cards and recent rows open what they count", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await expectAccessible(page);
    await screenshotBothWidths(page, "dashboard-links");
    const month = suiteToday(site.ctx.env.BUSINESS_TZ).slice(0, 7);
    for (const [key, href] of [
      ["totalProperties", "/admin/properties"],
      // Each list holds what its card counts (docs/decisions.md#55).
      ["pendingInspections", "/admin/inspections?status=pending"],
      ["completedThisMonth", `/admin/inspections?status=completed&month=${month}`],
      // Revenue opens the subscriptions; the card's text stays the spec's.
      ["totalRevenue", "/admin/subscriptions"],
    ] as const) {
      expect(await page.locator(`[data-stat="${key}"] a`).getAttribute("href")).toBe(href);
    }
    await page.locator('[data-stat="pendingInspections"] a').click();
    await page.waitForURL(`${site.baseUrl}/admin/inspections?status=pending`);
    expect(await page.getByTestId("inspections-total").textContent()).toMatch(/^\s*1 pending/);
    expect(await page.getByTestId("booked-row").textContent()).toContain("12 Elm Street");
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspections-pending");
    await page.goBack();
    await page.locator('[data-stat="completedThisMonth"] a').click();
    await page.waitForURL(`${site.baseUrl}/admin/inspections?status=completed&month=${month}`);
    await page.goBack();
    await page
      .getByTestId("recent-inspection")
      .getByRole("link", { name: /1 Rideau Street/ })
      .click();
    await page.waitForURL(`${site.baseUrl}/admin/inspections/view/${inspectionId}`);
    await page.context().close();
  });
});
