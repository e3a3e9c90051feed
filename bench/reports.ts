// Reports: the full case of the budget table in docs/architecture.md, every category, 3 kitchens, 3 bathrooms,
// 2 laundries and 60 photos. Prints generation, full PDF and summary PDF times and sizes, and the first
// page of /admin/reports with 10,000 reports. Figures only: nothing here fails.
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Container } from "../src/container.js";
import type { EntryInput, EntryScore } from "../src/modules/inspections/inspections.schemas.js";
import { INSPECTION_WEIGHTS } from "../src/modules/inspections/index.js";
import { gzipSync } from "node:zlib";
import { NO_CHROMIUM_MESSAGE, findChromium, launchBrowser } from "../tests/support/chromium.js";
import { ISLAND_JS_BUDGET } from "./islands.js";
import { fmt, staffCookie, verdict } from "./support.js";

const PHOTOS = 60;
const REPORTS_ON_LIST = 10_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

/** A photo-like JPEG: smooth random texture at phone size (noise, blurred), stored through the photos service. */
async function benchPhoto(container: Container, seed: number): Promise<number> {
  const texture = await sharp({
    create: {
      width: 512,
      height: 384,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 110 + (seed % 40), sigma: 60 },
    },
  })
    .blur(3)
    .png()
    .toBuffer();
  const bytes = await sharp(texture)
    .resize(2048, 1536)
    .modulate({ hue: (seed * 37) % 360 })
    .jpeg({ quality: 88 })
    .toBuffer();
  return (await container.photos.ingest(bytes)).id;
}

/** Every subcategory of every category, kitchens and bathrooms three times, laundries twice; 60 photos spread over them. */
function fullEntries(photoIds: number[]): EntryInput[] {
  const scores: EntryScore[] = [10, 7, 10, 4, 7, 10, 1];
  const entries: EntryInput[] = [];
  for (const category of INSPECTION_WEIGHTS) {
    const copies = category.repeatable === "Laundry" ? 2 : category.repeatable ? 3 : 1;
    for (let copy = 1; copy <= copies; copy++) {
      for (const [name, weight] of Object.entries(category.subcategories)) {
        const i = entries.length;
        entries.push({
          categoryName: category.name,
          subcategoryName: copy === 1 ? name : `${name} (${category.repeatable} ${copy})`,
          score: weight === 0 ? null : scores[i % scores.length]!,
          notes:
            i % 3 === 0
              ? `Observed during the walk-through: item ${i + 1} shows wear consistent with its age; see the photos for the detail.`
              : null,
          urgent: i % 41 === 0,
        });
      }
    }
  }
  // The photos go on every other entry, one or two each, until all 60 are placed.
  let next = 0;
  for (let i = 0; next < photoIds.length; i = (i + 2) % entries.length) {
    const take = Math.min(photoIds.length - next, i % 4 === 0 ? 2 : 1);
    entries[i]!.photoIds = [...(entries[i]!.photoIds ?? []), ...photoIds.slice(next, next + take)];
    next += take;
  }
  return entries;
}

/** The JS a staff page loads in Chromium until its islands are hydrated and the network is quiet, gzipped (level 9). */
async function staffPageJs(baseUrl: string, cookie: string, path: string): Promise<number> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      extraHTTPHeaders: { Cookie: cookie },
    });
    const page = await context.newPage();
    const sizes: Promise<number>[] = [];
    page.on("response", (response) => {
      const script =
        response.request().resourceType() === "script" || /javascript/.test(response.headers()["content-type"] ?? "");
      if (response.ok() && script)
        sizes.push(
          response.body().then(
            (b) => gzipSync(b, { level: 9 }).length,
            () => 0,
          ),
        );
    });
    const res = await page.goto(`${baseUrl}${path}`);
    if (!res?.ok()) throw new Error(`${path}: HTTP ${res?.status()}`);
    await page.waitForSelector(`[data-island]:not([data-island-status="hydrated"])`, {
      state: "detached",
      timeout: 30_000,
    });
    await page.waitForLoadState("networkidle");
    return (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  } finally {
    await browser.close();
  }
}

/** Called by bench/run.ts (BENCH_ONLY=reports) with its running, seeded app. */
export async function runReportsBench(haven: { baseUrl: string; container: Container }): Promise<void> {
  const { container, baseUrl } = haven;
  console.log(`\nReports: the full case (every category, 3 kitchens, 3 bathrooms, 2 laundries, ${PHOTOS} photos)`);
  const inspector = await container.users.create({
    email: `inspector-${randomBytes(3).toString("hex")}@haven.test`,
    password: "bench-password-0123456789",
    firstName: "Noémie",
    lastName: "Łukasik",
  });
  const { property } = await container.customers.createWithProperty(
    {
      email: `bench-${randomBytes(3).toString("hex")}@example.ca`,
      name: "Benoît O’Connor",
      phone: "306-555-0199",
      subscriptionPlan: "premium",
    },
    { address: "2200 Rue de l’Église", city: "Montréal", province: "QC", postalCode: "H2X 1Y4" },
  );
  const photoIds: number[] = [];
  for (let i = 0; i < PHOTOS; i++) photoIds.push(await benchPhoto(container, i));
  const entries = fullEntries(photoIds);

  // Generation: five inspections of the full case, each generated once.
  const generations: number[] = [];
  let reportId = 0;
  for (let run = 0; run < 5; run++) {
    const inspection = await container.inspections.create(
      { propertyId: property.id, inspectionDate: `2026-0${run + 1}-15` },
      inspector.id,
    );
    await container.inspections.complete(inspection.id, entries);
    const { ms, value } = await timed(() => container.reports.generate(inspection.id));
    generations.push(ms);
    reportId = value.id;
  }
  const report = await container.reports.get(reportId);
  console.log(
    `  ${entries.length} entries, ${report.reportData.recommendations.length} recommendations (tasks), score ${report.overallScore}`,
  );
  const gen = median(generations);
  console.log(
    `  generation (median of 5)      ${fmt(gen, 1).padStart(8)} ms   budget ≤ 200 ms, aim ≤ 50 ms   ${verdict(gen <= 200)}`,
  );

  // Fonts load once per process: warm them with a summary first, so the full figures are about the full PDF.
  await container.reports.pdf(reportId, "summary");
  const cold = await timed(() => container.reports.pdf(reportId, "full"));
  const fulls: { ms: number; value: Buffer }[] = [];
  for (let run = 0; run < 3; run++) fulls.push(await timed(() => container.reports.pdf(reportId, "full")));
  const fullMs = median(fulls.map((f) => f.ms));
  const fullMb = fulls[0]!.value.length / 1024 / 1024;
  console.log(
    `  full PDF, photos not cached   ${fmt(cold.ms, 0).padStart(8)} ms   budget ≤ 2 s, aim ≤ 1 s        ${verdict(cold.ms <= 2000)}`,
  );
  console.log(
    `  full PDF (median of 3 more)   ${fmt(fullMs, 0).padStart(8)} ms   budget ≤ 2 s, aim ≤ 1 s        ${verdict(fullMs <= 2000)}`,
  );
  console.log(
    `  full PDF size                 ${fmt(fullMb, 2).padStart(8)} MB   budget ≤ 8 MB, aim ≤ 5 MB      ${verdict(fullMb <= 8)}`,
  );
  const summaries: number[] = [];
  let summarySize = 0;
  for (let run = 0; run < 5; run++) {
    const { ms, value } = await timed(() => container.reports.pdf(reportId, "summary"));
    summaries.push(ms);
    summarySize = value.length;
  }
  const summaryMs = median(summaries);
  console.log(
    `  summary PDF (median of 5)     ${fmt(summaryMs, 0).padStart(8)} ms   budget ≤ 300 ms (${fmt(summarySize / 1024, 0)} KB)     ${verdict(summaryMs <= 300)}`,
  );

  // 10,000 reports: copies of this snapshot on inspections of their own (bulk SQL; only the list is measured).
  const missing = REPORTS_ON_LIST - (await container.reports.list({ limit: 1, offset: 0 })).total;
  if (missing > 0) {
    await container.db.transaction(async (tx) => {
      const ids: { id: number }[] = await tx
        .raw(
          `insert into inspections (property_id, inspector_id, inspection_date, status, overall_score, completed_at, created_at)
         select ?, ?, date '2024-01-01' + (g % 700), 'completed', ?, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
         from generate_series(1, ?) g returning id`,
          [property.id, inspector.id, report.overallScore, missing],
        )
        .then((r: { rows: { id: number }[] }) => r.rows);
      await tx.raw(
        `insert into reports (property_id, inspection_id, overall_score, report_data, created_at)
         select ?, i.id, ?, ?::jsonb, i.created_at from inspections i where i.id = any(?::int[])`,
        [property.id, report.overallScore, JSON.stringify(report.reportData), ids.map((r) => r.id)],
      );
    });
  }
  const cookie = await staffCookie(
    { container, baseUrl },
    {
      email: "bench-reports@haven.test",
      password: "bench-password-0123456789",
      firstName: "Bench",
      lastName: "Reports",
    },
  );
  const pageTimes: number[] = [];
  let total = "";
  for (let run = 0; run < 21; run++) {
    const { ms, value } = await timed(async () => {
      const res = await fetch(`${baseUrl}/admin/reports`, { headers: { Cookie: cookie } });
      if (!res.ok) throw new Error(`/admin/reports: HTTP ${res.status}`);
      return res.text();
    });
    if (run > 0) pageTimes.push(ms); // the first request warms the view cache
    total = /Showing [\d,]+-[\d,]+ of ([\d,]+) reports/.exec(value)?.[1] ?? "?";
  }
  const listMs = median(pageTimes);
  console.log(
    `  /admin/reports first page     ${fmt(listMs, 1).padStart(8)} ms   budget ≤ 100 ms (${total} reports)  ${verdict(listMs <= 100)}`,
  );

  if (!findChromium()) return console.log(`  JS of the report pages skipped: ${NO_CHROMIUM_MESSAGE}`);
  for (const path of [`/admin/reports/${reportId}`, "/admin/reports", `/admin/property-history/${property.id}`]) {
    try {
      const bytes = await staffPageJs(baseUrl, cookie, path);
      console.log(
        `  JS on ${path.padEnd(26)}${fmt(bytes / 1024, 1).padStart(7)} KB gzip   budget ≤ 90 KB      ${verdict(bytes <= ISLAND_JS_BUDGET)}`,
      );
    } catch (error) {
      console.log(`  JS on ${path}: not measured: ${error instanceof Error ? error.message : error}`);
    }
  }
}
