import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SECTIONS } from "../../src/http/admin.js";
import { addDays, slotLabel } from "../../src/shared/business-time.js";
import { adminLabel, historyLabel } from "../../src/modules/inspections/bands.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { suiteToday } from "../support/clock.js";

// The inspector's day (inspections README): header taps on a phone, completing explained/confirmed/linked, toasts.
let ctx: TestContext;
let site: BrowserSite;
const staff = { email: "day@haven.test", password: "inspector-day-password" };
let propertyId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Dana", lastName: "Day" });
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "owner@example.ca", name: "Olive Owner", phone: "306-555-0100", subscriptionPlan: "standard" },
    { address: "18 Thumb Street", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
  );
  propertyId = property.id;
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

/** True when a tap at the centre of the element lands on it (nothing drawn over it catches the tap). */
async function tapReaches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const target = document.querySelector(sel);
    if (!target) return false;
    const box = target.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return Boolean(hit && (hit === target || target.contains(hit)));
  }, selector);
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const HEADER = [
  'summary[aria-label="Menu"]',
  'a[aria-label="Notifications"]',
  'form button[type="submit"]:has-text("Logout")',
];

describe("the inspector's day", () => {
  it("reaches the header's menu, bell and Logout at 390 px on every admin page, the form pages too", async () => {
    const inspection = await ctx.container.inspections.create(
      { propertyId, status: "in_progress", inspectionDate: "2026-11-24" },
      null,
    );
    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, "/admin");
    const paths = [
      ...ADMIN_SECTIONS.map((s) => s.href),
      "/admin/inspections/new",
      `/admin/inspections/edit/${inspection.id}`,
    ];
    for (const path of paths) {
      await page.goto(`${site.baseUrl}${path}`);
      await waitForIslands(page);
      for (const selector of HEADER) {
        const css = selector.replace(/:has-text\("Logout"\)/, "");
        // The Logout button is the only submit button in the header form.
        const reaches = await tapReaches(page, css.startsWith("form") ? "header form button[type=submit]" : css);
        expect(reaches, `${selector} on ${path}`).toBe(true);
      }
      // An empty toast list never catches a tap.
      const events = await page.evaluate(() => {
        const list = document.querySelector<HTMLElement>('[data-testid="toast-viewport"]');
        return list ? getComputedStyle(list).pointerEvents : "none";
      });
      expect(events, path).toBe("none");
    }
    // A tap on the menu opens it, on the form page too.
    await page.goto(`${site.baseUrl}/admin/inspections/edit/${inspection.id}`);
    await waitForIslands(page);
    await page.locator('summary[aria-label="Menu"]').click();
    expect(
      await page.locator('summary[aria-label="Menu"]').evaluate((el) => (el.parentElement as HTMLDetailsElement).open),
    ).toBe(true);
    await page.close();
  });

  it("explains what blocks completing, confirms with the count, warns below 50 % and links to the report", async () => {
    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, "/admin/inspections/new");
    await page.getByText("18 Thumb Street").click();
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await page.getByTestId("sticky-bar").waitFor();
    await page.waitForURL(/\/admin\/inspections\/edit\/\d+$/);
    const id = Number(page.url().split("/").pop());
    // The page is this inspection's now.
    expect(await page.locator("h1").innerText()).toBe(`Inspection #${id}`);

    // Nothing scored: the bar says why and the button does nothing.
    const why = page.getByTestId("completion-why");
    expect(await why.innerText()).toContain("Score at least one item");
    // aria-disabled keeps it focusable and announced; a tap does nothing.
    await page.getByTestId("complete-inspection").dispatchEvent("click");
    expect(await page.getByTestId("complete-dialog").count()).toBe(0);

    // Notes without a score block it: the bar names and links that item.
    // Attic is open from the start.
    const roof = page.locator('[data-entry="Attic|Access"]');
    await roof.getByLabel("Notes").fill("Moss on the north side");
    await page.getByTestId("completion-blocker").first().waitFor();
    expect(await page.getByTestId("completion-blocker").first().innerText()).toBe("Attic › Access");
    await screenshotBothWidths(page, "inspector-day-blocked");

    // Scoring it moves the form on to the next unscored item of the section.
    await roof.getByRole("button", { name: "7 Good", exact: true }).click();
    await page.waitForFunction(
      () => document.activeElement?.closest(".entry-card")?.getAttribute("data-entry") !== "Attic|Access",
    );
    const focused = await page.evaluate(() =>
      document.activeElement?.closest(".entry-card")?.getAttribute("data-entry"),
    );
    expect(focused).toBe("Attic|Insulation");

    // Ready: confirming says how many items are scored, and warns plainly (1 item is far below 50 %).
    await page.getByTestId("completion-why").waitFor({ state: "detached" });
    await page.getByTestId("complete-inspection").click();
    const dialog = page.getByTestId("complete-dialog");
    await dialog.waitFor();
    expect(await page.getByTestId("complete-count").innerText()).toMatch(/^1 of \d+ items are scored \(\d+%\)\.$/);
    expect(await page.getByTestId("complete-warning").innerText()).toContain("Fewer than 50%");
    await expectAccessible(page);
    await screenshotBothWidths(page, "inspector-day-confirm");
    await page.getByTestId("confirm-complete").click();

    // Completed: it offers 'Generate Report', then links straight to the report.
    await page.getByTestId("generate-report").click();
    const viewReport = page.getByTestId("completed-notice").getByTestId("view-report");
    await viewReport.waitFor();
    const report = await ctx.container.reports.findByInspection(id);
    expect(report).not.toBeNull();
    expect(await viewReport.getAttribute("href")).toBe(`/admin/reports/${report!.id}`);
    expect(await ctx.db("inspections").where({ id }).first("status")).toEqual({ status: "completed" });

    // The list now says 'View Report' for it, and the edit page links to it at once.
    await page.goto(`${site.baseUrl}/admin/inspections`);
    const row = page.locator(`[data-testid="inspection-row"][data-inspection-id="${id}"]`);
    expect(await row.getByTestId("view-report").getAttribute("href")).toBe(`/admin/reports/${report!.id}`);
    expect(await row.getByTestId("generate-report").count()).toBe(0);
    await page.goto(`${site.baseUrl}/admin/inspections/edit/${id}`);
    await waitForIslands(page);
    await page.getByTestId("completed-notice").waitFor();
    expect(await page.getByTestId("completed-notice").getByTestId("view-report").getAttribute("href")).toBe(
      `/admin/reports/${report!.id}`,
    );
    await expectAccessible(page);
    await page.close();
  });

  it("shows a success toast in green, above an open modal dialog", async () => {
    const inspection = await ctx.container.inspections.create(
      { propertyId, status: "in_progress", inspectionDate: "2026-11-24" },
      null,
    );
    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, `/admin/inspections/edit/${inspection.id}`);
    await page.getByTestId("sticky-bar").waitFor();
    const roof = page.locator('[data-entry="Attic|Access"]');
    await roof.getByRole("button", { name: "4 Needs Attention", exact: true }).click();
    await page.getByTestId("complete-inspection").click();
    await page.getByTestId("complete-dialog").waitFor();

    // A toast raised while the modal dialog is open is drawn over it, and can be tapped.
    await page
      .locator("[data-category='Kitchens & Wet Bars'] [data-testid='add-room']")
      .evaluate((b: HTMLButtonElement) => b.click());
    const toast = page.getByTestId("toast").first();
    await toast.waitFor();
    // Drawn over the dialog's backdrop: the pixels are the toast's own green, not darkened by it.
    expect(await page.locator('[data-testid="toast-viewport"]').evaluate((el) => el.matches(":popover-open"))).toBe(
      true,
    );
    const box = (await toast.boundingBox())!;
    const pixel = async () => {
      const png = await page.screenshot({ clip: { x: box.x + 4, y: box.y + box.height / 2, width: 2, height: 2 } });
      const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      return [data[0], data[1], data[2]];
    };
    // Polled: the first frame after the toast appears may not be painted yet on a busy machine.
    await expect.poll(pixel, { timeout: 5_000 }).toEqual([23, 64, 52]);
    const colours = await toast.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(colours).toBe("rgb(23, 64, 52)");
    await screenshotBothWidths(page, "inspector-day-toast-over-dialog");
    await page.close();
  });

  it("keeps the room buttons, the sticky bar's reason and button, and the toasts clear of each other", async () => {
    const inspection = await ctx.container.inspections.create(
      { propertyId, status: "in_progress", inspectionDate: "2026-11-24" },
      null,
    );
    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, `/admin/inspections/edit/${inspection.id}`);
    await page.getByTestId("sticky-bar").waitFor();
    for (const e of ["Attic|Access", "Attic|Insulation", "Attic|Moisture", "Plumbing|Hot Water System"])
      await page.locator(`[data-entry="${e}"]`).getByLabel("Notes").fill("Look again");
    await expect.poll(() => page.getByTestId("completion-blocker").count()).toBe(3);
    // Every box read in one pass: the page may still be scrolling between two separate reads.
    const boxes = (selectors: string[]) =>
      page.evaluate(
        (list) => list.map((sel) => document.querySelector(sel)!.getBoundingClientRect().toJSON() as Box),
        selectors,
      );
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      // A room's 'Add' button in the section header never sits on the section's name or count (at 390 px it goes under them).
      for (const category of ["Kitchens & Wet Bars", "Bathrooms", "Laundry Room"]) {
        const parts = [".category-name", ".category-progress", ".chevron"];
        const [add, ...others] = await boxes([
          `[data-category="${category}"] [data-testid="add-room"]`,
          ...parts.map((p) => `[data-category="${category}"] ${p}`),
        ]);
        for (const [i, other] of others.entries())
          expect(overlaps(add!, other), `${category} ${parts[i]} at ${size.width}px`).toBe(false);
      }
      // The reason and the button share the bar without overlapping, and the bar stays a strip at the thumb.
      const [why, button, bar] = await boxes([
        '[data-testid="completion-why"]',
        '[data-testid="complete-inspection"]',
        '[data-testid="sticky-bar"]',
      ]);
      expect(overlaps(why!, button!)).toBe(false);
      expect(bar!.height, `bar height at ${size.width}px`).toBeLessThan(size.height / 4);
    }
    // On a wide screen a toast does not cover the bar's buttons.
    await page.locator('[data-category="Kitchens & Wet Bars"] [data-testid="add-room"]').click();
    const toast = page.getByTestId("toast").filter({ hasText: "Kitchen 2 added" });
    await toast.waitFor();
    const [bar] = await boxes(['[data-testid="sticky-bar"]']);
    expect(overlaps((await toast.boundingBox())!, bar!)).toBe(false);
    await page.close();
  });

  it("lists today's and this week's scheduled bookings first in the property picker", async () => {
    const today = suiteToday(ctx.container.env.BUSINESS_TZ);
    const home = async (n: number, address: string) =>
      (
        await ctx.container.customers.createWithProperty(
          { email: `picker${n}@example.ca`, name: `Picker ${n}`, phone: "306-555-0101", subscriptionPlan: "standard" },
          { address, city: "Regina", province: "SK", postalCode: "S4P 1A1" },
        )
      ).property;
    const book = (property: Awaited<ReturnType<typeof home>>, scheduledDate: string, timeSlot: string) =>
      ctx.container.transaction((tx) =>
        ctx.container.bookings.book(
          tx,
          { propertyId: property.id, customerId: property.customerId, scheduledDate, timeSlot, source: "booking-page" },
          { email: property.clientEmail, name: property.clientName },
        ),
      );
    // Booked first but later in the week: the list goes by date, not by when it was booked.
    const thursday = await home(1, "3 Later Lane");
    await book(thursday, addDays(today, 3), "morning");
    const now = await home(2, "1 Today Terrace");
    await book(now, today, "afternoon");
    // Not this week, cancelled, or already past: not offered first.
    const nextWeek = await home(3, "5 Next Week Road");
    await book(nextWeek, addDays(today, 7), "morning");
    const cancelled = await home(4, "7 Cancelled Court");
    const gone = await book(cancelled, today, "morning");
    await ctx.db("inspection_bookings").where({ id: gone.id }).update({ status: "cancelled" });
    const past = await home(5, "9 Yesterday Row");
    await book(past, addDays(today, -1), "morning");

    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, "/admin/inspections/new");
    const upcoming = page.getByTestId("upcoming-properties");
    await upcoming.waitFor();
    expect(await upcoming.locator(".property-choice").allInnerTexts()).toEqual([
      `1 Today Terrace, Regina, SK\nToday · ${slotLabel("afternoon")} · Picker 2 · #${now.id}`,
      `3 Later Lane, Regina, SK\n${addDays(today, 3)} · ${slotLabel("morning")} · Picker 1 · #${thursday.id}`,
    ]);
    // They come first among all the choices, and only once (the search results below leave them out).
    await page.getByRole("radio", { name: /18 Thumb Street/ }).waitFor();
    const names = await page
      .getByRole("radio")
      .evaluateAll((els) => els.map((el) => el.closest("label")!.querySelector(".font-semibold")!.textContent));
    expect(names.slice(0, 2)).toEqual(["1 Today Terrace, Regina, SK", "3 Later Lane, Regina, SK"]);
    expect(names.filter((n) => n === "1 Today Terrace, Regina, SK")).toHaveLength(1);
    expect(names).toContain("5 Next Week Road, Regina, SK");

    // A search shows only what matches; clearing it brings the day's list back.
    await page.getByLabel("Search properties").fill("Later Lane");
    await expect.poll(() => page.getByRole("radio").count()).toBe(1);
    expect(await upcoming.count()).toBe(0);
    await page.getByLabel("Search properties").fill("");
    await upcoming.waitFor();

    // One tap on today's booking starts its inspection.
    await upcoming.getByRole("radio", { name: /1 Today Terrace/ }).check();
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await page.waitForURL(/\/admin\/inspections\/edit\/\d+$/);
    const id = Number(page.url().split("/").pop());
    expect((await ctx.db("inspections").where({ id }).first("property_id")).property_id).toBe(now.id);
    await page.close();
  });

  it("prints the score's number beside its label in the reports list, the report and the property history", async () => {
    const { property } = await ctx.container.customers.createWithProperty(
      { email: "numbers@example.ca", name: "Nora Numbers", phone: "306-555-0102", subscriptionPlan: "standard" },
      { address: "12 Number Row", city: "Saskatoon", province: "SK", postalCode: "S7K 1A2" },
    );
    const older = await ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-10-01" },
      null,
    );
    await ctx.container.inspections.complete(older.id, [
      { categoryName: "Attic", subcategoryName: "Insulation", score: 10 },
    ]);
    const latest = await ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-11-20" },
      null,
    );
    await ctx.container.inspections.complete(latest.id, [
      { categoryName: "Attic", subcategoryName: "Insulation", score: 7 },
    ]);
    const report = await ctx.container.reports.generate(latest.id);
    const scoreOf = async (id: number) =>
      Number((await ctx.db("inspections").where({ id }).first("overall_score")).overall_score);
    const [was, score] = [await scoreOf(older.id), await scoreOf(latest.id)];
    // The tables differ on purpose (the spec's), so the number is what keeps them from seeming to disagree.
    expect(adminLabel(score)).not.toBe(historyLabel(score));

    const page = await site.browser.newPage({ viewport: PHONE });
    await signIn(page, "/admin/reports");
    expect(await page.locator(`[data-report-id="${report.id}"] .report-band`).innerText()).toBe(
      `${score} · ${adminLabel(score)}`,
    );

    await page.goto(`${site.baseUrl}/admin/reports/${report.id}`);
    await waitForIslands(page);
    await page.locator(".viewer-label").waitFor();
    expect(await page.locator(".viewer-label").innerText()).toBe(`${score} · ${adminLabel(score)}`);

    await page.goto(`${site.baseUrl}/admin/property-history/${property.id}`);
    expect(await page.locator(".history-current .history-stat-value").innerText()).toBe(
      `${score} · ${historyLabel(score)}`,
    );
    const average = Math.round((was + score) / 2);
    expect(await page.getByTestId("history-average").innerText()).toBe(String(average));
    expect(
      await page
        .locator(".history-stat", { has: page.getByTestId("history-average") })
        .locator(".history-stat-note")
        .innerText(),
    ).toBe(`${average} · ${historyLabel(average)}`);
    const lines = await page
      .getByTestId("history-inspection")
      .locator(".history-inspection-main .text-ink\\/75")
      .evaluateAll((els) => els.map((el) => el.textContent!.trim()));
    expect(lines.sort()).toEqual(
      [`completed · ${score} · ${historyLabel(score)}`, `completed · ${was} · ${historyLabel(was)}`].sort(),
    );
    await page.close();
  });
});
