import { sealData } from "iron-session";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortDate } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let browser: Browser;
let site: BrowserSite;

beforeAll(async () => {
  site = await openBrowserSite({ seedPlans: false });
  ({ ctx, browser } = site);
});
afterAll(() => site?.close());

/** A browser whose session cookie names the given customers, as checkout and intake would leave it. */
async function customerBrowser(customerIds: number[], size = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: size });
  const value = await sealData({ customerIds }, { password: ctx.env.SESSION_SECRET, ttl: 60 * 60 });
  await context.addCookies([{ name: "haven_session", value, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return context;
}

async function createCustomer(email: string, address: string) {
  return ctx.container.customers.createWithProperty(
    { email, name: "Dana Scully", phone: "306-555-0160", subscriptionPlan: "premium" },
    { address, city: "Saskatoon", province: "SK", postalCode: "S7N 0W8", squareFootage: 2750, yearBuilt: 2004 },
  );
}

describe("/book-inspection", () => {
  it("with a property: shows the latest one, offers the 14 weekdays and three parts of the day, and books", async () => {
    const { customer } = await createCustomer("dana@example.com", "1 Old Road");
    // A second, newer property: the page books the last one.
    const newer = await ctx.container.customers.createWithProperty(
      { email: "dana@example.com", name: "Dana Scully", phone: "306-555-0160", subscriptionPlan: "premium" },
      {
        address: "88 Maple Crescent",
        city: "Saskatoon",
        province: "SK",
        postalCode: "S7N 0W8",
        squareFootage: 2750,
        yearBuilt: 2004,
      },
    );
    const context = await customerBrowser([customer.id, newer.customer.id], PHONE);
    const page = await context.newPage();
    // Hold the list a moment: the spinner shows while it loads.
    await page.route("**/api/properties", async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.goto(`${site.baseUrl}/book-inspection`);
    await waitForIslands(page);
    await page.getByRole("status").filter({ hasText: "Loading your property..." }).waitFor();
    await page.getByRole("heading", { name: "Book Your Inspection" }).waitFor();

    expect(await page.getByTestId("property-address").innerText()).toBe("88 Maple Crescent, Saskatoon, SK S7N 0W8");
    expect(await page.getByText("Dana Scully").isVisible()).toBe(true);
    expect(await page.getByText("2,750 sq ft").isVisible()).toBe(true);
    const dates = ctx.container.bookings.calendar().bookingDates;
    const dateLabels = await page
      .locator('input[name="scheduledDate"]')
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(dateLabels).toEqual(dates);
    expect(await page.getByText(shortDate(dates[0]!), { exact: true }).isVisible()).toBe(true);
    for (const part of ["Morning", "Afternoon", "Evening"])
      expect(await page.getByText(part, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText("12:00 PM - 5:00 PM").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "book-inspection");

    // The spec's messages when nothing is chosen.
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    expect(await page.getByText("Please select a date").isVisible()).toBe(true);
    expect(await page.getByText("Please select a time slot").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "book-inspection-errors");

    // The keyboard reaches the choices: arrow keys move within the radio group.
    await page.getByText(shortDate(dates[0]!), { exact: true }).click();
    await page.keyboard.press("ArrowRight");
    expect(await page.locator('input[name="scheduledDate"]:checked').inputValue()).toBe(dates[1]);
    await page.getByText("Afternoon", { exact: true }).click();
    await page.getByLabel("Special instructions (optional)").fill("Dog in the yard");
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.waitForURL(`${site.baseUrl}/booking-confirmation`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
    expect(await page.getByTestId("confirmation-time").innerText()).toBe("Afternoon (12:00 PM - 5:00 PM)");
    expect(await page.getByTestId("confirmation-address").innerText()).toContain("88 Maple Crescent");
    expect(await page.getByTestId("confirmation-access").count()).toBe(0);

    const saved = await ctx.db("inspection_bookings").where({ property_id: newer.property.id }).first();
    expect(saved).toMatchObject({
      scheduled_date: dates[1],
      time_slot: "afternoon",
      notes: "Dog in the yard",
      source: "booking-page",
    });
    await context.close();
  });

  it("shows 'Booking Failed' when the booking cannot be made", async () => {
    const { customer } = await createCustomer("fail@example.com", "5 Failing Way");
    const context = await customerBrowser([customer.id]);
    const page = await context.newPage();
    await page.goto(`${site.baseUrl}/book-inspection`);
    await waitForIslands(page);
    await page.getByTestId("property-address").waitFor();
    await page.route("**/api/inspection-bookings", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down"}' }),
    );
    await page.locator('input[name="scheduledDate"]').first().check({ force: true });
    await page.getByText("Morning", { exact: true }).click();
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    const toast = page.getByTestId("toast");
    await toast.filter({ hasText: "Booking Failed" }).waitFor();
    expect(await toast.innerText()).toContain("Failed to schedule inspection. Please try again.");
    expect(page.url()).toBe(`${site.baseUrl}/book-inspection`);
    await context.close();
  });

  it("without a property: 'No Property Found' with a button to /property-intake", async () => {
    // Another customer's property exists, but this browser does not own it.
    await createCustomer("someone@example.com", "9 Not Yours Lane");
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    await page.goto(`${site.baseUrl}/book-inspection`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "No Property Found" }).waitFor();
    expect(await page.getByText("9 Not Yours Lane").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Add Property Information" }).getAttribute("href")).toBe(
      "/property-intake",
    );
    expect(await page.locator("[data-site-nav]").count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "book-inspection-no-property");
    await page.context().close();
  });
});
