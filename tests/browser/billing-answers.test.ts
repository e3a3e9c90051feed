// "Why was I charged $412 on the 4th?" answered in the portal alone (src/modules/invoices/invoices.md), by an
// office member at 390 px and at 1280 px, by keyboard: /admin/subscriptions → Invoices → amount 412 and the 4th →
// the one charge → its subscription (bought on /checkout at $412, charged 9:30 PM EST, provider id) → Resend receipt
// (a green toast; one e-mail queued). Axe on each page; screenshots at both widths with SCREENSHOTS=1.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

let site: BrowserSite;
const staff = { email: "office-answers@haven.test", password: "answers-test-password" };
const ASKER = "ada.asker@example.com";
let subscriptionId: number;
let seq = 0;

async function buy(name: string, email: string, at: Date, priceList: "checkout" | "pricing" = "checkout") {
  const { ctx } = site;
  seq++;
  const checkoutRef = `demo_cs_answers_browser_${seq}`;
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef,
      planType: "standard",
      amountCents: priceList === "checkout" ? 41200 : 37000,
      payerEmail: email,
      payerName: name,
      cardNumber: "4242424242424242",
      priceList,
      postalCode: "K1S 2B4",
    },
    at,
  );
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: `${seq} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  return sub.id;
}

beforeAll(async () => {
  site = await openBrowserSite({ env: { BUSINESS_TZ: "America/Toronto" } });
  await site.ctx.container.users.create({ ...staff, firstName: "Olga", lastName: "Office", role: "office" });
  // 9:30 PM on Monday Jan 4, 2027 in Ottawa (02:30 UTC on the 5th).
  subscriptionId = await buy("Ada Asker", ASKER, new Date("2027-01-05T02:30:00Z"));
  await buy("Ben Nextday", "ben@example.com", new Date("2027-01-05T15:00:00Z"));
  await buy("Cleo Pricing", "cleo@example.com", new Date("2027-01-04T16:00:00Z"), "pricing");
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}

const resends = async () => Number((await site.ctx.db("receipt_resends").count({ n: "*" }))[0]!.n);

describe("why was I charged $412 on the 4th?", () => {
  for (const [label, size] of [
    ["390", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    it(`at ${label} px: found by amount and day, explained on its subscription, and its receipt resent`, async () => {
      const page = await site.newPage(size);
      await signIn(page, "/admin/subscriptions");
      await page.getByTestId("invoices-link").click();
      await page.waitForURL(`${site.baseUrl}/admin/invoices`);
      await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");

      // The day in the date fields, then the amount typed and Enter.
      await page.getByLabel("From", { exact: true }).fill("2027-01-04");
      await page.getByLabel("To", { exact: true }).fill("2027-01-04");
      await page.getByLabel("Amount ($)").focus();
      await page.keyboard.type("412");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="invoice-total"]')?.textContent?.includes("of $412"),
      );
      expect(page.url()).toContain("amount=412");
      await expect(page.getByTestId("invoice-total").textContent()).resolves.toMatch(/1\s+invoice/);
      const row = page.getByTestId("invoice-row");
      expect(await row.count()).toBe(1);
      const text = (await row.textContent())!.replace(/\s+/g, " ");
      expect(text).toContain("Ada Asker");
      expect(text).toContain("Jan 4, 2027, 9:30 PM EST");
      expect(text).toContain("$465.56");
      expect(text).toContain("$412.00 + HST 13% $53.56");
      expect(text).toMatch(/demo_in_/);
      expect(text).toContain("the payment page (/checkout)");
      // Nothing sideways at this width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      await screenshotBothWidths(page, `billing-answers-search-${label}`);

      await row.getByRole("link", { name: "Ada Asker" }).click();
      await page.waitForURL(`${site.baseUrl}/admin/subscriptions/${subscriptionId}`);
      await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
      await expect(page.getByTestId("purchase").textContent()).resolves.toContain(
        "Bought at $412.00/month on the payment page (/checkout) on Jan 4, 2027",
      );
      const charge = page.getByTestId("invoice").first();
      await expect(charge.getByTestId("charge-time").textContent()).resolves.toBe("Charged Jan 4, 2027, 9:30 PM EST");
      await expect(charge.getByTestId("provider-id").textContent()).resolves.toMatch(/^demo_in_\d+_2027-01-04$/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      await screenshotBothWidths(page, `billing-answers-subscription-${label}`);

      // Resend the receipt by keyboard: a green toast names the address; one resend recorded.
      const before = await resends();
      await charge.getByRole("button", { name: /Resend receipt/ }).focus();
      await page.keyboard.press("Enter");
      const toast = page.getByTestId("toast");
      await toast.waitFor();
      await expect(toast.textContent()).resolves.toContain("Receipt sent");
      await expect(toast.textContent()).resolves.toContain(ASKER);
      expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(21, 128, 61)");
      expect(await resends()).toBe(before + 1);
      await expectAccessible(page);
      await screenshotBothWidths(page, `billing-answers-resent-${label}`);
      // The charge at this width, close up (a phone's full page is too tall to read).
      if (SCREENSHOTS) await charge.screenshot({ path: `tests/.screenshots/billing-answers-charge-${label}.png` });
      if (SCREENSHOTS)
        await page
          .getByTestId("purchase")
          .screenshot({ path: `tests/.screenshots/billing-answers-purchase-${label}.png` });
      await page.context().close();
    });
  }

  it("Export CSV on /admin/subscriptions and /admin/invoices takes the page's filter", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/subscriptions?plan=standard");
    expect(await page.locator("[data-export-csv]").getAttribute("href")).toBe(
      "/api/subscriptions?plan=standard&format=csv",
    );
    // The office is not shown the owner's tax report.
    expect(await page.getByTestId("tax-report-link").count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-answers-subscriptions-list");
    await page.goto(`${site.baseUrl}/admin/invoices?amount=412&from=2027-01-04&to=2027-01-04`);
    expect(await page.locator("[data-export-csv]").getAttribute("href")).toBe(
      "/api/invoices?amount=412&from=2027-01-04&to=2027-01-04&format=csv",
    );
    await page.context().close();
  });
});
