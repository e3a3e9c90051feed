import { mkdirSync, readFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { ROOT_DIR } from "../../src/http/assets.js";
import { sharedChromium } from "./chromium.js";
import { suiteClockIsFixed, suiteNow } from "./clock.js";
import { type TestContext, createTestContext } from "./context.js";

export { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from "./chromium.js";

const require = createRequire(import.meta.url);
export const SCREENSHOT_DIR = path.join(ROOT_DIR, "tests/.screenshots");

/** Serves the test app on a free port; returns its base URL. */
export async function serve(ctx: TestContext): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = ctx.app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fresh test context served on a free port, with PUBLIC_URL set to that address: Haven builds its links
 * (shared reports, payment returns) from PUBLIC_URL, never from the Host, so the browser must find them there.
 */
export async function serveTestContext(
  env: Record<string, string> = {},
): Promise<{ ctx: TestContext; baseUrl: string; close: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ctx = await createTestContext({ PUBLIC_URL: baseUrl, ...env });
  server.on("request", ctx.app);
  return {
    ctx,
    baseUrl,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export interface BrowserSite {
  ctx: TestContext;
  browser: Browser;
  baseUrl: string;
  /** A page in a fresh browser context (its own cookies and storage). */
  newPage(size?: { width: number; height: number }, options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/**
 * A context whose pages read the suite's time (tests/support/clock.ts) when HAVEN_TEST_NOW, or a file's own dates,
 * fix it: Date in the page starts there and runs on, and its timers run as usual. On the real clock, untouched.
 */
async function onSuiteClock(context: BrowserContext): Promise<BrowserContext> {
  if (suiteClockIsFixed()) await context.clock.setSystemTime(suiteNow());
  return context;
}

/**
 * A test file's share of the worker's Chromium (one per vitest worker, kept from file to file: sharedChromium).
 * What it returns is that Browser, except that the contexts made through it (newContext, newPage) are its own:
 * contexts() lists them and close() closes them, leaving Chromium running for the next file. (Whatever a file
 * leaves open anyway is closed after it by tests/browser/setup.ts.)
 */
export async function openBrowser(): Promise<Browser> {
  const browser = await sharedChromium();
  const opened = new Set<BrowserContext>();
  const own = (context: BrowserContext) => {
    opened.add(context);
    context.once("close", () => opened.delete(context));
    return context;
  };
  const overrides: Partial<Browser> = {
    newContext: async (options) => own(await onSuiteClock(await browser.newContext(options))),
    newPage: async (options) => {
      const page = await browser.newPage(options);
      own(await onSuiteClock(page.context()));
      return page;
    },
    contexts: () => [...opened],
    close: async () => {
      await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Browser];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A fresh database (with the plans seeded unless told not to), the app on a free port, and the worker's Chromium. */
export async function openBrowserSite(
  options: { env?: Record<string, string>; seedPlans?: boolean } = {},
): Promise<BrowserSite> {
  const server = await serveTestContext(options.env);
  const { ctx } = server;
  if (options.seedPlans !== false) await ctx.container.plans.seed();
  const browser = await openBrowser();
  return {
    ctx,
    browser,
    baseUrl: server.baseUrl,
    async newPage(size = DESKTOP, contextOptions = {}) {
      const context = await browser.newContext({ viewport: size, ...contextOptions });
      return context.newPage();
    },
    async close() {
      await browser.close();
      await server.close();
      await ctx.close();
    },
  };
}

/**
 * Screenshots are for a person to look at, and cost seconds a page on a busy machine: they are taken only when
 * asked for, with SCREENSHOTS=1 (`SCREENSHOTS=1 npm run test:browser`). Tests that capture a page themselves check
 * this flag too; a test reading pixels to assert something does not.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === "1";

/**
 * With SCREENSHOTS=1, saves a full-page screenshot into the ignored tests/.screenshots folder and returns its path;
 * otherwise does nothing and returns null. It is taken from the top of the page (a scrolled page would draw the
 * sticky navigation over the middle of the capture), then the scroll position comes back; focus and everything
 * else stay as they were.
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  if (!SCREENSHOTS) return null;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  const scrolled = await page.evaluate(() => {
    const y = window.scrollY;
    window.scrollTo({ top: 0, behavior: "instant" });
    return y;
  });
  if (scrolled) await settle(page);
  await page.screenshot({ path: file, fullPage: true });
  if (scrolled) await page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), scrolled);
  return file;
}

/** Waits until a resize has been laid out and painted: two animation frames, then a short pause. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForTimeout(150);
}

/** With SCREENSHOTS=1, screenshots at 390 px and 1280 px wide, then back to the size the page had; else nothing. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const before = page.viewportSize();
  for (const [label, size] of [
    ["390", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await settle(page);
    await screenshot(page, `${name}-${label}`);
  }
  if (before) {
    await page.setViewportSize(before);
    await settle(page);
  }
}

/**
 * Waits for what the last input set moving: two frames for a transition to start, then every finite animation or
 * transition running on the page (a hover's fade, a toast sliding in) to end; infinite ones (a spinner) are left.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const running = document
      .getAnimations()
      .filter(
        (a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
      );
    // At most 2 s: a slow demo's cycle is not what axe is waiting for.
    const ended = Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
}

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe in the page; fails on any serious or critical violation, naming each one, and with `moderate` on the
 * moderate ones too (pages that have been made clean of them keep it).
 */
export async function expectAccessible(page: Page, { moderate = false }: { moderate?: boolean } = {}): Promise<void> {
  // Park the pointer first: a hover transition caught half-way is not a contrast problem. Nor are results dimmed
  // while htmx fetches their replacement (.htmx-request): let any request in flight finish first.
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector(".htmx-request"));
  await transitionsDone(page);
  const hasAxe = await page.evaluate(() => "axe" in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  const failing = new Set(["serious", "critical", ...(moderate ? ["moderate"] : [])]);
  const serious = violations.filter((v) => failing.has(v.impact ?? ""));
  const report = serious.map(
    (v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(report, `axe on ${page.url()}`).toEqual([]);
}

/**
 * Waits until every plan carousel on the page has stopped moving: no transition left on its track. A card slides
 * in with a 300 ms transform transition, and on a busy machine Chromium may not even have started it when asked
 * where the card is: until the compositor picks a transition up, the card reports the place it is leaving. Playwright
 * then finds the card's button "stable" off to the side and clicks there, the carousel takes the focus it gets and
 * moves, and the click lands on nothing (no error, no submit). Wait for this before clicking in a card just shown.
 */
export async function waitForCarousel(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("[data-carousel-track]")).every((track) => track.getAnimations().length === 0),
  );
}

/** Waits until every island marker on the page has mounted. */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("[data-island]")).every(
      (el) => el.getAttribute("data-island-status") === "hydrated",
    ),
  );
}
