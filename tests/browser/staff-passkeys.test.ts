// Staff passkeys in the pages (docs/decisions.md#38), in a real Chromium with its virtual authenticator (CDP
// WebAuthn): add one on /admin/account/two-step with the keyboard, sign out, sign in with the password and the
// passkey; the owner requires two-step and a person without one is held until they add one; a person with an app
// and a passkey is offered both. And an inspector's pages show no control whose call would answer 403
// (docs/decisions.md#36): no Share, export, reschedule or reassign. axe on each page; screenshots at 390 and 1280 px
// (tests/.screenshots/staff-passkeys-*).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepOf, totpAt } from "../../src/modules/auth/totp.js";
import { completedInspection, quickEntries } from "../api/reports-fixtures.js";
import {
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowser,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { suiteToday } from "../support/clock.js";

const password = "a long enough password";
const owner = { email: "olga.owner@haven.test", firstName: "Olga", lastName: "Owner" };
const office = { email: "otis.office@haven.test", firstName: "Otis", lastName: "Office" };
const inspector = { email: "ines.inspector@haven.test", firstName: "Ines", lastName: "Inspector" };

let ctx: TestContext;
let browser: Browser;
let baseUrl: string;
let server: ReturnType<typeof createServer>;
let reportId: number;
let inspectionId: number;
let bookingDate: string;

beforeAll(async () => {
  // WebAuthn refuses an IP address as the relying party: PUBLIC_URL (and the browser) use the name localhost.
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
  ctx = await createTestContext({ PUBLIC_URL: baseUrl });
  server.on("request", ctx.app);
  await ctx.container.plans.seed();
  await ctx.container.users.create({ ...owner, password, role: "owner" });
  await ctx.container.users.create({ ...office, password, role: "office" });
  const ines = await ctx.container.users.create({ ...inspector, password, role: "inspector" });
  ({ inspectionId } = await completedInspection(ctx.container, quickEntries(), {
    inspectorId: ines.id,
    address: "12 Elgin Street",
  }));
  reportId = (await ctx.container.reports.generate(inspectionId)).id;
  // A booking of Ines's on the calendar (she is the only inspector with hours, so it is hers).
  await ctx.container.inspectors.setHours(inspector.email, { weekdays: "mon-sun", from: "08:00", to: "17:00" });
  bookingDate = ctx.container.bookings.calendar().minDate;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "robin@example.com", name: "Robin Owner", subscriptionPlan: "free-score" },
    { address: "7 Bank Street", city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: property.customerId,
        scheduledDate: bookingDate,
        timeSlot: "9:00 AM",
        source: "wizard",
      },
      { email: property.clientEmail, name: property.clientName },
    ),
  );
  // The worker's Chromium maps localhost to 127.0.0.1 (tests/support/chromium.ts).
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await ctx?.close();
});

/** A page whose browser has a passkey authenticator (one per context, as one phone). */
async function pageWithAuthenticator(size = PHONE): Promise<Page> {
  const page = await (await browser.newContext({ viewport: size })).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

async function enterPassword(page: Page, email: string, next = "/admin") {
  await page.goto(`${baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** On the two-step page: names a passkey and adds it with the keyboard alone. */
async function addPasskeyByKeyboard(page: Page, name: string) {
  const field = page.getByLabel("Name of the new passkey");
  await field.waitFor();
  await field.fill(name);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Add a passkey");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/admin\/account\/two-step\?done=passkey-add$/);
}

const eventsOf = (email: string, action: string) =>
  ctx.db("audit_events").where({ actor_email: email, action }).count({ n: "*" });

describe("staff passkeys", () => {
  it("are added on the two-step page, then sign-in asks for one after the password", async () => {
    const page = await pageWithAuthenticator();
    await enterPassword(page, owner.email);
    await page.waitForURL(`${baseUrl}/admin`);
    await page.goto(`${baseUrl}/admin/account/two-step`);
    await page.getByRole("button", { name: "Add a passkey" }).waitFor();
    expect(await page.getByTestId("passkey-empty").innerText()).toBe("No passkey yet.");
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-page");

    await addPasskeyByKeyboard(page, "Olga's phone");
    expect(await page.getByTestId("two-step-done").innerText()).toBe("Your passkey is added.");
    const item = page.getByTestId("passkey");
    expect(await item.count()).toBe(1);
    expect(await item.innerText()).toContain("Olga's phone");
    expect(await item.innerText()).toContain("not used yet");
    expect(await eventsOf(owner.email, "staff_user.passkey_add")).toEqual([{ n: 1 }]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-added");

    // Sign out, then in: the password alone is not enough, the page offers the passkey and no code field.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${baseUrl}/`);
    await enterPassword(page, owner.email);
    const use = page.getByRole("button", { name: "Use your passkey" });
    await use.waitFor();
    expect(await page.getByTestId("login-error").innerText()).toContain(
      "Enter your password again, then use your passkey.",
    );
    expect(await page.getByLabel("Code from your authenticator app").count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-login");
    // Without the password again, the button says so and waits.
    await use.click();
    expect(await page.getByRole("alert").filter({ hasText: "Enter your password again" }).count()).toBeGreaterThan(0);
    expect(page.url()).toContain("/login");
    // Enter in the password field uses the passkey.
    await page.getByLabel("Password").fill(password);
    await page.getByLabel("Password").press("Enter");
    await page.waitForURL(`${baseUrl}/admin`);
    const [key] = await ctx
      .db("staff_passkeys as k")
      .join("staff_users as u", "u.id", "k.staff_user_id")
      .where("u.email", owner.email);
    expect(key.last_used_at).not.toBeNull();

    // Removing it asks first; dismissed, it stays; accepted, it goes (one event).
    await page.goto(`${baseUrl}/admin/account/two-step`);
    expect(await page.getByTestId("passkey").innerText()).toMatch(/last used/);
    const remove = page.getByRole("button", { name: "Remove Olga's phone" });
    page.once("dialog", (dialog) => void dialog.dismiss());
    await remove.click();
    expect(await page.getByTestId("passkey").count()).toBe(1);
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain("Olga's phone");
      void dialog.accept();
    });
    await remove.click();
    await page.waitForURL(/done=passkey-remove$/);
    expect(await page.getByTestId("passkey").count()).toBe(0);
    expect(await eventsOf(owner.email, "staff_user.passkey_remove")).toEqual([{ n: 1 }]);
    // The owner keeps a passkey for the next test.
    await addPasskeyByKeyboard(page, "Olga's laptop");
    await page.context().close();
  });

  it("the owner requires two-step: a person without one adds a passkey first; with an app too, either works", async () => {
    const ownerPage = await pageWithAuthenticator(DESKTOP);
    await enterPassword(ownerPage, owner.email);
    // Olga's passkey from the test before lives in that test's authenticator: she signs in with a code instead.
    await ownerPage.getByRole("button", { name: "Use your passkey" }).waitFor();
    const olga = await ctx.container.users.findByEmail(owner.email);
    await ctx.container.twoStep.start(olga!);
    const secret = (await ctx.db("staff_users").where({ email: owner.email }).first()).totp_secret as string;
    await ctx.container.twoStep.confirm(olga!, totpAt(secret, stepOf(new Date())));
    await enterPassword(ownerPage, owner.email);
    // Both are offered: the code field (not required, as the passkey will do) and the passkey button.
    await ownerPage.getByRole("button", { name: "Use your passkey" }).waitFor();
    expect(await ownerPage.getByTestId("login-error").innerText()).toContain("or use your passkey");
    await expectAccessible(ownerPage);
    await screenshotBothWidths(ownerPage, "staff-passkeys-login-either");
    await ownerPage.getByLabel("Password").fill(password);
    await ownerPage.getByLabel("Code from your authenticator app").fill(totpAt(secret, stepOf(new Date()) + 1));
    await ownerPage.getByRole("button", { name: "Sign In" }).click();
    await ownerPage.waitForURL(`${baseUrl}/admin`);

    await ownerPage.goto(`${baseUrl}/admin/staff`);
    await ownerPage.getByRole("button", { name: "Require it for everyone" }).click();
    await ownerPage.waitForURL(/\/admin\/staff\?done=two-step/);
    expect(await eventsOf(owner.email, "staff_settings.require_two_step")).toEqual([{ n: 1 }]);
    await ownerPage.context().close();

    // Otis has no second step: after his password he is held at the two-step page until he adds one.
    const page = await pageWithAuthenticator();
    await enterPassword(page, office.email);
    await page.waitForURL(`${baseUrl}/admin/account/two-step`);
    expect(await page.getByTestId("two-step-required").innerText()).toContain("add a passkey or an authenticator app");
    await page.goto(`${baseUrl}/admin/customers`);
    await page.waitForURL(`${baseUrl}/admin/account/two-step`);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-required");
    await addPasskeyByKeyboard(page, "Otis's phone");
    expect(await page.getByTestId("two-step-required").count()).toBe(0);
    await page.goto(`${baseUrl}/admin`);
    expect(page.url()).toBe(`${baseUrl}/admin`);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${baseUrl}/`);
    await enterPassword(page, office.email);
    await page.getByRole("button", { name: "Use your passkey" }).waitFor();
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Use your passkey" }).click();
    await page.waitForURL(`${baseUrl}/admin`);
    await page.context().close();
    await ctx.container.twoStep.setRequired(olga!, false);
  });
});

describe("an inspector's pages", () => {
  it("show no Share, export, reschedule or reassign control, and no call of theirs is refused", async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const refused: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 403) refused.push(response.url());
    });
    await enterPassword(page, inspector.email);
    await page.waitForURL(`${baseUrl}/admin`);

    // Their report: the PDFs, no Share.
    await page.goto(`${baseUrl}/admin/reports/${reportId}`);
    await waitForIslands(page);
    await page.getByRole("link", { name: "Full PDF" }).waitFor();
    expect(await page.getByRole("button", { name: "Share Report" }).count()).toBe(0);
    // Its findings show, but not 'Make recurring' (schedules are the office's).
    await page.getByTestId("report-recommendation").first().waitFor();
    expect(await page.getByRole("button", { name: "Make recurring" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Property history" }).count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-inspector-report");

    // The lists: no Share, Delete or Export CSV.
    for (const list of ["/admin/reports", "/admin/inspections"]) {
      await page.goto(`${baseUrl}${list}`);
      await waitForIslands(page);
      expect(await page.locator("[data-export-csv]").count(), list).toBe(0);
      expect(await page.getByRole("button", { name: /^(Share|Delete)/ }).count(), list).toBe(0);
    }

    // The calendar: their booking opens read-only; the task list has no export.
    await page.goto(`${baseUrl}/admin/maintenance-schedule`);
    await waitForIslands(page);
    if (bookingDate.slice(0, 7) !== suiteToday(ctx.env.BUSINESS_TZ).slice(0, 7))
      await page.getByRole("button", { name: /Next/ }).click();
    const event = page.locator(`.mc-cell[data-date="${bookingDate}"]`).getByRole("button", { name: /7 Bank Street/ });
    await event.first().click();
    const dialog = page.getByRole("dialog", { name: "Inspection Booking Details" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("Ines Inspector");
    expect(await dialog.getByRole("button", { name: /Reassign|Reschedule|Cancel Booking/ }).count()).toBe(0);
    expect(await dialog.getByLabel("Give this inspection to").count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "staff-passkeys-inspector-booking");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "List", exact: true }).click();
    await page.getByPlaceholder("Title, address or client").waitFor();
    expect(await page.locator("[data-export-csv]").count()).toBe(0);

    for (const other of [
      "/admin/my-day",
      "/admin/account/two-step",
      "/admin",
      `/admin/inspections/view/${inspectionId}`,
      `/admin/inspections/edit/${inspectionId}`,
    ]) {
      await page.goto(`${baseUrl}${other}`);
      await waitForIslands(page);
      expect(await page.locator("[data-export-csv]").count(), other).toBe(0);
    }
    expect(refused).toEqual([]);
    await page.context().close();
  });
});
