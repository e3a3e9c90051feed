import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import { occurrencesBetween } from "../../src/modules/maintenance/index.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { runHavenHere } from "../support/cli.js";

let ctx: TestContext;
// Each run starts a real Node process on a shared, busy machine.
const SLOW = 180_000;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: "https://haven.example" });
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHavenHere(ctx.url, args, { env: { PUBLIC_URL: "https://haven.example" } });

describe("haven maintenance and haven calendar", () => {
  it(
    "--help works on every command",
    async () => {
      for (const args of [
        ["maintenance", "expand"],
        ["calendar", "rotate-feed"],
      ]) {
        const r = await haven([...args, "--help"]);
        expect(r.code, args.join(" ")).toBe(0);
        expect(r.stdout).toContain("Usage: haven");
      }
    },
    SLOW,
  );

  it(
    "maintenance expand creates the tasks up to the horizon, prints them, and a second run creates nothing",
    async () => {
      const { property } = await ctx.container.customers.createWithProperty(
        { email: "cli@example.com", name: "Cli Owner", subscriptionPlan: "standard" },
        { address: "1 Cli Road", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
      );
      const schedule = await ctx.container.maintenance.createSchedule({
        propertyId: property.id,
        title: "Gutter check",
        category: "exterior",
        recurrenceType: "monthly",
        recurrenceInterval: 1,
      });
      const today = ctx.container.maintenance.today();
      const expected = occurrencesBetween(schedule, addDays(today, 91), addDays(today, 200));

      const first = await haven(["maintenance", "expand", "--horizon", "200"]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(
        `Created ${expected.length} task(s) from 1 schedule(s), through ${addDays(today, 200)}.`,
      );
      for (const date of expected)
        expect(first.stdout).toMatch(
          new RegExp(`${date}\\s+task #\\d+\\s+Gutter check \\(schedule #${schedule.id}\\)`),
        );

      const again = await haven(["maintenance", "expand", "--horizon", "200", "--json"]);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({
        horizonDays: 200,
        created: 0,
        schedules: 0,
        through: addDays(today, 200),
        tasks: [],
      });
      const rows = await ctx.db("maintenance_tasks").where({ schedule_id: schedule.id }).count({ n: "*" }).first();
      expect(Number(rows!.n)).toBe(schedule.tasksCreated + expected.length);
    },
    SLOW,
  );

  it(
    "refuses a bad horizon clearly",
    async () => {
      const r = await haven(["maintenance", "expand", "--horizon", "soon"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("Horizon must be a whole number of days");
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    },
    SLOW,
  );

  it(
    "calendar rotate-feed prints a new URL; the old one stops working and only a hash is stored",
    async () => {
      const first = await haven(["calendar", "rotate-feed"]);
      expect(first.code, first.stderr).toBe(0);
      const url1 = /https:\/\/haven\.example\/calendar\/feed\/([A-Za-z0-9_-]+)\.ics/.exec(first.stdout);
      expect(url1).not.toBeNull();
      await ctx.agent().get(`/calendar/feed/${url1![1]}.ics`).expect(200);
      const second = await haven(["calendar", "rotate-feed"]);
      const url2 = /\/calendar\/feed\/([A-Za-z0-9_-]+)\.ics/.exec(second.stdout);
      expect(url2![1]).not.toBe(url1![1]);
      await ctx.agent().get(`/calendar/feed/${url1![1]}.ics`).expect(404);
      const feed = await ctx.agent().get(`/calendar/feed/${url2![1]}.ics`).expect(200);
      expect(feed.text).toContain("BEGIN:VCALENDAR");
      const stored = await ctx.db("calendar_feeds").pluck("secret_hash");
      expect(stored).toHaveLength(1);
      expect(stored[0]).not.toBe(url2![1]);
    },
    SLOW,
  );

  it(
    "maintenance reminders queues tomorrow's reminders once",
    async () => {
      const r = await haven(["maintenance", "reminders"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Queued reminders for \d{4}-\d{2}-\d{2}: \d+ task\(s\), \d+ booking\(s\)\./);
    },
    SLOW,
  );
});
