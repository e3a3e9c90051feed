import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bandMeaning, clientLabel } from "../../src/modules/inspections/bands.js";
import { newProperty } from "../api/reports-fixtures.js";
import { sharedReportFixture } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { openStaffSite, signInAt } from "../support/staff-pages.js";

let site: BrowserSite;
const staffLogin = { email: "sharer@haven.test", password: "sharing-test-password" };
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;

beforeAll(async () => {
  ({ site } = await openStaffSite({ ...staffLogin, firstName: "Riley", lastName: "Share" }));
  fixture = await sharedReportFixture(site.ctx, "14 Lakeview Terrace");
});
afterAll(() => site?.close());

const signIn = (page: Page, next: string) =>
  signInAt(site, page, staffLogin, next, { islands: true, adminReady: true });

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first().waitFor();

describe("the client's side of a report", () => {
  it("staff share → the client responds → staff quote → quote report → the client accepts → staff see 'accepted'; a third browser is sent to /report-expired", async () => {
    const staff = await site.newPage(DESKTOP);
    await staff.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.baseUrl });
    await signIn(staff, "/admin/reports");

    // The share dialog.
    await staff.locator(`[data-share-report="${fixture.report.id}"]`).first().click();
    const dialog = staff.getByRole("dialog", { name: "Share Report" });
    await dialog.waitFor();
    const generate = dialog.getByRole("button", { name: "Generate Link" });
    const email = dialog.getByLabel("Client Email");
    expect(await email.getAttribute("type")).toBe("email");
    // It starts with the client's e-mail on file; emptied, Generate Link waits for one.
    expect(await email.inputValue()).toMatch(/@example\.ca$/);
    await email.fill("");
    expect(await generate.isDisabled()).toBe(true);
    await email.fill("homeowner@example.com");
    expect(await generate.isEnabled()).toBe(true);
    await generate.click();
    await toast(staff, "Shareable link generated successfully!");
    const link = await dialog.locator("[data-share-link]").inputValue();
    expect(link).toMatch(new RegExp(`^${site.baseUrl}/client-report/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole("button", { name: "Copy" }).click();
    await toast(staff, "Link copied to clipboard");
    expect(await staff.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "sharing-share-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();

    // The client opens it on a phone, in a second browser.
    const client = await site.newPage(PHONE);
    await client.goto(link);
    await waitForIslands(client);
    await client.locator("[data-client-report]").waitFor();
    expect(await client.locator("[data-site-nav]").count()).toBe(0);
    expect(await client.locator(".admin-shell").count()).toBe(0);
    const dial = client.locator("[data-dial]");
    expect(await dial.getAttribute("data-duration")).toBe("4000");
    expect(await dial.getAttribute("data-value")).toBe(String(fixture.report.overallScore));
    expect(await client.locator("[data-report-label]").innerText()).toBe(clientLabel(fixture.report.overallScore!));
    expect(await client.locator("[data-band-meaning]").innerText()).toBe(bandMeaning(fixture.report.overallScore!));
    await client.waitForFunction(() => document.querySelector("[data-dial]")?.getAttribute("data-dial-done") === "1");
    expect(await client.locator("[data-dial-number]").innerText()).toBe(String(fixture.report.overallScore));
    // A reader who asks for less motion reads the score from the first frame: it never counts up.
    await client.emulateMedia({ reducedMotion: "reduce" });
    await client.reload();
    await client.locator("[data-dial]").waitFor();
    expect(await client.locator("[data-dial]").getAttribute("data-dial-done")).toBe("1");
    expect(await client.locator("[data-dial-number]").innerText()).toBe(String(fixture.report.overallScore));
    const labels = await client.locator("[data-recommendation] .rounded-full:first-child").allInnerTexts();
    expect(labels.map((l) => l.toUpperCase())).toEqual(expect.arrayContaining(["CRITICAL"]));
    // Three photos, then '+2 more'; the photos load under the link.
    const hot = client.locator(`[data-recommendation="${fixture.taskIds[0]}"]`);
    expect(await hot.locator(".client-photos img").count()).toBe(3);
    await hot.getByRole("button", { name: /Show 2 more photos/ }).waitFor();
    expect(await hot.getByText("+2 more").isVisible()).toBe(true);
    await client.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>(".client-photos img")).every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    expect(await hot.locator("img").first().getAttribute("src")).toMatch(
      /^\/api\/client-report\/[A-Za-z0-9_-]{43}\/photos\/\d+$/,
    );

    await client.getByRole("button", { name: "Submit Responses" }).click();
    await toast(client, "Please select at least one response before submitting.");
    await expectAccessible(client);
    await screenshotBothWidths(client, "sharing-client-report");

    // By keyboard: the first item's 'Request a quote' radio, then notes.
    await hot.getByLabel("Request a quote").focus();
    await client.keyboard.press("Space");
    await hot.getByLabel("Notes for the quote (optional)").fill("Please call before visiting");
    const second = client.locator(`[data-recommendation="${fixture.taskIds[1]}"]`);
    await second.getByLabel("Ignore").check();
    expect(await second.getByLabel("Notes for the quote (optional)").count()).toBe(0);
    await client.getByRole("button", { name: "Submit Responses" }).click();
    await toast(client, "Responses Submitted");
    await client.locator("[data-responded]").waitFor();
    expect(await client.getByRole("button", { name: "Submit Responses" }).count()).toBe(0);
    expect(await hot.locator("[data-recorded-response]").getAttribute("data-recorded-response")).toBe("request_quote");
    await client.reload();
    await client.locator("[data-responded]").waitFor();
    await expectAccessible(client);
    await screenshotBothWidths(client, "sharing-client-report-submitted");

    // A third browser: the link was viewed already.
    const third = await site.newPage(PHONE);
    await third.goto(link);
    await third.waitForURL(`${site.baseUrl}/report-expired`);
    expect(await third.getByRole("heading", { name: "This Report Link Has Expired" }).isVisible()).toBe(true);

    // Staff price the request.
    await staff.goto(`${site.baseUrl}/admin/quote-requests`);
    await waitForIslands(staff);
    const item = staff.locator(`[data-quote-request]`).filter({ hasText: "Hot Water System" });
    expect(await item.getAttribute("data-status")).toBe("pending");
    expect(await item.innerText()).toContain("Please call before visiting");
    await item.getByRole("button", { name: "Quote", exact: true }).click();
    const quoteDialog = staff.getByRole("dialog", { name: "Provide Quote" });
    await quoteDialog.waitFor();
    const save = quoteDialog.getByRole("button", { name: "Save Quote" });
    expect(await save.isDisabled()).toBe(true);
    await quoteDialog.getByLabel("Quoted Amount").fill("$450");
    await quoteDialog.getByLabel("Admin Notes").fill("Internal: parts in stock");
    expect(await save.isEnabled()).toBe(true);
    await expectAccessible(staff);
    await save.click();
    await toast(staff, "Quote request updated successfully");
    await staff.locator('[data-quote-request][data-status="quoted"]').waitFor();
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "sharing-quote-requests");

    // The property detail modal.
    await staff.getByRole("button", { name: "Property Details" }).first().click();
    const details = staff.getByRole("dialog", { name: "Property Details" });
    await details.waitFor();
    expect(await details.innerText()).toContain("14 Lakeview Terrace");
    await details.getByRole("button", { name: "Close" }).click();

    const [generated] = await Promise.all([
      staff.waitForResponse((r) => r.url().endsWith("/generate-quote-report") && r.request().method() === "POST"),
      staff.getByRole("button", { name: "Generate Quote Report" }).first().click(),
    ]);
    await toast(staff, "Quote report generated and sent to client");
    expect(generated.status()).toBe(201);
    // The link the client finds in the e-mail (the e-mail itself is covered by tests/api/quotes.test.ts).
    const quoteLink = (await generated.json()).reportLink as string;

    // The client accepts in one click, in the same browser as before.
    await client.goto(quoteLink);
    await client.locator("[data-quote-report]").waitFor();
    expect(await client.locator("[data-site-nav]").count()).toBe(0);
    expect(await client.innerText("body")).not.toContain("Internal: parts in stock");
    expect(await client.locator("[data-total]").innerText()).toContain("$450");
    await expectAccessible(client);
    await screenshotBothWidths(client, "sharing-quote-report");
    await client.getByRole("button", { name: /^Accept / }).click();
    await client.locator("[data-quote-report-done]").waitFor();
    expect(await client.locator("[data-item-status]").first().textContent()).toBe("Accepted");
    await screenshotBothWidths(client, "sharing-quote-report-done");

    // Staff see it at once.
    await staff.reload();
    await waitForIslands(staff);
    const accepted = staff.locator("[data-quote-request]").filter({ hasText: "Hot Water System" });
    expect(await accepted.getAttribute("data-status")).toBe("accepted");
    expect(await accepted.locator("[data-quote-status]").innerText()).toMatch(/accepted/i);
    expect(await accepted.getByRole("button", { name: "Complete" }).isVisible()).toBe(true);
    const task = await site.ctx.db("maintenance_tasks").where({ id: fixture.taskIds[0] }).first();
    expect(task.status).toBe("scheduled");
  }, 240_000);

  it("a stale quote edit from the dialog writes nothing, says so and shows the fresh values", async () => {
    const { container, db } = site.ctx;
    const property = await newProperty(container, "3 Second Opinion Way");
    const [task] = await container.maintenance.createTasks([
      { propertyId: property.id, title: "Rebuild the chimney cap", category: "roofing", priority: "high" },
    ]);
    const [id] = await container.transaction((tx) =>
      container.quotes.createRequests(
        [{ propertyId: property.id, maintenanceTaskId: task!.id, shareId: null, priority: "high", clientNotes: null }],
        tx,
      ),
    );
    await container.quotes.update(id!, { status: "quoted", quotedAmount: "$300", adminNotes: "One day" });

    const staff = await site.newPage(DESKTOP);
    await signIn(staff, "/admin/quote-requests");
    const item = staff.locator("[data-quote-request]").filter({ hasText: "Rebuild the chimney cap" });
    await item.getByRole("button", { name: "Edit Quote" }).click();
    const quoteDialog = staff.getByRole("dialog", { name: "Provide Quote" });
    await quoteDialog.waitFor();
    expect(await quoteDialog.getByLabel("Quoted Amount").inputValue()).toBe("$300");
    // A colleague re-prices it while this dialog is open.
    await container.quotes.update(id!, { status: "quoted", quotedAmount: "$650", adminNotes: "Mason's price went up" });
    await quoteDialog.getByLabel("Quoted Amount").fill("$320");
    await quoteDialog.getByLabel("Admin Notes").fill("Mine");
    await quoteDialog.getByRole("button", { name: "Save Quote" }).click();
    await quoteDialog
      .getByRole("alert")
      .filter({
        hasText: "This request was changed by someone else. The latest values are shown; review them and save again.",
      })
      .waitFor();
    expect(await quoteDialog.getByLabel("Quoted Amount").inputValue()).toBe("$650");
    expect(await quoteDialog.getByLabel("Admin Notes").inputValue()).toBe("Mason's price went up");
    expect(await db("quote_requests").where({ id }).first()).toMatchObject({
      quoted_amount: "$650",
      admin_notes: "Mason's price went up",
      version: 3,
    });
    // The list behind the dialog shows the fresh amount too.
    await item.locator("[data-quoted-amount]").filter({ hasText: "$650" }).waitFor();
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "quote-stale-edit");
    // Saving again, now from the fresh values, goes through.
    await quoteDialog.getByLabel("Quoted Amount").fill("$700");
    await quoteDialog.getByRole("button", { name: "Save Quote" }).click();
    await toast(staff, "Quote request updated successfully");
    await quoteDialog.waitFor({ state: "hidden" });
    expect(await db("quote_requests").where({ id }).first()).toMatchObject({
      quoted_amount: "$700",
      admin_notes: "Mason's price went up",
      version: 4,
    });
    await staff.context().close();
  });

  it("a link that cannot load shows 'Report Not Found'", async () => {
    const page = await site.newPage(PHONE);
    // A well-formed link whose report is then deleted: the page opens, the report call fails.
    const { report } = await sharedReportFixture(site.ctx);
    const res = await page.request.post(`${site.baseUrl}/api/auth/login`, {
      data: staffLogin,
      headers: { Origin: site.baseUrl },
    });
    expect(res.status()).toBe(200);
    const shared = await page.request.post(`${site.baseUrl}/api/reports/${report.id}/share`, {
      data: { clientEmail: "gone@example.com" },
      headers: { Origin: site.baseUrl },
    });
    const { reportLink } = await shared.json();
    await page.route("**/api/client-report/*", (route) => route.fulfill({ status: 500, body: "boom" }));
    await page.goto(reportLink);
    await page.getByRole("heading", { name: "Report Not Found" }).waitFor();
    expect(await page.getByText("The requested report could not be found or the link has expired.").isVisible()).toBe(
      true,
    );
  });

  it("at its French address the report names each inspection point in French (docs/decisions.md#78)", async () => {
    const { reportLink } = await site.ctx.container.sharing.share(
      fixture.report.id,
      "lecteur@example.com",
      site.baseUrl,
      {
        sendEmail: false,
      },
    );
    const page = await site.newPage(PHONE);
    await page.goto(reportLink.replace("/client-report/", "/fr/client-report/"));
    await waitForIslands(page);
    await page.locator("[data-recommendations]").waitFor();
    const headings = await page.locator("[data-recommendation] h3").allInnerTexts();
    expect(headings).toContain("Plomberie · Chauffe-eau");
    expect(headings.join(" ")).not.toContain("Hot Water System");
    expect(await page.getByRole("group", { name: "Votre réponse pour Chauffe-eau" }).count()).toBe(1);
  });
});
