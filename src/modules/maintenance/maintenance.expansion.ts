// Expanding schedules into dated tasks up to the horizon (docs/decisions.md#12): the daily task, the CLI
// and a new schedule's first tasks.
import type { TransactionRunner } from "../../db/transaction.js";
import { ValidationError } from "../../http/errors.js";
import { addDays } from "../../shared/business-time.js";
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS } from "./maintenance.schemas.js";
import { occurrencesBetween } from "./recurrence.js";
import type { CreatedOccurrence, ExpandableSchedule, ScheduleRepository } from "./schedules.repository.js";

export interface ExpandOptions {
  horizonDays?: number;
  /** 'YYYY-MM-DD'; today in the business zone by default. */
  today?: string;
  /** Only these schedules (a new schedule is expanded at once). */
  scheduleIds?: number[];
  /** Keep the created tasks in the result (the CLI prints them). */
  collect?: boolean;
  onStart?: (schedules: number) => void;
  onProgress?: (schedulesDone: number, tasksCreated: number) => void;
}

export interface ExpandResult {
  horizonDays: number;
  from: string;
  through: string;
  schedules: number;
  created: number;
  tasks: CreatedOccurrence[];
}

/** Schedules expanded per read; their tasks are written in chunks of INSERT_CHUNK rows. */
const EXPAND_BATCH = 1000;
const INSERT_CHUNK = 20_000;
/** Transactions writing batches at once: Postgres does the per-row work (indexes, FK checks), one backend each. */
const EXPAND_WRITERS = 3;

/** The later of two 'YYYY-MM-DD' dates (they compare as text). */
export const laterDate = (a: string, b: string) => (a.localeCompare(b) >= 0 ? a : b);

/**
 * Expands every schedule into dated tasks from `today` up to the horizon. Safe to repeat and to run
 * concurrently: the unique (schedule, date) key drops what exists already, and a schedule expanded through
 * the horizon is skipped.
 */
export async function expandSchedules(
  schedules: ScheduleRepository,
  transaction: TransactionRunner,
  today: string,
  options: ExpandOptions = {},
): Promise<ExpandResult> {
  const horizonDays = options.horizonDays ?? DEFAULT_HORIZON_DAYS;
  if (!Number.isInteger(horizonDays) || horizonDays < 0 || horizonDays > MAX_HORIZON_DAYS)
    throw new ValidationError(`Horizon must be a whole number of days from 0 to ${MAX_HORIZON_DAYS}`, {
      horizon: `Horizon must be a whole number of days from 0 to ${MAX_HORIZON_DAYS}`,
    });
  const through = addDays(today, horizonDays);
  const total = await schedules.countSchedulesToExpand(through, options.scheduleIds);
  options.onStart?.(total);
  const result: ExpandResult = { horizonDays, from: today, through, schedules: 0, created: 0, tasks: [] };
  // Batches are written by EXPAND_WRITERS transactions at once (Postgres does the work, one backend each)
  // while the next batch is read and computed. Each batch is its own transaction: an interrupted run
  // keeps what it wrote, and the next run carries on.
  const writing = new Set<Promise<void>>();
  const write = (batch: ExpandableSchedule[], allIds: number[], allDates: string[]) =>
    transaction(async (tx) => {
      // A schedule another run holds is that run's to write: waiting on its uncommitted tasks would pass the
      // pool's lock timeout when the workers and the CLI expand at once.
      const mine = await schedules.lockForExpansion(
        batch.map((s) => s.id),
        tx,
      );
      const scheduleIds = allIds.filter((id) => mine.has(id));
      const dates = allDates.filter((_, i) => mine.has(allIds[i]!));
      for (let i = 0; i < scheduleIds.length; i += INSERT_CHUNK) {
        const created = await schedules.insertOccurrences(
          scheduleIds.slice(i, i + INSERT_CHUNK),
          dates.slice(i, i + INSERT_CHUNK),
          tx,
          Boolean(options.collect),
        );
        result.created += created.count;
        if (options.collect) result.tasks.push(...created.rows);
      }
      await schedules.markExpanded([...mine], through, tx);
      result.schedules += mine.size;
      options.onProgress?.(result.schedules, result.created);
    });
  let afterId = 0;
  let failure: unknown = null;
  for (;;) {
    const batch = await schedules.schedulesToExpand(through, afterId, EXPAND_BATCH, options.scheduleIds);
    if (!batch.length) break;
    afterId = batch.at(-1)!.id;
    const scheduleIds: number[] = [];
    const dates: string[] = [];
    for (const schedule of batch) {
      let from = laterDate(schedule.startDate, today);
      if (schedule.expandedThrough && schedule.expandedThrough >= from) from = addDays(schedule.expandedThrough, 1);
      for (const date of occurrencesBetween(schedule, from, through)) {
        scheduleIds.push(schedule.id);
        dates.push(date);
      }
    }
    const job: Promise<void> = write(batch, scheduleIds, dates).then(
      () => void writing.delete(job),
      (error: unknown) => {
        writing.delete(job);
        failure ??= error;
      },
    );
    writing.add(job);
    if (writing.size >= EXPAND_WRITERS) await Promise.race(writing);
    if (failure) break;
  }
  await Promise.all(writing);
  if (failure) throw failure;
  return result;
}
