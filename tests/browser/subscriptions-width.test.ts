// /admin/subscriptions fits a 1280 px screen: long names, e-mails and addresses wrap inside their cells, and every
// column (Actions included) is in view without sideways scrolling.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";

let site: BrowserSite;
const staff = { email: "width@haven.test", password: "width-test-password" };
const AMOUNTS: Record<PlanType, number> = { basic: 14900, standard: 37000, premium: 79900 };

async function buy(planType: PlanType, name: string, email: string, address: string) {
  const { ctx } = site;
  const checkoutRef = `demo_cs_width_${email}`;
  await ctx.container.subscriptions.startDemo({
    checkoutRef,
    planType,
    amountCents: AMOUNTS[planType],
    payerEmail: email,
    payerName: name,
    cardNumber: "4242424242424242",
  });
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: planType },
    { address, city: "Ottawa", province: "ON", postalCode: "K1N 5W8" },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
}

beforeAll(async () => {
  site = await openBrowserSite();
  await site.ctx.container.plans.seed();
  await site.ctx.container.users.create({ ...staff, firstName: "Wren", lastName: "Width" });
  await buy(
    "premium",
    "Maximiliana Bartholomew-Featherstonehaugh",
    "maximiliana.bartholomew-featherstonehaugh.household.accounts@verylongdomainname-example.com",
    "1234 Boulevard Saint-Jean-Baptiste-de-la-Salle, Unit 2201",
  );
  await buy("standard", "Avery Tremblay", "avery@example.com", "12 Elgin Street");
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await waitForIslands(page);
}

describe("/admin/subscriptions at 1280 px", () => {
  it("shows every column, the long e-mail wrapped, with no sideways scrolling", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/subscriptions");
    const fit = await page.evaluate(() => {
      const table = document.querySelector<HTMLElement>(".sub-table")!;
      const box = table.getBoundingClientRect();
      const buttons = [...table.querySelectorAll<HTMLElement>("td[data-label='Actions'] .btn")].map((b) =>
        b.getBoundingClientRect(),
      );
      return {
        pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
        tableOverflow: table.scrollWidth - table.clientWidth,
        right: box.right,
        buttonsInside: buttons.every((b) => b.right <= box.right && b.width > 0),
        viewport: window.innerWidth,
        widest: [...document.querySelectorAll<HTMLElement>("main *")]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
          .slice(0, 5)
          .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
      };
    });
    expect(fit.pageOverflow, `no sideways scroll: ${fit.widest.join(" | ")}`).toBeLessThanOrEqual(0);
    expect(fit.tableOverflow, "nothing clipped in the table").toBeLessThanOrEqual(0);
    expect(fit.right).toBeLessThanOrEqual(fit.viewport);
    expect(fit.buttonsInside, "every Open button in view").toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "subscriptions-width");
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
