// Shared by the purchase browser tests: the worker's Chromium, and two Havens side by side, one in demo mode and one
// in Stripe mode against the local stand-in for Stripe's API.
import type { Browser, Page } from "playwright-core";
import { DESKTOP, openBrowser, serveTestContext, waitForCarousel } from "./browser.js";
import type { TestContext } from "./context.js";
import { StripeStandIn } from "./stripe-stand-in.js";

export interface Site {
  ctx: TestContext;
  baseUrl: string;
}

export interface PurchaseSites {
  browser: Browser;
  demo: Site;
  stripe: Site;
  standIn: StripeStandIn;
  /** A page in a fresh browser context (its own cookies and storage). */
  newPage(size?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

async function openSite(env: Record<string, string> = {}): Promise<Site & { close(): Promise<void> }> {
  const server = await serveTestContext(env);
  const { ctx } = server;
  await ctx.container.plans.seed();
  return {
    ctx,
    baseUrl: server.baseUrl,
    async close() {
      await server.close();
      await ctx.close();
    },
  };
}

export async function openPurchaseSites(): Promise<PurchaseSites> {
  const standIn = await StripeStandIn.start();
  const demo = await openSite();
  const stripe = await openSite(standIn.env());
  const browser = await openBrowser();
  return {
    browser,
    demo,
    stripe,
    standIn,
    async newPage(size = DESKTOP) {
      const context = await browser.newContext({ viewport: size });
      return context.newPage();
    },
    async close() {
      await browser.close();
      await demo.close();
      await stripe.close();
      await standIn.close();
    },
  };
}

/**
 * /pricing's plan button; below md the plans are a carousel, so show the plan first, as a person would.
 * `onPricing` runs once the pricing page is ready (to check or photograph it).
 */
export async function choosePlan(
  page: Page,
  baseUrl: string,
  planName: string,
  onPricing?: () => Promise<void>,
): Promise<void> {
  await page.goto(`${baseUrl}/pricing`);
  if (onPricing) {
    await page.locator("[data-carousel-ready]").waitFor({ state: "attached" });
    await onPricing();
  }
  if ((page.viewportSize()?.width ?? 1280) < 768) {
    await page.locator("[data-carousel-ready]").waitFor({ state: "attached" });
    await page.getByRole("button", { name: `Show ${planName} plan` }).click();
    // The card slides in: click its button where it ends up, not where it was.
    await waitForCarousel(page);
  }
  await page.getByRole("button", { name: `Choose ${planName}` }).click();
}

/** The property-information form's required fields and a few of its choices. */
export async function fillIntake(page: Page): Promise<void> {
  await page.getByLabel("Phone").fill("306-555-0199");
  await page.getByLabel("Street address").fill("221 Albert Street");
  // An Ottawa address (docs/decisions.md#31), typed in lower case without the space: stored as 'K1S 2B4'.
  await page.getByLabel("City").fill("Ottawa");
  await page.getByLabel("Province").selectOption("ON");
  await page.getByLabel("Postal code").fill("k1s2b4");
  await page.getByLabel("Square footage").fill("1850");
  await page.getByLabel("Year built").fill("1978");
  await page.getByLabel("Bedrooms").selectOption("3");
  await page.getByLabel("Bathrooms").selectOption("1.5");
  await page.getByLabel("Stories").selectOption({ label: "3+" });
  await page.getByLabel("Roof type").selectOption("metal");
  await page.getByLabel("Heating type").selectOption("heat-pump");
}

/** Waits for the toast with this title and returns its whole text. */
export async function toastText(page: Page, title?: string): Promise<string> {
  const toast = title ? page.getByTestId("toast").filter({ hasText: title }) : page.getByTestId("toast");
  await toast.waitFor();
  return toast.innerText();
}
