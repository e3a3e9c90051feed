// The inspection form: its JS in a real Chromium (gzip level 9, against the 80 KB island-page
// budget), and the time to open a full inspection — every category, 3 kitchens, 3 bathrooms, 2 laundry
// rooms, 60 photos — as the API payload and as the page on a 390 px phone viewport.
import { gzipSync } from "node:zlib";
import type { Browser, Response } from "playwright-core";
import sharp from "sharp";
import type { Container } from "../src/container.js";
import type { EntryInput } from "../src/modules/inspections/inspections.schemas.js";
import { type EntryScore, templateEntries } from "../src/modules/inspections/template.js";
import { NO_CHROMIUM_MESSAGE, findChromium, launchBrowser } from "../tests/support/chromium.js";
import { ISLAND_JS_BUDGET } from "./islands.js";
import { fmt, staffCookie, verdict } from "./support.js";

const STAFF = {
  email: "bench-inspector@haven.test",
  password: "bench-inspector-password",
  firstName: "Bench",
  lastName: "Inspector",
};
const PHOTOS = 60;
const RUNS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A full inspection made through the services (so every rule holds); answers its id. */
export async function fullInspection(container: Container): Promise<number> {
  const { property } = await container.customers.createWithProperty(
    {
      email: `bench-form-${Date.now()}@example.ca`,
      name: "Bench Owner",
      phone: "306-555-0199",
      subscriptionPlan: "premium",
    },
    { address: "1 Benchmark Road", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
  );
  const inspection = await container.inspections.create(
    { propertyId: property.id, inspectionDate: "2026-11-20" },
    null,
  );
  const photoIds: number[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    // A phone photo after the browser's shrink: 2048 px on its long edge.
    const jpeg = await sharp({
      create: { width: 2048, height: 1536, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 120 } },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    photoIds.push((await container.photos.ingest(jpeg, `bench-photo-${inspection.id}-${i}`)).id);
  }
  const scores: EntryScore[] = [10, 7, 4, 1];
  const entries: EntryInput[] = templateEntries({ Kitchen: 3, Bathroom: 3, Laundry: 2 }).map((e, i) => ({
    categoryName: e.categoryName,
    subcategoryName: e.subcategoryName,
    score: e.weight === 0 ? null : scores[i % 4]!,
    notes: i % 3 === 0 ? `Observed condition of ${e.subcategoryName}: see photos.` : null,
    urgent: i % 17 === 0,
    photoIds: i < PHOTOS / 2 ? photoIds.slice(i * 2, i * 2 + 2) : [],
  }));
  await container.inspections.saveEntries(inspection.id, entries);
  return inspection.id;
}

const isScript = (response: Response) =>
  response.request().resourceType() === "script" || /javascript/.test(response.headers()["content-type"] ?? "");

async function measurePage(browser: Browser, baseUrl: string, inspectionId: number) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const login = await context.request.post(`${baseUrl}/api/auth/login`, {
      data: STAFF,
      headers: { Origin: baseUrl },
    });
    if (!login.ok()) throw new Error(`login: HTTP ${login.status()}`);
    const page = await context.newPage();
    const scripts = new Map<string, Promise<number>>();
    let imageBytes = 0;
    page.on("response", (response) => {
      if (!response.ok()) return;
      if (isScript(response) && !scripts.has(response.url())) {
        scripts.set(
          response.url(),
          response.body().then(
            (body) => gzipSync(body, { level: 9 }).length,
            () => 0,
          ),
        );
      } else if (response.request().resourceType() === "image") {
        void response.body().then(
          (body) => {
            imageBytes += body.length;
          },
          () => undefined,
        );
      }
    });
    const started = performance.now();
    await page.goto(`${baseUrl}/admin/inspections/edit/${inspectionId}`);
    await page.getByTestId("sticky-bar").waitFor({ timeout: 60_000 });
    const openMs = performance.now() - started;
    // The same, by the page's own clock: HTML parsed, island mounted, form on screen.
    const phases = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { dom: nav.domContentLoadedEventEnd, ready: performance.now() };
    });
    // Every category open at once: all cards, thumbnails lazily.
    const expandStarted = performance.now();
    await page.evaluate(() => {
      for (const b of document.querySelectorAll<HTMLButtonElement>('.category-toggle[aria-expanded="false"]'))
        b.click();
    });
    await page.waitForFunction(() => document.querySelectorAll('.category-toggle[aria-expanded="false"]').length === 0);
    const cards = await page.locator("[data-entry]").count();
    const expandMs = performance.now() - expandStarted;
    await page.waitForLoadState("networkidle");
    const gzip = (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0);
    return { openMs, domMs: phases.dom, expandMs, cards, gzip, scripts: scripts.size, imageBytes };
  } finally {
    await context.close();
  }
}

/** Called by bench/run.ts (BENCH_ONLY=inspection-form) with its running, seeded app. */
export async function runInspectionFormBench(haven: { baseUrl: string; container: Container }): Promise<void> {
  console.log("\nInspection form: a full inspection (every category, 3 kitchens, 3 bathrooms, 2 laundries, 60 photos)");
  const inspectionId = await fullInspection(haven.container);

  // The API payload the form reads on opening.
  const cookie = await staffCookie(haven, STAFF);
  const times: number[] = [];
  let body = Buffer.alloc(0);
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const response = await fetch(`${haven.baseUrl}/api/inspections/${inspectionId}`, {
      headers: { Cookie: cookie, Accept: "application/json" },
    });
    body = Buffer.from(await response.arrayBuffer());
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`GET /api/inspections/${inspectionId}: HTTP ${response.status}`);
  }
  console.log(
    `  API GET /api/inspections/{id}: median ${fmt(median(times), 1)} ms over ${RUNS} runs; ${fmt(body.length / 1024, 1)} KB, ${fmt(gzipSync(body).length / 1024, 1)} KB gzip (photos as URLs)`,
  );

  if (!findChromium()) {
    console.log(`  Page skipped: ${NO_CHROMIUM_MESSAGE}`);
    return;
  }
  const browser = await launchBrowser();
  try {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await measurePage(browser, haven.baseUrl, inspectionId));
    const last = runs.at(-1)!;
    console.log(
      `  page open to the form on screen (390 px, cold context): median ${fmt(median(runs.map((r) => r.openMs)), 0)} ms (HTML parsed at ${fmt(median(runs.map((r) => r.domMs)), 0)} ms)`,
    );
    console.log(
      `  every category expanded (${last.cards} cards): median ${fmt(median(runs.map((r) => r.expandMs)), 0)} ms; images loaded ${fmt(last.imageBytes / 1024, 0)} KB (thumbnails only)`,
    );
    console.log(
      `  JS: ${fmt(last.gzip / 1024, 1)} KB gzip in ${last.scripts} scripts, budget ${ISLAND_JS_BUDGET / 1024} KB: ${verdict(last.gzip <= ISLAND_JS_BUDGET)}`,
    );
  } finally {
    await browser.close();
  }
}
