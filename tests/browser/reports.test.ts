import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_SENTENCE } from "../../src/modules/reports/report-data.js";
import { DELETE_CONFIRM } from "../../src/modules/reports/reports.routes.js";
import { completedInspection, newProperty, quickEntries, smallEntries } from "../api/reports-fixtures.js";
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
let site: BrowserSite;
const staff = { email: "reports@haven.test", password: "reports-test-password" };
let historyPropertyId: number;
let detailedReportId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  const user = await ctx.container.users.create({ ...staff, firstName: "Robin", lastName: "Écrivain" });
  // The detailed report, oldest: it lands on page 2 of the list.
  const property = await newProperty(ctx.container, "8 Chemin Sainte-Foy");
  historyPropertyId = property.id;
  const first = await completedInspection(ctx.container, await smallEntries(ctx.container), {
    propertyId: property.id,
    inspectorId: user.id,
    inspectionDate: "2025-03-01",
  });
  detailedReportId = (await ctx.container.reports.generate(first.inspectionId)).id;
  const later = await completedInspection(ctx.container, quickEntries(), {
    propertyId: property.id,
    inspectionDate: "2026-03-01",
  });
  await ctx.container.reports.generate(later.inspectionId);
  for (let i = 1; i <= 11; i++) {
    const { inspectionId } = await completedInspection(ctx.container, quickEntries(i % 2 ? 10 : 4), {
      address: `${i} Grande Allée`,
    });
    await ctx.container.reports.generate(inspectionId);
  }
});
afterAll(() => site?.close());

const adminReady = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await adminReady(page);
}

describe("reports list and viewer", () => {
  it("list → page 2 → detail → Back → the same list page; expandable categories; photos", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/reports");
    expect(await page.getByTestId("reports-range").innerText()).toContain("Showing 1-10 of 13 reports");
    expect(await page.getByTestId("report-row").count()).toBe(10);
    await expectAccessible(page);
    await screenshotBothWidths(page, "reports-list");

    await page.getByRole("link", { name: "Page 2", exact: true }).click();
    await page.waitForURL(`${site.baseUrl}/admin/reports?page=2`);
    await page.getByTestId("reports-range").filter({ hasText: "Showing 11-13 of 13 reports" }).waitFor();
    expect(await page.getByTestId("reports-page").innerText()).toBe("Page 2 of 2");

    const row = page.locator(`[data-report-id="${detailedReportId}"]`);
    await row.getByTestId("view-report").click();
    await page.waitForURL(`${site.baseUrl}/admin/reports/${detailedReportId}?page=2`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "8 Chemin Sainte-Foy", level: 1 }).waitFor();
    expect(await page.getByTestId("score-ring").innerText()).toContain("57");
    expect(await page.locator(".viewer-label").innerText()).toBe("57 · Poor"); // the number beside every label
    expect(await page.getByTestId("client-label").innerText()).toBe("The client reads: Beyond the Pale");
    // The summary counts (items scored 10, 7, 4, 1) and the recommendation summary.
    expect(await page.getByTestId("count-excellent").innerText()).toContain("2");
    expect(await page.getByTestId("count-marginal").innerText()).toContain("1");
    expect(await page.getByTestId("count-defective").innerText()).toContain("1");
    expect(await page.getByTestId("count-critical").innerText()).toContain("1");
    expect(await page.getByText(SUMMARY_SENTENCE).count()).toBe(1);
    expect(await page.getByTestId("summary-high").innerText()).toContain("2");
    expect(await page.getByTestId("summary-total").innerText()).toContain("3");
    const recs = page.getByTestId("report-recommendation");
    expect(await recs.count()).toBe(3);
    expect(await recs.first().innerText()).toContain("Critical · Urgent");
    expect(await recs.nth(2).innerText()).toContain("Monitor · 60 Days");

    // Categories open and close.
    const plumbing = page.getByRole("button", { name: /^Plumbing/ });
    expect(await plumbing.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("#category-plumbing").isVisible()).toBe(false);
    await plumbing.click();
    expect(await plumbing.getAttribute("aria-expanded")).toBe("true");
    const items = page.locator("#category-plumbing [data-testid=report-item]");
    expect(await items.count()).toBe(3);
    expect(await items.nth(2).innerText()).toContain("Immediate Action Required (1)");
    expect(await items.nth(2).getByText("Tank leaking at the base").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "report-viewer");

    // A photo opens in the viewer and loads.
    await items
      .nth(2)
      .getByRole("button", { name: /Open photo 1 of 2/ })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("dialog[open] img");
      return Boolean(img?.complete && img.naturalWidth > 0);
    });
    await dialog.getByRole("button", { name: "Next photo" }).click();
    expect(await dialog.innerText()).toContain("2 of 2");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Close" }).click();
    await plumbing.click();
    expect(await plumbing.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("#category-plumbing").isVisible()).toBe(false);

    // The browser's Back: the list at the page it came from.
    await page.goBack();
    await page.waitForURL(`${site.baseUrl}/admin/reports?page=2`);
    await page.getByTestId("reports-range").filter({ hasText: "Showing 11-13 of 13 reports" }).waitFor();

    // The viewer's own Back link does the same.
    await page.locator(`[data-report-id="${detailedReportId}"]`).getByTestId("view-report").click();
    await waitForIslands(page);
    await page.getByTestId("back-to-reports").click();
    await page.waitForURL(`${site.baseUrl}/admin/reports?page=2`);
    expect(await page.getByTestId("reports-page").innerText()).toBe("Page 2 of 2");
  });

  it("fetches the report on its own when the page's data is empty", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/reports");
    // The island is given no report data: it calls GET /api/reports/{id}.
    await page.route(`**/admin/reports/${detailedReportId}`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /data-props="[^"]*"/,
        `data-props="{&#34;reportId&#34;:${detailedReportId},&#34;backHref&#34;:&#34;/admin/reports&#34;,&#34;initial&#34;:{&#34;reportData&#34;:{}}}"`,
      );
      await route.fulfill({ response, body: html });
    });
    const fetched = page.waitForResponse(
      (r) => r.url().endsWith(`/api/reports/${detailedReportId}`) && r.status() === 200,
    );
    await page.goto(`${site.baseUrl}/admin/reports/${detailedReportId}`);
    await fetched;
    await page.getByRole("heading", { name: "8 Chemin Sainte-Foy", level: 1 }).waitFor();
  });

  it("Delete asks the spec's question, then the list says so", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/reports");
    const first = page.getByTestId("report-row").first();
    const id = await first.getAttribute("data-report-id");
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.accept();
    });
    await first.getByTestId("delete-report").click();
    await page.getByTestId("toast").filter({ hasText: "Report deleted successfully" }).waitFor();
    expect(asked).toBe(DELETE_CONFIRM);
    expect(await page.locator(`[data-report-id="${id}"]`).count()).toBe(0);
    expect(await page.getByTestId("reports-range").innerText()).toContain("of 12 reports");

    // Generate Report: the inspection of the deleted report is the one without a report now.
    await page.getByTestId("generate-report").click();
    await page.getByTestId("toast").filter({ hasText: "Report generated successfully" }).waitFor();
    expect(await page.getByTestId("reports-range").innerText()).toContain("of 13 reports");
    await page.getByTestId("generate-report").click();
    await page.getByTestId("toast").filter({ hasText: "No Available Inspections" }).waitFor();
    expect(await page.getByTestId("toast").innerText()).toContain(
      "No completed inspections found that don't already have reports.",
    );
    await expectAccessible(page);
  });
});

describe("property history", () => {
  it("shows the current score, average, trend, chart, what changed and the inspections", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, `/admin/property-history/${historyPropertyId}`);
    await page.getByRole("heading", { name: "8 Chemin Sainte-Foy", level: 1 }).waitFor();
    const latest = (await ctx.container.inspections.list({ q: "8 Chemin Sainte-Foy", limit: 5, offset: 0 })).rows.map(
      (i) => i.overallScore,
    );
    expect(latest).toHaveLength(2);
    const [now, then] = latest as [number, number];
    expect(await page.getByTestId("history-trend").innerText()).toBe(
      now - then > 0 ? `+${now - then}` : `−${then - now}`,
    );
    expect(await page.getByTestId("history-average").innerText()).toBe(String(Math.round((now + then) / 2)));
    expect(await page.getByTestId("history-inspection").count()).toBe(2);
    expect(await page.getByRole("img", { name: /^Score over time: 2025-03-01: 57, 2026-03-01: \d+$/ }).count()).toBe(1);
    const changed = page.getByTestId("what-changed");
    expect(await changed.innerText()).toContain("Plumbing");
    expect(await changed.getByTestId("moved-item").count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "property-history");
  });
});
