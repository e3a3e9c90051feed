// Invoices on the pages (docs/decisions.md#33, #34): a subscription's invoices for staff with a partial refund made by
// keyboard through the htmx form, the sales-tax report, and My Home's invoices with their PDF links; axe on each,
// screenshots at 390 px and 1280 px with SCREENSHOTS=1.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import { suiteToday } from "../support/clock.js";

let site: BrowserSite;
const staff = { email: "invoices@haven.test", password: "invoices-test-password" };
const OWNER = "olive.ottawa@example.com";
let subscriptionId: number;
let invoiceId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  await ctx.container.users.create({ ...staff, firstName: "Inès", lastName: "Côté" });
  const checkoutRef = "demo_cs_browser_invoices";
  const sub = await ctx.container.subscriptions.startDemo({
    checkoutRef,
    planType: "standard",
    amountCents: 41200,
    payerEmail: OWNER,
    payerName: "Olive Ottawa",
    cardNumber: "4242424242424242",
    priceList: "checkout",
    postalCode: "K1S 2B4",
  });
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: OWNER, name: "Olive Ottawa", phone: "613-555-0100", subscriptionPlan: "standard" },
    {
      address: "12 Elgin Street",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
      squareFootage: 1800,
      yearBuilt: 1990,
    },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  subscriptionId = sub.id;
  invoiceId = (await ctx.container.subscriptions.detail(sub.id)).invoices[0]!.id;
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

describe("staff: a subscription's invoices and a refund", () => {
  it("shows number, subtotal, HST, total and a PDF; a partial refund by keyboard updates the list in place", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, `/admin/subscriptions/${subscriptionId}`);
    const invoice = page.locator(`[data-invoice-id="${invoiceId}"]`);
    await expect(invoice.textContent()).resolves.toMatch(/HAV-\d{4}-000001/);
    await expect(invoice.textContent()).resolves.toContain("$53.56");
    await expect(invoice.textContent()).resolves.toContain("$465.56");
    expect(await invoice.getByRole("link", { name: /PDF/ }).getAttribute("href")).toBe(
      `/api/invoices/${invoiceId}/pdf`,
    );
    await expectAccessible(page);
    await screenshotBothWidths(page, "invoices-admin-detail");

    await invoice.locator("summary").focus();
    await page.keyboard.press("Enter");
    await page.locator(`#refund-amount-${invoiceId}`).fill("900");
    await page.locator(`#refund-reason-${invoiceId}`).fill("Missed the spring visit");
    await invoice.getByRole("button", { name: "Refund" }).click();
    // A refused amount stays typed, named under its field, and takes the focus.
    await page.waitForSelector("#refund-amount-" + invoiceId + "-error");
    await expect(page.locator(`#refund-amount-${invoiceId}-error`).textContent()).resolves.toContain("At most $465.56");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`refund-amount-${invoiceId}`);
    await expectAccessible(page);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("100.00");
    await page.locator(`[data-invoice-id="${invoiceId}"]`).getByRole("button", { name: "Refund" }).click();
    await page.waitForSelector('[data-testid="subscription-notice"]');
    await expect(page.locator('[data-testid="subscription-notice"]').textContent()).resolves.toContain("Refund made");
    await expect(
      page.locator(`[data-invoice-id="${invoiceId}"] [data-testid="invoice-refunded"]`).textContent(),
    ).resolves.toContain("$100.00");
    await expectAccessible(page);
    await screenshotBothWidths(page, "invoices-admin-refunded");
    await page.context().close();
  });

  it("the property dialog lists the invoices with their figures and PDF", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/properties");
    const card = page.getByTestId("property-card").filter({ hasText: "12 Elgin Street" });
    await card.getByRole("link", { name: /View Details/ }).click();
    const dialog = page.getByRole("dialog", { name: "Property Details" });
    const invoice = dialog.getByTestId("property-invoice");
    await invoice.waitFor();
    await expect(invoice.textContent()).resolves.toMatch(/HAV-\d{4}-000001/);
    await expect(invoice.textContent()).resolves.toContain("Refunded $100.00");
    expect(await invoice.getByRole("link", { name: /PDF/ }).getAttribute("href")).toBe(
      `/api/invoices/${invoiceId}/pdf`,
    );
    await expectAccessible(page);
    await invoice.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, "invoices-property-dialog");
    await page.context().close();
  });

  it("the sales-tax report at /admin/tax, reached from /admin/subscriptions", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/subscriptions");
    await page.getByTestId("tax-report-link").click();
    await page.waitForURL(/\/admin\/tax/);
    const today = suiteToday();
    await page.goto(`${site.baseUrl}/admin/tax?from=2020-01-01&to=${today}`);
    const row = page.locator('[data-testid="tax-line"][data-province="ON"]');
    await expect(row.textContent()).resolves.toContain("HST 13%");
    await expect(row.textContent()).resolves.toContain("$53.56");
    await expect(row.textContent()).resolves.toContain("$11.50");
    await expectAccessible(page);
    await screenshotBothWidths(page, "invoices-tax-report");
    await page.context().close();
  });
});

describe("My Home: the homeowner's invoices", () => {
  it("lists each invoice with its number, figures and a PDF link; the receipt names the taxes and the GST/HST number", async () => {
    const page = await site.newPage(PHONE);
    const { token } = await site.ctx.container.homeAuth.createSession(OWNER, { method: "link" });
    await page
      .context()
      .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
    await page.goto(`${site.baseUrl}/my-home/plan`);
    const list = page.getByTestId("plan-invoices");
    await expect(list.textContent()).resolves.toMatch(/HAV-\d{4}-000001/);
    await expect(list.textContent()).resolves.toContain("Refunded $100.00");
    expect(await page.getByTestId("invoice-pdf").getAttribute("href")).toBe(`/my-home/plan/invoices/${invoiceId}/pdf`);
    await expectAccessible(page);
    await screenshotBothWidths(page, "invoices-my-home-plan");
    await page.goto(`${site.baseUrl}/my-home/plan/invoices/${invoiceId}`);
    await expect(page.getByTestId("receipt").textContent()).resolves.toContain("HST 13%");
    await expect(page.getByTestId("receipt-registration").textContent()).resolves.toBe("123456789 RT0001");
    await expectAccessible(page);
    await screenshotBothWidths(page, "invoices-my-home-receipt");
    const pdf = await page.request.get(`${site.baseUrl}/my-home/plan/invoices/${invoiceId}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    await page.context().close();
  });
});
