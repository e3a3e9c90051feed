// Onboarding's preferred time follows the one booking rule (docs/decisions.md#37): the parts of the day come from the
// same availability call as the wizard, so only free times are offered; a full day offers the next free dates.
// Real Chromium at 390 px; axe; screenshots at 390 and 1280 px (tests/.screenshots/onboarding-free-times-*).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";

let site: BrowserSite;
let minDate: string;

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  minDate = ctx.container.bookings.calendar().minDate;
  // One inspector, mornings only: no afternoon or evening exists.
  await ctx.container.users.create({
    email: "nora@haven.test",
    password: "inspector-test-password",
    firstName: "Nora",
    lastName: "Inspector",
    role: "inspector",
  });
  await ctx.container.inspectors.setHours("nora@haven.test", { weekdays: "mon-sun", from: "08:00", to: "12:00" });
  // Her first morning is taken.
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "other@example.com", name: "Other Owner", subscriptionPlan: "free-score" },
    { address: "1 Bank Street", city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: minDate,
        timeSlot: "morning",
        source: "wizard",
      },
      { email: "other@example.com", name: "Other Owner" },
    ),
  );
});
afterAll(() => site?.close());

const next = (page: Page) => page.getByRole("button", { name: "Next" });

async function toStep5(page: Page) {
  await page.goto(`${site.baseUrl}/onboarding-flow`);
  await waitForIslands(page);
  await page.getByRole("button", { name: "Let's Get Started" }).click({ timeout: 5000 });
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Phone").fill("613-555-0199");
  await next(page).click();
  await page.getByLabel("Street address").fill("5 Orleans Blvd");
  await page.getByLabel("City").fill("Orléans");
  await page.getByLabel("Province").selectOption("ON");
  await page.getByLabel("Postal code").fill("K1E 1A1");
  await next(page).click();
  await page.getByLabel("Square footage").fill("1600");
  await page.getByLabel("Year built").fill("1985");
  await page.getByLabel("Bedrooms").selectOption("3");
  await page.getByLabel("Bathrooms").selectOption("2");
  await next(page).click();
  await page.getByLabel("Ownership").selectOption("owner");
  await page.getByLabel("Household income").selectOption("100k-150k");
  await page.getByLabel("Occupation").selectOption("retired");
  await next(page).click();
  await page.getByRole("heading", { name: "Schedule Your Inspection" }).waitFor();
  await page.getByText("Owner will be present").click();
}

const offeredParts = (page: Page) =>
  page.locator('input[name="preferredTime"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

describe("onboarding's preferred time", () => {
  it("offers only the parts of the day an inspector is free, and the next free dates on a full day", async () => {
    const page = await site.newPage(PHONE);
    await toStep5(page);
    // The first day: Nora's morning is taken, nobody works the afternoon or evening.
    await page.getByLabel("Preferred date").fill(minDate);
    await page.getByTestId("no-free-time").waitFor();
    expect(await offeredParts(page)).toEqual([]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-free-times-full");
    // The next free date, one tap away.
    await page.getByTestId("no-free-time").getByRole("button").first().click();
    expect(await page.getByLabel("Preferred date").inputValue()).toBe(addDays(minDate, 1));
    await page.locator('[data-free-parts="1"]').waitFor();
    expect(await offeredParts(page)).toEqual(["morning"]);
    expect(await page.getByText("Times when an inspector is free.").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-free-times");
    await page.getByText("Morning", { exact: true }).click();
    await page.getByRole("heading", { name: "Onboarding Complete!" }).waitFor({ timeout: 15_000 });
    const booking = await site.ctx.db("inspection_bookings").where({ source: "onboarding" }).first();
    expect(booking).toMatchObject({ scheduled_date: addDays(minDate, 1), time_slot: "morning" });
    await page.context().close();
  });
});
