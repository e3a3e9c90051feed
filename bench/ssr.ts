import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { type BenchApp, close, fmt, listen, verdict } from "./support.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;
const AUTOCANNON = path.resolve(import.meta.dirname, "../node_modules/.bin/autocannon");

/** Load comes from a separate autocannon process, so it does not share the server's event loop. */
async function measure(url: string, duration = DURATION_S): Promise<number> {
  const { stdout } = await promisify(execFile)(
    AUTOCANNON,
    ["--json", "-c", String(CONNECTIONS), "-d", String(duration), url],
    {
      maxBuffer: 10 * 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.average;
}

/** Throughput of `/` rendered by the layout against a bare Express hello-world, in the same run. */
export async function runSsrBench(haven: BenchApp): Promise<void> {
  const bare = express();
  bare.get("/", (_req, res) => {
    res.send("Hello, world!");
  });
  const hello = await listen(bare);
  try {
    await measure(`${haven.baseUrl}/`, 1);
    await measure(`${hello.baseUrl}/`, 1);
    const havenRuns: number[] = [];
    const helloRuns: number[] = [];
    // Alternate, so that machine noise hits both alike.
    for (let i = 0; i < 2; i++) {
      helloRuns.push(await measure(`${hello.baseUrl}/`));
      havenRuns.push(await measure(`${haven.baseUrl}/`));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(havenRuns) / mean(helloRuns);
    console.log(
      "\nSSR throughput (autocannon in its own process, %d connections, 2 × %d s each, alternating)",
      CONNECTIONS,
      DURATION_S,
    );
    console.log(`  bare Express hello-world  ${fmt(mean(helloRuns))} req/s`);
    console.log(`  Haven GET /               ${fmt(mean(havenRuns))} req/s`);
    console.log(`  ratio                     ${fmt(ratio * 100, 1)} %   (budget ≥ 70 %: ${verdict(ratio >= 0.7)})`);
    // What a cached page still costs beyond hello-world, kept on purpose: the request log (pino-http, its child
    // logger even when silent), the request metrics, the path and language guards, the request id's async context,
    // the Host guard and the security headers (taken from helmet once, set in one step), and the page's own bytes.
    console.log(
      "  kept per request: request log, metrics, path/language/Host guards, request id, security headers, the page's bytes",
    );
  } finally {
    await close(hello.server);
  }
}
