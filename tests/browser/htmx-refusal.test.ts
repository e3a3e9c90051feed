import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSite, PHONE, openBrowserSite } from "../support/browser.js";
import type { TestContext } from "../support/context.js";

// A refused htmx request shows the server's message in the admin toast, not the bare status
// (islands/site/refusal.ts, docs/decisions.md#36).
let ctx: TestContext;
let site: BrowserSite;
const staff = { email: "refused@haven.test", password: "refused-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Remy", lastName: "Fuse" });
  await ctx.container.customers.createWithProperty(
    { email: "gone@example.ca", name: "Gaston Gone", phone: "613-555-0171", subscriptionPlan: "basic" },
    { address: "7 Vanished Lane", city: "Ottawa", province: "ON", postalCode: "K1S 2N4" },
  );
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}

describe("a refused htmx request", () => {
  it("shows the server's message", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/properties");
    // The home is gone by the time its details are asked for: the server answers 404 with its message.
    await ctx.db("properties").where({ address: "7 Vanished Lane" }).delete();
    await page.getByRole("link", { name: /View Details of 7 Vanished Lane/ }).click();
    const toast = page.getByTestId("toast");
    await expect.poll(() => toast.count()).toBe(1);
    const text = await toast.textContent();
    expect(text).toContain("Request refused");
    expect(text).toContain("Property not found");
    expect(text).not.toContain("The server answered");
  });
});
