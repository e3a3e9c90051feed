// My Home's records in a real Chromium at 390 px (docs/decisions.md#29): Home, a report and its history, asking
// for a quote and accepting it with the keyboard alone; axe on every records page, screenshots at 390 and 1280 px.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bandKey, bandMeaning, clientLabel } from "../../src/modules/inspections/bands.js";
import { completedInspection } from "../api/reports-fixtures.js";
import { sharedReportFixture } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";

let site: BrowserSite;
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;
let latestReportId: number;
let email: string;

beforeAll(async () => {
  site = await openBrowserSite();
  fixture = await sharedReportFixture(site.ctx, "27 Rideau Terrace");
  const { inspectionId } = await completedInspection(
    site.ctx.container,
    [
      { categoryName: "Plumbing", subcategoryName: "Hot Water System", score: 4, notes: "Still weeping at the valve" },
      { categoryName: "Roof", subcategoryName: "Gutters", score: 10 },
      { categoryName: "Electrical", subcategoryName: "Smoke / CO Detectors", score: 10 },
    ],
    { propertyId: fixture.propertyId, inspectionDate: "2026-06-10" },
  );
  latestReportId = (await site.ctx.container.reports.generate(inspectionId)).id;
  email = (
    await site.ctx
      .db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", fixture.propertyId)
      .first("c.email")
  ).email;
});
afterAll(() => site?.close());

/** A phone signed in to My Home: the `haven_home` cookie of a real session (sign-in itself is tested elsewhere). */
async function signedInPhone(): Promise<Page> {
  const page = await site.newPage(PHONE);
  const { token } = await site.ctx.container.homeAuth.createSession(email, { method: "link" });
  await page
    .context()
    .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

/** Tabs forward until the focused element matches, as a keyboard user would (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe("My Home records at 390 px", () => {
  it("Home shows the score ring, band, trend and what needs attention; the report shows its history and what changed", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home`);
    const card = page.locator(`[data-home-property="${fixture.propertyId}"]`);
    await card.waitFor();
    const latest = await site.ctx.container.reports.get(latestReportId);
    expect(await card.locator("[data-home-band]").textContent()).toBe(clientLabel(latest.overallScore!));
    expect((await card.locator("[data-trend]").textContent())?.replace(/\s+/g, " ").trim()).toMatch(
      /Trend: [+−]\d+ since the previous inspection/,
    );
    // The band says what it means, and the key names all five with their ranges (docs/decisions.md#66).
    expect(await card.locator("[data-band-meaning]").textContent()).toBe(bandMeaning(latest.overallScore!));
    await card.getByText("What the bands mean").click();
    expect(await card.locator("[data-band-key] dt").allTextContents()).toEqual(
      bandKey().map((b) => `${b.label} (${b.range}):`),
    );
    expect(await card.locator("[data-open-recommendation]").count()).toBeGreaterThan(0);
    expect(
      await page
        .getByRole("navigation", { name: "My Home" })
        .getByRole("link", { name: "Home" })
        .getAttribute("aria-current"),
    ).toBe("page");
    // Nothing runs off the side of a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-home");

    await card.getByRole("link", { name: /Latest report/ }).click();
    await page.waitForURL(`${site.baseUrl}/my-home/reports/${latestReportId}`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Your Haven Health Report" }).waitFor();
    const history = page.locator("[data-home-history]");
    await history.getByRole("heading", { name: "What changed" }).waitFor();
    expect(await history.locator("[data-moved-item]").filter({ hasText: "Hot Water System" }).count()).toBe(1);
    expect(await page.locator("[data-pdf=full]").getAttribute("href")).toBe(`/my-home/reports/${latestReportId}/pdf`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-report");

    // A report can be read again and again once signed in: the one-time rule guards links, not owners.
    await page.reload();
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Recommendations" }).waitFor();

    await page.getByRole("navigation", { name: "My Home" }).getByRole("link", { name: "Reports" }).click();
    await page.waitForURL(`${site.baseUrl}/my-home/reports`);
    expect(await page.locator("[data-home-report]").count()).toBe(2);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-reports");
    await page.context().close();
  });

  it("asks for a quote from the report, then accepts it on Quotes with the keyboard alone", async () => {
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/reports/${latestReportId}`);
    await waitForIslands(page);
    const latest = await site.ctx.container.reports.get(latestReportId);
    const [rec] = latest.reportData.recommendations as { id: number; subcategory: string }[];
    const item = page.locator(`[data-recommendation="${rec!.id}"]`);
    await item.getByRole("button", { name: /Ask for a quote/ }).click();
    await page.waitForURL(`${site.baseUrl}/my-home/reports/${latestReportId}?done=asked`);
    await waitForIslands(page);
    expect(await page.locator("[data-flash]").textContent()).toContain("Quote requested");
    await item.locator("[data-item-state=quote]").waitFor();

    // Staff quote it (their side is tested with the quotes module); the homeowner answers in one click.
    const [quoteId] = (await site.ctx
      .db("quote_requests")
      .where({ maintenance_task_id: rec!.id })
      .pluck("id")) as number[];
    expect((await site.ctx.db("quote_requests").where({ id: quoteId }).first()).source).toBe("portal");
    await site.ctx.container.quotes.update(quoteId!, { status: "quoted", quotedAmount: "$640" });

    await page.goto(`${site.baseUrl}/my-home/quotes`);
    const quote = page.locator(`[data-home-quote="${quoteId}"]`);
    expect(await quote.locator("[data-quote-status]").textContent()).toBe("Quote ready");
    // The headline is the total with the home's tax; the price before tax is in the quote's figures (decisions.md#42).
    expect(await quote.locator("[data-quoted-amount]").textContent()).toMatch(/^\$[\d,]+\.\d{2} with tax$/);
    expect(await quote.locator("[data-subtotal]").textContent()).toBe("$640.00");
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-quotes");

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, `[data-home-quote="${quoteId}"] [data-accept]`);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${site.baseUrl}/my-home/quotes?done=accepted`);
    expect(await page.locator("[data-flash]").textContent()).toContain("Quote accepted");
    expect(await page.locator(`[data-home-quote="${quoteId}"] [data-quote-status]`).textContent()).toBe("Accepted");
    expect((await site.ctx.db("maintenance_tasks").where({ id: rec!.id }).first()).status).toBe("scheduled");
    await expectAccessible(page);
    await page.context().close();
  });
});
