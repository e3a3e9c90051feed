// Marketing pages: JS and CSS bytes (gzip) per page, and Lighthouse (mobile preset) on / and /pricing.
// Budgets (docs/architecture.md "Performance budgets"): ≤ 3 KB gzip of JS (≤ 2 KB on /pricing), no React;
// performance ≥ 0.95, accessibility 1.0.
import { gzipSync } from "node:zlib";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { freePort } from "../src/db/embedded.js";
import { localePath } from "../src/i18n/routing.js";
import { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from "../tests/support/chromium.js";
import { type BenchApp, fmt, startBenchApp, verdict } from "./support.js";

const ENGLISH_PAGES = [
  "/",
  "/pricing",
  "/haven-health-report",
  "/health-report-explainer",
  "/sample-report",
  "/contact",
  "/maintenance-hub",
  "/free-report",
  "/report-expired",
];
/** Each page in English and in French (docs/decisions.md#65): the budget holds in both languages. */
export const MARKETING_PAGES = ENGLISH_PAGES.flatMap((page) => {
  const french = localePath(page, "fr-CA");
  return french === page ? [page] : [page, french];
});
const LIGHTHOUSE_PAGES = ["/", "/pricing"];
const JS_BUDGET = 3 * 1024;
/** /pricing, in either language: the site script and its plan buttons, nothing else. */
export const PRICING_JS_BUDGET = 2 * 1024;
const budgetOf = (page: string) => (/^(\/fr)?\/pricing$/.test(page) ? PRICING_JS_BUDGET : JS_BUDGET);

/** The scripts and stylesheets a page links, as the browser would fetch them. */
export function assetsOf(html: string): { js: string[]; css: string[] } {
  const js = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g),
  ].map((m) => m[1]!);
  const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  return { js: [...new Set(js)], css: [...new Set(css)] };
}

/** A built module's static imports (`import…from"./x.js"`, `import"./x.js"`), as paths beside it. */
function staticImports(path: string, code: string): string[] {
  const dir = path.slice(0, path.lastIndexOf("/") + 1);
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)].map((m) => `${dir}${m[1]}`);
}

/** The gzip bytes of these files; for scripts, with every module they import at once, each counted once. */
export async function gzipBytes(baseUrl: string, paths: string[]): Promise<number> {
  let total = 0;
  const seen = new Set<string>();
  const queue = [...paths];
  while (queue.length) {
    const p = queue.shift()!;
    if (seen.has(p)) continue;
    seen.add(p);
    const res = await fetch(`${baseUrl}${p}`);
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    total += gzipSync(body, { level: 9 }).length;
    if (p.endsWith(".js")) queue.push(...staticImports(p, body.toString("utf8")));
  }
  return total;
}

async function printBytes(baseUrl: string): Promise<void> {
  console.log("\nMarketing pages: bytes over the wire, gzip (budget: JS ≤ 3 KB, ≤ 2 KB on /pricing; no React)");
  console.log(`  ${"page".padEnd(30)}${"JS".padStart(9)}${"CSS".padStart(10)}  verdict`);
  for (const page of MARKETING_PAGES) {
    const res = await fetch(`${baseUrl}${page}`);
    const html = await res.text();
    const { js, css } = assetsOf(html);
    const jsBytes = await gzipBytes(baseUrl, js);
    const cssBytes = await gzipBytes(baseUrl, css);
    const react = html.includes("data-island=") || js.some((src) => /\/(main|jsx-runtime)-/.test(src));
    const ok = res.ok && jsBytes <= budgetOf(page) && !react;
    console.log(
      `  ${page.padEnd(30)}${`${fmt(jsBytes)} B`.padStart(9)}${`${fmt(cssBytes)} B`.padStart(10)}  ${verdict(ok)}${react ? " (React on the page)" : ""}${res.ok ? "" : ` (HTTP ${res.status})`}`,
    );
  }
}

async function printLighthouse(baseUrl: string): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) {
    console.log(`\nLighthouse skipped: ${NO_CHROMIUM_MESSAGE}`);
    return;
  }
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    console.log("\nLighthouse 12, mobile preset (budget: performance ≥ 0.95, accessibility 1.0)");
    for (const page of LIGHTHOUSE_PAGES) {
      // Lighthouse's default config is the mobile preset: a moto-g-class screen and simulated slow 4G.
      const result = await lighthouse(`${baseUrl}${page}`, {
        port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
      });
      const categories = result?.lhr.categories;
      const perf = categories?.performance?.score ?? 0;
      const a11y = categories?.accessibility?.score ?? 0;
      const audits = result?.lhr.audits;
      const lcp = audits?.["largest-contentful-paint"]?.displayValue ?? "?";
      const cls = audits?.["cumulative-layout-shift"]?.displayValue ?? "?";
      console.log(
        `  ${page.padEnd(10)} performance ${fmt(perf, 2)} (${verdict(perf >= 0.95)})  accessibility ${fmt(a11y, 2)} (${verdict(a11y >= 1)})  LCP ${lcp}  CLS ${cls}`,
      );
    }
  } finally {
    await browser.close();
  }
}

/** Called by bench/run.ts with its running app; alone, it starts its own. */
export async function runMarketingBench(haven?: BenchApp): Promise<void> {
  const app = haven ?? (await startBenchApp());
  try {
    await printBytes(app.baseUrl);
    await printLighthouse(app.baseUrl);
  } finally {
    if (!haven) await app.stop();
  }
}
