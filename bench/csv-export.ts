import os from "node:os";
import { performance } from "node:perf_hooks";
import { fillPortal } from "./dashboard.js";
import { type BenchApp, fmt, staffCookie } from "./support.js";

// CSV export at scale: GET /api/properties?format=csv and /api/inspections?format=csv over
// 100,000+ rows, read as a stream by the client. Prints the time and the process's peak memory above its
// level before the export (server and client share this process; the client keeps only a byte and line count).

const STAFF = { email: "bench-csv@haven.test", password: "bench-csv-password", firstName: "Bench", lastName: "Export" };
const MIN_ROWS = 100_000;

async function exportOnce(url: string, cookie: string) {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie } });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    seconds,
    bytes,
    lines,
    rssMb: (peakRss - before.rss) / 2 ** 20,
    heapMb: (peakHeap - before.heapUsed) / 2 ** 20,
    peakRssMb: peakRss / 2 ** 20,
  };
}

export async function runCsvExportBench(haven: BenchApp): Promise<void> {
  const db = haven.container.db;
  const count = async () => Number((await db("properties").count({ n: "*" }))[0]!.n);
  // After the dashboard bench the portal is already full; alone, fill it the same way.
  if ((await count()) < MIN_ROWS) await fillPortal(haven);
  const cookie = await staffCookie(haven, STAFF);
  const inspections = Number((await db("inspections").count({ n: "*" }))[0]!.n);
  console.log(
    `\nCSV export (${fmt(await count())} properties, ${fmt(inspections)} inspections), streamed over HTTP with a staff session`,
  );
  console.log(
    `  machine: load average ${os
      .loadavg()
      .map((l) => fmt(l, 1))
      .join(" / ")} (1 / 5 / 15 min)`,
  );
  // The cursor alone, in this process: what reading the rows costs, apart from CSV, compression and HTTP.
  const t = performance.now();
  let read = 0;
  for await (const batch of haven.container.customers.exportProperties({})) read += batch.length;
  console.log(
    `  ${"properties cursor alone (in process)".padEnd(34)} ${fmt(read).padStart(8)} rows in ${fmt((performance.now() - t) / 1000, 2)} s`,
  );
  for (const [label, path] of [
    ["GET /api/properties?format=csv", "/api/properties?format=csv"],
    ["GET /api/inspections?format=csv", "/api/inspections?format=csv"],
  ] as const) {
    const r = await exportOnce(`${haven.baseUrl}${path}`, cookie);
    console.log(
      `  ${label.padEnd(34)} ${fmt(r.lines - 1).padStart(8)} rows (lines) ${fmt(r.bytes / 2 ** 20, 1).padStart(6)} MB in ${fmt(r.seconds, 2)} s;` +
        ` peak memory +${fmt(r.rssMb, 1)} MB RSS, +${fmt(r.heapMb, 1)} MB heap (RSS peak ${fmt(r.peakRssMb, 0)} MB)`,
    );
  }
}
