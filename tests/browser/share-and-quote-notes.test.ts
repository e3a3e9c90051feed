import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedReportFixture } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";

// The share dialog starts with the e-mail on file and warns about another; a second quote request keeps its
// note (quotes README, Asked again); the staff bell counts it (dashboard README).
let site: BrowserSite;
const staffLogin = { email: "office@haven.test", password: "office-test-password" };
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;
let onFile: string;

beforeAll(async () => {
  site = await openBrowserSite();
  await site.ctx.container.users.create({ ...staffLogin, firstName: "Morgan", lastName: "Office" });
  fixture = await sharedReportFixture(site.ctx, "240 Sparks Street");
  onFile = (await site.ctx.db("properties").where({ id: fixture.propertyId }).first()).client_email;
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staffLogin.email);
  await page.getByLabel("Password").fill(staffLogin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await waitForIslands(page);
  await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}

async function openShareDialog(page: Page) {
  await page.locator(`[data-share-report="${fixture.report.id}"]`).first().click();
  const dialog = page.getByRole("dialog", { name: "Share Report" });
  await dialog.waitFor();
  return dialog;
}

describe("sharing without slips", () => {
  it("the dialog starts with the client's e-mail on file, from the list and from the report, and warns when another is typed", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/reports");
    const dialog = await openShareDialog(page);
    const email = dialog.getByLabel("Client Email");
    expect(await email.inputValue()).toBe(onFile);
    const warning = dialog.locator("[data-share-warning]");
    expect(await warning.isHidden()).toBe(true);
    expect(await dialog.getByRole("button", { name: "Generate Link" }).isEnabled()).toBe(true);

    await email.fill("someone.else@example.com");
    await warning.waitFor();
    expect(await warning.innerText()).toBe(
      `This is not the client's e-mail on file (${onFile}). Check it before you send: the report will go to someone.else@example.com.`,
    );
    // Same address, other case: no warning.
    await email.fill(onFile.toUpperCase());
    await warning.waitFor({ state: "hidden" });
    await email.fill("someone.else@example.com");
    await expectAccessible(page);
    await screenshotBothWidths(page, "share-dialog-warning");
    await dialog.getByRole("button", { name: "Close" }).click();

    // The report's own page: the same dialog, the same e-mail.
    await page.goto(`${site.baseUrl}/admin/reports/${fixture.report.id}`);
    await waitForIslands(page);
    await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
    const again = await openShareDialog(page);
    expect(await again.getByLabel("Client Email").inputValue()).toBe(onFile);
    expect(await again.locator("[data-share-warning]").isHidden()).toBe(true);
    await page.context().close();
  }, 120_000);
});

describe("no request is lost", () => {
  it("a second quote request on the same item keeps its note, dated, and staff see it was asked again", async () => {
    const task = fixture.taskIds[1]!;
    const { title } = await site.ctx.db("maintenance_tasks").where({ id: task }).first();
    const share = async () =>
      (await site.ctx.container.sharing.share(fixture.report.id, onFile, site.baseUrl, { sendEmail: false }))
        .reportLink;

    // The first answer, through the link's API.
    const firstLink = await share();
    const firstToken = firstLink.split("/client-report/")[1]!;
    const first = site.ctx.agent();
    await first.get(`/api/client-report/${firstToken}`).expect(200);
    await first
      .post(`/api/client-report/${firstToken}/responses`)
      .send({
        responses: [{ maintenanceTaskId: task, action: "request_quote", notes: "Gutters overflow in heavy rain" }],
      })
      .expect(201);

    // Weeks later the client asks again from a new link, on a phone, with a new note.
    const client = await site.newPage(PHONE);
    await client.goto(await share());
    await waitForIslands(client);
    const item = client.locator(`[data-recommendation="${task}"]`);
    await item.getByLabel("Request a quote").check();
    await item.getByLabel("Notes for the quote (optional)").fill("Now ice is forming on the walk");
    await client.getByRole("button", { name: "Submit Responses" }).click();
    await client.locator("[data-responded]").waitFor();

    const staff = await site.newPage(DESKTOP);
    await signIn(staff, "/admin/quote-requests");
    const requests = staff.locator("[data-quote-request]").filter({ hasText: title });
    expect(await requests.count()).toBe(1);
    const notes = await requests.locator("[data-client-notes]").innerText();
    expect(notes).toContain("Gutters overflow in heavy rain");
    expect(notes).toMatch(/Asked again on \d{4}-\d{2}-\d{2}: Now ice is forming on the walk/);
    expect(await requests.locator("[data-asked-again]").isVisible()).toBe(true);
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "quote-asked-again");

    // The bell counts it and lists it; the count holds on the list until marked seen (docs/decisions.md#55).
    const counted = await staff.locator("[data-bell-count]").innerText();
    expect(Number(counted)).toBeGreaterThan(0);
    await staff.locator("[data-bell]").click();
    await staff.waitForURL(`${site.baseUrl}/admin/notifications`);
    const line = staff.locator('[data-bell-item="asked-again"]').filter({ hasText: title });
    expect(await line.getAttribute("data-new")).toBe("true");
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "notifications");
    expect(await staff.locator("[data-bell-count]").innerText()).toBe(counted);
    await staff.locator("[data-mark-seen]").click();
    await staff.locator("[data-mark-seen]").waitFor({ state: "detached" });
    expect(await staff.locator("[data-bell-count]").count()).toBe(0);
    await line.getByRole("link").click();
    await staff.waitForURL(/\/admin\/quote-requests\?q=/);
    expect(await staff.locator("[data-quote-request]").filter({ hasText: title }).count()).toBe(1);
    await staff.context().close();
    await client.context().close();
  }, 120_000);
});
