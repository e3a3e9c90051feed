import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
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

// The office manager dates and assigns a recommendation task, sees it on the
// calendar with its property, finds it in the filtered list, and moves a booking from its dialog.

let ctx: TestContext;
let site: BrowserSite;
let today: string;
const staff = { email: "office@haven.test", password: "office-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  today = ctx.container.maintenance.today();
  await ctx.container.users.create({ ...staff, firstName: "Olive", lastName: "Office" });
  await ctx.container.users.create({
    email: "ivan@haven.test",
    password: "inspector-test-password",
    firstName: "Ivan",
    lastName: "Inspector",
  });
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "glebe@example.com", name: "Gale Glebe", subscriptionPlan: "standard" },
    { address: "40 Fifth Avenue", city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
  );
  // A report's recommendation: a task without a date (the 5,109 undated tasks).
  await ctx.container.maintenance.createTasks([
    { propertyId: property.id, title: "Reseal the attic hatch", category: "exterior", priority: "high" },
  ]);
  const { minDate } = ctx.container.bookings.calendar();
  await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: minDate,
        timeSlot: "9:30 AM",
        source: "wizard",
      },
      { email: property.clientEmail, name: property.clientName },
    ),
  );
});
afterAll(() => site?.close());

async function signIn(page: Page) {
  await page.goto(`${site.baseUrl}/login?next=/admin/maintenance-schedule`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin/maintenance-schedule`);
  await waitForIslands(page);
}

describe("scheduling tasks and bookings from the calendar", () => {
  it("dates, times, sizes and assigns a recommendation task; the calendar shows it with its property; the list filters it", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await page.getByRole("button", { name: "List" }).click();
    const table = page.getByRole("table");
    await table.getByRole("button", { name: "Reseal the attic hatch" }).click();
    const dialog = page.getByRole("dialog", { name: "Task Details" });
    await dialog.waitFor();

    // 'Scheduled' without a date asks for one.
    await dialog.getByLabel("Status").selectOption("scheduled");
    await dialog.getByRole("button", { name: "Update Task" }).click();
    await dialog.getByText("Choose a date to schedule the task").waitFor();
    expect(await dialog.getByLabel("Date").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-task-needs-date");

    const date = addDays(today, 2);
    await dialog.getByLabel("Date").fill(date);
    await dialog.getByLabel("Time").fill("14:30");
    await dialog.getByLabel("Duration (minutes)").fill("90");
    await dialog.getByLabel("Assigned to").selectOption({ label: "Ivan Inspector" });
    await dialog.getByRole("button", { name: "Update Task" }).click();
    await page.getByTestId("toast").filter({ hasText: "Task Updated" }).waitFor();
    await dialog.waitFor({ state: "detached" });

    // The list: by date, with the assignee; the assignee filter keeps it, another status hides it.
    await expect.poll(() => table.innerText()).toContain("Ivan Inspector");
    await page.getByLabel("Assigned to").selectOption({ label: "Ivan Inspector" });
    await expect.poll(() => table.getByRole("row").count()).toBe(2);
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await page.getByText("No maintenance tasks found.").waitFor();
    await page.getByLabel("Status", { exact: true }).selectOption("scheduled");
    await table.getByRole("button", { name: "Reseal the attic hatch" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-list-filters");

    // The calendar: the entry names its property beside the title, at its time.
    await page.getByRole("button", { name: "Calendar" }).click();
    const entry = page.locator(`.mc-cell[data-date="${date}"]`).getByRole("button", { name: /Reseal the attic hatch/ });
    if (date.slice(0, 7) !== today.slice(0, 7)) await page.getByRole("button", { name: /Next/ }).click();
    await entry.waitFor();
    expect(await entry.innerText()).toMatch(/^2:30 PM\s+Reseal the attic hatch/);
    // The property sits under the title, visibly, and a screen reader hears it after a comma.
    expect(await entry.locator(".mc-event-where").isVisible()).toBe(true);
    expect((await entry.locator(".mc-event-where").innerText()).replace(/^,\s*/, "")).toBe("40 Fifth Avenue");
    await entry.click();
    const reopened = page.getByRole("dialog", { name: "Task Details" });
    expect(await reopened.innerText()).toContain("Ivan Inspector");
    expect(await reopened.getByLabel("Time").inputValue()).toBe("14:30");
    expect(await reopened.getByLabel("Duration (minutes)").inputValue()).toBe("90");
    await screenshotBothWidths(page, "maintenance-task-scheduled");
    await page.context().close();
  });

  it("reschedules a booking from its dialog under the booking rules, then cancels it", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page);
    const { minDate } = ctx.container.bookings.calendar();
    const [booking] = await ctx.container.bookings.listBetween(minDate, minDate);
    const target = addDays(minDate, 1);
    await page.goto(`${site.baseUrl}/admin/maintenance-schedule`);
    await waitForIslands(page);
    // On a phone the month is an agenda: step to the booking's month and open it.
    while (
      !(await page
        .getByRole("heading", {
          name: new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
            new Date(`${minDate}T12:00:00Z`),
          ),
        })
        .isVisible())
    )
      await page.getByRole("button", { name: /Next/ }).click();
    await page
      .locator(".mc-agenda")
      .getByRole("button", { name: /Inspection: 40 Fifth Avenue/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Inspection Booking Details" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("New date").getAttribute("min")).toBe(minDate);
    await dialog.getByLabel("New date").fill(target);
    await dialog.getByLabel("Time").selectOption("afternoon");
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-booking-reschedule");
    await dialog.getByRole("button", { name: "Reschedule Booking" }).click();
    await page.getByTestId("toast").filter({ hasText: "Booking Rescheduled" }).waitFor();
    await expect
      .poll(async () => (await ctx.container.bookings.listBetween(target, target)).map((b) => [b.id, b.timeSlot]))
      .toEqual([[booking!.id, "afternoon"]]);

    await page
      .locator(".mc-agenda")
      .getByRole("button", { name: /Inspection: 40 Fifth Avenue/ })
      .click();
    await dialog.getByRole("button", { name: "Cancel Booking" }).click();
    await dialog.getByRole("button", { name: "Yes, cancel it" }).click();
    await page.getByTestId("toast").filter({ hasText: "Booking Cancelled" }).waitFor();
    await expect
      .poll(async () => (await ctx.container.bookings.listBetween(target, target))[0]!.status)
      .toBe("cancelled");
    await page.context().close();
  });
});
