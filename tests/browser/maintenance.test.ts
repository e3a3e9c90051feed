import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, longDate } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  settle,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { completedInspection, newProperty, smallEntries } from "../api/reports-fixtures.js";

let ctx: TestContext;
let site: BrowserSite;
let today: string;
const staff = { email: "planner@haven.test", password: "planner-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  today = ctx.container.maintenance.today();
  await ctx.container.users.create({ ...staff, firstName: "Pia", lastName: "Planner" });
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "casey@example.com", name: "Casey Client", subscriptionPlan: "premium" },
    { address: "21 Calendar Crescent", city: "Saskatoon", province: "SK", postalCode: "S7K 2B2" },
  );
  // Today already has a booking (the morning, shown as its window) and two tasks: with the new
  // schedule's first task it holds four items, so its cell shows two and '+2 more'.
  await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: today,
        timeSlot: "morning",
        source: "booking-page",
      },
      { email: property.clientEmail, name: property.clientName },
    ),
  );
  await ctx.container.maintenance.createTasks([
    {
      propertyId: property.id,
      title: "Sump pump test",
      category: "plumbing",
      priority: "high",
      status: "scheduled",
      scheduledDate: today,
      scheduledTime: "02:00 PM",
      estimatedDuration: 30,
    },
    {
      propertyId: property.id,
      title: "Smoke detector check",
      category: "safety",
      status: "scheduled",
      scheduledDate: today,
      scheduledTime: "03:30 PM",
    },
    // Completed tasks never show on the calendar.
    { propertyId: property.id, title: "Old finished job", status: "completed", scheduledDate: today },
  ]);
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

async function expectToast(page: Page, title: string) {
  await page.getByTestId("toast").filter({ hasText: title }).waitFor();
}

const cell = (page: Page, date: string) => page.locator(`.mc-cell[data-date="${date}"]`);
const focusedDate = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date ?? "");
const monthHeading = (date: string) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${date}T12:00:00Z`),
  );

describe("the maintenance calendar", () => {
  it("creates a schedule, shows it on the calendar, opens the day and task dialogs, and changes the status", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await page.getByRole("heading", { name: "Maintenance Schedule" }).waitFor();
    await page.getByRole("heading", { name: monthHeading(today) }).waitFor();
    const grid = page.getByRole("grid", { name: monthHeading(today) });
    expect(await grid.isVisible()).toBe(true);
    expect(await grid.getByRole("columnheader").count()).toBe(7);
    await cell(page, today)
      .getByRole("button", { name: /Sump pump test/ })
      .waitFor();
    expect(await page.getByText("Old finished job").count()).toBe(0);
    await expectAccessible(page);

    // The form refuses what the server would, naming each field.
    await page.getByRole("button", { name: "Create Schedule" }).click();
    const create = page.getByRole("dialog", { name: "Create Maintenance Schedule" });
    await create.waitFor();
    expect(await create.getByLabel("Priority").inputValue()).toBe("medium");
    expect(await create.getByLabel("Recurrence").inputValue()).toBe("monthly");
    expect(await create.getByLabel("Repeat every (interval)").inputValue()).toBe("1");
    expect(await create.getByLabel("Start date").inputValue()).toBe(today);
    await create.getByRole("button", { name: "Book Task" }).click();
    await create.getByText("Property is required").waitFor();
    expect(await create.getByText("Title is required").isVisible()).toBe(true);
    expect(await create.getByText("Category is required").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-create-errors");

    await create.getByLabel("Search properties").fill("Calendar Crescent");
    await create.getByRole("radio", { name: /21 Calendar Crescent/ }).check();
    await create.getByLabel("Title").fill("Furnace filter");
    await create.getByLabel("Category").selectOption("hvac");
    await create.getByLabel("Recurrence").selectOption("weekly");
    await create.getByLabel("Estimated duration (minutes)").fill("90");
    await create.getByRole("button", { name: "Book Task" }).click();
    await expectToast(page, "Schedule Created");
    await create.waitFor({ state: "detached" });
    const schedule = await ctx.db("maintenance_schedules").where({ title: "Furnace filter" }).first();
    expect(schedule).toMatchObject({
      recurrence_type: "weekly",
      recurrence_interval: 1,
      priority: "medium",
      category: "hvac",
      estimated_duration: 90,
      start_date: today,
    });

    // Today: the booking's morning window, the filter at 10:00, then two more: two shown and '+2 more'.
    const todayCell = cell(page, today);
    await todayCell.getByRole("button", { name: /Furnace filter/ }).waitFor();
    expect(await todayCell.locator(".mc-event").count()).toBe(2);
    expect(await todayCell.locator(".mc-event").first().innerText()).toContain("Inspection");
    await todayCell.getByRole("button", { name: "+2 more" }).click();
    const day = page.getByRole("dialog", { name: longDate(today) });
    await day.waitFor();
    const items = day.getByRole("listitem");
    await items.first().waitFor();
    expect(await items.count()).toBe(4);
    expect((await items.allInnerTexts()).map((t) => t.split("\n")[0]?.trim())).toEqual([
      "8 AM–12 PM",
      "10:00 AM",
      "2:00 PM",
      "3:30 PM",
    ]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-day-dialog");

    // The booking's dialog.
    await day.getByRole("button", { name: /Inspection: 21 Calendar Crescent/ }).click();
    const bookingDialog = page.getByRole("dialog", { name: "Inspection Booking Details" });
    await bookingDialog.waitFor();
    expect(await bookingDialog.innerText()).toContain("Casey Client");
    expect(await bookingDialog.innerText()).toContain("Morning (8:00 AM - 12:00 PM)");
    await bookingDialog.getByRole("button", { name: "Close" }).click();
    await bookingDialog.waitFor({ state: "detached" });

    // The task's dialog: details, the .ics download and a status change.
    await todayCell.getByRole("button", { name: /Furnace filter/ }).click();
    const taskDialog = page.getByRole("dialog", { name: "Task Details" });
    await taskDialog.waitFor();
    const text = await taskDialog.innerText();
    expect(text).toContain("1.5 hours");
    expect(text).toContain("10:00 AM");
    expect(text).toContain("HVAC");
    const href = await taskDialog.getByRole("link", { name: "Download .ics" }).getAttribute("href");
    const ics = await page.context().request.get(`${site.baseUrl}${href}`);
    expect(ics.headers()["content-type"]).toMatch(/^text\/calendar/);
    expect(await ics.text()).toContain("SUMMARY:Furnace filter (21 Calendar Crescent)");
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-task-dialog");
    await taskDialog.getByLabel("Status").selectOption("in_progress");
    await taskDialog.getByLabel("Notes").fill("Filter ordered");
    await taskDialog.getByRole("button", { name: "Update Task" }).click();
    await expectToast(page, "Task Updated");
    await taskDialog.waitFor({ state: "detached" });
    const task = await ctx.db("maintenance_tasks").where({ schedule_id: schedule.id, scheduled_date: today }).first();
    expect(task).toMatchObject({ status: "in_progress", notes: "Filter ordered", completed_at: null });

    // Completed: it leaves the calendar.
    await todayCell.getByRole("button", { name: /Furnace filter/ }).click();
    await taskDialog.waitFor();
    await taskDialog.getByLabel("Status").selectOption("completed");
    await taskDialog.getByRole("button", { name: "Update Task" }).click();
    await expectToast(page, "Task Updated");
    await todayCell.getByRole("button", { name: /Furnace filter/ }).waitFor({ state: "detached" });
    expect((await ctx.db("maintenance_tasks").where({ id: task.id }).first()).completed_at).not.toBeNull();
    // Next week's occurrence is still there.
    const nextWeek = addDays(today, 7);
    if (nextWeek.slice(0, 7) !== today.slice(0, 7)) await page.getByRole("button", { name: "Next month" }).click();
    await cell(page, nextWeek)
      .getByRole("button", { name: /Furnace filter/ })
      .waitFor();
    await page.getByRole("button", { name: "Today" }).click();
    await page.getByRole("heading", { name: monthHeading(today) }).waitFor();
    await screenshotBothWidths(page, "maintenance-calendar");
    await page.context().close();
  });

  it("is navigable with the keyboard: arrows move between days and months, Enter opens the day", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await cell(page, today).focus();
    expect(await cell(page, today).getAttribute("tabindex")).toBe("0");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => focusedDate(page)).toBe(addDays(today, 1));
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focusedDate(page)).toBe(addDays(today, 7));
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => focusedDate(page)).toBe(today);
    // Only one cell is in the tab order (roving tabindex).
    expect(await page.locator('.mc-cell[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press("PageDown");
    const nextMonth = await focusedDate(page);
    expect(nextMonth.slice(0, 7)).not.toBe(today.slice(0, 7));
    await page.getByRole("heading", { name: monthHeading(nextMonth) }).waitFor();
    await page.keyboard.press("PageUp");
    // Back in this month (on the 29th to 31st it may land on an earlier day of a shorter month in between).
    await expect.poll(async () => (await focusedDate(page)).slice(0, 7)).toBe(today.slice(0, 7));
    await cell(page, today).focus();
    // Screen readers hear the date and how many items it holds.
    // (The month was just fetched again after PageUp: wait for it rather than read the label while it loads.)
    await expect
      .poll(() => cell(page, today).getByTestId("cell-label").textContent())
      .toMatch(new RegExp(`^${longDate(today)}, today: \\d+ items?$`));
    await page.keyboard.press("Enter");
    const day = page.getByRole("dialog", { name: longDate(today) });
    await day.waitFor();
    await page.keyboard.press("Escape");
    await day.waitFor({ state: "detached" });
    await expect.poll(() => focusedDate(page)).toBe(today);
    await page.context().close();
  });

  it("has a list view of every task, searchable, that opens the task's dialog", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await page.getByRole("button", { name: "List" }).click();
    const table = page.getByRole("table");
    await table.waitFor();
    // Completed tasks are in the list.
    await table.getByRole("button", { name: "Old finished job" }).waitFor();
    await page.getByLabel("Search tasks").fill("sump");
    await expect.poll(() => table.getByRole("row").count()).toBe(2);
    expect(await table.innerText()).toContain("Sump pump test");
    expect(await table.innerText()).toContain("30 minutes");
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-list");
    await table.getByRole("button", { name: "Sump pump test" }).click();
    await page.getByRole("dialog", { name: "Task Details" }).waitFor();
    await page.context().close();
  });

  it("turns a report's 'Monitor' recommendation into a recurring check from the report viewer", async () => {
    const property = await newProperty(ctx.container, "4 Monitor Lane");
    const { inspectionId } = await completedInspection(ctx.container, await smallEntries(ctx.container), {
      propertyId: property.id,
    });
    const report = await ctx.container.reports.generate(inspectionId);
    const monitor = (
      report.reportData as { recommendations: { id: number; priority: string; subcategory: string }[] }
    ).recommendations.find((r) => r.priority === "low");
    expect(monitor, "the fixture report has a low-priority recommendation").toBeDefined();
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await page.goto(`${site.baseUrl}/admin/reports/${report.id}`);
    await waitForIslands(page);
    const rec = page.getByTestId("report-recommendation").filter({ hasText: monitor!.subcategory });
    expect(await rec.getByLabel("Repeat").inputValue()).toBe("quarterly");
    await rec.getByRole("button", { name: "Make recurring" }).click();
    await expectToast(page, "Schedule Created");
    await rec.getByText("Recurring check scheduled.").waitFor();
    const schedule = await ctx.db("maintenance_schedules").where({ source_task_id: monitor!.id }).first();
    expect(schedule).toMatchObject({
      property_id: property.id,
      recurrence_type: "quarterly",
      priority: "low",
      start_date: today,
    });
    expect((await ctx.container.maintenance.findTask(monitor!.id))!.status).toBe("scheduled");
    await expectAccessible(page);
    await page.context().close();
  });

  it("a stale edit from the task dialog writes nothing, says so and shows the fresh values", async () => {
    const [caulk] = await ctx.container.maintenance.createTasks([
      {
        propertyId: (await newProperty(ctx.container, "9 Stale Street")).id,
        title: "Caulk the windows",
        category: "exterior",
      },
    ]);
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    await page.getByRole("button", { name: "List" }).click();
    await page.getByLabel("Search tasks").fill("Caulk");
    await page.getByRole("table").getByRole("button", { name: "Caulk the windows" }).click();
    const dialog = page.getByRole("dialog", { name: "Task Details" });
    await dialog.waitFor();
    // Someone else saves the task while this dialog is open.
    await ctx.container.maintenance.updateTask(caulk!.id, { status: "in_progress", notes: "Crew booked for Friday" });
    await dialog.getByLabel("Status").selectOption("cancelled");
    await dialog.getByLabel("Notes").fill("Client changed their mind");
    await dialog.getByRole("button", { name: "Update Task" }).click();
    await dialog
      .getByRole("alert")
      .filter({
        hasText: "This task was changed by someone else. The latest values are shown; review them and save again.",
      })
      .waitFor();
    expect(await dialog.getByLabel("Status").inputValue()).toBe("in_progress");
    expect(await dialog.getByLabel("Notes").inputValue()).toBe("Crew booked for Friday");
    expect(await ctx.db("maintenance_tasks").where({ id: caulk!.id }).first()).toMatchObject({
      status: "in_progress",
      notes: "Crew booked for Friday",
      version: 2,
    });
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-task-stale");
    // Saving again, from the fresh values, goes through.
    await dialog.getByLabel("Status").selectOption("completed");
    await dialog.getByRole("button", { name: "Update Task" }).click();
    await expectToast(page, "Task Updated");
    await dialog.waitFor({ state: "detached" });
    expect(await ctx.db("maintenance_tasks").where({ id: caulk!.id }).first()).toMatchObject({
      status: "completed",
      notes: "Crew booked for Friday",
      version: 3,
    });
    await page.context().close();
  });

  it("turns into an agenda list at 390 px", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page);
    await page.locator(".mc-agenda-item").first().waitFor();
    expect(await page.getByRole("grid").isVisible()).toBe(false);
    const agenda = page.locator(".mc-agenda");
    expect(await agenda.innerText()).toContain("Inspection: 21 Calendar Crescent");
    await agenda.getByRole("button", { name: /Sump pump test/ }).click();
    await page.getByRole("dialog", { name: "Task Details" }).waitFor();
    await settle(page);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Close" }).click();
    await expectAccessible(page);
    await screenshotBothWidths(page, "maintenance-agenda");
    await page.context().close();
  });
});
