// The JS budget of an island page (docs/architecture.md: ≤ 90 KB gzip in all), measured as `npm run bench` measures
// it (bench/islands.ts). /schedule-inspection had grown past it; its wizard now keeps its free times and its one
// booking call without react-query (islands/bookings/wizard-free-times.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISLAND_JS_BUDGET, measureIslandPage } from "../../bench/islands.js";
import { type BrowserSite, openBrowserSite } from "../support/browser.js";

let site: BrowserSite;
beforeAll(async () => {
  site = await openBrowserSite();
});
afterAll(() => site?.close());

describe("the JS budget of the booking pages", () => {
  it("/schedule-inspection loads at most 90 KB gzip of JS", async () => {
    const page = await measureIslandPage(site.browser, site.baseUrl, "/schedule-inspection");
    expect(page.islands).toBeGreaterThan(0);
    expect(page.gzipBytes).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
  });
});
