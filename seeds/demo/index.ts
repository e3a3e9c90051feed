// Demo data for a living portal: customers, properties, bookings, inspections in every status, payments and
// the monthly subscriptions they bought, spread over the last 18 months, in one city and three nearby towns.
// Everything is written through the services' batch methods, so the rules hold (entries checked against the
// template, completed inspections fully scored with the shared scoring, their bookings marked completed); the
// subscriptions and their invoices in bulk SQL by the demo provider's rules.
//
// Deterministic: each property's data comes from a PRNG seeded by (seed, its index), so the same database
// and the same options give the same data. A run appends: indexes start after the properties already there,
// so a second run adds new, different homes and never collides (payment ids are unique per index).
//
// Built as a list of steps run per batch of ~1,000 properties, each batch in one transaction; a step sees what
// earlier steps made. Then `seedDemoExtras` adds, through the services and capped per run (DEMO_EXTRAS_CAP):
// reports for ~80% of the completed inspections, shares with client answers (quote requests in every
// status) and recurring maintenance schedules, some made from recommendations.
//
// One file per kind of data: people-and-homes, bookings, inspections-and-reports, subscriptions (with the
// payments), shares-and-quotes, maintenance; extras runs the after-batch part.
import type { Container } from "../../src/container.js";
import type { InspectionStatus } from "../../src/modules/inspections/inspections.schemas.js";
import { bookingsStep } from "./bookings.js";
import { seedDemoExtras, seededHomes } from "./extras.js";
import { inspectionsStep } from "./inspections-and-reports.js";
import { ensureDemoInspectors } from "./inspectors.js";
import {
  type DemoBatch,
  type DemoExtrasResult,
  type DemoRun,
  type DemoStep,
  type DemoSubscriptionKind,
  type SeededHome,
  emptyExtras,
  noSubscriptions,
} from "./model.js";
import { customersStep, planProperty } from "./people-and-homes.js";
import { paymentsStep, subscriptionsStep } from "./subscriptions.js";

export type { DemoExtrasResult, DemoStep, DemoSubscriptionKind } from "./model.js";
export { planProperty } from "./people-and-homes.js";
export { DEMO_TOWNS } from "./places.js";

/** The steps, in order. Other modules append theirs (reports, shares, quotes, maintenance). */
export const DEMO_STEPS: DemoStep[] = [customersStep, bookingsStep, inspectionsStep, paymentsStep, subscriptionsStep];

export interface SeedDemoOptions {
  /** How many properties to add (default 40). */
  properties?: number;
  /** Properties per transaction (default 1,000). */
  batchSize?: number;
  /** PRNG seed (default 2026). */
  seed?: number;
  /** "Now" for the 18-month spread (default: the clock); fixed in tests for the same data every time. */
  now?: Date;
  onProgress?: (progress: { done: number; total: number }) => void;
  steps?: DemoStep[];
  /** Reports, shares, quote requests and schedules after the batches (default true). */
  extras?: boolean;
  /** Batches written at the same time, each in its own transaction (default 2). */
  concurrency?: number;
  /**
   * Three demo inspectors with hours, and the bookings given to them after the batches (docs/decisions.md#37).
   * `npm start`'s first run and `haven demo seed` ask for them; left out by default, so the wizard takes any time.
   */
  inspectors?: boolean;
}

export interface SeedDemoResult {
  properties: number;
  customers: number;
  bookings: number;
  inspections: Record<InspectionStatus, number>;
  payments: number;
  /** Demo subscriptions by state, and their invoices. */
  subscriptions: Record<DemoSubscriptionKind, number> & { invoices: number };
  extras: DemoExtrasResult;
  /** Bookings given to an inspector after the batches; the rest fit nobody's hours and stay unassigned. */
  assignedBookings: number;
}

/** Adds a committed batch's counts to the run's. */
function addBatch(result: SeedDemoResult, batch: DemoBatch) {
  result.properties += batch.propertyIds.length;
  result.customers += batch.customerIds.length;
  result.bookings += batch.bookingIds.reduce((sum, ids) => sum + ids.length, 0);
  for (const i of batch.inspections) result.inspections[i.status]++;
  result.payments += batch.payments;
  for (const [kind, n] of Object.entries(batch.subscriptions)) result.subscriptions[kind as DemoSubscriptionKind] += n;
  result.subscriptions.invoices += batch.invoices;
}

/** Adds demo data through the services, in batches of one transaction each. */
export async function seedDemo(container: Container, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const total = options.properties ?? 40;
  if (!Number.isInteger(total) || total < 0) throw new Error("properties must be a whole number of 0 or more");
  const batchSize = options.batchSize ?? 1000;
  const seed = options.seed ?? 2026;
  const now = options.now ?? new Date();
  const steps = options.steps ?? DEMO_STEPS;
  // Payments need the plans' prices.
  await container.plans.seed();
  if (options.inspectors) await ensureDemoInspectors(container);
  const users = await container.users.list();
  const run: DemoRun = { container, now, seed, inspectorIds: users.filter((u) => !u.disabled).map((u) => u.id) };
  // Indexes continue after the homes already there, so a second run adds new ones.
  const [{ count }] = (await container.db("properties").count({ count: "*" })) as [{ count: number | string }];
  const start = Number(count);

  const result: SeedDemoResult = {
    properties: 0,
    customers: 0,
    bookings: 0,
    inspections: { scheduled: 0, in_progress: 0, completed: 0, draft: 0 },
    payments: 0,
    subscriptions: { ...noSubscriptions(), invoices: 0 },
    extras: emptyExtras(),
    assignedBookings: 0,
  };
  const homes: SeededHome[] = [];
  options.onProgress?.({ done: 0, total });
  // Two batches at a time: one plans and scores in Node while Postgres writes the other. Each property's data
  // depends only on its index, so the data is the same whichever batch commits first.
  const offsets = Array.from({ length: Math.ceil(total / batchSize) }, (_, k) => k * batchSize);
  let done = 0;
  const worker = async () => {
    for (let offset = offsets.shift(); offset !== undefined; offset = offsets.shift()) {
      const size = Math.min(batchSize, total - offset);
      const planned = Array.from({ length: size }, (_, k) => planProperty(start + offset + k, seed, now, offset + k));
      await container.transaction(async (tx) => {
        const batch: DemoBatch = {
          tx,
          planned,
          customerIds: [],
          propertyIds: [],
          bookingIds: [],
          inspections: [],
          payments: 0,
          subscriptions: noSubscriptions(),
          invoices: 0,
        };
        for (const step of steps) await step.run(batch, run);
        addBatch(result, batch);
        homes.push(...seededHomes(batch));
      });
      done += size;
      options.onProgress?.({ done, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, offsets.length) }, worker));
  // Bookings are written without an inspector (batches run side by side); one pass gives them out after.
  if (options.inspectors) {
    result.assignedBookings = (await container.bookings.assignOpenBookings()).assigned;
    // An inspection is done by its booking's inspector, once the booking has one (docs/decisions.md#37).
    await container.db.raw(
      `update inspections i set inspector_id = b.inspector_id from inspection_bookings b
        where i.booking_id = b.id and b.inspector_id is not null and i.inspector_id is distinct from b.inspector_id`,
    );
  }
  if (options.extras !== false) result.extras = await seedDemoExtras(container, homes, run);
  return result;
}
