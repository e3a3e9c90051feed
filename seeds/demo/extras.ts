// After the batches: reports, shares, quote requests and maintenance schedules.
//
// These go through the services' ordinary methods (reports.generate, sharing.share / clientReport / respond,
// quotes.update, maintenance.createSchedule), which open their own transactions and read committed rows:
// so they run once the batches have committed, on this run's homes only (a second run never touches the
// first run's data). Capped per run (DEMO_EXTRAS_CAP), so `--properties 100000` stays practical.
import type { Container } from "../../src/container.js";
import { generateReports } from "./inspections-and-reports.js";
import { makeRecommendationsRecurring, scheduleCare } from "./maintenance.js";
import { type DemoBatch, type DemoExtrasResult, type DemoRun, type SeededHome, emptyExtras } from "./model.js";
import { shareReports } from "./shares-and-quotes.js";

/** A committed batch's homes, for the extras. */
export function seededHomes(batch: DemoBatch): SeededHome[] {
  const completed = new Map<number, number[]>();
  for (const x of batch.inspections)
    if (x.status === "completed") completed.set(x.propertyId, [...(completed.get(x.propertyId) ?? []), x.id]);
  return batch.propertyIds.map((propertyId, i) => ({
    index: batch.planned[i]!.index,
    propertyId,
    clientEmail: batch.planned[i]!.customer.email,
    propertyType: batch.planned[i]!.property.propertyType,
    completedInspectionIds: completed.get(propertyId) ?? [],
  }));
}

/** Reports, shares, client responses, quote moves and maintenance schedules for this run's homes. */
export async function seedDemoExtras(
  container: Container,
  homes: SeededHome[],
  run: Pick<DemoRun, "now" | "seed">,
): Promise<DemoExtrasResult> {
  const result = emptyExtras();
  const ordered = [...homes].sort((a, b) => a.index - b.index);
  const clock = { now: run.now, seed: run.seed, today: container.maintenance.today(run.now) };

  const reports = await generateReports(container, ordered, run.seed);
  result.reports = reports.length;
  result.recommendationTasks = reports.reduce((sum, r) => sum + r.taskIds.length, 0);
  const shared = await shareReports(container, reports, run.seed, result);
  await scheduleCare(container, ordered, clock, result);
  await makeRecommendationsRecurring(container, reports, shared, clock, result);
  return result;
}
