import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tier } from "../../src/modules/inspections/bands.js";
import { seedDemo } from "../../seeds/demo/index.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

let site: BrowserSite;
const staff = { email: "lists@haven.test", password: "inspections-list-password" };
const tiered: Record<"Gold" | "Silver" | "Bronze", number> = { Gold: 0, Silver: 0, Bronze: 0 };

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  await ctx.container.users.create({ ...staff, firstName: "Robin", lastName: "Tremblay" });
  // Believable data: 30 homes with inspections in every status, then one of each tier as the newest rows.
  await seedDemo(ctx.container, { properties: 30, now: new Date(Date.now() - 60_000) });
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "helene@example.ca", name: "Hélène Gélinas", phone: "613-555-0199", subscriptionPlan: "premium" },
    { address: "9 Promenade de l'Île", city: "Orléans", province: "ON", postalCode: "K1C 5N2" },
  );
  for (const [name, score] of [
    ["Bronze", 4],
    ["Silver", 7],
    ["Gold", 10],
  ] as const) {
    const inspection = await ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-11-02" },
      null,
    );
    await ctx.container.inspections.complete(inspection.id, [
      { categoryName: "Attic", subcategoryName: "Insulation", score },
    ]);
    tiered[name] = inspection.id;
  }
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}

const rows = (page: Page) => page.getByTestId("inspection-row");

describe("the inspections list", () => {
  it("shows Property, Inspection Date, Status, Score and Actions with tiers, on a phone and a desktop", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/inspections");
    await page.getByRole("heading", { name: "Inspections", level: 1 }).waitFor();
    expect(await page.getByRole("link", { name: "New Property Inspection" }).getAttribute("href")).toBe(
      "/admin/inspections/new",
    );
    for (const column of ["Property", "Inspection Date", "Status", "Score", "Actions"])
      await page.getByRole("columnheader", { name: column }).waitFor();
    expect(await rows(page).count()).toBe(20);

    // The three newest rows carry one tier each; every row's tier agrees with its score.
    for (const [name, id] of Object.entries(tiered)) {
      expect(await page.locator(`[data-inspection-id="${id}"] [data-testid="inspection-tier"]`).innerText()).toBe(name);
    }
    // A completed inspection offers 'Generate Report' until its report exists, then 'View Report'.
    const reports = new Map<number, number>(
      (await site.ctx.db("reports").select("id", "inspection_id")).map((r) => [r.inspection_id, r.id]),
    );
    const seen = { generate: 0, view: 0 };
    for (const row of await rows(page).all()) {
      const status = await row.getAttribute("data-status");
      const reportId = reports.get(Number(await row.getAttribute("data-inspection-id")));
      const shown = await row.getByTestId("inspection-tier").innerText();
      const scoreText = (await row.locator(".insp-score").count())
        ? Number(await row.locator(".insp-score").innerText())
        : null;
      expect(shown).toBe(tier(scoreText) ?? "-");
      const generate = status === "completed" && reportId === undefined ? 1 : 0;
      expect(await row.getByRole("button", { name: /Generate Report/ }).count()).toBe(generate);
      expect(await row.getByRole("link", { name: /^View Report/ }).count()).toBe(reportId === undefined ? 0 : 1);
      if (reportId !== undefined)
        expect(await row.getByTestId("view-report").getAttribute("href")).toBe(`/admin/reports/${reportId}`);
      seen.generate += generate;
      seen.view += reportId === undefined ? 0 : 1;
      expect(await row.getByRole("link", { name: /^Edit/ }).count()).toBe(1);
      expect(await row.getByRole("link", { name: /^View inspection/ }).count()).toBe(1);
    }
    // The page shows both kinds (the seed's reports and the three new tiers without one).
    expect(seen.generate).toBeGreaterThan(0);
    expect(seen.view).toBeGreaterThan(0);
    expect(
      await page
        .locator(`[data-inspection-id="${tiered.Gold}"]`)
        .getByRole("link", { name: "9 Promenade de l'Île", exact: true })
        .getAttribute("href"),
    ).toMatch(/^\/admin\/property-history\/\d+$/);

    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    // On a phone each row is a card: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
    await screenshotBothWidths(page, "admin-inspections");
  });

  it("filters by status and pages on the server (htmx keeps the URL in step)", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/inspections");
    await page.getByLabel("Status").selectOption("completed");
    await page.waitForURL(/status=completed/);
    await page.getByTestId("inspections-total").filter({ hasText: "Completed" }).waitFor();
    const total = Number(
      (await page.getByTestId("inspections-total").locator("strong").innerText()).replace(/\D/g, ""),
    );
    expect(total).toBe((await site.ctx.container.inspections.list({ status: "completed", limit: 1, offset: 0 })).total);
    for (const row of await rows(page).all()) expect(await row.getAttribute("data-status")).toBe("completed");

    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/page=2/);
    await page.getByText(/Page 2 of \d+/).waitFor();
    expect(page.url()).toContain("status=completed");
    for (const row of await rows(page).all()) expect(await row.getAttribute("data-status")).toBe("completed");
    await expectAccessible(page);

    await page.getByLabel("Status").selectOption("draft");
    await page.waitForURL(/status=draft/);
    await page.getByTestId("inspections-total").filter({ hasText: "Draft" }).waitFor();
    for (const row of await rows(page).all()) expect(await row.getAttribute("data-status")).toBe("draft");
    await screenshotBothWidths(page, "admin-inspections-draft");
  });

  it("Generate Report shows 'Report generated successfully' and turns into View Report; a stale row shows the failure toast", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/inspections");
    const row = (id: number) => page.locator(`[data-inspection-id="${id}"]`);
    await row(tiered.Gold)
      .getByRole("button", { name: /Generate Report/ })
      .click();
    await page.getByTestId("inspections-toast").filter({ hasText: "Report generated successfully" }).waitFor();
    const gold = await site.ctx.db("reports").where({ inspection_id: tiered.Gold }).select("id");
    expect(gold).toHaveLength(1);
    // Once the report exists the row links to it: no second 'Generate Report'.
    expect(await row(tiered.Gold).getByTestId("view-report").getAttribute("href")).toBe(
      `/admin/reports/${gold[0]!.id}`,
    );
    expect(
      await row(tiered.Gold)
        .getByRole("button", { name: /Generate Report/ })
        .count(),
    ).toBe(0);

    // Someone else generates Silver's report while this page still offers the button: the refusal's toast,
    // then the row catches up and links to that report.
    const silver = await site.ctx.container.reports.generate(tiered.Silver);
    await row(tiered.Silver)
      .getByRole("button", { name: /Generate Report/ })
      .click();
    await page.getByTestId("inspections-toast").filter({ hasText: "Failed to generate report" }).waitFor();
    expect(await row(tiered.Silver).getByTestId("view-report").getAttribute("href")).toBe(
      `/admin/reports/${silver.id}`,
    );
    expect(await site.ctx.db("reports").where({ inspection_id: tiered.Silver }).count({ n: "*" })).toEqual([{ n: 1 }]);
    await expectAccessible(page);
  });

  it("View opens a read-only page of a completed inspection with its entries", async () => {
    const [completed] = (await site.ctx.container.inspections.list({ status: "completed", limit: 1, offset: 3 })).rows;
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/inspections");
    await page.goto(`${site.baseUrl}/admin/inspections/view/${completed!.id}`);
    await page.getByRole("heading", { name: completed!.property.address, level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Basement, Foundation, Crawlspace & Structure" }).waitFor();
    expect(await page.getByText("Type of Cladding").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Edit", exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "admin-inspection-view");
  });

  it("shows the empty state for a status with no inspection", async () => {
    const { ctx } = site;
    await ctx.db("inspections").where({ status: "draft" }).update({ status: "in_progress" });
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/inspections?status=draft");
    await page.getByTestId("inspections-empty").getByText("No Inspections Found").waitFor();
    expect(await page.getByRole("link", { name: "Create First Inspection" }).getAttribute("href")).toBe(
      "/admin/inspections/new",
    );
    await expectAccessible(page);
    await screenshotBothWidths(page, "admin-inspections-empty");
  });

  it("a common term past 1,000 matches says '1,000+' and pages on, on a phone and a desktop, axe clean (docs/decisions.md#88)", async () => {
    const homeId = (await site.ctx.db("properties").where({ address: "9 Promenade de l'Île" }).first("id")).id;
    const bulk = (
      await site.ctx.db.raw(
        `insert into inspections (property_id, inspection_date, status, created_at)
         select ?, current_date, 'draft', now() - interval '1 day' - g * interval '1 minute' from generate_series(1, 1010) g returning id`,
        [homeId],
      )
    ).rows.map((r: { id: number }) => r.id as number);
    try {
      const page = await site.newPage(PHONE);
      await signIn(page, "/admin/inspections?q=Promenade");
      await page.getByTestId("inspections-total").filter({ hasText: "1,000+ inspections" }).waitFor();
      await page.getByText("Showing 1–20 of 1,000+ · Page 1 of 50+").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await expectAccessible(page);
      await page.getByRole("link", { name: "Next" }).press("Enter");
      await page.waitForURL(/page=2/);
      await page.getByText("Showing 21–40 of 1,000+ · Page 2 of 50+").waitFor();
      expect(await rows(page).count()).toBe(20);
      await page.setViewportSize(DESKTOP);
      await expectAccessible(page);
      await screenshotBothWidths(page, "admin-inspections-capped");
    } finally {
      await site.ctx.db("inspections").whereIn("id", bulk).delete();
    }
  });
});
