import os from "node:os";
import { performance } from "node:perf_hooks";
import { addDays } from "../src/shared/business-time.js";
import { type BenchApp, fmt, percentile, staffCookie, verdict } from "./support.js";

// Maintenance at scale: expansion of 10,000 schedules for a year (budget ≤ 10 s, aim ≤ 5 s),
// the same expansion again (creates nothing), and the calendar's month API with 10,000 tasks in the month
// (budget ≤ 100 ms). Figures only: nothing here fails. The calendar page's JS is bench/islands.ts's figure
// (/admin/maintenance-schedule against the island budget), measured there once.

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const MONTH_TASKS = Number(process.env.BENCH_MONTH_TASKS ?? 10_000);
const PROPERTIES = 1_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const STAFF = {
  email: "bench-maintenance@haven.test",
  password: "bench-maintenance-password",
  firstName: "Bench",
  lastName: "Planner",
};

/** 1,000 properties and 10,000 schedules through bulk SQL: a realistic mix of recurrences, many started on month ends. */
async function fill(haven: BenchApp, today: string): Promise<void> {
  const db = haven.container.db;
  await db.raw(
    `insert into customers (email, name, subscription_plan) select 'bench-maint' || g || '@example.ca', 'Bench Owner ' || g, 'premium' from generate_series(1, ?::int) g`,
    [PROPERTIES],
  );
  await db.raw(
    `insert into properties (customer_id, address, city, province, postal_code, client_name, client_email, subscription_plan)
     select c.id, c.id || ' Schedule Street', 'Saskatoon', 'SK', 'S7K 1A1', c.name, c.email, 'premium' from customers c where c.email like 'bench-maint%'`,
  );
  // A home-care mix: 1% daily, 10% weekly, 49% monthly, 25% quarterly, 15% annually; every 7th every other
  // period; starts spread over the past year, a third on a month's last day.
  await db.raw(
    `with p as (select array_agg(id) ids from properties where client_email like 'bench-maint%')
     insert into maintenance_schedules (property_id, title, category, priority, recurrence_type, recurrence_interval, start_date, estimated_duration)
     select p.ids[1 + g % ${PROPERTIES}], 'Bench care ' || g, (array['hvac','plumbing','roofing','exterior','safety'])[1 + g % 5], 'medium',
            case when g % 100 = 0 then 'daily' when g % 100 < 11 then 'weekly' when g % 100 < 60 then 'monthly' when g % 100 < 85 then 'quarterly' else 'annually' end,
            1 + (g % 7 = 0)::int,
            case when g % 3 = 0 then (date_trunc('month', ?::date - (g % 12) * interval '1 month') + interval '1 month - 1 day')::date else ?::date - (g % 365) end,
            30 + g % 120
       from generate_series(1, ?::int) g, p`,
    [today, today, SCHEDULES],
  );
  await db.raw("analyze maintenance_schedules");
}

/** 10,000 dated tasks in one month (a month of their own, two years ahead), for the calendar API. */
async function fillMonth(haven: BenchApp, month: string): Promise<void> {
  await haven.container.db.raw(
    `insert into maintenance_tasks (property_id, title, category, priority, status, scheduled_date, scheduled_time, estimated_duration)
     select (select min(id) from properties where client_email like 'bench-maint%') + g % ${PROPERTIES}, 'Month task ' || g, 'other', 'low',
            case when g % 10 = 0 then 'completed' else 'scheduled' end, ?::date + (g % 28), '10:00 AM', 60
       from generate_series(1, ?::int) g`,
    [`${month}-01`, MONTH_TASKS],
  );
  await haven.container.db.raw("analyze maintenance_tasks");
}

async function latency(
  url: string,
  cookie: string,
): Promise<{ p50: number; p95: number; bytes: number; tasks: number }> {
  let bytes = 0;
  let tasks = 0;
  const once = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie, "Accept-Encoding": "gzip" } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    const ms = performance.now() - started;
    bytes = body.length;
    tasks = (JSON.parse(body) as { tasks: unknown[] }).tasks.length;
    return ms;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes, tasks };
}

export async function runMaintenanceBench(haven: BenchApp): Promise<void> {
  const maintenance = haven.container.maintenance;
  const today = maintenance.today();
  await fill(haven, today);
  console.log(
    `\nMaintenance expansion (${fmt(SCHEDULES)} schedules: 1% daily, 10% weekly, 49% monthly, 25% quarterly, 15% annually; one in three started on a month's last day)`,
  );

  let started = performance.now();
  const first = await maintenance.expand({ horizonDays: 365, today });
  const firstSeconds = (performance.now() - started) / 1000;
  console.log(
    `  first run, horizon 365 days    ${fmt(firstSeconds, 2).padStart(7)} s   ${fmt(first.created)} tasks from ${fmt(first.schedules)} schedules, ${fmt(first.created / firstSeconds)} tasks/s   (budget ≤ 10 s, aim ≤ 5 s: ${verdict(firstSeconds <= 10)})`,
  );
  started = performance.now();
  const second = await maintenance.expand({ horizonDays: 365, today });
  const secondSeconds = (performance.now() - started) / 1000;
  console.log(
    `  second run, same horizon       ${fmt(secondSeconds, 3).padStart(7)} s   ${fmt(second.created)} tasks created (${fmt((100 * secondSeconds) / firstSeconds, 1)}% of the first run)`,
  );
  console.log(
    `  (load average: ${os
      .loadavg()
      .map((n) => fmt(n, 1))
      .join(", ")} on ${os.cpus().length} cores; other work on the machine slows every figure)`,
  );
  const duplicates = await haven.container.db.raw(
    "select count(*)::int as n from (select 1 from maintenance_tasks where schedule_id is not null group by schedule_id, scheduled_date having count(*) > 1) d",
  );
  console.log(`  duplicate (schedule, date) tasks: ${duplicates.rows[0].n}`);

  const month = addDays(today, 800).slice(0, 7);
  await fillMonth(haven, month);
  const cookie = await staffCookie(haven, STAFF);
  const grid = `from=${addDays(`${month}-01`, -6)}&to=${addDays(`${month}-01`, 36)}`;
  // The first is what the calendar asks for a month (the budget's figure); the others for reference.
  const rows: [string, string, boolean][] = [
    ["the calendar's month (6-week grid, perDay=3)", `/api/maintenance-calendar?${grid}&perDay=3`, true],
    [
      "a day dialog (one day of ~320 tasks in full)",
      `/api/maintenance-calendar?from=${month}-15&to=${month}-15`,
      false,
    ],
    [`reference: the whole month in full`, `/api/maintenance-calendar?month=${month}`, false],
  ];
  console.log(
    `\nCalendar month API (${fmt(MONTH_TASKS)} tasks in ${month}, a tenth of them completed and left out), ${SAMPLES} sequential requests over HTTP, gzip`,
  );
  for (const [label, path, budgeted] of rows) {
    const r = await latency(`${haven.baseUrl}${path}`, cookie);
    const budget = budgeted ? `   (budget ≤ 100 ms: ${verdict(r.p95 <= 100)})` : "";
    console.log(
      `  ${label.padEnd(48)} p50 ${fmt(r.p50, 1).padStart(6)} ms   p95 ${fmt(r.p95, 1).padStart(6)} ms   ${fmt(r.tasks)} tasks, ${fmt(r.bytes / 1024)} KB JSON${budget}`,
    );
  }
  console.log(
    `  (load average while measuring: ${os
      .loadavg()
      .map((n) => fmt(n, 1))
      .join(", ")} on ${os.cpus().length} cores)`,
  );
}
