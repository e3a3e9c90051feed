// My Home's Visits, Plan and Account in a real Chromium at 390 px (docs/decisions.md#29–#30): reschedule a booking,
// request vacation prep, cancel the plan and undo it, one whole journey with the keyboard alone, axe on every
// page, screenshots at 390 and 1280 px (tests/.screenshots/my-home-*).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOfWeek, longDate } from "../../src/shared/business-time.js";
import { PlanDeliveries } from "../../src/modules/maintenance/index.js";
import { PlanDeliveriesRepository } from "../../src/modules/maintenance/plan-deliveries.repository.js";
import { transactionRunner } from "../../src/db/transaction.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import { suiteToday } from "../support/clock.js";

const TZ = "America/Toronto";
const EMAIL = "casey.home@example.com";
let site: BrowserSite;
let bookingId: number;
let subscriptionId: number;
let offered: string[];

beforeAll(async () => {
  site = await openBrowserSite({ env: { BUSINESS_TZ: TZ } });
  const { ctx } = site;
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: EMAIL, name: "Casey Home", phone: "613-555-0142", subscriptionPlan: "free-score" },
    {
      address: "27 Clemow Avenue",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
      squareFootage: 2100,
      yearBuilt: 1928,
    },
  );
  offered = (await ctx.container.homeVisits.rescheduleOptions()).dates;
  bookingId = (
    await ctx.container.transaction((tx) =>
      ctx.container.bookings.book(
        tx,
        {
          propertyId: property.id,
          customerId: customer.id,
          scheduledDate: offered[2]!,
          timeSlot: "morning",
          source: "booking-page",
        },
        { email: EMAIL, name: "Casey Home" },
      ),
    )
  ).id;
  const sub = await ctx.container.subscriptions.startDemo({
    checkoutRef: "cs_casey",
    planType: "premium",
    amountCents: 79900,
    payerEmail: EMAIL,
    payerName: "Casey Home",
    cardNumber: "4242424242424242",
  });
  subscriptionId = sub.id;
  await ctx.container.transaction(async (tx) => {
    await ctx.container.subscriptions.attachToProperty(
      "cs_casey",
      { customerId: customer.id, propertyId: property.id },
      tx,
    );
    await new PlanDeliveries({
      repo: new PlanDeliveriesRepository(ctx.db),
      transaction: transactionRunner(ctx.db),
      settings: { timeZone: TZ },
    }).sync(
      tx,
      { id: sub.id, propertyId: property.id, planType: "premium", status: "active", anchor: suiteToday(TZ) },
      suiteToday(TZ),
    );
  });
});
afterAll(() => site?.close());

async function signedInPhone(): Promise<Page> {
  const page = await site.newPage(PHONE);
  const { token } = await site.ctx.container.homeAuth.createSession(EMAIL, { method: "link" });
  await page
    .context()
    .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

/** Tabs forward until the focused element matches, as a keyboard user would (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe("My Home visits, plan and account at 390 px", () => {
  it("reschedules a booking to an offered date and part of the day", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits`);
    await page.getByRole("heading", { name: "Visits", level: 1 }).waitFor();
    expect(await page.locator('.my-home-tab[aria-current="page"]').textContent()).toBe("Visits");
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-visits");
    await page
      .getByRole("link", { name: /Reschedule or cancel/ })
      .first()
      .click();
    await page.getByRole("heading", { name: "Your inspection" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-visit-booking");
    await page
      .getByRole("group", { name: longDate(offered[5]!) })
      .getByRole("radio", { name: /Afternoon/ })
      .check();
    await page.getByRole("button", { name: "Move my inspection" }).click();
    await page.getByText("Your inspection is moved").waitFor();
    const row = await site.ctx.db("inspection_bookings").where({ id: bookingId }).first();
    expect(row).toMatchObject({ scheduled_date: offered[5], time_slot: "afternoon" });
    expect(row.notes).toContain("Rescheduled by the homeowner in My Home");
  });

  it("requests vacation prep for a date", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits`);
    const date = addDays(suiteToday(TZ), 12);
    await page.getByLabel("Service", { exact: true }).selectOption("vacation-prep");
    await page.getByLabel("Date", { exact: true }).fill(date);
    await page.getByLabel("Notes (optional)").fill("Away for two weeks; the spare key is with the neighbour.");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByText("Your request is sent").waitFor();
    const task = await site.ctx
      .db("maintenance_tasks")
      .where({
        property_id: (await site.ctx.db("inspection_bookings").where({ id: bookingId }).first()).property_id,
        scheduled_date: date,
      })
      .first();
    expect(task.description).toContain("Requested by the homeowner");
    await expectAccessible(page);
    // The calendar address, shown once.
    await page.getByRole("button", { name: "Get my calendar address" }).click();
    const url = await page.getByLabel(/Your calendar address/).inputValue();
    expect(url).toMatch(/\/my-home\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-visits-feed");
  });

  it("cancels the plan with the date stated first, then undoes it", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/plan`);
    await page.getByText("3-month minimum term").waitFor();
    // docs/decisions.md#63: the next charge said whole, with the Ottawa home's HST.
    expect(await page.getByTestId("plan-next-charge").textContent()).toContain("$902.87 CAD ($799.00 + HST $103.87)");
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan");
    await page.getByRole("link", { name: "Cancel my plan" }).click();
    const explained = page.getByTestId("cancel-explained");
    await explained.getByText("when the 3-month minimum ends").waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-cancel");
    await page.getByRole("button", { name: /^Yes, cancel on/ }).click();
    await page.getByText("Your cancellation is scheduled").waitFor();
    await page.getByTestId("plan-cancel-scheduled").waitFor();
    expect((await site.ctx.container.subscriptions.get(subscriptionId)).cancelAt).not.toBeNull();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Undo cancellation" }).click();
    await page.getByText("Your cancellation is undone").waitFor();
    expect((await site.ctx.container.subscriptions.get(subscriptionId)).cancelAt).toBeNull();
  });

  it("the plan's other pages and the account page pass axe", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/plan/${subscriptionId}/change?plan=standard`);
    await page.getByTestId("change-explained").waitFor();
    expect(await page.getByTestId("change-monthly").textContent()).toContain("$418.10 CAD ($370.00 + HST $48.10)");
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-change");
    await page.goto(`${site.baseUrl}/my-home/plan/${subscriptionId}/card`);
    await page.getByRole("heading", { name: "Update your card" }).waitFor();
    await expectAccessible(page);
    const invoice = await site.ctx.db("invoices").where({ subscription_id: subscriptionId }).first();
    await page.goto(`${site.baseUrl}/my-home/plan/invoices/${invoice.id}`);
    await page.getByTestId("receipt").waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-receipt");
    await page.goto(`${site.baseUrl}/my-home/account`);
    await page.getByRole("heading", { name: "Account" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-account");
    await page.getByLabel(/Reminders/).uncheck();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByText("Your e-mail preferences are saved").waitFor();
    expect(await page.getByLabel(/Reminders/).isChecked()).toBe(false);
  });

  it("one whole journey with the keyboard alone: move the inspection again", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits`);
    await tabTo(page, '[data-testid="visit-change"]');
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Your inspection" }).waitFor();
    // The first date's first time, then the arrow keys move within the one group of times (as radios do).
    await tabTo(page, 'input[name="when"]');
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const [chosen, slot] = (await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).split("|");
    await tabTo(page, '[data-testid="reschedule-submit"]');
    await page.keyboard.press("Enter");
    await page.getByText("Your inspection is moved").waitFor();
    const row = await site.ctx.db("inspection_bookings").where({ id: bookingId }).first();
    expect(row.scheduled_date).toBe(chosen);
    expect(row.time_slot).toBe(slot);
    expect(offered).toContain(chosen);
  });

  // Last: it sets up an inspector, which turns the calendars on (docs/decisions.md#37).
  it("offers only the dates and times an inspector is free (no weekend, no evening for a weekday 8-5 inspector)", async () => {
    const email = "wendy.weekdays@haven.test";
    await site.ctx.container.users.create({
      email,
      password: "correct horse battery",
      firstName: "Wendy",
      lastName: "Inspector",
      role: "inspector",
    });
    await site.ctx.container.inspectors.setHours(email, { weekdays: "mon-fri", from: "08:00", to: "17:00" });
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits/bookings/${bookingId}`);
    await page.getByRole("heading", { name: "Your inspection" }).waitFor();
    const values = await page
      .locator('input[name="when"]')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      const [date, slot] = value.split("|");
      expect([0, 6], value).not.toContain(dayOfWeek(date!));
      expect(slot, value).not.toBe("evening");
    }
    expect(await page.getByRole("radio", { name: /Evening/ }).count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-visit-booking-free-times");
  });
});
