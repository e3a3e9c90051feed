import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, zonedInstant } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { suiteToday } from "../support/clock.js";

// An inspector's day (docs/decisions.md#38, #55): /admin/my-day at 390 px, today and the 7 days after in time order, the map
// and tel: links, access notes and the plan, opening or starting the inspection, readable offline once loaded.
let ctx: TestContext;
let site: BrowserSite;
const inspector = { email: "ines@haven.test", password: "inspector-password", firstName: "Ines", lastName: "Pector" };
const other = { email: "otto@haven.test", password: "other-inspector-pw", firstName: "Otto", lastName: "Other" };
const owner = { email: "olga@haven.test", password: "owner-password-1", firstName: "Olga", lastName: "Owner" };
let today: string;

/** '14:00' → '2:00 PM', the booking's clock-time slot. */
const slotOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  return `${h > 12 ? h - 12 : h}:${String(m).padStart(2, "0")} ${h >= 12 ? "PM" : "AM"}`;
};

async function book(
  staffId: number,
  date: string,
  from: string,
  to: string,
  client: { name: string; phone: string; address: string },
  access: { method?: string; instructions?: string; code?: string } = {},
) {
  const tz = ctx.env.BUSINESS_TZ;
  const { customer, property } = await ctx.container.customers.createWithProperty(
    {
      email: `${client.name.split(" ")[0]!.toLowerCase()}@example.ca`,
      name: client.name,
      phone: client.phone,
      subscriptionPlan: "standard",
    },
    { address: client.address, city: "Ottawa", province: "ON", postalCode: "K1P 1J1" },
  );
  const [row] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: property.id,
      customer_id: customer.id,
      scheduled_date: date,
      time_slot: slotOf(from),
      source: "booking-page",
      inspector_id: staffId,
      during: ctx.db.raw("tstzrange(?, ?)", [zonedInstant(date, from, tz), zonedInstant(date, to, tz)]),
      access_method: access.method ?? null,
      access_instructions: access.instructions ?? null,
      access_code: access.code ?? null,
    })
    .returning("id");
  return row.id as number;
}

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  const ines = await ctx.container.users.create({ ...inspector, role: "inspector" });
  const otto = await ctx.container.users.create({ ...other, role: "inspector" });
  await ctx.container.users.create({ ...owner, role: "owner" });
  today = suiteToday(ctx.env.BUSINESS_TZ);
  // Booked out of order: the page sorts by time.
  await book(ines.id, today, "14:00", "16:00", {
    name: "Late Client",
    phone: "613-555-0102",
    address: "200 Afternoon Ave",
  });
  await book(
    ines.id,
    today,
    "09:30",
    "11:30",
    { name: "Early Client", phone: "(613) 555-0101", address: "12 Morning Road" },
    { method: "lockbox", instructions: "Side door, dog is friendly", code: "4321" },
  );
  await book(ines.id, addDays(today, 1), "10:00", "12:00", {
    name: "Tomorrow Client",
    phone: "613-555-0103",
    address: "3 Next Day Lane",
  });
  await book(ines.id, addDays(today, 3), "09:00", "11:00", {
    name: "Later Client",
    phone: "613-555-0105",
    address: "4 Thursday Crescent",
  });
  await book(otto.id, today, "08:00", "10:00", {
    name: "Otto Client",
    phone: "613-555-0104",
    address: "9 Elsewhere Street",
  });
});
afterAll(() => site?.close());

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent("/admin/my-day")}`);
  await page.getByLabel("Company e-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin/my-day`);
}

describe("/admin/my-day", () => {
  it("an inspector sees their own visits in time order at 390 px, with map and tel: links, access notes and the plan", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, inspector);
    const todayVisits = page.locator('[data-testid="my-day-today"] [data-testid="visit"]');
    await expect.poll(() => todayVisits.count()).toBe(2);
    const first = todayVisits.nth(0);
    expect(await first.textContent()).toContain("Early Client");
    expect(await todayVisits.nth(1).textContent()).toContain("Late Client");
    expect(await page.locator('[data-testid="my-day-tomorrow"] [data-testid="visit"]').count()).toBe(1);
    // The week ahead: the visit three days on under its own date, the empty days around it folded to a line each.
    const later = page.locator(`[data-testid="my-day-${addDays(today, 3)}"]`);
    expect(await later.locator('[data-testid="visit"]').textContent()).toContain("Later Client");
    expect(await page.getByTestId("my-day-empty-days").allTextContents()).toHaveLength(2);
    // Another inspector's visit is not on this inspector's day.
    expect(await page.content()).not.toContain("Otto Client");

    expect(await first.locator('[data-testid="visit-call"]').getAttribute("href")).toBe("tel:6135550101");
    const map = await first.locator('[data-testid="visit-map"]').getAttribute("href");
    expect(map).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent("12 Morning Road, Ottawa, ON K1P 1J1")}`,
    );
    const text = (await first.textContent()) ?? "";
    expect(text).toContain("Access: Lockbox access");
    expect(text).toContain("Access instructions: Side door, dog is friendly");
    expect(text).toContain("Plan:");
    // The lockbox code stays off a page kept on the phone, shown only when the inspector taps for it.
    expect(text).not.toContain("4321");

    // One thumb: every action is at least 44 px tall and the page does not scroll sideways.
    for (const box of await first
      .locator("a.btn, button.btn")
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height)))
      expect(box).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await expectAccessible(page);
    await screenshotBothWidths(page, "my-day-inspector");
    await first.getByRole("button", { name: "Show the lockbox code for 12 Morning Road" }).click();
    await expect.poll(() => first.getByTestId("visit-code").textContent()).toBe("4321");

    // Start the inspection: the form opens, and the visit then opens that inspection.
    await first.locator('[data-testid="visit-start"]').click();
    await page.waitForURL(/\/admin\/inspections\/edit\/\d+$/);
    const inspectionId = page.url().split("/").at(-1);
    await page.goto(`${site.baseUrl}/admin/my-day`);
    expect(await page.locator('[data-testid="visit-open"]').first().getAttribute("href")).toBe(
      `/admin/inspections/edit/${inspectionId}`,
    );
    await page.context().close();
  });

  it("the owner sees everyone's visits grouped by inspector", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, owner);
    const groups = await page
      .locator('[data-testid="my-day-today"] [data-testid="my-day-inspector"]')
      .allTextContents();
    expect(groups).toEqual(["Ines Pector", "Otto Other"]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "my-day-owner");
    await page.context().close();
  });

  it("is readable offline once loaded", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, inspector);
    // The worker is active and has kept the page and its styles (the page's script adds them on the first visit).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const reg = await navigator.serviceWorker.getRegistration("/admin/my-day");
            const cache = await caches.open("haven-my-day");
            const keys = (await cache.keys()).map((k) => new URL(k.url).pathname);
            return (
              reg?.active?.state === "activated" &&
              keys.includes("/admin/my-day") &&
              keys.some((k) => k.endsWith(".css"))
            );
          }),
        { timeout: 10_000 },
      )
      .toBe(true);
    await page.context().setOffline(true);
    await page.reload();
    expect(await page.locator('[data-testid="my-day-today"] [data-testid="visit"]').count()).toBe(2);
    // The kept copy offers the lockbox code but never holds it.
    expect(await page.content()).not.toContain("4321");
    expect(await page.locator("h1").textContent()).toBe("My Day");
    await page.context().setOffline(false);
    await page.context().close();
  });
});
