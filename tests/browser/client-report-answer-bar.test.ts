// A long shared report is easy to answer. The answer bar stays in view from the top of
// the report and counts the answers chosen; the expired page tells subscribers how to get a new link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedReportFixture, shareReport } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { signInStaff } from "../support/context.js";

let site: BrowserSite;
let token: string;
let taskIds: number[];

beforeAll(async () => {
  site = await openBrowserSite();
  const fixture = await sharedReportFixture(site.ctx, "14 Lakeview Terrace");
  taskIds = fixture.taskIds;
  const { agent } = await signInStaff(site.ctx);
  ({ token } = await shareReport(agent, fixture.report.id, "homeowner@example.com"));
});
afterAll(() => site?.close());

describe("the shared report's answer bar", () => {
  it("stays at the bottom of the screen from the top of the report, counts the answers, and submits them", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/client-report/${token}`);
    await waitForIslands(page);
    const bar = page.locator("[data-answer-bar]");
    await bar.waitFor();
    const count = page.locator("[data-answer-count]");
    expect(await count.innerText()).toContain(`0 of ${taskIds.length} answered`);

    // At the top of a report taller than the screen, the bar and its button already sit at the screen's foot.
    const atTop = await page.evaluate(() => ({
      scrollY: window.scrollY,
      height: document.documentElement.scrollHeight,
    }));
    expect(atTop.scrollY).toBe(0);
    expect(atTop.height).toBeGreaterThan(PHONE.height * 2);
    const box = await bar.boundingBox();
    expect(Math.round(box!.y + box!.height)).toBe(PHONE.height);
    await expectAccessible(page);
    await screenshotBothWidths(page, "client-report-answer-bar");

    const first = page.locator(`[data-recommendation="${taskIds[0]}"]`);
    await first.getByLabel("Request a quote").check();
    await first.getByLabel("Notes for the quote (optional)").fill("Mornings are best");
    await page.locator(`[data-recommendation="${taskIds[1]}"]`).getByLabel("Ignore").check();
    await expect.poll(() => count.innerText()).toContain(`2 of ${taskIds.length} answered`);

    // Back at the top, the bar's button submits the whole form.
    await page.evaluate(() => window.scrollTo(0, 0));
    const submit = bar.getByRole("button", { name: "Submit Responses" });
    expect(await submit.isVisible()).toBe(true);
    await submit.click();
    await page.getByTestId("toast").filter({ hasText: "Responses Submitted" }).first().waitFor();
    await page.locator("[data-responded]").waitFor();
    expect(await bar.count()).toBe(0);
    const saved = await site.ctx.db("client_responses").whereIn("maintenance_task_id", taskIds);
    expect(Object.fromEntries(saved.map((r) => [r.maintenance_task_id, [r.action, r.notes]]))).toEqual({
      [taskIds[0]!]: ["request_quote", "Mornings are best"],
      [taskIds[1]!]: ["ignore", null],
    });
    await page.context().close();
  });

  it("the expired page adds a line for subscribers: how to get a new link", async () => {
    const page = await site.newPage(DESKTOP);
    await page.goto(`${site.baseUrl}/client-report/${token}`);
    await page.waitForURL(`${site.baseUrl}/report-expired`);
    expect(await page.getByRole("link", { name: "Subscribe to the product" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Contact Support" }).isVisible()).toBe(true);
    const help = page.getByTestId("subscriber-help");
    expect(await help.innerText()).toMatch(
      /^Already a Haven subscriber\? Your reports wait for you in My Home, with no link to keep: sign in with your e-mail\. Or ask the office for a new link: call .+ or e-mail .+\./,
    );
    // My Home's sign-in first, then the office's phone and e-mail.
    expect(await help.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual([
      "/my-home/sign-in",
      expect.stringMatching(/^tel:\+?\d+$/),
      expect.stringMatching(/^mailto:/),
    ]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "report-expired");
    await page.context().close();
  });
});
