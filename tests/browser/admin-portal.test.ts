import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Property } from "../../src/modules/customers/customers.schemas.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  SCREENSHOT_DIR,
  expectAccessible,
  openBrowserSite,
  screenshot,
  screenshotBothWidths,
  settle,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let site: BrowserSite;
const staff = { email: "portal@haven.test", password: "portal-test-password" };
const properties: Property[] = [];
const STREETS = [
  "Maple Avenue",
  "Spadina Crescent",
  "Broadway Avenue",
  "College Drive",
  "Lorne Avenue",
  "Victoria Avenue",
];
const PLANS = ["free-score", "basic", "standard", "premium"] as const;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Morgan", lastName: "Reyes" });
  for (let i = 1; i <= 23; i++) {
    const { property } = await ctx.container.customers.createWithProperty(
      {
        email: `homeowner${i}@example.ca`,
        name: `Homeowner ${i}`,
        phone: `306-555-01${String(i).padStart(2, "0")}`,
        subscriptionPlan: PLANS[i % 4]!,
      },
      {
        address: `${100 + i} ${STREETS[i % STREETS.length]}`,
        city: "Saskatoon",
        province: "SK",
        postalCode: "S7K 1A1",
        squareFootage: 1400 + i * 37,
        yearBuilt: 1960 + i,
        bedrooms: "3",
        bathrooms: "2",
      },
    );
    properties.push(property);
  }
  const last = properties.at(-1)!;
  const [booking] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: last.id,
      customer_id: last.customerId,
      scheduled_date: "2026-12-02",
      time_slot: "9:00 AM",
      access_method: "lockbox",
      access_code: "1234",
      source: "wizard",
    })
    .returning("id");
  const inspections = [
    { property_id: properties[0]!.id, status: "completed", overall_score: 86, completed_at: new Date() },
    { property_id: properties[1]!.id, status: "in_progress" },
    { property_id: last.id, booking_id: booking.id, status: "scheduled" },
  ];
  for (const [i, row] of inspections.entries())
    await ctx
      .db("inspections")
      .insert({ inspection_date: "2026-11-20", created_at: new Date(Date.now() - (10 - i) * 60_000), ...row });
  await ctx.db("payments").insert({
    provider: "demo",
    provider_id: "pi_portal_1",
    kind: "payment_intent",
    amount_cents: 41_200,
    status: "succeeded",
  });
});
afterAll(() => site?.close());

const newPage = (size = DESKTOP) => site.newPage(size);

async function signIn(page: Page, next = "/admin") {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await adminReady(page);
}

/** The admin script (htmx, menu, logout) has started. */
const adminReady = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");

/** Ends the session from another request, as logging out in another tab does. */
async function revokeSessionElsewhere(page: Page) {
  const res = await page.request.post(`${site.baseUrl}/api/auth/logout`, { headers: { Origin: site.baseUrl } });
  expect(res.status()).toBe(200);
}

async function expectLoggedOutNotice(page: Page) {
  const toast = page.getByTestId("toast").filter({ hasText: "Unauthorized" });
  await toast.waitFor();
  expect(await toast.innerText()).toContain("You are logged out. Logging in again...");
  // /api/login, then /login.
  await page.waitForURL(/\/login$/);
}

describe("the admin portal", () => {
  it("login, then the dashboard: stat cards, recent inspections and the shell", async () => {
    const page = await newPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    const stats = await (await page.request.get(`${site.baseUrl}/api/dashboard/stats`)).json();
    expect(stats).toEqual({ totalProperties: 23, pendingInspections: 2, completedThisMonth: 1, totalRevenue: 412 });
    const card = (key: string) => page.locator(`[data-stat="${key}"] .stat-value`).innerText();
    expect(await card("totalProperties")).toBe("23");
    expect(await card("pendingInspections")).toBe("2");
    expect(await card("completedThisMonth")).toBe("1");
    expect(await card("totalRevenue")).toBe("$412");
    const recent = page.getByTestId("recent-inspection");
    expect(await recent.count()).toBe(3);
    expect(await recent.locator(".badge").allInnerTexts()).toEqual(["Scheduled", "In Progress", "Completed"]);
    expect(await page.getByRole("link", { name: "View All" }).getAttribute("href")).toBe("/admin/inspections");
    // The shell: the initial (the account's own two-step settings), Logout, every section an owner may open
    // (docs/decisions.md#36) with the current one marked, and live quick stats.
    const account = page.getByRole("link", { name: "Signed in as Morgan: your two-step sign-in" });
    expect(await account.innerText()).toBe("M");
    expect(await account.getAttribute("href")).toBe("/admin/account/two-step");
    expect(await page.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
    expect(await page.locator("[data-bell]").isVisible()).toBe(true);
    const sidebar = page.getByRole("navigation", { name: "Admin", exact: true });
    expect((await sidebar.getByRole("link").allInnerTexts()).map((t) => t.trim())).toEqual([
      "Dashboard",
      "My Day",
      "Properties",
      "Inspections",
      "Bookings",
      "Reports",
      "Quote Requests",
      "Notifications",
      "Maintenance",
      "Subscriptions",
      "Staff",
      "Audit Trail",
    ]);
    expect(await sidebar.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");
    expect(await sidebar.locator(".admin-quick-stats dd").allInnerTexts()).toEqual(["23", "2", "1"]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "admin-dashboard");
    // Keyboard: the skip link leads into the page.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    await page.context().close();
  });

  it("customer properties: cards, the details dialog, pagination, search and refresh", async () => {
    const page = await newPage();
    await signIn(page, "/admin/properties");
    await page.getByRole("heading", { name: "Customer Properties" }).waitFor();
    expect(await page.getByTestId("property-total").innerText()).toBe("23 properties");
    const cards = page.getByTestId("property-card");
    expect(await cards.count()).toBe(20);
    const newest = cards.first();
    expect(await newest.innerText()).toContain("123 Victoria Avenue");
    expect(await newest.getByTestId("property-inspection").innerText()).toMatch(/Wed, Dec\.? 2, 2026\s*Scheduled/);
    expect(await cards.nth(1).getByTestId("property-inspection").innerText()).toContain("Not scheduled");
    await expectAccessible(page);
    await screenshotBothWidths(page, "admin-properties");

    // View Details: a large native dialog with every section.
    await newest.getByRole("link", { name: /View Details/ }).click();
    const dialog = page.getByRole("dialog", { name: "Property Details" });
    await dialog.getByTestId("property-details").waitFor();
    for (const heading of [
      "Property Information",
      "Customer Information",
      "Subscription Plan",
      "Inspection Details",
      "Lifestyle Information",
      "System Information",
    ]) {
      expect(await dialog.getByRole("heading", { name: heading }).isVisible(), heading).toBe(true);
    }
    expect(await dialog.innerText()).toContain("homeowner23@example.ca");
    expect(await dialog.innerText()).toContain("Lockbox access");
    const box = await dialog.boundingBox();
    expect(box!.width).toBeGreaterThan(900);
    await expectAccessible(page);
    // The dialog covers the viewport: capture what is on screen, at both widths.
    for (const [label, size] of [
      ["390", PHONE],
      ["1280", DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      await settle(page);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-property-details-${label}.png` });
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    // Pagination on the server, with the address bar following.
    await page.getByRole("link", { name: "Next" }).click();
    await page.getByText("Showing 21–23 of 23").waitFor();
    expect(page.url()).toBe(`${site.baseUrl}/admin/properties?page=2`);
    expect(await cards.count()).toBe(3);
    // Focus moves to the results for keyboard users.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("results-heading");
    // Back returns to page 1 (the server renders it again), and forward to page 2.
    await page.goBack();
    await page.getByText("Showing 1–20 of 23").waitFor();
    await adminReady(page);
    await page.goForward();
    await page.getByText("Showing 21–23 of 23").waitFor();
    await adminReady(page);

    // Search as you type.
    await page.getByRole("searchbox", { name: /Search by address/ }).fill("Spadina");
    await page.getByText(/matching “Spadina”/).waitFor();
    expect(await cards.count()).toBe(4);
    expect(page.url()).toContain("q=Spadina");

    // Refresh picks up a property added meanwhile.
    await ctx.container.customers.createWithProperty(
      { email: "late@example.ca", name: "Late Arrival", phone: "306-555-0999", subscriptionPlan: "premium" },
      { address: "1 Spadina Crescent", city: "Saskatoon", province: "SK", postalCode: "S7K 3G5" },
    );
    await page.getByRole("link", { name: "Refresh" }).click();
    await page.getByText("5 properties matching").waitFor();
    expect(await cards.first().innerText()).toContain("1 Spadina Crescent");
    await page.context().close();
  });

  it("shows 'No Properties Found' when nothing matches", async () => {
    const page = await newPage(PHONE);
    await signIn(page, "/admin/properties?q=nowhere-at-all");
    expect(await page.getByRole("heading", { name: "No Properties Found" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.context().close();
  });

  it("folds the sidebar into a menu button on a phone, usable by keyboard", async () => {
    const page = await newPage(PHONE);
    await signIn(page);
    expect(await page.locator(".admin-sidebar").isVisible()).toBe(false);
    const menuButton = page.locator("[data-admin-menu] > summary");
    expect(await menuButton.isVisible()).toBe(true);
    const panel = page.getByRole("navigation", { name: "Admin menu" });
    expect(await panel.isVisible()).toBe(false);
    await menuButton.focus();
    await page.keyboard.press("Enter");
    await panel.waitFor();
    expect((await panel.getByRole("link").allInnerTexts()).map((t) => t.trim())).toEqual([
      "Dashboard",
      "My Day",
      "Properties",
      "Inspections",
      "Bookings",
      "Reports",
      "Quote Requests",
      "Notifications",
      "Maintenance",
      "Subscriptions",
      "Staff",
      "Audit Trail",
    ]);
    expect(await panel.locator(".admin-quick-stats dd").count()).toBe(3);
    await expectAccessible(page);
    await settle(page);
    await screenshot(page, "admin-menu-open-390");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SUMMARY");
    // Tab into the menu and follow a link.
    await page.keyboard.press("Enter");
    await panel.waitFor();
    await panel.getByRole("link", { name: "Properties" }).click();
    await page.waitForURL(`${site.baseUrl}/admin/properties`);
    // The header fits the phone: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });

  it("an island's call that gets 401 shows 'Unauthorized' and goes to /api/login", async () => {
    const page = await newPage();
    await signIn(page, "/admin/inspections/new");
    await waitForIslands(page);
    await page.locator(".property-choice").first().click();
    await revokeSessionElsewhere(page);
    await page.getByRole("button", { name: "Start Inspection" }).click();
    await expectLoggedOutNotice(page);
    await page.context().close();
  });

  it("an htmx call on an admin page that gets 401 does the same", async () => {
    const page = await newPage(PHONE);
    await signIn(page, "/admin/properties");
    await revokeSessionElsewhere(page);
    await page.getByRole("link", { name: "Refresh" }).click();
    await expectLoggedOutNotice(page);
    await page.context().close();
  });

  it("a browser holding only a customer session sees Access Denied with 'Login to Continue'", async () => {
    const page = await newPage(PHONE);
    const calendar = ctx.container.bookings.calendar();
    const booked = await page.request.post(`${site.baseUrl}/api/inspection-bookings`, {
      headers: { Origin: site.baseUrl },
      data: {
        propertyAddress: "5 River Landing, Saskatoon, SK S7K 0A1",
        propertyType: "condo",
        propertySize: "1100",
        firstName: "Casey",
        lastName: "Client",
        email: "casey@example.ca",
        phone: "306-555-0111",
        scheduledDate: calendar.minDate,
        timeSlot: "9:00 AM",
        accessMethod: "meet-inspector",
      },
    });
    expect(booked.status()).toBe(201);
    const response = await page.goto(`${site.baseUrl}/admin`);
    expect(response?.status()).toBe(403);
    await page.getByRole("heading", { name: "Access Denied" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "admin-access-denied");
    await page.getByRole("link", { name: "Login to Continue" }).click();
    await page.waitForURL(`${site.baseUrl}/login`);
    await page.context().close();
  });

  it("Logout calls the server, clears Haven's cached data and goes to /", async () => {
    const page = await newPage();
    await signIn(page);
    await page.evaluate(async () => {
      localStorage.setItem("haven-inspection-draft", "x");
      localStorage.setItem("someone-else", "kept");
      sessionStorage.setItem("bookingConfirmation", "{}");
      for (const name of ["haven-offline", "unrelated"]) {
        await new Promise<void>((resolve, reject) => {
          const open = indexedDB.open(name, 1);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
          open.onerror = () => reject(open.error);
        });
      }
    });
    const logoutCall = page.waitForRequest((r) => r.url().endsWith("/api/auth/logout") && r.method() === "POST");
    await page.getByRole("button", { name: "Logout" }).click();
    await logoutCall;
    await page.waitForURL(`${site.baseUrl}/`);
    const left = await page.evaluate(async () => ({
      local: Object.keys(localStorage).sort(),
      session: sessionStorage.length,
      databases: ((await indexedDB.databases()) ?? []).map((d) => d.name).sort(),
    }));
    expect(left).toEqual({ local: ["someone-else"], session: 0, databases: ["unrelated"] });
    expect((await page.request.get(`${site.baseUrl}/api/auth/user`)).status()).toBe(401);
    await page.goto(`${site.baseUrl}/admin`);
    expect(page.url()).toBe(`${site.baseUrl}/login?next=%2Fadmin`);
    await page.context().close();
  });

  it("Logout asks first when inspection changes have not reached the server, and staying keeps them", async () => {
    const page = await newPage();
    await signIn(page);
    // What the inspection form keeps offline (islands/inspections/store.ts): an entry changed since its last save, a photo not uploaded.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open("haven-inspections", 1);
          open.onupgradeneeded = () => {
            open.result.createObjectStore("inspections", { keyPath: "id" });
            open.result
              .createObjectStore("entries", { keyPath: ["inspectionId", "key"] })
              .createIndex("byInspection", "inspectionId");
            open.result
              .createObjectStore("photos", { keyPath: "clientId" })
              .createIndex("byInspection", "inspectionId");
          };
          open.onsuccess = () => {
            const tx = open.result.transaction(["entries", "photos"], "readwrite");
            tx.objectStore("entries").put({ inspectionId: 1, key: "Roof\u0000Gutters", rev: 2, syncedRev: 1 });
            tx.objectStore("entries").put({ inspectionId: 1, key: "Roof\u0000Shingles", rev: 1, syncedRev: 1 });
            tx.objectStore("photos").put({ clientId: "p1", inspectionId: 1 });
            tx.objectStore("photos").put({ clientId: "p2", inspectionId: 1, serverId: 9 });
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
    );
    const questions: string[] = [];
    page.once("dialog", (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Logout" }).click();
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toBe(
      "2 inspection changes on this device have not reached the server yet. Logging out deletes them from this device. Log out anyway?",
    );
    // Stayed: signed in, the changes kept, and the button works again.
    await expect.poll(() => page.getByRole("button", { name: "Logout" }).isEnabled()).toBe(true);
    expect(page.url()).toBe(`${site.baseUrl}/admin`);
    expect((await page.request.get(`${site.baseUrl}/api/auth/user`)).status()).toBe(200);
    expect(await page.evaluate(async () => ((await indexedDB.databases()) ?? []).map((d) => d.name))).toContain(
      "haven-inspections",
    );

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${site.baseUrl}/`);
    expect(await page.evaluate(async () => ((await indexedDB.databases()) ?? []).map((d) => d.name))).not.toContain(
      "haven-inspections",
    );
    expect((await page.request.get(`${site.baseUrl}/api/auth/user`)).status()).toBe(401);
    await page.context().close();
  });

  it("Logout asks nothing when every change has reached the server", async () => {
    const page = await newPage();
    await signIn(page);
    let asked = false;
    page.on("dialog", (dialog) => {
      asked = true;
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${site.baseUrl}/`);
    expect(asked).toBe(false);
    // Looking for unsent changes created no database.
    expect(await page.evaluate(async () => ((await indexedDB.databases()) ?? []).map((d) => d.name))).toEqual([]);
    await page.context().close();
  });

  it("Logout still clears and goes to / when the server cannot be reached", async () => {
    const page = await newPage();
    await signIn(page);
    await page.evaluate(() => localStorage.setItem("haven-cache", "x"));
    await page.route("**/api/auth/logout", (route) => route.abort("connectionfailed"));
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${site.baseUrl}/`);
    expect(await page.evaluate(() => localStorage.getItem("haven-cache"))).toBeNull();
    await page.context().close();
  });
});
