import { randomBytes } from "node:crypto";
import os from "node:os";
import type { WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Logger } from "pino";
import { Outage, retryUntilDone, settledWithin } from "./db/reconnect.js";

/**
 * Worker leases. graphile-worker 0.16 leaves a job locked by a worker that died without stopping (SIGKILL,
 * out of memory, a lost machine) for 4 hours before anyone retries it. Here each worker process holds a
 * Postgres advisory lock on a connection of its own for as long as it lives, and records its graphile-worker
 * ids in `worker_leases` under that lock's key. Every few seconds each worker process tries the other keys:
 * a key it can take belongs to a process that is gone (Postgres dropped the lock with the connection), so
 * it unlocks that process's jobs (`graphile_worker.force_unlock_workers`) and the survivors run them.
 *
 * Proof of life is the connection, not a heartbeat: a busy or stalled event loop (a first PDF on a loaded
 * machine) never makes a live worker look dead. A killed process's connection closes at once; a machine
 * that vanishes is noticed through TCP keepalives within about a minute.
 */
export interface WorkerLeaseOptions {
  databaseUrl: string;
  /** The worker's pool, for the sweeps. */
  pool: pg.Pool;
  /** The events emitter given to graphile-worker's `run`: each `worker:create` records a worker id. */
  events: WorkerEvents;
  log: Logger;
}

export interface WorkerLease {
  /** Who holds this process's leases: `host:pid`. */
  holder: string;
  /** Unlocks the jobs of worker processes that are gone; returns their worker ids. */
  sweep(): Promise<string[]>;
  /** Stops recording these graphile-worker ids (workers of a runner that was replaced). */
  forget(workerIds: string[]): void;
  /** Stops sweeping and gives the leases up; call once the runner has stopped. */
  stop(): Promise<void>;
}

/** How often each worker process looks for jobs left behind. */
export const SWEEP_SECONDS = 5;
/** A job locked by a worker with no lease at all (one that started before leases, or just now) is left this long. */
export const UNLEASED_GRACE_SECONDS = 120;

// A key whose advisory lock can be taken belongs to a session that is gone; the CASE gives the lock straight back.
const TRY_KEYS_SQL =
  "select key::text, case when pg_try_advisory_lock(key) then pg_advisory_unlock(key) else false end as dead from unnest($1::bigint[]) as key";

const UNLEASED_SQL = `select coalesce(array_agg(distinct jobs.locked_by), '{}') as ids from graphile_worker.jobs as jobs
  where jobs.locked_by is not null and jobs.locked_at < now() - make_interval(secs => $1)
    and not exists (select 1 from worker_leases as lease where lease.worker_id = jobs.locked_by)`;

export async function startWorkerLease(options: WorkerLeaseOptions): Promise<WorkerLease> {
  const { pool, log } = options;
  const holder = `${os.hostname()}:${process.pid}`;
  const key = BigInt.asIntN(64, randomBytes(8).readBigUInt64BE()).toString();
  const workerIds = new Set<string>();
  let stopped = false;
  const stopping = new AbortController();
  let lockClient: pg.Client | null = null;
  let sweeping: Promise<string[]> | null = null;
  let sweepFailing = false;
  let reconnecting: Promise<void> | null = null;
  const outage = new Outage(
    log,
    "worker lease connection",
    "worker lease connection lost; taking the lease again (meanwhile other workers may rerun this worker's jobs)",
  );

  const record = (ids: string[]) =>
    pool.query(
      "insert into worker_leases (worker_id, holder, lock_key) select id, $2, $3 from unnest($1::text[]) as id on conflict (worker_id) do update set holder = excluded.holder, lock_key = excluded.lock_key",
      [ids, holder, key],
    );

  /** A new connection holding the lock; a failed attempt closes what it opened. */
  const takeLock = async (): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString: options.databaseUrl,
      keepAlive: true,
      application_name: "haven worker lease",
      connectionTimeoutMillis: 10_000,
    });
    client.on("error", () => undefined);
    try {
      await client.connect();
      // The server notices a machine that vanished (no FIN ever comes) after about a minute, not hours.
      await client.query(
        "set tcp_keepalives_idle = 30; set tcp_keepalives_interval = 10; set tcp_keepalives_count = 3",
      );
      await client.query("select pg_advisory_lock($1::bigint)", [key]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  };

  // The lock lives as long as this connection. Only a connection that holds it is watched: a failed
  // connect() emits 'end' too, and once that started a second retry chain for every failed attempt.
  const hold = (client: pg.Client) => {
    lockClient = client;
    client.once("end", () => {
      if (lockClient === client) lockClient = null;
      if (stopped) return;
      outage.lost();
      reconnect();
    });
  };

  // One loop at a time takes the lock again and re-records, with a jittered backoff between attempts.
  const reconnect = () => {
    reconnecting ??= retryUntilDone(
      async () => {
        if (!lockClient) {
          const client = await takeLock();
          if (stopped) {
            await client.end().catch(() => undefined);
            return;
          }
          hold(client);
        }
        await record([...workerIds]);
      },
      // At most 5 s apart: while the lock is free, other workers may take this worker's jobs for orphans.
      { signal: stopping.signal, capMs: 5000 },
    )
      .then((done) => {
        if (done && !stopped && lockClient) outage.back();
      })
      .finally(() => {
        reconnecting = null;
        // Lost again while the last attempt was finishing: its 'end' found this loop still running.
        if (!stopped && !lockClient) reconnect();
      });
  };

  const sweepOnce = async (): Promise<string[]> => {
    const { rows: leases } = await pool.query<{ lock_key: string }>(
      "select distinct lock_key::text from worker_leases where lock_key <> $1::bigint",
      [key],
    );
    const tried = leases.length
      ? (await pool.query<{ key: string; dead: boolean }>(TRY_KEYS_SQL, [leases.map((l) => l.lock_key)])).rows
      : [];
    const deadKeys = tried.filter((t) => t.dead).map((t) => t.key);
    const { rows: dead } = await pool.query<{ worker_id: string }>(
      "delete from worker_leases where lock_key = any($1::bigint[]) returning worker_id",
      [deadKeys],
    );
    const { rows: unleased } = await pool.query<{ ids: string[] }>(UNLEASED_SQL, [UNLEASED_GRACE_SECONDS]);
    const ids = [...dead.map((r) => r.worker_id), ...(unleased[0]?.ids ?? [])];
    if (!ids.length) return [];
    const { rows } = await pool.query<{ n: number }>(
      "select count(*)::int as n from graphile_worker.jobs where locked_by = any($1::text[])",
      [ids],
    );
    await pool.query("select graphile_worker.force_unlock_workers($1::text[])", [ids]);
    if (rows[0]!.n)
      log.warn(
        { workerIds: ids, jobs: rows[0]!.n },
        "unlocked the jobs of worker processes that are gone; the other workers run them now",
      );
    return ids;
  };
  // One sweep at a time. While the lease is being taken again the database is away: no sweep, no line
  // every 5 s. A failed sweep is logged once until one succeeds; the next one tries again.
  const sweep = (): Promise<string[]> => {
    if (stopped || outage.ongoing) return Promise.resolve([]);
    sweeping ??= sweepOnce()
      .then((ids) => {
        sweepFailing = false;
        return ids;
      })
      .catch((error: unknown) => {
        if (!stopped && !sweepFailing && !outage.ongoing)
          log.warn({ err: error }, "worker lease sweep failed; retrying");
        sweepFailing = true;
        return [] as string[];
      })
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };

  hold(await takeLock());
  options.events.on("worker:create", ({ worker }) => {
    workerIds.add(worker.workerId);
    record([worker.workerId]).catch((error: unknown) => {
      // Recorded with the others once the lease is back.
      if (!outage.ongoing) log.warn({ err: error }, "could not record a worker lease");
    });
  });
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_SECONDS * 1000);
  timer.unref();

  return {
    holder,
    sweep,
    forget(ids) {
      for (const id of ids) workerIds.delete(id);
    },
    async stop() {
      clearInterval(timer);
      stopped = true;
      stopping.abort();
      // Each step is bounded: a database that hangs must not hold up a shutdown.
      await settledWithin(2000, sweeping);
      await settledWithin(2000, reconnecting);
      await settledWithin(2000, pool.query("delete from worker_leases where lock_key = $1::bigint", [key]));
      await settledWithin(2000, lockClient?.end());
    },
  };
}
