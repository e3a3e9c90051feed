// The nightly reconciliation (docs/decisions.md#34): one crontab line graphile-worker accepts, once a day, after the
// renewals' hour, in the small hours of every Canadian zone.
import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { SUBSCRIPTIONS_RECONCILE_CRONTAB, SUBSCRIPTIONS_RECONCILE_TASK } from "./reconcile.tasks.js";

describe("subscriptions:reconcile's crontab", () => {
  it("is one daily line for the task, made up within the day when the worker was down", () => {
    const [item] = parseCrontab(SUBSCRIPTIONS_RECONCILE_CRONTAB);
    expect(item!.task).toBe(SUBSCRIPTIONS_RECONCILE_TASK);
    expect(item!.match).toBeTypeOf("function");
    expect(SUBSCRIPTIONS_RECONCILE_CRONTAB).toMatch(/^40 7 \* \* \* subscriptions:reconcile \?fill=1d$/);
    // 07:40 UTC is between 00:40 (Pacific, summer) and 04:10 (Newfoundland, winter): before the day's work.
    for (const [zone, hour] of [
      ["America/Vancouver", [23, 0]],
      ["America/Toronto", [2, 3]],
      ["America/St_Johns", [4, 5]],
    ] as const) {
      const local = Number(
        new Intl.DateTimeFormat("en-CA", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(
          new Date("2027-01-15T07:40:00Z"),
        ),
      );
      expect(hour).toContain(local);
    }
  });
});
