// The booking page at fixed dates (docs/decisions.md#48), in Chromium: the page's clock and the server's are the
// suite's (tests/support/clock.ts), and the dates a homeowner may pick count from today in the business zone. The
// rules themselves at every fixed date: tests/api/fixed-dates.test.ts. Two dates only, to stay short.
import { sealData } from "iron-session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, shortDate } from "../../src/shared/business-time.js";
import { type BrowserSite, PHONE, openBrowserSite, waitForIslands } from "../support/browser.js";
import { SUITE_DATES, parseSuiteNow, restoreSuiteTime, setSuiteTime, suiteNow, suiteToday } from "../support/clock.js";

let site: BrowserSite;
beforeAll(async () => {
  site = await openBrowserSite();
});
afterAll(async () => {
  // This worker runs other files after this one (isolate: false): they get the run's clock back.
  restoreSuiteTime();
  await site?.close();
});

const AT = SUITE_DATES.filter((d) => d.at === "2026-11-30T21:30" || d.at === "2027-03-14T03:30");

describe.each(AT)("on $label ($at)", ({ at }) => {
  beforeAll(() => setSuiteTime(parseSuiteNow(at)));
  afterAll(() => restoreSuiteTime());

  it("the booking page's dates count from tomorrow in the business zone, on the page's clock and the server's", async () => {
    const { ctx } = site;
    const today = suiteToday();
    const { minDate, bookingDates } = ctx.container.bookings.calendar();
    expect(minDate).toBe(addDays(today, 4));

    const page = await site.newPage(PHONE);
    // The page's own clock is the suite's too.
    const drift = (await page.evaluate(() => Date.now())) - suiteNow().getTime();
    expect(Math.abs(drift)).toBeLessThan(30_000);

    const { customer } = await ctx.container.customers.createWithProperty(
      { email: `dates-${today}@example.com`, name: "Dee Dates", phone: "613-555-0170", subscriptionPlan: "premium" },
      { address: `${today.slice(8)} Calendar Lane`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
    );
    const value = await sealData({ customerIds: [customer.id] }, { password: ctx.env.SESSION_SECRET, ttl: 3600 });
    await page
      .context()
      .addCookies([{ name: "haven_session", value, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
    await page.goto(`${site.baseUrl}/book-inspection`);
    await waitForIslands(page);
    const dates = page.getByRole("group", { name: /Preferred date/ }).getByRole("radio");
    await expect.poll(() => dates.count()).toBe(bookingDates.length);
    // Tomorrow's weekday first, today never.
    expect(bookingDates[0]! > today).toBe(true);
    expect(await page.getByText(shortDate(bookingDates[0]!), { exact: true }).count()).toBe(1);
    expect(await page.getByText(shortDate(today), { exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
