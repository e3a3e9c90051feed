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
  // The same page's bytes from bare Express: what is left of the gap is Haven's own work per request.
  const page = await (await fetch(`${haven.baseUrl}/`, { headers: { "accept-encoding": "identity" } })).text();
  const sameBytes = express();
  sameBytes.get("/", (_req, res) => {
    res.type("html").send(page);
  });
  const hello = await listen(bare);
  const bytes = await listen(sameBytes);
  try {
    await measure(`${haven.baseUrl}/`, 1);
    await measure(`${hello.baseUrl}/`, 1);
    await measure(`${bytes.baseUrl}/`, 1);
    const havenRuns: number[] = [];
    const helloRuns: number[] = [];
    const bytesRuns: number[] = [];
    // Alternate, so that machine noise hits all alike.
    for (let i = 0; i < 2; i++) {
      helloRuns.push(await measure(`${hello.baseUrl}/`));
      havenRuns.push(await measure(`${haven.baseUrl}/`));
      bytesRuns.push(await measure(`${bytes.baseUrl}/`));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(havenRuns) / mean(helloRuns);
    console.log(
      "\nSSR throughput (autocannon in its own process, %d connections, 2 × %d s each, alternating)",
      CONNECTIONS,
      DURATION_S,
    );
    console.log(`  bare Express hello-world  ${fmt(mean(helloRuns))} req/s`);
    console.log(
      `  bare Express, same bytes  ${fmt(mean(bytesRuns))} req/s   (the page's ${fmt(page.length)} bytes, no middleware)`,
    );
    console.log(`  Haven GET /               ${fmt(mean(havenRuns))} req/s`);
    console.log(`  ratio                     ${fmt(ratio * 100, 1)} %   (budget ≥ 70 %: ${verdict(ratio >= 0.7)})`);
    console.log(
      `  against the same bytes    ${fmt((mean(havenRuns) / mean(bytesRuns)) * 100, 1)} %   (what Haven's middleware costs apart from the page's size)`,
    );
    // What a cached page still costs beyond hello-world, kept on purpose: the request log (one line made at the
    // response's end; no child logger unless a handler logs), the request metrics, the path and language guards,
    // the request id's async context, the Host guard and the security headers (taken from helmet once, set in one
    // step), and the page's own bytes (the "same bytes" line).
    console.log(
      "  kept per request: request log, metrics, path/language/Host guards, request id, security headers, the page's bytes",
    );
  } finally {
    await close(hello.server);
    await close(bytes.server);
  }
}
