// The cancel page with a downgrade waiting (charges-left.ts): the charges left are stated at the lower plan's price,
// tax included. Real Chromium; axe; screenshots at 390 and 1280 px (tests/.screenshots/billing-cancel-downgrade-*).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

let site: BrowserSite;
let token: string;

beforeAll(async () => {
  site = await openBrowserSite({ env: { BUSINESS_TZ: "America/Toronto" } });
  const { ctx } = site;
  const sub = await ctx.container.subscriptions.startDemo({
    checkoutRef: "cs_downgrade_page",
    planType: "standard",
    amountCents: 37000,
    payerEmail: "dana.grade@example.com",
    payerName: "Dana Grade",
    cardNumber: "4242424242424242",
  });
  await ctx.container.subscriptions.changePlan(sub.id, { planType: "basic", actor: "customer" });
  token = ctx.container.subscriptions.billingLink(sub.id).split("/billing/")[1]!;
});
afterAll(() => site?.close());

describe("the cancel page with a downgrade waiting", () => {
  it("states the charges left at the lower plan's price", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/billing/${token}/cancel`);
    const charges = page.getByTestId("charges-left");
    expect((await charges.innerText()).replace(/\s+/g, " ")).toContain(
      "two more charges of $168.37 CAD ($149.00 + HST $19.37) each at the price of the plan you changed to",
    );
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-cancel-downgrade");
    await page.context().close();
  });
});
