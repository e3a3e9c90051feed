import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { MAINTENANCE_CRONTAB, MAINTENANCE_EXPAND_TASK, MAINTENANCE_REMINDERS_TASK } from "./maintenance.tasks.js";

describe("the maintenance crontab", () => {
  it("parses as graphile-worker reads it: expansion daily with a 2-day catch-up, reminders hourly", () => {
    const items = parseCrontab(MAINTENANCE_CRONTAB);
    expect(items.map((i) => i.task)).toEqual([MAINTENANCE_EXPAND_TASK, MAINTENANCE_REMINDERS_TASK]);
    expect(items[0]!.match).toBeTypeOf("function");
    expect(items[0]!.options.backfillPeriod).toBe(2 * 24 * 3600 * 1000);
    expect(items[1]!.options.backfillPeriod).toBe(3 * 3600 * 1000);
  });
});
