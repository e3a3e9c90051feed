import type { RequestHandler } from "express";
import type { Knex } from "knex";
import type pg from "pg";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

// Prometheus metrics (prom-client). Counters live for the process; the gauges of a database (jobs, pool)
// are read when /metrics is scraped, from the sources of the app or worker that serves it.

/** The process-wide registry: request durations, e-mails, and Node's own figures (memory, event loop, GC). */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

const httpDuration = new Histogram({
  name: "haven_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const mailSent = new Counter({
  name: "haven_mail_sent_total",
  help: "E-mails handed to the SMTP server (smtp) or written to the outbox folder (outbox)",
  labelNames: ["transport"] as const,
  registers: [processRegistry],
});
const mailFailed = new Counter({
  name: "haven_mail_failed_total",
  help: "E-mails that could not be sent (graphile-worker retries them)",
  labelNames: ["transport"] as const,
  registers: [processRegistry],
});

export type MailTransport = "smtp" | "outbox";
export const countMailSent = (transport: MailTransport) => mailSent.inc({ transport });
export const countMailFailed = (transport: MailTransport) => mailFailed.inc({ transport });

/**
 * The route a request matched, as its pattern (`/api/reports/:id`), never the raw URL with its ids and
 * tokens; "unmatched" when no route answered (404s, static files, cached pages).
 */
export function routeLabel(req: { baseUrl?: string; route?: { path?: unknown } }): string {
  const path = req.route?.path;
  if (path === undefined) return "unmatched";
  const pattern = Array.isArray(path) ? path.join("|") : String(path);
  return `${req.baseUrl ?? ""}${pattern}` || "/";
}

const ROUTE = Symbol("route");
const ROUTE_LABEL = Symbol("route label");
type Labelled = { baseUrl?: string; [ROUTE]?: unknown; [ROUTE_LABEL]?: string };
/** Express's request prototypes whose `route` names the request's route label when the router sets it. */
const labelling = new WeakSet<object>();

/**
 * `req.route` as an accessor of the app's request prototype, set up once: the route is named when the router
 * assigns it, while req.baseUrl is still its mount path ("/api"), which is gone by the time an error has bubbled
 * up to the app's error handler. Once per prototype rather than per request: a cached page's cost (bench/ssr.ts).
 */
function labelRoutes(proto: object): void {
  if (labelling.has(proto)) return;
  labelling.add(proto);
  Object.defineProperty(proto, "route", {
    configurable: true,
    enumerable: true,
    get(this: Labelled) {
      return this[ROUTE];
    },
    set(this: Labelled, value: unknown) {
      this[ROUTE] = value;
      this[ROUTE_LABEL] = routeLabel({ baseUrl: this.baseUrl, route: value as { path?: unknown } });
    },
  });
}

/** Times every request from arrival to the end of its response (or the client leaving). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    labelRoutes(Object.getPrototypeOf(req) as object);
    const end = httpDuration.startTimer();
    res.once("close", () =>
      end({
        method: req.method,
        route: (req as Labelled)[ROUTE_LABEL] ?? "unmatched",
        status: String(res.statusCode),
      }),
    );
    next();
  };
}

export interface MetricsSources {
  db: Knex;
  /** The worker's own pg pool, when this process runs the worker. */
  workerPool?: () => pg.Pool | null;
  /** Where a failed job count comes from fails (the database is down): said once per scrape, at debug. */
  onError?: (error: unknown) => void;
}

interface JobCounts {
  queued: number;
  running: number;
  failed: number;
}

// graphile-worker 0.16 keeps jobs in graphile_worker._private_jobs: a locked job runs now; a job out of
// attempts has failed for good; the rest are due now (queued) or later (scheduled, e.g. a retry's backoff).
const JOB_COUNTS_SQL = `
  select
    count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now()) as queued,
    count(*) filter (where locked_at is not null) as running,
    count(*) filter (where locked_at is null and attempts >= max_attempts) as failed
  from graphile_worker._private_jobs`;

const JOB_COUNTS_TIMEOUT_MS = 1000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Counts the job queue by state. */
export async function jobCounts(db: Knex): Promise<JobCounts> {
  const { rows } = await db.raw(JOB_COUNTS_SQL);
  const row = rows[0] as Record<keyof JobCounts, number | string>;
  return { queued: Number(row.queued), running: Number(row.running), failed: Number(row.failed) };
}

/** A registry of the gauges read from one database's job queue and pools when scraped. */
function sourceRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  // The pool first: it is read before the job count below takes a connection of its own.
  new Gauge({
    name: "haven_db_pool_connections",
    help: "Database pool connections: in_use (checked out), idle, waiting (requests waiting for one)",
    labelNames: ["pool", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const knexPool = (sources.db.client as { pool?: TarnPool }).pool;
      if (knexPool) {
        this.set({ pool: "app", state: "in_use" }, knexPool.numUsed());
        this.set({ pool: "app", state: "idle" }, knexPool.numFree());
        this.set({ pool: "app", state: "waiting" }, knexPool.numPendingAcquires());
      }
      const workerPool = sources.workerPool?.();
      if (workerPool) {
        this.set({ pool: "worker", state: "in_use" }, workerPool.totalCount - workerPool.idleCount);
        this.set({ pool: "worker", state: "idle" }, workerPool.idleCount);
        this.set({ pool: "worker", state: "waiting" }, workerPool.waitingCount);
      }
    },
  });
  new Gauge({
    name: "haven_jobs",
    help: "Background jobs by state: queued (due, waiting for a worker), running (locked by a worker), failed (out of attempts)",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        // A saturated pool or a database that hangs must not hang the scrape: that is when it matters most.
        const counts = await withTimeout(jobCounts(sources.db), JOB_COUNTS_TIMEOUT_MS);
        for (const [state, value] of Object.entries(counts)) this.set({ state }, value);
      } catch (error) {
        // The scrape still answers, without job figures.
        sources.onError?.(error);
      }
    },
  });
  return registry;
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** Builds the scrape for one app or worker: the process registry plus its database's gauges. */
export function metricsScrape(sources: MetricsSources): () => Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([processRegistry, sourceRegistry(sources)]);
  return async () => ({ contentType: merged.contentType, body: await merged.metrics() });
}
