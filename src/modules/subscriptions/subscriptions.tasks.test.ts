// The renewal cron runs after midnight in the business's time zone (docs/decisions.md#24), whatever that zone.
import { describe, expect, it } from "vitest";
import { SUBSCRIPTIONS_CRONTAB } from "./subscriptions.tasks.js";

/** The instants a five-field crontab line (numbers or '*', read in UTC as graphile-worker does) fires in a day. */
function runsOn(day: string, crontab: string): Date[] {
  const [minute, hour] = crontab.split(/\s+/);
  const runs: Date[] = [];
  for (let h = 0; h < 24; h++) {
    if (hour !== "*" && Number(hour) !== h) continue;
    runs.push(new Date(`${day}T${String(h).padStart(2, "0")}:${String(Number(minute)).padStart(2, "0")}:00Z`));
  }
  return runs;
}

/** Local midnight of `day` in `timeZone`, as an instant. */
function midnight(day: string, timeZone: string): Date {
  const guess = new Date(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(guess);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return new Date(guess.getTime() - (local - guess.getTime()));
}

describe("the renewal cron", () => {
  for (const zone of [
    "America/Toronto",
    "America/Vancouver",
    "America/St_Johns",
    "America/Halifax",
    "America/Edmonton",
  ])
    for (const day of ["2027-01-15", "2027-07-15"])
      it(`runs within the hour after midnight in ${zone} (${day})`, () => {
        const start = midnight(day, zone);
        const runs = [
          ...runsOn(day, SUBSCRIPTIONS_CRONTAB),
          ...runsOn(new Date(start.getTime() + 86_400_000).toISOString().slice(0, 10), SUBSCRIPTIONS_CRONTAB),
        ];
        const first = runs.filter((r) => r >= start).sort((a, b) => a.getTime() - b.getTime())[0]!;
        expect(first.getTime() - start.getTime()).toBeLessThan(60 * 60_000);
      });
});
