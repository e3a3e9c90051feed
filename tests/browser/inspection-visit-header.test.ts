// The inspector's phone: the client's phone is a tel: link, the homeowner's notes for the visit show on the form,
// and the sticky bar stays a strip at the thumb (at most about 100 px of a 390 × 844 screen).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { suiteToday } from "../support/clock.js";

let site: BrowserSite;
const staff = { email: "visit@haven.test", password: "inspector-visit-password" };
let inspectionId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  const { ctx } = site;
  await ctx.container.users.create({ ...staff, firstName: "Vera", lastName: "Visit" });
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "olive@example.ca", name: "Olive Owner", phone: "(306) 555-0100", subscriptionPlan: "standard" },
    { address: "18 Thumb Street", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
  );
  // What she typed into "Notes for your inspector" at intake.
  await ctx.db("properties").where({ id: property.id }).update({ notes: "Side door is easiest. Small dog." });
  const day = addDays(suiteToday(ctx.container.env.BUSINESS_TZ), 5);
  await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: day,
        timeSlot: "morning",
        source: "booking-page",
      },
      { email: property.clientEmail, name: property.clientName },
    ),
  );
  await ctx.db("inspection_bookings").where({ property_id: property.id }).update({
    access_method: "lockbox",
    access_instructions: "Lockbox on the side gate",
    special_requests: "The dog stays in the back room; please check the attic hatch first.",
    access_code: "4321",
  });
  const inspection = await ctx.container.inspections.create(
    { propertyId: property.id, status: "in_progress", inspectionDate: day },
    null,
  );
  inspectionId = inspection.id;
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await waitForIslands(page);
}

describe("the inspection form on the inspector's phone", () => {
  it("calls the client with one tap, shows the homeowner's notes, and keeps the sticky bar within 100 px", async () => {
    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, `/admin/inspections/edit/${inspectionId}`);
    await page.getByTestId("sticky-bar").waitFor();
    const call = page.getByTestId("client-phone");
    expect(await call.getAttribute("href")).toBe("tel:3065550100");
    expect(await call.innerText()).toContain("(306) 555-0100");
    const notes = page.getByTestId("homeowner-notes");
    expect(await notes.innerText()).toContain("The dog stays in the back room");
    expect(await notes.innerText()).toContain("Lockbox on the side gate");
    expect(await notes.innerText()).toContain("Lockbox access");
    expect(await notes.innerText()).toMatch(/Notes for your inspector:?\s*Side door is easiest\. Small dog\./);
    // The door code stays off the form (it is kept on the device for offline use) until the inspector asks for it.
    expect(await page.locator("body").innerText()).not.toContain("4321");
    await page.getByRole("button", { name: "Show the lockbox code" }).click();
    await expect.poll(() => page.getByTestId("access-code").innerText()).toBe("4321");

    const barHeight = () => page.getByTestId("sticky-bar").evaluate((el) => el.getBoundingClientRect().height);
    expect(await barHeight(), "bar with nothing to block completion").toBeLessThanOrEqual(100);
    expect(await page.getByRole("button", { name: "Next unscored" }).isVisible()).toBe(true);
    // With items that block completion, the reason is one line and the bar still fits.
    for (const e of ["Attic|Access", "Attic|Insulation", "Attic|Moisture", "Plumbing|Hot Water System"])
      await page.locator(`[data-entry="${e}"]`).getByLabel("Notes").fill("Look again");
    await expect.poll(() => page.getByTestId("completion-blocker").count()).toBe(3);
    expect(await barHeight(), "bar with the reason").toBeLessThanOrEqual(100);
    const [why, button] = await Promise.all([
      page.getByTestId("completion-why").boundingBox(),
      page.getByTestId("complete-inspection").boundingBox(),
    ]);
    expect(why!.y >= button!.y + button!.height || why!.y + why!.height <= button!.y).toBe(true);
    await expectAccessible(page);
    // The screen as the inspector holds it: the header at the top, the bar at the thumb.
    if (SCREENSHOTS) {
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
      await page.screenshot({ path: "tests/.screenshots/inspection-visit-header-phone-screen.png" });
    }
    await screenshotBothWidths(page, "inspection-visit-header");
    await page.setViewportSize(DESKTOP);
    expect(await page.getByTestId("client-phone").isVisible()).toBe(true);
    await page.close();
  });
});
