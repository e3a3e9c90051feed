// A quote is a document a homeowner can say yes to (docs/decisions.md#42), in a real Chromium: staff type what will
// be done in the Provide Quote dialog → the staff list shows it with the tax and total → My Home shows it on a phone
// with the price before tax, the HST line, the total, "Valid until" and what happens after yes, never the internal
// notes → the quote page says the same. axe on each page; screenshots at 390 and 1280 px (SCREENSHOTS=1).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUOTE_VALID_DAYS, afterYesText } from "../../src/modules/quotes/index.js";
import { addDays } from "../../src/shared/business-time.js";
import { sharedReportFixture } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { suiteToday } from "../support/clock.js";

let site: BrowserSite;
const staffLogin = { email: "quoter@haven.test", password: "quote-document-password" };
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;
let email: string;
let quoteId: number;

const SCOPE = "Drain and replace the 40-gallon water heater.\nHaul the old tank away and test the relief valve.";
const INTERNAL = "Internal: supplier B, 40% margin";

beforeAll(async () => {
  site = await openBrowserSite();
  const { container, db } = site.ctx;
  await container.users.create({ ...staffLogin, firstName: "Quinn", lastName: "Quote" });
  fixture = await sharedReportFixture(site.ctx, "27 Laurier Avenue");
  // An Ontario home: 13 % HST (docs/decisions.md#32).
  await db("properties").where({ id: fixture.propertyId }).update({ postal_code: "K1S 2B4" });
  email = (await db("properties").where({ id: fixture.propertyId }).first()).client_email;
  [quoteId] = (await container.transaction((tx) =>
    container.quotes.createRequests(
      [
        {
          propertyId: fixture.propertyId,
          maintenanceTaskId: fixture.taskIds[0]!,
          shareId: null,
          priority: "high",
          clientNotes: null,
          source: "portal",
        },
      ],
      tx,
    ),
  )) as [number];
});
afterAll(() => site?.close());

async function signInStaff(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staffLogin.email);
  await page.getByLabel("Password").fill(staffLogin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await waitForIslands(page);
}

async function homeownerPhone(): Promise<Page> {
  const page = await site.newPage(PHONE);
  const { token } = await site.ctx.container.homeAuth.createSession(email, { method: "link" });
  await page
    .context()
    .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first().waitFor();
const validUntilText = () =>
  new Date(`${addDays(suiteToday(site.ctx.container.env.BUSINESS_TZ), QUOTE_VALID_DAYS)}T12:00:00Z`).toLocaleDateString(
    "en-CA",
    { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" },
  );

describe("a quote a homeowner can say yes to", () => {
  it("staff type the scope → the staff list and My Home show it with tax and total; the quote page too", async () => {
    const staff = await site.newPage(DESKTOP);
    await signInStaff(staff, "/admin/quote-requests");
    const item = staff.locator(`[data-quote-request="${quoteId}"]`);
    await item.getByRole("button", { name: "Quote" }).click();
    const dialog = staff.getByRole("dialog", { name: "Provide Quote" });
    await dialog.waitFor();
    // The dialog's fields: what will be done (for the homeowner), the amount before tax, the validity (30 days by
    // default), and the Admin Notes, labelled internal.
    const validUntil = dialog.getByLabel("Valid until");
    expect(await validUntil.inputValue()).toBe(
      addDays(suiteToday(site.ctx.container.env.BUSINESS_TZ), QUOTE_VALID_DAYS),
    );
    await dialog.getByLabel("What will be done").fill(SCOPE);
    await dialog.getByLabel("Quoted Amount (before tax)").fill("$650");
    await dialog.getByLabel("Admin Notes (internal, never shown to the homeowner)").fill(INTERNAL);
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "quote-document-dialog");
    await dialog.getByRole("button", { name: "Save Quote" }).click();
    await toast(staff, "Quote request updated successfully");
    await dialog.waitFor({ state: "hidden" });

    const fresh = staff.locator(`[data-quote-request="${quoteId}"]`);
    await fresh.locator("[data-scope-text]").waitFor();
    expect(await fresh.locator("[data-scope-text]").innerText()).toContain(
      "Drain and replace the 40-gallon water heater.",
    );
    expect(await fresh.locator("[data-tax]").innerText()).toBe("HST 13% $84.50 (ON)");
    expect(await fresh.locator("[data-total-with-tax]").innerText()).toBe("$734.50");
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "quote-document-staff-list");

    // The homeowner, on a phone.
    const home = await homeownerPhone();
    await home.goto(`${site.baseUrl}/my-home/quotes`);
    const card = home.locator(`[data-home-quote="${quoteId}"]`);
    await card.waitFor();
    expect(await card.locator("[data-quoted-amount]").innerText()).toBe("$734.50 with tax");
    expect(await card.locator("[data-quote-scope]").innerText()).toContain(
      "Haul the old tank away and test the relief valve.",
    );
    expect(await card.locator("[data-subtotal]").innerText()).toBe("$650.00");
    const tax = card.locator("[data-quote-figures]");
    expect((await tax.innerText()).replace(/\s+/g, " ")).toContain("HST 13% $84.50");
    expect(await card.locator("[data-total-with-tax]").innerText()).toBe("$734.50");
    expect(await card.locator("[data-valid-until]").innerText()).toBe(`Valid until ${validUntilText()}`);
    expect(await card.locator("[data-after-yes]").innerText()).toBe(afterYesText(null));
    expect(await home.innerText("body")).not.toContain("supplier B");
    // Nothing spills past a phone's width.
    expect(await home.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(home);
    await screenshotBothWidths(home, "quote-document-my-home");
    // Home's "awaiting" line says the total with tax.
    await home.goto(`${site.baseUrl}/my-home`);
    expect(await home.locator("body").innerText()).toContain("$734.50 with tax");

    // The quote page (the link of the e-mails) shows the same document.
    const report = await site.ctx.container.quotes.generateQuoteReport(fixture.propertyId, site.baseUrl);
    const client = await site.newPage(PHONE);
    await client.goto(report.reportLink);
    const quoteItem = client.locator(`[data-quote-item="${quoteId}"]`);
    await quoteItem.waitFor();
    expect(await quoteItem.locator("[data-quote-scope]").innerText()).toContain("Drain and replace");
    expect(await quoteItem.locator("[data-total-with-tax]").innerText()).toBe("$734.50");
    expect(await client.locator("[data-total-with-tax]").last().innerText()).toContain("$734.50");
    expect(await client.innerText("body")).not.toContain("supplier B");
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(client);
    await screenshotBothWidths(client, "quote-document-quote-page");

    // Accepting with the keyboard alone in My Home.
    await home.goto(`${site.baseUrl}/my-home/quotes`);
    await home.locator(`[data-home-quote="${quoteId}"] [data-accept]`).focus();
    await home.keyboard.press("Enter");
    await home.waitForURL(`${site.baseUrl}/my-home/quotes?done=accepted`);
    expect(await home.locator("[data-flash]").innerText()).toContain("within 2 business days");
    await home.context().close();
    await client.context().close();

    // An expired quote: staff's Accept says why, and nothing moves (docs/decisions.md#42).
    const { container, db } = site.ctx;
    const [expiredId] = (await container.transaction((tx) =>
      container.quotes.createRequests(
        [
          {
            propertyId: fixture.propertyId,
            maintenanceTaskId: fixture.taskIds[1]!,
            shareId: null,
            priority: "medium",
            clientNotes: null,
          },
        ],
        tx,
      ),
    )) as [number];
    await container.quotes.update(expiredId, { status: "quoted", quotedAmount: "$200" });
    const yesterday = addDays(suiteToday(container.env.BUSINESS_TZ), -1);
    await db("quote_requests").where({ id: expiredId }).update({ valid_until: yesterday });
    await staff.reload();
    await waitForIslands(staff);
    const expired = staff.locator(`[data-quote-request="${expiredId}"]`);
    expect(await expired.locator("[data-valid-until]").innerText()).toBe(`Expired ${yesterday}`);
    await expired.getByRole("button", { name: "Accept" }).click();
    await staff.getByTestId("toast").filter({ hasText: "This quote expired on" }).first().waitFor();
    expect((await db("quote_requests").where({ id: expiredId }).first()).status).toBe("quoted");
    await staff.context().close();
  }, 240_000);
});
