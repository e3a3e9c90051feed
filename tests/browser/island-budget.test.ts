// The JS budget of an island page (docs/architecture.md: ≤ 80 KB gzip in all), measured as `npm run bench` measures
// it (bench/islands.ts). Checkout and intake were over it with react-query; their islands now read and send through
// islands/ui/data.ts (docs/decisions.md#72), and the loader carries the toaster and no preload helper. The wizards were
// over it until their later steps loaded lazily (docs/decisions.md#79). /pricing has a budget of its own, 2 KB
// (bench/marketing.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISLAND_JS_BUDGET, measureIslandPage } from "../../bench/islands.js";
import { PRICING_JS_BUDGET, assetsOf, gzipBytes } from "../../bench/marketing.js";
import { type BrowserSite, openBrowserSite } from "../support/browser.js";

let site: BrowserSite;
beforeAll(async () => {
  site = await openBrowserSite();
});
afterAll(() => site?.close());

describe("the JS budget of the purchase pages", () => {
  it("/checkout loads at most 80 KB gzip of JS, and nothing again on a second visit", async () => {
    const page = await measureIslandPage(site.browser, site.baseUrl, "/checkout?plan=standard", {}, true, true);
    expect(page.islands).toBeGreaterThan(0);
    expect(ISLAND_JS_BUDGET).toBe(80 * 1024);
    expect(page.gzipBytes).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
    // The hashed files are cached for a year (src/app.ts): the second visit fetches no script.
    expect(page.second).toEqual({ gzipBytes: 0, scripts: 0 });
  });

  it("/fr/property-intake loads at most 80 KB gzip of JS", async () => {
    const page = await measureIslandPage(site.browser, site.baseUrl, "/fr/property-intake?demo=1&plan=standard");
    expect(page.islands).toBeGreaterThan(0);
    expect(page.gzipBytes).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
  });
});

describe("the JS budget of the wizards", () => {
  // Their later steps come in chunks of their own, fetched once someone touches the form (docs/decisions.md#79).
  it("/schedule-inspection and /fr/onboarding-flow load at most 80 KB gzip of JS", async () => {
    for (const path of ["/schedule-inspection", "/fr/onboarding-flow"]) {
      const page = await measureIslandPage(site.browser, site.baseUrl, path);
      expect(page.islands, path).toBeGreaterThan(0);
      expect(page.gzipBytes, path).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
    }
  });
});

describe("the JS budget of the inspection form", () => {
  // Its first screen loads what it shows: the template comes in the page's props, the sync engine once something
  // waits to be sent, the completion parts on a touch (docs/decisions.md#79).
  it("/admin/inspections/edit/:id loads at most 80 KB gzip of JS", async () => {
    const staff = { email: "budget-inspector@haven.test", password: "budget-inspector-password" };
    await site.ctx.container.users.create({ ...staff, firstName: "Bud", lastName: "Get" });
    const { property } = await site.ctx.container.customers.createWithProperty(
      { email: "budget-owner@example.ca", name: "Budget Owner", phone: "306-555-0100", subscriptionPlan: "standard" },
      { address: "1 Budget Street", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
    );
    const inspection = await site.ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-11-20" },
      null,
    );
    const signIn = await site.browser.newContext();
    const login = await signIn.request.post(`${site.baseUrl}/api/auth/login`, {
      data: staff,
      headers: { Origin: site.baseUrl },
    });
    expect(login.ok()).toBe(true);
    const storageState = await signIn.storageState();
    await signIn.close();
    const path = `/admin/inspections/edit/${inspection.id}`;
    const page = await measureIslandPage(site.browser, site.baseUrl, path, { storageState });
    expect(page.islands).toBeGreaterThan(0);
    expect(page.gzipBytes, path).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
  });
});

describe("the JS budget of /pricing", () => {
  it("loads at most 2 KB gzip of JS in either language: the site script and the plan buttons", async () => {
    for (const path of ["/pricing", "/fr/pricing"]) {
      const html = await (await fetch(`${site.baseUrl}${path}`)).text();
      const { js } = assetsOf(html);
      expect(js.map((src) => src.replace(/-[\w-]{8}\.js$/, ""))).toEqual(["/assets/site", "/assets/plan-buttons"]);
      expect(await gzipBytes(site.baseUrl, js), path).toBeLessThanOrEqual(PRICING_JS_BUDGET);
    }
  });
});
