import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import type { Subscription } from "../../src/modules/subscriptions/subscriptions.constants.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  expectAccessible,
  openBrowserSite,
  settle,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

// The staff's /admin/subscriptions with data, its filters and search, one subscription opened by
// keyboard, a cancellation with a reason and its undo, axe on both pages, screenshots at 390 and 1280 px.
let ctx: TestContext;
let site: BrowserSite;
const staff = { email: "billing@haven.test", password: "billing-test-password" };
const AMOUNTS: Record<PlanType, number> = { basic: 14900, standard: 37000, premium: 79900 };
const DAY = 24 * 60 * 60 * 1000;
const SHOTS = "/tmp/subscriptions-admin";
let active: Subscription;
let pastDue: Subscription;

async function buy(
  planType: PlanType,
  name: string,
  address: string,
  options: { card?: string; startedAt?: Date } = {},
) {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`;
  const checkoutRef = `demo_cs_browser_${email}`;
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef,
      planType,
      amountCents: AMOUNTS[planType],
      payerEmail: email,
      payerName: name,
      cardNumber: options.card ?? "4242424242424242",
    },
    options.startedAt ?? new Date(),
  );
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: planType },
    { address, city: "Ottawa", province: "ON", postalCode: "K1N 5W8", squareFootage: 1800, yearBuilt: 1990 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  return ctx.container.subscriptions.get(sub.id);
}

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Robin", lastName: "Bélanger" });
  active = await buy("standard", "Avery Tremblay", "12 Elgin Street");
  pastDue = await buy("premium", "Blake Okafor", "88 Bank Street", {
    card: "4000000000000341",
    startedAt: new Date(Date.now() - 40 * DAY),
  });
  await ctx.container.subscriptions.renewDue(new Date());
  await buy("basic", "Casey Nguyen", "5 Laurier Avenue");
  if (SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
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

/** Full-page screenshots at 390 px and 1280 px under /tmp, then back to the size the page had. */
async function shoot(page: Page, name: string) {
  const before = page.viewportSize();
  for (const [label, size] of [
    ["390", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await settle(page);
    if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
    // Nothing wider than the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  if (before) await page.setViewportSize(before);
  await settle(page);
}

const rows = (page: Page) => page.getByTestId("subscription-row");

describe("/admin/subscriptions", () => {
  it("lists subscriptions with the figures, past due in red with its label, filters and search in place", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/subscriptions");
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await page.locator('[data-stat="mrr"] .stat-value').textContent()).toBe("$1,318");
    expect(await page.locator('[data-stat="pastDue"] .stat-value').textContent()).toBe("1");
    const late = page.locator(`[data-subscription-id="${pastDue.id}"]`);
    expect(await late.getByTestId("subscription-status").textContent()).toBe("Payment past due");
    const red = await late.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(red).toBe("rgb(253, 236, 234)");
    expect(await page.getByRole("link", { name: "Subscriptions" }).first().getAttribute("aria-current")).toBe("page");
    await expectAccessible(page);
    await shoot(page, "list");

    // The status filter applies itself (htmx) and the address follows.
    await page.getByLabel("Status").selectOption("past_due");
    await page.waitForURL(/status=past_due/);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByTestId("subscription-total").textContent()).toMatch(/1\s+subscription · Past due/);
    await page.getByLabel("Status").selectOption("");
    await expect.poll(() => rows(page).count()).toBe(3);
    await page.getByLabel("Plan").selectOption("basic");
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByLabel("Plan").selectOption("");
    await expect.poll(() => rows(page).count()).toBe(3);
    await page.getByLabel("Search").fill("tremblay");
    await page.waitForURL(/q=tremblay/);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().getAttribute("data-subscription-id")).toBe(String(active.id));
    await page.context().close();
  });

  it("opens a subscription by keyboard, cancels it with a reason (the date stated first) and undoes it", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/subscriptions");
    const open = page.getByRole("link", { name: "Open subscription of Avery Tremblay" });
    await open.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${site.baseUrl}/admin/subscriptions/${active.id}`);
    await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
    const detail = page.getByTestId("subscription-detail");
    expect(await detail.getByRole("heading", { level: 1 }).textContent()).toBe("Avery Tremblay");
    for (const heading of ["Subscription", "Plan services", "Invoices", "Plan changes and events", "Actions"]) {
      await detail.getByRole("heading", { name: heading, exact: true }).waitFor();
    }
    expect(await detail.getByTestId("invoice").count()).toBe(1);
    // The date a cancellation takes effect is stated before it is confirmed: the minimum term's end.
    const minimumEnd = new Date(active.minimumTermEndsAt).toLocaleDateString("en-CA", {
      timeZone: "America/Toronto",
      month: "short",
      day: "numeric",
      year: "numeric",
    });
    const atPeriodEnd = page.getByRole("radio", { name: new RegExp(`minimum term: ${minimumEnd}`) });
    expect(await atPeriodEnd.isChecked()).toBe(true);
    await expectAccessible(page);
    await shoot(page, "detail");

    // Keyboard only: the reason, then the button.
    await page.getByLabel("Reason").focus();
    await page.keyboard.type("Moving out of the service area");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Cancel subscription");
    await page.keyboard.press("Enter");
    const notice = page.getByTestId("subscription-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Cancellation scheduled");
    expect(await notice.textContent()).toContain(minimumEnd);
    // htmx swapped the details in place: no page load, and the focus went to the outcome.
    expect(page.url()).toBe(`${site.baseUrl}/admin/subscriptions/${active.id}`);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      "subscription-notice",
    );
    expect((await ctx.container.subscriptions.get(active.id)).cancelAt).toBe(active.minimumTermEndsAt);
    await expectAccessible(page);
    await shoot(page, "detail-canceled");

    await page.getByRole("button", { name: "Undo cancellation" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await notice.textContent()) ?? "").toContain("Cancellation undone");
    expect((await ctx.container.subscriptions.get(active.id)).cancelAt).toBeNull();
    expect(await page.getByRole("button", { name: "Undo cancellation" }).count()).toBe(0);
    await page.context().close();
  });

  it("a refused field shows under it with what was typed kept", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, `/admin/subscriptions/${pastDue.id}`);
    await page.getByTestId("past-due-alert").waitFor();
    await page.getByRole("radio", { name: /At once/ }).check();
    await page.getByRole("button", { name: "Cancel subscription" }).click();
    const reason = page.getByLabel("Reason");
    await expect.poll(() => reason.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#cancel-reason-error").textContent()).toBe("Reason is required");
    // The choice made is kept, and the refused field has the focus.
    expect(await page.getByRole("radio", { name: /At once/ }).isChecked()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("cancel-reason");
    expect((await ctx.container.subscriptions.get(pastDue.id)).status).toBe("past_due");
    await expectAccessible(page);
    await page.context().close();
  });

  it("a failed payment the office can act on: a retry the card declines says so; the card-update link is sent", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, `/admin/subscriptions/${pastDue.id}`);
    const recovery = page.getByTestId("payment-recovery");
    await recovery.getByRole("button", { name: "Retry the payment now" }).click();
    const notice = page.getByTestId("subscription-notice");
    await expect.poll(() => notice.textContent()).toMatch(/Declined\s*Your card was declined\./);
    expect((await ctx.container.subscriptions.get(pastDue.id)).status).toBe("past_due");
    await page.getByRole("button", { name: "Send a card-update link" }).click();
    await expect.poll(() => notice.textContent()).toMatch(/Card-update link sent\s*Sent to the customer's e-mail\./);
    await expectAccessible(page);
    await shoot(page, "past-due");
    await page.context().close();
  });

  it("past due shows in red on the dashboard, the properties page and the property dialog", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin");
    const banner = page.getByTestId("past-due-banner");
    expect(await banner.textContent()).toMatch(/1 plan payment failed/);
    expect(await banner.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(185, 28, 28)");
    await expectAccessible(page);
    await shoot(page, "dashboard");
    await banner.getByRole("link").click();
    await page.waitForURL(`${site.baseUrl}/admin/subscriptions?status=past_due`);
    await expect.poll(() => rows(page).count()).toBe(1);

    await page.goto(`${site.baseUrl}/admin/properties`);
    await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
    const card = page.getByTestId("property-card").filter({ hasText: "88 Bank Street" });
    expect(await card.getByTestId("past-due-badge").textContent()).toBe("Payment past due");
    expect(await page.getByTestId("past-due-badge").count()).toBe(1);
    await card.getByRole("link", { name: /View Details/ }).click();
    const dialog = page.getByRole("dialog", { name: "Property Details" });
    const section = dialog.getByTestId("property-subscription");
    await section.waitFor();
    expect(await section.getAttribute("data-status")).toBe("past_due");
    const facts = await dialog.getByRole("region", { name: "Subscription Plan" }).textContent();
    expect(facts).toMatch(/Status\s*Payment past due/);
    expect(facts).toMatch(/Minimum term ends/);
    expect(await section.getByTestId("property-invoices").locator("li").count()).toBe(2);
    await expectAccessible(page);
    if (SCREENSHOTS) await page.screenshot({ path: `${SHOTS}/property-dialog-1280.png` });
    await page.context().close();
  });
});
