// My Home: a homeowner moves, skips and restores plan visits, and books the annual inspection at a free time
// (docs/decisions.md#44), in a real Chromium at 390 px with the keyboard for the move; axe on every page, screenshots
// at 390 and 1280 px (tests/.screenshots/my-home-plan-visit*-{390,1280}.png with SCREENSHOTS=1).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, longDate, shortDate } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import { suiteToday } from "../support/clock.js";

const TZ = "America/Toronto";
const EMAIL = "morgan.planvisit@example.com";
let site: BrowserSite;
let propertyId = 0;

type Visit = { id: number; scheduled_date: string; status: string };
const visitsOf = async (service: string): Promise<Visit[]> =>
  (
    await site.ctx.db.raw(
      `select t.id, t.scheduled_date, t.status from maintenance_tasks t join maintenance_schedules s on s.id = t.schedule_id
        where t.property_id = ? and s.plan_service = ? order by t.scheduled_date`,
      [propertyId, service],
    )
  ).rows;
/** The first absentee-care visits far enough ahead to change (at least 2 days away). */
const changeable = async () =>
  (await visitsOf("absentee-care")).filter((v) => v.scheduled_date >= addDays(suiteToday(TZ), 3));

beforeAll(async () => {
  site = await openBrowserSite({ env: { BUSINESS_TZ: TZ } });
  const { ctx } = site;
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: EMAIL, name: "Morgan Leclerc", phone: "613-555-0177", subscriptionPlan: "free-score" },
    { address: "41 Rue Principale", city: "Orléans", province: "ON", postalCode: "K1E 1A1", squareFootage: 1600 },
  );
  propertyId = property.id;
  await ctx.container.subscriptions.startDemo({
    checkoutRef: "cs_morgan",
    planType: "premium",
    amountCents: 79900,
    payerEmail: EMAIL,
    payerName: "Morgan Leclerc",
    cardNumber: "4242424242424242",
  });
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty("cs_morgan", { customerId: customer.id, propertyId }, tx),
  );
});
afterAll(() => site?.close());

async function signedInPhone(): Promise<Page> {
  const page = await site.newPage(PHONE);
  const { token } = await site.ctx.container.homeAuth.createSession(EMAIL, { method: "link" });
  await page
    .context()
    .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

describe("plan visits in My Home at 390 px", () => {
  it("moves a monthly visit within its month with the keyboard, and is told so", async () => {
    const [visit] = await changeable();
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits`);
    await page.getByRole("heading", { name: "Visits", level: 1 }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-visits");
    await page.locator(`[data-visit-id="${visit!.id}"]`).getByTestId("plan-visit-change").click();
    await page.getByRole("heading", { name: "Absentee care: home check", level: 1 }).waitFor();
    expect(await page.getByTestId("visit-current").innerText()).toContain("8 AM–5 PM");
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-visit");
    // A date out of its month is refused on the page, with the window named.
    const month = visit!.scheduled_date.slice(0, 7);
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    await page.getByLabel(/New date/).fill(addDays(last, 1));
    await page.getByRole("button", { name: "Move my visit" }).click();
    await page.getByTestId("visit-problem").waitFor();
    expect(await page.getByTestId("visit-date-error").innerText()).toMatch(/^Choose a date from /);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-visit-refused");
    // By keyboard: type the date, Enter submits the form.
    const target = visit!.scheduled_date < last ? addDays(visit!.scheduled_date, 1) : visit!.scheduled_date;
    await page.getByLabel(/New date/).focus();
    await page.getByLabel(/New date/).fill(target);
    await page.keyboard.press("Enter");
    await page.getByText("Your visit is moved").waitFor();
    const row = await site.ctx.db("maintenance_tasks").where({ id: visit!.id }).first();
    expect(row).toMatchObject({ scheduled_date: target, status: "scheduled" });
    expect(
      await site.ctx.db("notifications").where({ kind: "visit-moved", record_id: String(visit!.id) }),
    ).toHaveLength(target === visit!.scheduled_date ? 0 : 1);
    await page.context().close();
  });

  it("skips a visit, shows it as skipped, and restores it", async () => {
    const visit = (await changeable())[1]!;
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits/plan-visits/${visit.id}`);
    await page.getByRole("button", { name: `Skip the visit of ${shortDate(visit.scheduled_date)}` }).click();
    await page.getByText("Your visit is skipped").waitFor();
    const item = page.locator(`[data-visit-id="${visit.id}"]`);
    await item.getByTestId("visit-skipped").waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-visit-skipped");
    expect(await site.ctx.db("maintenance_tasks").where({ id: visit.id }).first()).toMatchObject({
      status: "cancelled",
    });
    await item.getByRole("link", { name: /Restore/ }).click();
    await page.getByRole("button", { name: `Restore the visit of ${shortDate(visit.scheduled_date)}` }).click();
    await page.getByText("Your visit is back on").waitFor();
    expect(await site.ctx.db("maintenance_tasks").where({ id: visit.id }).first()).toMatchObject({
      status: "scheduled",
      skipped_at: null,
    });
    await page.context().close();
  });

  it("books the annual inspection at a free time near its due date; it cannot be skipped", async () => {
    const [due] = await visitsOf("health-report");
    const page = await signedInPhone();
    await page.goto(`${site.baseUrl}/my-home/visits/plan-visits/${due!.id}`);
    await page.getByRole("heading", { name: "Annual home inspection due", level: 1 }).waitFor();
    expect(await page.getByRole("button", { name: /Skip/ }).count()).toBe(0);
    expect(await page.getByText("it can be moved but not skipped").count()).toBe(1);
    const days = page.getByTestId("visit-day");
    expect(await days.count()).toBe(14);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-home-plan-visit-inspection");
    const date = await days.nth(2).getAttribute("data-date");
    await page
      .getByRole("group", { name: longDate(date!) })
      .getByRole("radio", { name: /Afternoon/ })
      .check();
    await page.getByRole("button", { name: "Book my inspection" }).click();
    await page.getByText("Your annual inspection is booked").waitFor();
    const booking = await site.ctx.db("inspection_bookings").where({ property_id: propertyId }).first();
    expect(booking).toMatchObject({ scheduled_date: date, time_slot: "afternoon", status: "scheduled" });
    // The Visits list now shows the inspection booking, not the due task.
    expect(await page.locator(`[data-visit-kind="inspection"][data-visit-id="${booking.id}"]`).count()).toBe(1);
    expect(await page.locator(`[data-visit-id="${due!.id}"]`).count()).toBe(0);
    await page.context().close();
  });
});
