import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedInspection, quickEntries } from "../api/reports-fixtures.js";
import type { Page } from "playwright-core";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshot,
  settle,
  waitForIslands,
} from "../support/browser.js";

// Roles (docs/decisions.md#36): on a phone, an inspector's menu and dashboard show their own work and no revenue.
let site: BrowserSite;
const inspector = { email: "ines@haven.test", password: "inspector-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  const { container } = site.ctx;
  const ines = await container.users.create({
    ...inspector,
    firstName: "Ines",
    lastName: "Inspector",
    role: "inspector",
  });
  const other = await container.users.create({
    email: "otto@haven.test",
    password: "inspector-test-password",
    firstName: "Otto",
    lastName: "Inspector",
    role: "inspector",
  });
  await completedInspection(container, quickEntries(), { inspectorId: ines.id, address: "12 Elgin Street" });
  await completedInspection(container, quickEntries(), { inspectorId: other.id, address: "40 Other Avenue" });
});
afterAll(() => site?.close());

/** Signs in on the login page and waits for the dashboard. */
async function signIn(page: Page, login: { email: string; password: string }) {
  await page.goto(`${site.baseUrl}/login?next=%2Fadmin`);
  await page.getByLabel("Company e-mail").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin`);
}

describe("an inspector on a phone", () => {
  it("sees their own inspections, no revenue and only their sections", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, inspector);

    await expect.poll(() => page.locator("[data-stat]").count()).toBe(3);
    expect(await page.locator('[data-stat="totalRevenue"]').count()).toBe(0);
    expect(await page.getByText("Total Revenue").count()).toBe(0);
    expect(await page.locator("[data-bell]").count()).toBe(0);
    await expect
      .poll(() => page.getByTestId("recent-inspection").allTextContents())
      .toEqual([expect.stringContaining("12 Elgin Street")]);
    await screenshot(page, "roles-inspector-dashboard-390");

    await page.getByRole("button", { name: "Menu" }).or(page.locator("summary[aria-label='Menu']")).click();
    const menu = page.getByRole("navigation", { name: "Admin menu" });
    const sections = (await menu.getByRole("link").allTextContents()).map((t) => t.trim());
    expect(sections).toEqual(["Dashboard", "My Day", "Inspections", "Reports", "Maintenance"]);
    await expectAccessible(page);
    await screenshot(page, "roles-inspector-menu-390");

    // A typed URL to a list the role cannot open: the error page says why.
    await page.goto(`${site.baseUrl}/admin/subscriptions`);
    await expect
      .poll(() => page.getByText("Your role (inspector) cannot see subscriptions, invoices or billing.").count())
      .toBe(1);

    // Their calendar opens with their own work, without an error.
    await page.goto(`${site.baseUrl}/admin/maintenance-schedule`);
    await waitForIslands(page);
    await expect.poll(() => page.getByText("Loading the calendar…").count()).toBe(0);
    expect(await page.getByText(/Something went wrong|cannot/).count()).toBe(0);
    // Schedules are the office's: no Create Schedule button.
    expect(await page.getByRole("button", { name: "Create Schedule" }).count()).toBe(0);
    await screenshot(page, "roles-inspector-calendar-390");
    await page.context().close();
  });
});

/** Each row of a grid of figures ends at the grid's right edge: a card left out leaves no empty cell. */
const rowsFill = (page: Page, selector: string) =>
  page.locator(selector).evaluate((grid) => {
    const right = grid.getBoundingClientRect().right;
    const ends = new Map<number, number>();
    for (const card of Array.from(grid.children)) {
      const box = card.getBoundingClientRect();
      const row = Math.round(box.top);
      ends.set(row, Math.max(ends.get(row) ?? 0, box.right));
    }
    return [...ends.values()].every((end) => Math.abs(end - right) < 2);
  });

describe("the office at 390 px and 1280 px", () => {
  it("sees no revenue on the dashboard or the subscriptions, and the figures leave no hole", async () => {
    const office = { email: "olive@haven.test", password: "office-test-password" };
    await site.ctx.container.users.create({ ...office, firstName: "Olive", lastName: "Office", role: "office" });
    const page = await site.newPage(DESKTOP);
    await signIn(page, office);
    for (const [path, grid, name] of [
      ["/admin", 'ul[aria-label="Key figures"]', "roles-office-dashboard"],
      ["/admin/subscriptions", '[data-testid="subscription-metrics"]', "roles-office-subscriptions"],
    ] as const) {
      if (path !== "/admin") await page.goto(`${site.baseUrl}${path}`);
      await expect.poll(() => page.locator(`${grid} > li`).count()).toBe(3);
      expect(await page.getByText(/Total Revenue|MRR/).count()).toBe(0);
      for (const [label, size] of [
        ["390", PHONE],
        ["1280", DESKTOP],
      ] as const) {
        await page.setViewportSize(size);
        await settle(page);
        expect(await rowsFill(page, grid)).toBe(true);
        await screenshot(page, `${name}-${label}`);
      }
      await expectAccessible(page);
    }
    await page.context().close();
  });
});
