import { mkdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ROOT_DIR } from "../../src/http/assets.js";
import type { TestContext } from "./context.js";

export { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium, launchBrowser } from "./chromium.js";

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

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Saves a full-page screenshot into the ignored tests/.screenshots folder. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Screenshots at 390 px and 1280 px wide, then back to the size the page had. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const [label, size] of [["390", PHONE], ["1280", DESKTOP]] as const) {
    await page.setViewportSize(size);
    await screenshot(page, `${name}-${label}`);
  }
  if (before) await page.setViewportSize(before);
}

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe in the page; fails on any serious or critical violation, naming each one. */
export async function expectAccessible(page: Page): Promise<void> {
  const hasAxe = await page.evaluate(() => "axe" in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(report, `axe on ${page.url()}`).toEqual([]);
}

/** Waits until every island marker on the page has mounted. */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("[data-island]")).every((el) => el.getAttribute("data-island-status") === "hydrated"),
  );
}
