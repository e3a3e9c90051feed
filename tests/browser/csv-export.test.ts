// 'Export CSV' on the five staff list pages (README.md, CSV export): each link downloads the list call's CSV for
// the filter the page shows.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { completedInspection, quickEntries } from "../api/reports-fixtures.js";

let site: BrowserSite;
const staff = { email: "export@haven.test", password: "export-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  await ctx.container.users.create({ ...staff, firstName: "Erin", lastName: "Office" });
  await ctx.container.customers.createWithProperty(
    { email: "elgin@example.ca", name: "Dana Elgin", phone: "613-555-0142", subscriptionPlan: "basic" },
    { address: "40 Elgin Street", city: "Ottawa", province: "ON", postalCode: "K1P 1C7" },
  );
  const { inspectionId, propertyId } = await completedInspection(ctx.container, quickEntries(4), {
    address: "7 Bank Street",
  });
  await ctx.container.reports.generate(inspectionId);
  const [task] = await ctx.db("maintenance_tasks").where({ property_id: propertyId }).select("id");
  await ctx
    .db("quote_requests")
    .insert({ property_id: propertyId, maintenance_task_id: task.id, client_notes: "Please quote" });
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
}

/** Clicks 'Export CSV' and returns the downloaded file's records (simple cells only: no quoted commas here). */
async function download(page: Page): Promise<{ name: string; lines: string[] }> {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.startsWith("\ufeff")).toBe(true);
  return { name: file.suggestedFilename(), lines: text.slice(1).split("\r\n").filter(Boolean) };
}

describe("Export CSV", () => {
  it("downloads each list for its current filter", async () => {
    const page = await site.newPage();
    await signIn(page, "/admin/properties");

    // Properties: the search narrows the export too.
    // Typing searches by itself 400 ms later (the live search), and Search searches at once. Each answer is awaited
    // in turn (a click inside the 400 ms would race the live search): while one is out the results are dimmed
    // (opacity 0.6), which axe below reads as low contrast.
    let searches = 0;
    page.on("response", (r) => {
      if (r.url().endsWith("/admin/properties?q=Elgin") && r.request().headers()["hx-request"] === "true") searches++;
    });
    await page.getByLabel("Search by address, client name or e-mail").fill("Elgin");
    await expect.poll(() => searches).toBe(1);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => searches).toBe(2);
    await page.getByTestId("property-total").filter({ hasText: "matching" }).waitFor();
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      "/api/properties?format=csv&q=Elgin",
    );
    const properties = await download(page);
    expect(properties.name).toMatch(/^haven-properties-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(properties.lines).toHaveLength(2);
    expect(properties.lines[1]).toContain("40 Elgin Street");
    await expectAccessible(page);
    await screenshotBothWidths(page, "csv-export-properties");

    await page.goto(`${site.baseUrl}/admin/inspections?status=completed`);
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toContain("status=completed");
    const inspections = await download(page);
    expect(inspections.lines[0]).toContain("property.address");
    expect(inspections.lines).toHaveLength(2);
    await expectAccessible(page);
    await screenshotBothWidths(page, "csv-export-inspections");

    await page.goto(`${site.baseUrl}/admin/reports`);
    const reports = await download(page);
    expect(reports.name).toMatch(/^haven-reports-/);
    expect(reports.lines).toHaveLength(2);
    await expectAccessible(page);

    await page.goto(`${site.baseUrl}/admin/quote-requests?status=pending`);
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      "/api/quote-requests?format=csv&status=pending",
    );
    const quotes = await download(page);
    expect(quotes.lines).toHaveLength(2);
    expect(quotes.lines[1]).toContain("Please quote");
    await expectAccessible(page);
    await screenshotBothWidths(page, "csv-export-quotes");

    await page.goto(`${site.baseUrl}/admin/maintenance-schedule`);
    await waitForIslands(page);
    await page.getByRole("button", { name: "List" }).click();
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await expect
      .poll(() => page.getByRole("link", { name: "Export CSV" }).getAttribute("href"))
      .toContain("status=completed");
    // No task is completed: an export without rows is an empty file (its columns come from the rows).
    expect((await download(page)).lines).toHaveLength(0);
    await page.getByLabel("Status", { exact: true }).selectOption("");
    const tasks = await download(page);
    expect(tasks.name).toMatch(/^haven-maintenance-tasks-/);
    expect(tasks.lines.length).toBeGreaterThan(1);
    await expectAccessible(page);
    await screenshotBothWidths(page, "csv-export-tasks");
  });
});
