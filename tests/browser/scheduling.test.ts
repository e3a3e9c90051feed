import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "../../src/shared/business-time.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  settle,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let browser: Browser;
let site: BrowserSite;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx, browser } = site);
});
afterAll(() => site?.close());

const newPage = (size = DESKTOP) => site.newPage(size);
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

async function expectToast(page: Page, title: string, description: string) {
  const toast = page.getByTestId("toast");
  await toast.filter({ hasText: title }).waitFor();
  expect(await toast.innerText()).toContain(description);
}

async function fillSteps1And2(page: Page, email = "robin@example.com") {
  await page.getByLabel("Property address").fill("12 Elm Street, Saskatoon, SK S7K 1A1");
  await page.getByLabel("Property type").selectOption("townhouse");
  await page.getByLabel("Property size (sq ft)").fill("1800");
  await page.getByLabel("Year built").fill("1995");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Contact Info", exact: true }).waitFor();
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("Last name").fill("Banks");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("306-555-0142");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
}

describe("the scheduling wizard", () => {
  it("goes from step 1 to /booking-confirmation, with the spec's toasts, and the confirmation is read once", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    expect(await page.locator("footer.site-footer").count()).toBe(1);
    // Clean of axe's moderate findings too (heading-order: no level skipped).
    await expectAccessible(page, { moderate: true });
    await screenshotBothWidths(page, "schedule-step1");

    // Next on an empty step: the toast, field errors, and no move.
    await page.getByRole("button", { name: "Next" }).click();
    await expectToast(page, "Missing Information", "Please fill in all required fields before continuing.");
    expect(await page.getByText("Property address is required").isVisible()).toBe(true);
    await expectAccessible(page, { moderate: true });
    await screenshotBothWidths(page, "schedule-step1-errors");

    await fillSteps1And2(page);
    // Previous keeps what was typed.
    await page.getByRole("button", { name: "Previous" }).click();
    expect(await page.getByLabel("Email").inputValue()).toBe("robin@example.com");
    await page.getByRole("button", { name: "Next" }).click();

    const minDate = ctx.container.bookings.calendar().minDate;
    expect(await page.getByLabel("Inspection date").getAttribute("min")).toBe(minDate);
    const slots = await page.getByLabel("Time").locator("option").allInnerTexts();
    expect(slots.slice(1)).toHaveLength(25);
    expect([slots[1], slots.at(-1)]).toEqual(["8:00 AM", "8:00 PM"]);

    // Submit with the time missing: the submit wording of the toast.
    await page.getByLabel("Inspection date").fill(minDate);
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await expectToast(page, "Missing Information", "Please fill in all required fields.");
    // The reason shows under the field, which takes the focus.
    expect(await page.locator("#timeSlot-error").innerText()).toBe("Time slot is required");
    await expect.poll(() => focusedId(page)).toBe("timeSlot");

    await page.getByLabel("Time").selectOption("10:30 AM");
    await page.getByText("Lockbox access").click();
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await expectToast(
      page,
      "Access Information Required",
      "Please provide access code or instructions for your selected access method.",
    );
    await expectAccessible(page, { moderate: true });
    await screenshotBothWidths(page, "schedule-step3-access");

    await page.getByLabel("Access code").fill("2580");
    // Hold the request a moment to see the pending label.
    await page.route("**/api/inspection-bookings", async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.getByRole("button", { name: "Scheduling..." }).waitFor();
    await expectToast(
      page,
      "Inspection Scheduled Successfully",
      "You'll receive a confirmation email shortly with all the details.",
    );
    const record = await page.evaluate(() => JSON.parse(sessionStorage.getItem("bookingConfirmation") ?? "null"));
    expect(record).toEqual({
      scheduledDate: minDate,
      selectedTime: "10:30 AM",
      address: "12 Elm Street",
      city: "Saskatoon",
      state: "SK",
      accessMethod: "lockbox",
      email: "robin@example.com",
      postalCode: "S7K 1A1",
      // An 1,800 sq ft home: the calendar holds two hours (docs/decisions.md#37, #59).
      visitMinutes: 120,
    });
    await page.waitForURL(`${site.baseUrl}/booking-confirmation`);
    await waitForIslands(page);

    await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
    expect(await page.getByTestId("confirmation-date").innerText()).toBe(longDate(minDate));
    expect(await page.getByTestId("confirmation-time").innerText()).toBe("10:30 AM");
    expect(await page.getByTestId("confirmation-address").innerText()).toContain("12 Elm Street");
    expect(await page.getByTestId("confirmation-address").innerText()).toContain("Saskatoon, SK S7K 1A1");
    // One account of the visit's length: the spec's 60 minutes of inspection, in a visit the calendar holds 2 hours.
    expect(await page.getByText("Our 114-point inspection takes about 60 minutes.").isVisible()).toBe(true);
    expect(await page.getByTestId("confirmation-visit-length").innerText()).toBe(
      "Plan to be home for the whole visit, about 2 hours: the inspection itself takes about 60 minutes, and your inspector walks the home with you and goes over what was found.",
    );
    expect(await page.getByTestId("confirmation-access").innerText()).toBe("Lockbox access");
    expect(await page.getByText("robin@example.com").count()).toBeGreaterThan(0);
    expect(await page.getByRole("heading", { name: "What Happens Next?" }).isVisible()).toBe(true);
    expect(await page.locator("main ol li").count()).toBe(4);
    expect(await page.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/");
    expect(await page.getByRole("link", { name: "View Plans" }).getAttribute("href")).toBe("/pricing");
    expect(await page.getByText(ctx.env.SUPPORT_EMAIL).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => sessionStorage.getItem("bookingConfirmation"))).toBeNull();
    await expectAccessible(page, { moderate: true });
    await screenshotBothWidths(page, "booking-confirmation");

    // The booking is really there, and only this browser sees it.
    const mine = await page.context().request.get(`${site.baseUrl}/api/inspection-bookings`);
    expect((await mine.json()).map((b: { accessCode: string }) => b.accessCode)).toEqual(["2580"]);

    // Read once: a reload shows the page without the record.
    await page.reload();
    await waitForIslands(page);
    await page.getByRole("heading", { name: "No Booking to Show" }).waitFor();
    expect(await page.getByRole("link", { name: "Schedule an Inspection" }).getAttribute("href")).toBe(
      "/schedule-inspection",
    );
    await expectAccessible(page, { moderate: true });
    await screenshotBothWidths(page, "booking-confirmation-empty");
    await page.context().close();
  });

  it("shows 'Scheduling Error' when the server fails, and keeps every value", async () => {
    const page = await newPage();
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    await fillSteps1And2(page);
    await page.getByLabel("Inspection date").fill(ctx.container.bookings.calendar().minDate);
    await page.getByLabel("Time").selectOption("8:00 PM");
    await page.getByText("Meet inspector at property").click();
    await page.route("**/api/inspection-bookings", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down"}' }),
    );
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await expectToast(page, "Scheduling Error", "Failed to schedule inspection. Please try again.");
    expect(await page.getByLabel("Time").inputValue()).toBe("8:00 PM");
    expect(page.url()).toBe(`${site.baseUrl}/schedule-inspection`);
    await page.context().close();
  });

  it("on a 400 naming a field of an earlier step, goes to that step, shows the message under it and focuses it; nothing is lost", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    // The browser accepts "a@b.c"; the server does not.
    await fillSteps1And2(page, "a@b.c");
    const minDate = ctx.container.bookings.calendar().minDate;
    await page.getByLabel("Inspection date").fill(minDate);
    await page.getByLabel("Time").selectOption("9:00 AM");
    await page.getByText("Smart lock / Automated access").click();
    await page.getByLabel("Access code").fill("4321");
    await page.getByLabel("Special requests (optional)").fill("Side gate");
    const refused = page.waitForResponse(
      (r) => r.url().endsWith("/api/inspection-bookings") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    const response = await refused;
    expect(response.status()).toBe(400);
    expect((await response.json()).fields).toHaveProperty("email");

    await expectToast(page, "Scheduling Error", "Failed to schedule inspection. Please try again.");
    await page.getByRole("heading", { name: "Contact Info", exact: true }).waitFor();
    expect(await page.getByText("Step 2 of 3.").isVisible()).toBe(true);
    expect(await page.locator("#email-error").innerText()).toBe((await response.json()).fields.email);
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => focusedId(page)).toBe("email");
    expect(await page.getByLabel("Email").inputValue()).toBe("a@b.c");
    expect(await page.getByLabel("First name").inputValue()).toBe("Robin");
    await expectAccessible(page);
    await screenshotBothWidths(page, "schedule-server-field-error");

    // Fixing it clears the message; the schedule step still has everything typed.
    await page.getByLabel("Email").fill("robin@example.com");
    expect(await page.locator("#email-error").count()).toBe(0);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
    expect(await page.getByLabel("Inspection date").inputValue()).toBe(minDate);
    expect(await page.getByLabel("Time").inputValue()).toBe("9:00 AM");
    expect(await page.getByLabel("Smart lock / Automated access").isChecked()).toBe(true);
    expect(await page.getByLabel("Access code").inputValue()).toBe("4321");
    expect(await page.getByLabel("Special requests (optional)").inputValue()).toBe("Side gate");

    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.waitForURL(`${site.baseUrl}/booking-confirmation`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
    expect(await page.getByTestId("confirmation-access").innerText()).toBe("Smart lock / Automated access");
    expect(await page.getByTestId("confirmation-time").innerText()).toBe("9:00 AM");
    await expectAccessible(page);
    await screenshotBothWidths(page, "booking-confirmation-smart-lock");
    await page.context().close();
  });

  it("on a 400 naming fields of several steps, lands on the first, and says what no field shows", async () => {
    const page = await newPage();
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    await fillSteps1And2(page);
    await page.getByLabel("Inspection date").fill(ctx.container.bookings.calendar().minDate);
    await page.getByLabel("Time").selectOption("8:00 AM");
    await page.getByText("Meet inspector at property").click();
    const body = {
      message: "Please fill in all required fields.",
      fields: {
        timeSlot: "Time slot must be one of the offered times",
        propertySize: "Property size must be at most 100000",
        customerId: "Customer not found",
      },
    };
    await page.route("**/api/inspection-bookings", (route) =>
      route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify(body) }),
    );
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await expectToast(page, "Scheduling Error", "Failed to schedule inspection. Please try again.");
    await page.getByRole("heading", { name: "Property Info", exact: true }).waitFor();
    expect(await page.locator("#propertySize-error").innerText()).toBe(body.fields.propertySize);
    await expect.poll(() => focusedId(page)).toBe("propertySize");
    expect(await page.getByRole("alert").filter({ hasText: "Customer not found" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Property size (sq ft)").inputValue()).toBe("1800");
    await expectAccessible(page);
    await screenshotBothWidths(page, "schedule-server-fields-several");
    // The later step's message waits on its own step.
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
    expect(await page.locator("#timeSlot-error").innerText()).toBe(body.fields.timeSlot);
    expect(await page.getByLabel("Time").inputValue()).toBe("8:00 AM");
    await page.context().close();
  });

  it("a field focused just under the sticky navigation is scrolled clear of it", async () => {
    // A short phone screen (landscape, or with the keyboard up), so the page has room to scroll.
    const page = await newPage({ width: 390, height: 480 });
    await page.goto(`${site.baseUrl}/schedule-inspection`);
    await waitForIslands(page);
    await fillSteps1And2(page);
    const navBottom = await page.locator(".site-nav").evaluate((nav) => nav.getBoundingClientRect().bottom);
    expect(navBottom).toBeGreaterThan(0);
    // Put the date field under the navigation, then reach it with Shift+Tab from the next field.
    await page.evaluate(() => {
      document.documentElement.style.scrollBehavior = "auto";
    });
    await page.getByLabel("Time").focus();
    await settle(page);
    const dateTop = () => page.getByLabel("Inspection date").evaluate((el) => el.getBoundingClientRect().top);
    // Scrolled again until it holds: a smooth scroll still under way from the step change would undo it.
    const underNav = async () => {
      await page
        .getByLabel("Inspection date")
        .evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 8));
      await settle(page);
      return dateTop();
    };
    await expect.poll(underNav).toBeLessThan(navBottom);
    await page.keyboard.press("Shift+Tab");
    expect(await focusedId(page)).toBe("scheduledDate");
    await expect.poll(dateTop).toBeGreaterThanOrEqual(navBottom);
    await page.context().close();
  });

  it("shows the smart-lock label from the stored booking record", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${site.baseUrl}/`);
    const minDate = ctx.container.bookings.calendar().minDate;
    await page.evaluate((record) => sessionStorage.setItem("bookingConfirmation", JSON.stringify(record)), {
      scheduledDate: minDate,
      selectedTime: "1:30 PM",
      address: "3 Birch Bay",
      city: "Warman",
      state: "SK",
      accessMethod: "smart-lock",
      email: "sam@example.com",
    });
    await page.goto(`${site.baseUrl}/booking-confirmation`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
    expect(await page.getByTestId("confirmation-access").innerText()).toBe("Smart lock / Automated access");
    expect(await page.getByTestId("confirmation-address").innerText()).toContain("Warman, SK");
    await page.context().close();
  });

  it("prefills from ?customer_id=&plan= for a customer this browser created", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const created = await context.request.post(`${site.baseUrl}/api/onboarding`, {
      // Every field onboarding requires (customer-side §5, reading A's per-step rules).
      data: {
        firstName: "Kim",
        lastName: "Lee",
        email: "kim@example.com",
        phone: "306-555-0177",
        address: "4 Oak Rd",
        city: "Kanata",
        province: "ON",
        postalCode: "k2k1x7",
        squareFootage: "2100",
        yearBuilt: "1988",
        bedrooms: "3",
        bathrooms: "2",
        ownershipType: "owner",
        householdIncome: "100k-150k",
        occupation: "professional",
      },
    });
    expect(created.status()).toBe(201);
    const { customerId } = await ctx
      .db("properties")
      .where({ id: (await created.json()).propertyId })
      .select("customer_id as customerId")
      .first();
    const page = await context.newPage();
    await page.goto(`${site.baseUrl}/schedule-inspection?customer_id=${customerId}&plan=standard`);
    await waitForIslands(page);
    // Continuing from intake (bookings README): the known home and contact are read-only, and the steps go on.
    await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
    expect(await page.getByText(/^Step \d of \d\./).innerText()).toContain("Step 3 of 3.");
    expect(await page.getByTestId("wizard-known-property").innerText()).toBe("4 Oak Rd, Kanata, ON K2K 1X7");
    expect(await page.getByTestId("wizard-known-contact").innerText()).toBe("Kim Lee");
    expect(await page.getByLabel("Property address").count()).toBe(0);
    expect(await page.getByText("Your Standard plan is active").isVisible()).toBe(true);
    await expectAccessible(page);
    // 'Change' opens the full wizard at the property, with everything kept.
    await page.getByRole("button", { name: "Change the property" }).click();
    await page.getByRole("heading", { name: "Property Info", exact: true }).waitFor();
    expect(await page.getByText(/^Step \d of \d\./).innerText()).toContain("Step 1 of 3.");
    expect(await page.getByLabel("Property address").inputValue()).toBe("4 Oak Rd");
    expect(await page.getByLabel("Property size (sq ft)").inputValue()).toBe("2100");
    await page.getByLabel("Property type").selectOption("single-family");
    await page.getByRole("button", { name: "Next" }).click();
    expect(await page.getByLabel("Email").inputValue()).toBe("kim@example.com");
    expect(await page.getByLabel("Last name").inputValue()).toBe("Lee");
    await context.close();
  });
});
