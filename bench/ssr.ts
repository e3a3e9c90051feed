import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { type BenchApp, close, fmt, listen, verdict } from "./support.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;
const AUTOCANNON = path.resolve(import.meta.dirname, "../node_modules/.bin/autocannon");
/** What every browser sends; without it a server must send the page uncompressed. */
const BROWSER = "accept-encoding=gzip, deflate, br";

/** Load comes from a separate autocannon process, so it does not share the server's event loop. */
async function measure(url: string, { duration = DURATION_S, compressed = true } = {}): Promise<number> {
  const headers = compressed ? ["-H", BROWSER] : [];
  const { stdout } = await promisify(execFile)(
    AUTOCANNON,
    ["--json", "-c", String(CONNECTIONS), "-d", String(duration), ...headers, url],
    { maxBuffer: 10 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.average;
}

/**
 * Throughput of `/` rendered by the layout against a bare Express hello-world, in the same run, asked for as a
 * browser asks (gzip accepted): the budget's figure. For reference, the same page asked for uncompressed, and bare
 * Express sending that page's bytes: what is left of the gap then is Haven's own work per request.
 */
export async function runSsrBench(haven: BenchApp): Promise<void> {
  const bare = express();
  bare.get("/", (_req, res) => {
    res.send("Hello, world!");
  });
  const page = await (await fetch(`${haven.baseUrl}/`, { headers: { "accept-encoding": "identity" } })).text();
  const sameBytes = express();
  sameBytes.get("/", (_req, res) => {
    res.type("html").send(page);
  });
  const hello = await listen(bare);
  const bytes = await listen(sameBytes);
  const runs = {
    hello: () => measure(`${hello.baseUrl}/`),
    haven: () => measure(`${haven.baseUrl}/`),
    havenUncompressed: () => measure(`${haven.baseUrl}/`, { compressed: false }),
    sameBytes: () => measure(`${bytes.baseUrl}/`, { compressed: false }),
  };
  const figures: Record<keyof typeof runs, number[]> = { hello: [], haven: [], havenUncompressed: [], sameBytes: [] };
  try {
    for (const run of Object.values(runs)) await run();
    // Alternate, so that machine noise hits all alike.
    for (let i = 0; i < 2; i++) {
      for (const [name, run] of Object.entries(runs)) figures[name as keyof typeof runs].push(await run());
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(figures.haven) / mean(figures.hello);
    console.log(
      "\nSSR throughput (autocannon in its own process, %d connections, 2 × %d s each, alternating; gzip accepted as a browser does)",
      CONNECTIONS,
      DURATION_S,
    );
    console.log(`  bare Express hello-world  ${fmt(mean(figures.hello))} req/s`);
    console.log(`  Haven GET /               ${fmt(mean(figures.haven))} req/s`);
    console.log(`  ratio                     ${fmt(ratio * 100, 1)} %   (budget ≥ 70 %: ${verdict(ratio >= 0.7)})`);
    console.log(
      `  uncompressed, for reference: Haven ${fmt(mean(figures.havenUncompressed))} req/s, bare Express sending the same ${fmt(page.length)} bytes ${fmt(mean(figures.sameBytes))} req/s (${fmt((mean(figures.havenUncompressed) / mean(figures.sameBytes)) * 100, 1)} %: Haven's own work apart from the page's size)`,
    );
    // What a cached page still costs beyond hello-world, kept on purpose: the request log (its id and header; its
    // line is made at the response's end at info, and this bench's logger is silent), the request metrics, the path
    // and language guards, the request id's async context, the Host guard, the security headers (taken from helmet
    // once, set in one step) and the page's own bytes (gzipped once, when the page is cached). What it no longer
    // pays (docs/decisions.md#84): res.send's checks, per-request accessors and locals, the probes' router.
    console.log(
      "  kept per request: request id and log (its line only at info: silent here), metrics, path/language/Host guards, security headers, the page's bytes",
    );
  } finally {
    await close(hello.server);
    await close(bytes.server);
  }
}
