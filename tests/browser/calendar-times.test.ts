import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import { type BrowserSite, DESKTOP, PHONE, expectAccessible, screenshotBothWidths } from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { insertDemoSubscription, planDeliveries } from "../support/plan-deliveries.js";
import { openStaffSite, signInAt } from "../support/staff-pages.js";

// Times as booked on the maintenance calendar: a part of the day shows as its window and an exact time as the time,
// a plan visit without a set time as its window; titles wrap instead of being cut, and a legend says what colours mean.

let ctx: TestContext;
let site: BrowserSite;
let today: string;
let tomorrow: string;
const staff = { email: "times@haven.test", password: "times-test-password" };
const LONG_TITLE = "Snow removal: driveway, front walk and the back steps";

beforeAll(async () => {
  ({ site } = await openStaffSite({ ...staff, firstName: "Tess", lastName: "Times" }));
  ({ ctx } = site);
  today = ctx.container.maintenance.today();
  tomorrow = addDays(today, 1);
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: "window@example.com", name: "Wren Window", subscriptionPlan: "premium" },
    { address: "5 Window Way", city: "Ottawa", province: "ON", postalCode: "K1P 5B9" },
  );
  const book = (date: string, slot: string) =>
    ctx.container.transaction((tx) =>
      ctx.container.bookings.book(
        tx,
        {
          propertyId: property.id,
          customerId: property.customerId,
          scheduledDate: date,
          timeSlot: slot,
          source: "booking-page",
        },
        { email: property.clientEmail, name: property.clientName },
      ),
    );
  await book(today, "afternoon");
  await book(tomorrow, "10:30 AM");
  await ctx.container.maintenance.createTasks([
    {
      propertyId: property.id,
      title: LONG_TITLE,
      category: "exterior",
      status: "scheduled",
      scheduledDate: today,
      scheduledTime: "07:30 AM",
    },
  ]);
  // A premium plan's on-request visit for tomorrow: a plan visit whose time nobody set.
  const subscriptionId = await insertDemoSubscription(ctx, {
    customerId: customer.id,
    propertyId: property.id,
    planType: "premium",
    status: "active",
    providerSubscriptionId: "demo_sub_calendar_times",
    // The plan's recurring visits (weekly snow removal December–March, lawn care May–October) fall on its
    // anchor's weekday: two days on, so today's and tomorrow's cells hold only what this test puts there.
    anchor: addDays(today, 2),
  });
  await planDeliveries(ctx).requestService({
    subscriptionId,
    service: "vacation-prep",
    date: tomorrow,
    source: "staff",
  });
});
afterAll(() => site?.close());

const signIn = (page: Page) => signInAt(site, page, staff, "/admin/maintenance-schedule", { islands: true });

const cell = (page: Page, date: string) => page.locator(`.mc-cell[data-date="${date}"]`);

describe("times as booked on the maintenance calendar", () => {
  it("shows windows as windows and times as times, whole titles, and a legend", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    const booking = cell(page, today).getByRole("button", { name: /Inspection: 5 Window Way/ });
    await booking.waitFor();
    expect((await booking.locator(".mc-event-time").innerText()).trim()).toBe("12–5 PM");
    const exact = cell(page, tomorrow).getByRole("button", { name: /Inspection: 5 Window Way/ });
    expect((await exact.locator(".mc-event-time").innerText()).trim()).toBe("10:30 AM");
    const visit = cell(page, tomorrow).getByRole("button", { name: /Vacation prep/ });
    expect((await visit.locator(".mc-event-time").innerText()).trim()).toBe("8 AM–5 PM");
    expect(await visit.getAttribute("data-plan")).toBe("premium");

    // The long title wraps in its cell: nothing of it is cut off.
    const long = cell(page, today).getByRole("button", { name: new RegExp(LONG_TITLE) });
    expect(await long.innerText()).toContain(LONG_TITLE);
    expect(await long.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

    const legend = page.getByTestId("mc-legend");
    const legendText = await legend.innerText();
    for (const words of ["Basic plan visit", "Standard plan visit", "Premium plan visit", "Inspection", "Held"])
      expect(legendText).toContain(words);
    await expectAccessible(page);
    await screenshotBothWidths(page, "calendar-times");

    await booking.click();
    const dialog = page.getByRole("dialog", { name: "Inspection Booking Details" });
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toContain("Afternoon (12:00 PM - 5:00 PM)");
    // Not the old default time beside the part's name ("09:00 AM (Afternoon)"); 9:00 AM is only a choice to move it to.
    expect(text).not.toContain("09:00 AM");
    expect(text).not.toContain("(Afternoon)");
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("on a phone the agenda shows the same times", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page);
    const agenda = page.locator(".mc-agenda");
    const item = agenda.getByRole("button", { name: /Inspection: 5 Window Way/ }).first();
    await item.waitFor();
    expect((await item.locator(".mc-event-time").innerText()).trim()).toBe("12–5 PM");
    await expectAccessible(page);
  });
});
