// The load step (docs/architecture.md "Performance budgets", docs/decisions.md#46): 50 concurrent clients for 30 s
// on each of booking, the demo purchase, My Home sign-in and quote payment, against Haven built as boot builds it
// (createAppKnex: DB_POOL_MAX connections with their limits) behind a trusted proxy. Prints each step's throughput,
// p50, p95 and count of 5xx; any 5xx, or a request with no answer, fails the run.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pino from "pino";
import { createApp } from "../src/app.js";
import { createContainer } from "../src/container.js";
import { createAppKnex } from "../src/db/knex.js";
import { TIME_SLOTS, addDays } from "../src/shared/business-time.js";
import type { LoadConfig, LoadResult, Scenario } from "./load-client.js";
import { type BenchApp, close, fmt, listen, percentile, verdict } from "./support.js";

const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_LOAD_DURATION ?? 30);
/** BENCH_LOAD_STEPS=booking,purchase,sign-in,quote-pay picks some. */
const STEPS = process.env.BENCH_LOAD_STEPS?.split(",").map((s) => s.trim());
const P95_BUDGET_MS = 500;
const TSX = path.resolve(import.meta.dirname, "../node_modules/.bin/tsx");
const CLIENT = path.resolve(import.meta.dirname, "load-client.ts");

const BENCH_INSPECTORS = ["Ada", "Ben", "Cy"].map((name) => ({
  email: `load-${name.toLowerCase()}@example.ca`,
  password: "bench-inspector-password",
  firstName: name,
  lastName: "Bench",
  role: "inspector" as const,
}));

/** Runs one scenario in the client's own process. */
async function measure(config: LoadConfig, dir: string): Promise<LoadResult> {
  const file = path.join(dir, `${config.scenario}.json`);
  writeFileSync(file, JSON.stringify(config));
  const { stdout } = await promisify(execFile)(TSX, [CLIENT, file], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as LoadResult;
}

type App = { container: ReturnType<typeof createContainer>; baseUrl: string };

/** Accepted quotes to pay, for `homes` homeowners with `each` quotes: each homeowner's My Home cookie and quote ids. */
async function payers(app: App, homes: number, each: number): Promise<{ cookie: string; quoteIds: number[] }[]> {
  const { container, baseUrl } = app;
  const out = [];
  for (let h = 0; h < homes; h++) {
    const email = `load-payer-${h}-${Date.now().toString(36)}@example.ca`;
    const { property } = await container.customers.createWithProperty(
      { email, name: `Load Payer ${h}`, phone: "613-555-0100", subscriptionPlan: "standard" },
      { address: `${h + 1} Load Lane`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
    );
    const { token } = await container.homeAuth.createSession(email, { method: "link" });
    const cookie = `haven_home=${token}`;
    const quoteIds: number[] = [];
    for (let q = 0; q < each; q++) {
      const [task] = await container
        .db("maintenance_tasks")
        .insert({ property_id: property.id, title: `Load work ${q}`, status: "pending" })
        .returning("id");
      const [quote] = await container
        .db("quote_requests")
        .insert({
          property_id: property.id,
          maintenance_task_id: task.id,
          status: "quoted",
          priority: "high",
          quoted_amount: "$650",
          quoted_cents: 65_000,
          quoted_at: new Date(),
        })
        .returning("id");
      // Accepted as the homeowner accepts it, which makes the invoice.
      const accepted = await fetch(`${baseUrl}/api/my-home/quotes/${quote.id}/accept`, {
        method: "POST",
        headers: { cookie, "sec-fetch-site": "same-origin", "x-forwarded-for": `198.51.100.${1 + (h % 250)}` },
      });
      if (!accepted.ok) throw new Error(`load bench: accepting quote ${quote.id} answered ${accepted.status}`);
      quoteIds.push(quote.id as number);
    }
    out.push({ cookie, quoteIds });
  }
  return out;
}

/** The load step; false when a request got a 5xx or no answer. */
export async function runLoadBench(haven: BenchApp): Promise<boolean> {
  // Haven as boot builds it, behind one trusted proxy hop (production's compose: TRUST_PROXY=1).
  const env = { ...haven.container.env, TRUST_PROXY: "loopback" };
  const url = haven.container.databaseUrl;
  const db = createAppKnex(url, env);
  const container = createContainer(env, url, db, { log: pino({ level: "silent" }) });
  const { server, baseUrl } = await listen(createApp(container));
  const dir = mkdtempSync(path.join(os.tmpdir(), "haven-load-"));
  try {
    for (const inspector of BENCH_INSPECTORS) {
      const { created } = await container.users.ensure(inspector);
      if (created)
        await container.inspectors.setHours(inspector.email, { weekdays: "mon-fri", from: "08:00", to: "17:00" });
    }
    const { minDate } = container.bookings.calendar();
    const standard = await container.plans.get("standard");
    const knownEmails = (await db("customers").orderBy("id").limit(200).pluck("email")) as string[];
    const base = { baseUrl, connections: CONNECTIONS, durationS: DURATION_S };
    const configs: Record<Scenario, LoadConfig> = {
      booking: {
        ...base,
        scenario: "booking",
        dates: [0, 1, 2, 3, 4, 5, 6].map((d) => addDays(minDate, d)),
        slots: [...TIME_SLOTS],
      },
      purchase: { ...base, scenario: "purchase", plan: standard.type, amount: standard.checkoutPrice },
      "sign-in": { ...base, scenario: "sign-in", knownEmails },
      "quote-pay": { ...base, scenario: "quote-pay", payers: await payers({ container, baseUrl }, 25, 8) },
    };
    const labels: Record<Scenario, string> = {
      booking: "booking (the wizard)",
      purchase: "demo purchase (2 calls)",
      "sign-in": "My Home sign-in",
      "quote-pay": "quote payment (demo)",
    };
    console.log(
      `\nLoad: ${CONNECTIONS} concurrent clients, ${DURATION_S} s per step (autocannon in its own process; pool of ${env.DB_POOL_MAX}, lock_timeout ${env.LOCK_TIMEOUT_MS} ms, statement_timeout ${env.STATEMENT_TIMEOUT_MS} ms; load average ${os
        .loadavg()
        .map((l) => fmt(l, 1))
        .join(" / ")} on ${os.cpus().length} cores)`,
    );
    let failed = false;
    for (const scenario of (Object.keys(configs) as Scenario[]).filter((s) => !STEPS || STEPS.includes(s))) {
      // The server's own CPU per answer (this process serves): what a busy machine cannot inflate, unlike the times.
      const cpu = process.cpuUsage();
      const result = await measure(configs[scenario], dir);
      const { user, system } = process.cpuUsage(cpu);
      const cpuMs = (user + system) / 1000 / Math.max(1, result.requests);
      const fivexx = Object.entries(result.statuses)
        .filter(([status]) => Number(status) >= 500)
        .reduce((n, [, count]) => n + count, 0);
      const p50 = result.requests ? percentile(result.latencies, 50) : Number.NaN;
      const p95 = result.requests ? percentile(result.latencies, 95) : Number.NaN;
      const statuses = Object.entries(result.statuses)
        .map(([status, count]) => `${status}: ${fmt(count)}`)
        .join(", ");
      const ok = fivexx === 0 && result.errors === 0 && result.requests > 0;
      failed ||= !ok;
      console.log(
        `  ${labels[scenario].padEnd(24)} ${fmt(result.requests / result.seconds).padStart(6)} req/s   p50 ${fmt(p50).padStart(5)} ms   p95 ${fmt(p95).padStart(5)} ms   5xx ${fmt(fivexx)}   no answer ${fmt(result.errors)}   server CPU ${fmt(cpuMs, 1)} ms/answer   (${statuses})   (budget p95 ≤ ${P95_BUDGET_MS} ms: ${verdict(p95 <= P95_BUDGET_MS)}; 0 × 5xx: ${verdict(ok)})`,
      );
    }
    return !failed;
  } finally {
    await close(server);
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
