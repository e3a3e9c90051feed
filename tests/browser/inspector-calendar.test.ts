import { sealData } from "iron-session";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_PARTS, addDays, shortDate } from "../../src/shared/business-time.js";
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
import { suiteToday } from "../support/clock.js";

// Inspectors' calendars (docs/decisions.md#37): the wizard offers only the times an inspector is free, a time
// taken meanwhile is answered with the 409's message and fresh times, and the staff calendar shows and
// changes each booking's inspector.

let ctx: TestContext;
let site: BrowserSite;
let minDate: string;
const staff = { email: "office@haven.test", password: "office-test-password" };

/** Books a new home at that date and time through the service, as another homeowner would. */
async function bookElsewhere(n: number, date: string, slot: string) {
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `other${n}@example.com`, name: `Other Owner${n}`, subscriptionPlan: "free-score" },
    { address: `${n} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  return ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: date,
        timeSlot: slot,
        source: "wizard",
      },
      { email: property.clientEmail, name: property.clientName },
    ),
  );
}

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  minDate = ctx.container.bookings.calendar().minDate;
  await ctx.container.users.create({ ...staff, firstName: "Olive", lastName: "Office" });
  for (const [first, from, to] of [
    ["Nora", "08:00", "12:00"],
    ["Omar", "13:00", "17:00"],
  ] as const) {
    const email = `${first.toLowerCase()}@haven.test`;
    await ctx.container.users.create({
      email,
      password: "inspector-test-password",
      firstName: first,
      lastName: "Inspector",
      role: "inspector",
    });
    await ctx.container.inspectors.setHours(email, { weekdays: "mon-sun", from, to });
  }
  // Nora is taken from 8:00 to 10:00 and Omar from 1:00 to 3:00 PM on the first day the wizard offers.
  await bookElsewhere(1, minDate, "8:00 AM");
  await bookElsewhere(2, minDate, "1:00 PM");
});
afterAll(() => site?.close());

async function fillSteps1And2(page: Page) {
  await page.getByLabel("Property address").fill("12 Elm Street, Ottawa, ON K1S 2B4");
  await page.getByLabel("Property type").selectOption("townhouse");
  await page.getByLabel("Property size (sq ft)").fill("1800");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Contact Info", exact: true }).waitFor();
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("Last name").fill("Banks");
  await page.getByLabel("Email").fill("robin@example.com");
  await page.getByLabel("Phone").fill("613-555-0142");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
}

const offered = async (page: Page) => (await page.locator("#timeSlot option").allInnerTexts()).slice(1);

describe("the wizard with inspectors' calendars", () => {
  it("offers only free times, and a time taken meanwhile gets the message and fresh times", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    await fillSteps1And2(page);
    await page.getByLabel("Inspection date").fill(minDate);
    // A 2-hour inspection (1,800 sq ft): Nora at 10:00, Omar at 3:00 PM; nothing else.
    await page.locator("#timeSlot[data-free-times]").waitFor();
    await expect.poll(() => offered(page)).toEqual(["10:00 AM", "3:00 PM"]);
    expect(await page.locator("#timeSlot-hint").innerText()).toContain("Times when an inspector is free");
    await page.getByLabel("Time").selectOption("10:00 AM");
    await page.getByText("Meet inspector at property").click();
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-wizard-free-times");

    // Another homeowner takes 10:00 AM and then 3:00 PM before this one submits.
    await bookElsewhere(3, minDate, "10:00 AM");
    await bookElsewhere(4, minDate, "3:00 PM");
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.getByTestId("toast").filter({ hasText: "That time was just taken" }).waitFor();
    expect(await page.locator("#timeSlot-error").innerText()).toBe(
      "That time was just taken. Please choose another time.",
    );
    // The fresh times: that day is full, the next days are offered.
    expect(await offered(page)).toEqual([]);
    expect(await page.locator("#timeSlot option").first().innerText()).toBe("No free time this day");
    const next = page.getByTestId("next-free-dates").getByRole("button");
    expect(await next.count()).toBeGreaterThan(0);
    // The refused booking wrote nothing.
    expect(await ctx.db("customers").where({ email: "robin@example.com" }).first()).toBeUndefined();
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-wizard-taken");

    await next.first().click();
    expect(await page.getByLabel("Inspection date").inputValue()).toBe(addDays(minDate, 1));
    await expect.poll(() => offered(page)).toContain("8:00 AM");
    await page.getByLabel("Time").selectOption("8:00 AM");
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.waitForURL(`${site.baseUrl}/booking-confirmation`);
    const [booked] = await ctx
      .db("inspection_bookings as b")
      .join("staff_users as u", "u.id", "b.inspector_id")
      .where({ "b.scheduled_date": addDays(minDate, 1), "b.time_slot": "8:00 AM" })
      .select("u.first_name");
    expect(booked).toEqual({ first_name: "Nora" });
    await page.context().close();
  });
});

describe("the booking page with inspectors' calendars", () => {
  it("offers only the days and parts of the day an inspector is free for, whole", async () => {
    // Nora works mornings, Omar 1:00 to 5:00 PM: no afternoon (12 to 5) nor evening is whole for anyone.
    const { customer } = await ctx.container.customers.createWithProperty(
      { email: "dana@example.com", name: "Dana Scully", phone: "613-555-0160", subscriptionPlan: "premium" },
      { address: "88 Maple Crescent", city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 2750 },
    );
    // Nora's mornings of the first two offered days that no booking above holds (the first date the wizard takes,
    // and the day after it, hold some: on a Thursday or a Friday they are among the first two offered) are taken.
    const [first, second] = ctx.container.bookings
      .calendar()
      .bookingDates.filter((d) => d !== minDate && d !== addDays(minDate, 1));
    await bookElsewhere(5, first!, "morning");
    await bookElsewhere(6, second!, "morning");
    const context = await site.browser.newContext({ viewport: PHONE });
    const value = await sealData({ customerIds: [customer.id] }, { password: ctx.env.SESSION_SECRET, ttl: 3600 });
    await context.addCookies([{ name: "haven_session", value, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto(`${site.baseUrl}/book-inspection`);
    await waitForIslands(page);
    const dates = page.getByRole("group", { name: /Preferred date/ }).getByRole("radio");
    // The days the server finds a whole part free on (the wizard's bookings above took some mornings too).
    const offered = ctx.container.bookings.calendar().bookingDates;
    const free = (await ctx.container.bookings.availability({ from: first!, to: offered.at(-1)! })).days.filter(
      (d) => offered.includes(d.date) && d.parts.length,
    );
    expect(free.length).toBeLessThan(offered.length);
    await expect.poll(() => dates.count()).toBe(free.length);
    expect(await page.getByText(shortDate(first!), { exact: true }).count()).toBe(0);
    expect(await page.getByText(shortDate(second!), { exact: true }).count()).toBe(0);
    const open = free.find((d) => d.date !== first && d.date !== second) ?? free[0]!;
    await page.getByText(shortDate(open.date), { exact: true }).click();
    const parts = page.getByRole("group", { name: /Preferred time/ }).getByRole("radio");
    expect(await parts.count()).toBe(1);
    expect(await page.getByText(DAY_PARTS.morning.label, { exact: true }).count()).toBe(1);
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-book-inspection");
    await page.getByText(DAY_PARTS.morning.label, { exact: true }).click();
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.waitForURL(`${site.baseUrl}/booking-confirmation`);
    await context.close();
  });
});

describe("the staff calendar", () => {
  it("shows each booking's inspector and reassigns it from the booking dialog", async () => {
    const page = await site.newPage(DESKTOP);
    await page.goto(`${site.baseUrl}/login?next=/admin/maintenance-schedule`);
    await page.getByLabel("Company e-mail").fill(staff.email);
    await page.getByLabel("Password").fill(staff.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${site.baseUrl}/admin/maintenance-schedule`);
    await waitForIslands(page);
    const today = suiteToday(ctx.env.BUSINESS_TZ);
    if (minDate.slice(0, 7) !== today.slice(0, 7)) await page.getByRole("button", { name: /Next/ }).click();
    const cell = page.locator(`.mc-cell[data-date="${minDate}"]`);
    const first = cell.getByRole("button", { name: /Inspection: 1 Bank Street/ });
    await first.waitFor();
    expect(await first.locator(".mc-event-where").innerText()).toContain("Nora Inspector");
    expect(await first.getAttribute("data-inspector")).toMatch(/^\d$/);
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-staff-calendar");

    // Omar is free from 8:00 to 10:00: the office gives him the booking.
    await first.click();
    const dialog = page.getByRole("dialog", { name: "Inspection Booking Details" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("Nora Inspector");
    await dialog.getByLabel("Give this inspection to").selectOption({ label: "Omar Inspector" });
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-booking-dialog");
    await dialog.getByRole("button", { name: "Reassign" }).click();
    await page.getByTestId("toast").filter({ hasText: "Inspector Changed" }).waitFor();
    await expect.poll(async () => first.locator(".mc-event-where").innerText()).toContain("Omar Inspector");

    const [row] = await ctx
      .db("inspection_bookings as b")
      .join("properties as p", "p.id", "b.property_id")
      .where({ "p.address": "1 Bank Street" })
      .select("b.inspector_id");
    expect(row.inspector_id).toBe((await ctx.db("staff_users").where({ first_name: "Omar" }).first("id")).id);
    // An overlap the office asks for is refused with the API's message (every refusal: tests/api/inspector-availability.test.ts).

    // The days of the month before, greyed, are still readable: axe judges the contrast of two-digit numbers only,
    // which a month shows unless it starts on a Sunday (then the month before it does not, February aside).
    const outsideTwoDigits = page.locator("td[data-outside] .mc-daynum").filter({ hasText: /^\d\d$/ });
    for (let back = 0; back < 2 && !(await outsideTwoDigits.count()); back++) {
      const heading = await page.locator("#mc-month").innerText();
      await page.getByRole("button", { name: /Previous/ }).click();
      await expect.poll(() => page.locator("#mc-month").innerText()).not.toBe(heading);
    }
    expect(await outsideTwoDigits.count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await page.context().close();
  });
});
