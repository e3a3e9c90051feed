// Island pages: the JS each one loads in a real Chromium, gzip level 9, against the budget in docs/architecture.md
// of 80 KB gzip in all per island page (charts lazily, only where they show): on a first visit, and again on a
// second visit in the same context, where the hashed files come from the browser's cache.
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContextOptions, Page, Response } from "playwright-core";
import type { Container } from "../src/container.js";
import { NO_CHROMIUM_MESSAGE, findChromium, launchBrowser } from "../tests/support/chromium.js";
import { fmt, verdict } from "./support.js";
import { localePath } from "../src/i18n/routing.js";

const ENGLISH_ISLAND_PAGES = [
  "/login",
  "/checkout?plan=standard",
  "/payment-success?plan=standard",
  "/property-intake?demo=1&plan=standard",
  "/schedule-inspection",
  "/book-inspection",
  "/booking-confirmation",
  "/onboarding-flow",
  "/client-report/sample",
];
/** Each island page in English and in French (docs/decisions.md#65): each island loads its own messages. */
export const ISLAND_PAGES = ENGLISH_ISLAND_PAGES.flatMap((page) => {
  const french = localePath(page, "fr-CA");
  return french === page ? [page] : [page, french];
});
export const ISLAND_JS_BUDGET = 80 * 1024;
const BUDGET_LABEL = `${ISLAND_JS_BUDGET / 1024} KB`;

export interface IslandPageJs {
  page: string;
  /** Every script the page loaded, gzipped one by one (level 9) and summed. */
  gzipBytes: number;
  scripts: number;
  islands: number;
  /** The second visit in the same context: the scripts' gzip bytes that came over the network again. */
  second?: { gzipBytes: number; scripts: number };
}

const isScript = (response: Response) =>
  response.request().resourceType() === "script" || /javascript/.test(response.headers()["content-type"] ?? "");

/** One visit: the page until every island is hydrated and the network is quiet; the scripts fetched meanwhile. */
async function visit(page: Page, baseUrl: string, path: string, requireIsland: boolean) {
  const bodies = new Map<string, Promise<number>>();
  const onResponse = (response: Response) => {
    if (!response.ok() || !isScript(response) || bodies.has(response.url())) return;
    bodies.set(
      response.url(),
      // A script from the browser's cache is not fetched: its encoded body size over the network is 0.
      response
        .request()
        .sizes()
        .then(async ({ responseBodySize }) =>
          responseBodySize > 0 ? gzipSync(await response.body(), { level: 9 }).length : 0,
        )
        .catch(() => 0),
    );
  };
  page.on("response", onResponse);
  try {
    const res = await page.goto(`${baseUrl}${path}`);
    if (!res?.ok()) throw new Error(`${path}: HTTP ${res?.status()}`);
    const islands = await page.locator("[data-island]").count();
    if (!islands && requireIsland) throw new Error(`${path}: no island on the page`);
    if (islands)
      await page.waitForSelector(`[data-island]:not([data-island-status="hydrated"])`, {
        state: "detached",
        timeout: 30_000,
      });
    // Lazy chunks an island asks for right after mounting count too.
    await page.waitForLoadState("networkidle");
    const sizes = (await Promise.all(bodies.values())).filter((size) => size > 0);
    return { gzipBytes: sizes.reduce((a, b) => a + b, 0), scripts: sizes.length, islands };
  } finally {
    page.off("response", onResponse);
  }
}

/**
 * Opens the page in a fresh context, waits until every island is hydrated and the network is quiet, and sums its JS;
 * with `second`, opens it again in the same context (the cache warm) and sums what came over the network then.
 */
export async function measureIslandPage(
  browser: Browser,
  baseUrl: string,
  path: string,
  options: BrowserContextOptions = {},
  requireIsland = true,
  second = false,
): Promise<IslandPageJs> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...options });
  try {
    const page = await context.newPage();
    const first = await visit(page, baseUrl, path, requireIsland);
    const again = second ? await visit(page, baseUrl, path, requireIsland) : undefined;
    return {
      page: path,
      ...first,
      ...(again && { second: { gzipBytes: again.gzipBytes, scripts: again.scripts } }),
    };
  } finally {
    await context.close();
  }
}

/** One line of the table: the first visit against the budget, and the second visit's bytes. */
function printRow(path: string, result: IslandPageJs): void {
  const second = result.second ? `${fmt(result.second.gzipBytes / 1024, 1)} KB (${result.second.scripts})` : "?";
  console.log(
    `  ${path.padEnd(40)}${fmt(result.gzipBytes / 1024, 1).padStart(9)}${BUDGET_LABEL.padStart(9)}  ${verdict(result.gzipBytes <= ISLAND_JS_BUDGET)} (${result.scripts} scripts); second visit ${second}`,
  );
}

/**
 * The staff pages with islands (the inspection form, the report viewer, the calendar, the quote requests,
 * the client report), on a few demo homes, signed in as a staff user made for the bench.
 */
async function staffIslandPages(
  browser: Browser,
  baseUrl: string,
  container: Container,
): Promise<{ paths: string[]; storageState: BrowserContextOptions["storageState"]; reportId: number | null }> {
  const { seedDemo } = await import("../seeds/demo/index.js");
  await seedDemo(container, { properties: 6 });
  const email = `bench-${Date.now()}@haven.test`;
  const password = "bench password 2024";
  await container.users.create({ email, password, firstName: "Bench", lastName: "Staff" });
  const open = await container.inspections.list({ status: "in_progress", limit: 1, offset: 0 });
  const done = await container.inspections.list({ status: "completed", limit: 1, offset: 0 });
  const reports = await container.reports.list({ limit: 1, offset: 0 });
  const reportId =
    reports.rows[0]?.id ?? (done.rows[0] ? (await container.reports.generate(done.rows[0].id)).id : null);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.fill("#email", email);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(/\/admin/), page.click("button[type=submit]")]);
  const storageState = await context.storageState();
  await context.close();
  const paths = ["/admin/inspections/new", "/admin/maintenance-schedule", "/admin/quote-requests", "/admin/reports"];
  if (open.rows[0]) paths.push(`/admin/inspections/edit/${open.rows[0].id}`);
  if (reportId)
    paths.push(
      `/admin/reports/${reportId}`,
      `/admin/property-history/${(await container.reports.get(reportId)).propertyId}`,
    );
  return { paths, storageState, reportId };
}

/** My Home's pages, signed in as the homeowner of the bench's report, and its sign-in page. */
async function homePages(
  baseUrl: string,
  container: Container,
  reportId: number | null,
): Promise<{ paths: string[]; storageState: BrowserContextOptions["storageState"] }> {
  const paths = ["/my-home/sign-in"];
  if (!reportId) return { paths, storageState: undefined };
  const report = await container.reports.get(reportId);
  const property = (await container
    .db("properties as p")
    .join("customers as c", "c.id", "p.customer_id")
    .where("p.id", report.propertyId)
    .first("c.email")) as { email: string } | undefined;
  if (!property) return { paths, storageState: undefined };
  const { token } = await container.homeAuth.createSession(property.email);
  const { hostname } = new URL(baseUrl);
  paths.push("/my-home", `/my-home/reports/${reportId}`, "/my-home/visits", "/my-home/plan", "/my-home/account");
  return {
    paths,
    storageState: {
      cookies: [
        {
          name: "haven_home",
          value: token,
          domain: hostname,
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
  };
}

/** Called by bench/run.ts (BENCH_ONLY=islands) with its running, seeded app. */
export async function runIslandsBench(haven: { baseUrl: string; container: unknown }): Promise<void> {
  if (!findChromium()) {
    console.log(`\nIsland pages skipped: ${NO_CHROMIUM_MESSAGE}`);
    return;
  }
  const browser = await launchBrowser();
  try {
    console.log(
      "\nIsland pages: JS loaded in Chromium until hydrated, each script gzipped (level 9) and summed; first visit in a cold context, then a second visit in the same context (what came over the network again)",
    );
    console.log(`  ${"page".padEnd(40)}${"KB gzip".padStart(9)}${"budget".padStart(9)}  verdict`);
    for (const path of ISLAND_PAGES) {
      try {
        printRow(path, await measureIslandPage(browser, haven.baseUrl, path, {}, true, true));
      } catch (error) {
        console.log(
          `  ${path.padEnd(40)}${"?".padStart(9)}${BUDGET_LABEL.padStart(9)}  not measured: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
    const staff = await staffIslandPages(browser, haven.baseUrl, haven.container as Container);
    const home = await homePages(haven.baseUrl, haven.container as Container, staff.reportId);
    for (const { path, storageState } of [
      ...staff.paths.map((path) => ({ path, storageState: staff.storageState })),
      ...home.paths.map((path) => ({ path, storageState: home.storageState })),
    ]) {
      try {
        // Staff pages without an island (reports list, property history) load the admin script only; My Home's
        // pages mostly none (the report view and the passkey script are the exceptions).
        printRow(path, await measureIslandPage(browser, haven.baseUrl, path, { storageState }, false, true));
      } catch (error) {
        console.log(
          `  ${path.padEnd(40)}${"?".padStart(9)}${BUDGET_LABEL.padStart(9)}  not measured: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
  } finally {
    await browser.close();
  }
}
