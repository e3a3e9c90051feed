import autocannon from "autocannon";
import express from "express";
import { type BenchApp, close, fmt, listen, verdict } from "./support.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
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
    // Warm both up, then alternate so that machine noise hits both alike.
    await autocannon({ url: `${haven.baseUrl}/`, connections: 2, duration: 1 });
    await autocannon({ url: `${hello.baseUrl}/`, connections: 2, duration: 1 });
    const havenRuns: number[] = [];
    const helloRuns: number[] = [];
    for (let i = 0; i < 2; i++) {
      helloRuns.push(await measure(`${hello.baseUrl}/`));
      havenRuns.push(await measure(`${haven.baseUrl}/`));
    }
    const havenRps = havenRuns.reduce((a, b) => a + b, 0) / havenRuns.length;
    const helloRps = helloRuns.reduce((a, b) => a + b, 0) / helloRuns.length;
    const ratio = havenRps / helloRps;
    console.log("\nSSR throughput (autocannon, %d connections, 2 × %d s each, alternating)", CONNECTIONS, DURATION_S);
    console.log(`  bare Express hello-world  ${fmt(helloRps)} req/s`);
    console.log(`  Haven GET /               ${fmt(havenRps)} req/s`);
    console.log(`  ratio                     ${fmt(ratio * 100, 1)} %   (budget ≥ 50 %: ${verdict(ratio >= 0.5)})`);
  } finally {
    await close(hello.server);
  }
}
