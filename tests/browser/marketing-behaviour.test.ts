import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForCarousel,
} from "../support/browser.js";

let browser: Browser;
let site: BrowserSite;

beforeAll(async () => {
  site = await openBrowserSite();
  ({ browser } = site);
});
afterAll(() => site?.close());

async function open(path: string, size = DESKTOP, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: size, ...options });
  const page = await context.newPage();
  await page.goto(`${site.baseUrl}${path}`);
  return page;
}

const attr = (page: Page, selector: string, name: string) =>
  page.locator(selector).evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);

/** Which plan card's left edge sits inside the viewport (the carousel shows one at a time below md). */
async function shownPlans(page: Page): Promise<string[]> {
  return page.locator("[data-plan]").evaluateAll((cards) =>
    cards
      .filter((c) => {
        const box = c.getBoundingClientRect();
        return box.left >= 0 && box.right <= window.innerWidth + 1;
      })
      .map((c) => c.getAttribute("data-plan")!),
  );
}

describe("plan carousel", () => {
  it("below md: arrows move one card, disabled at the ends, and the dots jump", async () => {
    const page = await open("/pricing", PHONE);
    const prev = page.getByRole("button", { name: "Previous plan" });
    const next = page.getByRole("button", { name: "Next plan" });
    const settle = () => waitForCarousel(page); // the 300 ms slide, however long it takes to start
    expect(await prev.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    expect(await shownPlans(page)).toEqual(["basic"]);
    expect(await attr(page, "[data-carousel-dot]", "aria-current")).toEqual(["true", "false", "false"]);
    // The track fits the card in view: no empty band under the short Basic card.
    const gapUnder = (plan: string) =>
      page.evaluate((p) => {
        const track = document.querySelector("[data-carousel-track]")!.getBoundingClientRect();
        const slide = document
          .querySelector(`[data-plan="${p}"]`)!
          .closest("[data-carousel-slide]")!
          .getBoundingClientRect();
        return Math.round(track.bottom - slide.bottom);
      }, plan);
    expect(await gapUnder("basic")).toBe(0);

    await next.click();
    await settle();
    expect(await shownPlans(page)).toEqual(["standard"]);
    expect(await gapUnder("standard")).toBe(0);
    expect(await prev.isDisabled()).toBe(false);
    expect(await attr(page, "[data-carousel-dot]", "aria-current")).toEqual(["false", "true", "false"]);

    await next.click();
    await settle();
    expect(await shownPlans(page)).toEqual(["premium"]);
    expect(await next.isDisabled()).toBe(true);

    await prev.click();
    await settle();
    expect(await shownPlans(page)).toEqual(["standard"]);

    await page.getByRole("button", { name: "Show Basic plan" }).click();
    await settle();
    expect(await shownPlans(page)).toEqual(["basic"]);
    expect(await prev.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Show Premium plan" }).click();
    await settle();
    expect(await shownPlans(page)).toEqual(["premium"]);
    expect(await next.isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.context().close();
  });

  it("from md up: a three-column grid without arrows or dots", async () => {
    const page = await open("/pricing", DESKTOP);
    expect(await shownPlans(page)).toEqual(["basic", "standard", "premium"]);
    const tops = await page
      .locator("[data-plan]")
      .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(await page.getByRole("button", { name: "Next plan" }).isVisible()).toBe(false);
    expect(await page.locator("[data-carousel-dot]").first().isVisible()).toBe(false);
    await page.context().close();
  });
});

describe("one open at a time", () => {
  it("service cards toggle 'View details' / 'Hide details', and opening one closes the other", async () => {
    const page = await open("/pricing");
    const cards = page.locator("details[data-service]");
    const first = cards.nth(0).locator("summary");
    const second = cards.nth(1).locator("summary");
    await first.click();
    expect(await first.innerText()).toContain("Hide details");
    expect(await cards.nth(0).locator("p").last().isVisible()).toBe(true);
    await second.click();
    expect(await attr(page, "details[data-service]", "open")).toEqual(
      ["false", "true", ...Array(7).fill("false")].map((v) => (v === "true" ? "" : null)),
    );
    expect(await first.innerText()).toContain("View details");
    expect(await second.innerText()).toContain("Hide details");
    await second.click();
    expect(await page.locator("details[data-service][open]").count()).toBe(0);
    await page.context().close();
  });

  it("the FAQ keeps one answer open", async () => {
    const page = await open("/pricing", PHONE);
    const items = page.locator("details[data-faq]");
    await items.nth(0).locator("summary").click();
    await items.nth(2).locator("summary").click();
    expect(await page.locator("details[data-faq][open]").count()).toBe(1);
    expect(await items.nth(2).getAttribute("open")).toBe("");
    expect(await items.nth(2).innerText()).toContain("$800-1,200");
    await page.context().close();
  });
});

describe("motion", () => {
  it("the health report dial counts from 0 up to 100 in about 1.5 s", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // Record every value the dial shows, as it shows it.
    await page.addInitScript(() => {
      const seen: number[] = [];
      (window as unknown as { dialSeen: number[] }).dialSeen = seen;
      document.addEventListener("DOMContentLoaded", () => {
        const number = document.querySelector("[data-dial-number]");
        if (!number) return;
        new MutationObserver(() => seen.push(Number(number.textContent))).observe(number, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
    });
    await page.goto(`${site.baseUrl}/haven-health-report`);
    const dial = page.locator("[data-dial]");
    await page.waitForFunction(() => document.querySelector("[data-dial]")?.hasAttribute("data-dial-done"), null, {
      timeout: 5000,
    });
    const elapsed = Number(await dial.getAttribute("data-dial-done"));
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(2500);
    expect(await dial.locator("[data-dial-number]").innerText()).toBe("100");
    const seen = await page.evaluate(() => (window as unknown as { dialSeen: number[] }).dialSeen);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((v, i) => i === 0 || v >= seen[i - 1]!)).toBe(true);
    await context.close();
  });

  it("the booking demo cycles its five steps; the quote demo flips four items to 'Sent!' and resets", async () => {
    const page = await open("/");
    const activeStep = () =>
      page.locator("[data-demo-step]").evaluateAll((steps) => steps.findIndex((s) => s.hasAttribute("data-active")));
    const chips = () => page.locator("[data-demo-quote]").allInnerTexts();
    expect(await activeStep()).toBe(0);
    await page.waitForFunction(
      () => document.querySelectorAll("[data-demo-step]")[1]?.hasAttribute("data-active"),
      null,
      { timeout: 4000 },
    );
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll("[data-demo-quote]")).every((c) => c.textContent === "Sent!"),
      null,
      { timeout: 8000 },
    );
    expect(await chips()).toEqual(["Sent!", "Sent!", "Sent!", "Sent!"]);
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll("[data-demo-quote]")).every((c) => c.textContent === "Get Quote"),
      null,
      { timeout: 4000 },
    );
    await page.waitForFunction(
      () => document.querySelectorAll("[data-demo-step]")[4]?.hasAttribute("data-active"),
      null,
      { timeout: 8000 },
    );
    await page.waitForFunction(
      () => document.querySelectorAll("[data-demo-step]")[0]?.hasAttribute("data-active"),
      null,
      { timeout: 4000 },
    );
    await page.context().close();
  });

  it("prefers-reduced-motion stops every demo: the dial shows its value at once and nothing cycles", async () => {
    const page = await open("/", PHONE, { reducedMotion: "reduce" });
    await page.waitForTimeout(2500);
    expect(await page.locator("[data-demo-step][data-active]").count()).toBe(1);
    expect(await page.locator("[data-demo-step]").first().getAttribute("data-active")).toBe("");
    expect(await page.locator("[data-demo-quote]").allInnerTexts()).toEqual([
      "Get Quote",
      "Get Quote",
      "Get Quote",
      "Get Quote",
    ]);
    await page.goto(`${site.baseUrl}/haven-health-report`);
    expect(await page.locator("[data-dial]").getAttribute("data-dial-done")).toBe("0");
    expect(await page.locator("[data-dial-number]").innerText()).toBe("100");
    await page.context().close();
  });
});

describe("sample report popup", () => {
  it("'See a Sample Report' opens the sample client report in a popup and leaves the page", async () => {
    const page = await open("/");
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("link", { name: "See a Sample Report", exact: true }).click(),
    ]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${site.baseUrl}/client-report/sample`);
    // The client report's island: the heading shows once it has loaded the sample.
    await popup.getByRole("heading", { name: "Your Haven Health Report" }).waitFor();
    expect(page.url()).toBe(`${site.baseUrl}/`);
    await page.context().close();
  });

  it("without script it is still a working link", async () => {
    const page = await open("/", DESKTOP, { javaScriptEnabled: false });
    const link = page.getByRole("link", { name: "See a Sample Report", exact: true });
    const response = await page.request.get(`${site.baseUrl}${await link.getAttribute("href")}`);
    expect(response.status()).toBe(200);
    // And the plans still show without script, scrolled sideways on a phone.
    await page.goto(`${site.baseUrl}/pricing`);
    expect(await page.locator("[data-plan]").count()).toBe(3);
    await page.context().close();
  });
});

describe("keyboard and navigation", () => {
  it("the nav turns translucent after 20 px on the marketing pages", async () => {
    const page = await open("/pricing", PHONE);
    const nav = page.locator("[data-site-nav]");
    expect(await nav.getAttribute("data-scrolled")).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.waitForFunction(
      () => document.querySelector("[data-site-nav]")?.getAttribute("data-scrolled") === "true",
    );
    await page.context().close();
  });

  it("the carousel, service cards and FAQ all work from the keyboard", async () => {
    const page = await open("/pricing", PHONE);
    // Tab into the second plan's button: the carousel brings that card into view.
    await page.locator('[data-plan="basic"] button').focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Choose Standard");
    await waitForCarousel(page);
    expect(await shownPlans(page)).toEqual(["standard"]);
    // Arrows by Enter; at the end the focus moves to the other arrow instead of being lost.
    await page.getByRole("button", { name: "Next plan" }).focus();
    await page.keyboard.press("Enter");
    await waitForCarousel(page);
    expect(await shownPlans(page)).toEqual(["premium"]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Previous plan");
    await page.keyboard.press("Enter");
    await waitForCarousel(page);
    expect(await shownPlans(page)).toEqual(["standard"]);
    // A service card opens with Enter and closes with Space.
    const card = page.locator("details[data-service]").first();
    await card.locator("summary").focus();
    await page.keyboard.press("Enter");
    expect(await card.getAttribute("open")).toBe("");
    await page.keyboard.press(" ");
    expect(await card.getAttribute("open")).toBeNull();
    // Tab moves on to the next card's summary.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("details")?.getAttribute("data-service"))).toBe(
      "concierge-line",
    );
    const faq = page.locator("details[data-faq]").first();
    await faq.locator("summary").focus();
    await page.keyboard.press("Enter");
    expect(await faq.getAttribute("open")).toBe("");
    await screenshotBothWidths(page, "marketing-pricing-keyboard");
    await page.context().close();
  });

  it("the home page's calls to action are reached by Tab in reading order and followed by Enter", async () => {
    const page = await open("/", DESKTOP);
    const reached: string[] = [];
    for (let i = 0; i < 15 && !reached.includes("See a Sample Report"); i++) {
      await page.keyboard.press("Tab");
      reached.push((await page.evaluate(() => document.activeElement?.textContent?.trim())) ?? "");
    }
    expect(reached[0]).toBe("Skip to content");
    expect(reached.indexOf("Get Free Score")).toBeGreaterThan(0);
    expect(reached.indexOf("See a Sample Report")).toBe(reached.indexOf("Get Free Score") + 1);
    await page.getByRole("link", { name: "Start Your Journey" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${site.baseUrl}/pricing`);
    await page.context().close();
  });
});
