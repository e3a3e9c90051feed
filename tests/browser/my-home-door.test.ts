// Homeowners find My Home: beside the staff Login in the public menu, and on a paying customer's used report link
// (docs/decisions.md#40).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedReportFixture, shareReport } from "../api/sharing-fixtures.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";
import { signInStaff } from "../support/context.js";

let site: BrowserSite;
let memberToken: string;

beforeAll(async () => {
  site = await openBrowserSite();
  await site.ctx.container.plans.seed();
  const { report, propertyId } = await sharedReportFixture(site.ctx, "9 Member Lane");
  const property = await site.ctx.db("properties").where({ id: propertyId }).first();
  const now = new Date();
  await site.ctx.container.subscriptions.startDemo(
    {
      checkoutRef: "door-member",
      planType: "standard",
      amountCents: 37000,
      payerEmail: property.client_email,
      payerName: "Owner",
      cardNumber: "4242424242424242",
    },
    now,
  );
  await site.ctx.container.transaction((tx) =>
    site.ctx.container.subscriptions.attachToProperty(
      "door-member",
      { customerId: property.customer_id, propertyId },
      tx,
      now,
    ),
  );
  const { agent } = await signInStaff(site.ctx);
  ({ token: memberToken } = await shareReport(agent, report.id, property.client_email));
  await agent.get(`/api/client-report/${memberToken}`).expect(200);
});
afterAll(() => site?.close());

describe("My Home where homeowners look", () => {
  it("the public menu offers My Home beside Login, on a phone and on a desktop, in one line from 768 px", async () => {
    const page = await site.newPage(DESKTOP);
    await page.goto(site.baseUrl);
    const desktop = page.locator("[data-site-nav] .hidden.md\\:flex");
    const myHome = desktop.getByRole("link", { name: "My Home" });
    expect(await myHome.getAttribute("href")).toBe("/my-home/sign-in");
    expect(await desktop.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login");
    for (const width of [768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const tops = await desktop.locator("a").evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return r.top + r.height / 2;
        }),
      );
      expect(Math.max(...tops) - Math.min(...tops), `one line at ${width}px`).toBeLessThan(12);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `no sideways scroll at ${width}px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize(PHONE);
    await page.locator(".nav-toggle").click();
    const panel = page.locator(".nav-panel");
    expect(await panel.getByRole("link", { name: "My Home" }).isVisible()).toBe(true);
    await screenshotBothWidths(page, "nav-my-home");
    await expectAccessible(page);
    await page.getByRole("link", { name: "My Home" }).first().click();
    await page.waitForURL(`${site.baseUrl}/my-home/sign-in`);
    await page.context().close();
  });

  it("a paying customer's used link on a second device leads to My Home, not to the plans", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/client-report/${memberToken}`);
    const signIn = page.getByRole("link", { name: "Sign in to My Home to read it" });
    expect(await signIn.isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Subscribe to the product" }).count()).toBe(0);
    await expectAccessible(page);
    await screenshotBothWidths(page, "report-expired-member");
    await signIn.click();
    await page.waitForURL(`${site.baseUrl}/my-home/sign-in`);
    await page.context().close();
  });
});
