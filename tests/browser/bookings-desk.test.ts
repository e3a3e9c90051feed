// The bookings desk (docs/decisions.md#58) as the office manager uses it: by keyboard, at 1280 and 390 px, axe clean;
// a reassignment and a move, each answered in words that take the focus.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../seeds/demo/index.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import { signInAt } from "../support/staff-pages.js";

let site: BrowserSite;
const staff = { email: "olivia@haven.test", password: "office-desk-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  await ctx.container.users.create({ ...staff, firstName: "Olivia", lastName: "Chen", role: "office" });
  // Demo data as the first `npm start` seeds it (half its 40 homes), three inspectors with hours, visits booked in the coming weeks.
  await seedDemo(ctx.container, { properties: 20, inspectors: true, now: new Date(Date.now() - 60_000) });
});
afterAll(() => site?.close());

const signIn = (page: Page, next: string) => signInAt(site, page, staff, next, { adminReady: true });

describe("/admin/bookings", () => {
  it("reassigns and moves a booking by keyboard, each confirmed in words; axe clean at 1280 and 390 px", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page, "/admin/bookings?status=scheduled");
    const rows = page.getByTestId("booking-row");
    expect(await rows.count()).toBeGreaterThan(0);
    await expectAccessible(page);

    // Reassign: the row's inspector list, by keyboard, to someone else.
    const row = rows.first();
    const select = row.getByRole("combobox");
    const before = await select.inputValue();
    await select.focus();
    await page.keyboard.press(before === "" ? "ArrowDown" : "ArrowUp");
    const chosen = await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]!.text);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const answer = page.getByTestId("desk-answer");
    await answer.waitFor();
    expect(await answer.innerText()).toMatch(
      chosen === "Nobody" ? /^No inspector now for / : new RegExp(`^Given to ${chosen}, `),
    );
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("desk-answer");

    // Reschedule: the dialog offers the inspectors' free times; the first one, by keyboard.
    await page.getByTestId("reschedule").first().focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("A free time").waitFor();
    expect(await dialog.getByText("Or another time, outside the inspectors' free times").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "bookings-desk-reschedule");
    await dialog.getByLabel("A free time").focus();
    await page.keyboard.press("ArrowDown");
    await dialog.getByRole("button", { name: "Move the booking" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => answer.innerText()).toMatch(/^Moved to .+ is e-mailed the new time\.$/);

    // A phone: one card per booking, nothing wider than the screen, axe clean.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await screenshotBothWidths(page, "bookings-desk");
    await page.close();
  });
});
