import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overallScore, scoreCategories } from "../../src/modules/inspections/scoring.js";
import { subcategoryWeight } from "../../src/modules/inspections/template.js";
import { DEMO_STEPS, DEMO_TOWNS, planProperty, seedDemo } from "../../seeds/demo/index.js";
import { todayIn } from "../../src/shared/business-time.js";
import { period, periodOn } from "../../src/modules/subscriptions/index.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const now = new Date("2026-11-20T15:00:00Z");
let result12: Awaited<ReturnType<typeof seedDemo>>;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.users.create({
    email: "inspector@haven.test",
    password: "correct horse battery",
    firstName: "Ines",
    lastName: "Pector",
  });
});
afterAll(() => ctx.close());

const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number((await ctx.db(table).where(where).count({ n: "*" }))[0]!.n);

describe("seedDemo", () => {
  it("plans the same data from the same seed, and different homes for other indexes", () => {
    expect(planProperty(7, 2026, now, 10)).toEqual(planProperty(7, 2026, now, 10));
    expect(planProperty(8, 2026, now, 10).customer.email).not.toBe(planProperty(7, 2026, now, 10).customer.email);
  });

  it("writes customers, properties, bookings, inspections in every status and payments through the services", async () => {
    const progress: number[] = [];
    const result = await seedDemo(ctx.container, {
      properties: 12,
      batchSize: 5,
      now,
      onProgress: ({ done }) => progress.push(done),
    });
    result12 = result;
    // Batches of 5, 5 and 2, two at a time: progress rises to 12 in three steps.
    expect(progress).toHaveLength(4);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(12);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(result.properties).toBe(12);
    expect(await count("properties")).toBe(12);
    expect(await count("customers")).toBe(12);
    expect(result.bookings).toBe(await count("inspection_bookings"));
    expect(result.bookings).toBeGreaterThanOrEqual(12);

    for (const status of ["completed", "in_progress", "scheduled", "draft"] as const) {
      expect(result.inspections[status], status).toBeGreaterThan(0);
      expect(await count("inspections", { status })).toBe(result.inspections[status]);
    }
    expect(result.payments).toBeGreaterThan(0);
    expect(await count("payments", { status: "succeeded", provider: "demo" })).toBe(result.payments);
    const paidCustomers = await ctx.db("customers").whereNot({ subscription_plan: "free-score" }).count({ n: "*" });
    expect(result.payments).toBe(Number(paidCustomers[0]!.n));

    // Places and names keep their accents; every home is in one of the four towns, spread over 18 months.
    const properties = await ctx.db("properties").select("city", "province", "created_at");
    for (const p of properties) {
      expect(DEMO_TOWNS.map((t) => t.city)).toContain(p.city);
      expect(p.province).toBe("ON");
      expect(now.getTime() - new Date(p.created_at).getTime()).toBeLessThanOrEqual(549 * 86_400_000);
      expect(new Date(p.created_at).getTime()).toBeLessThan(now.getTime());
    }
  });

  it("every paid home has a monthly demo subscription billed since its purchase, and Total Revenue counts each purchase once", async () => {
    // the purchase's payment is linked to its subscription, whose invoices are the revenue.
    const subs = await ctx.db("subscriptions").orderBy("id");
    expect(subs).toHaveLength(result12.payments);
    expect(await count("payments", { status: "succeeded", subscription_id: null })).toBe(0);
    const tz = ctx.env.BUSINESS_TZ;
    const today = todayIn(tz, now);
    for (const s of subs) {
      expect(s.provider).toBe("demo");
      expect(s.property_id).not.toBeNull();
      const anchor = todayIn(tz, s.started_at);
      const invoices = await ctx.db("invoices").where({ subscription_id: s.id }).orderBy("period_start");
      // One invoice per period from the purchase on, by the demo provider's ids and the month-end rule.
      invoices.forEach((invoice, n) => {
        const p = period(anchor, n, tz);
        expect(invoice.provider_invoice_id).toBe(`demo_in_${s.id}_${p.startDate}`);
        expect(invoice.period_start.toISOString()).toBe(p.start.toISOString());
        // The price before tax, Ontario's HST on it, and a number (docs/decisions.md#32, #33).
        expect(invoice.subtotal_cents).toBe(s.monthly_amount_cents);
        expect(invoice.tax_cents).toBe(Math.round(s.monthly_amount_cents * 0.13));
        expect(invoice.amount_cents).toBe(invoice.subtotal_cents + invoice.tax_cents);
        expect(invoice.number).toMatch(/^HAV-\d{4}-\d{6}$/);
      });
      const last = invoices.at(-1)!;
      expect(s.current_period_start.toISOString()).toBe(last.period_start.toISOString());
      if (s.status === "canceled") {
        expect(s.canceled_at.getTime()).toBeLessThanOrEqual(now.getTime());
        expect((await ctx.db("properties").where({ id: s.property_id }).first()).subscription_plan).toBe("free-score");
      } else {
        // Billed up to the period that holds today, and nothing is due yet: a renewal now bills nothing.
        expect(last.period_start.toISOString()).toBe(periodOn(anchor, today, tz).start.toISOString());
        expect(s.current_period_end.getTime()).toBeGreaterThan(now.getTime());
      }
      expect(invoices.filter((i) => i.status !== "paid").map((i) => i.status)).toEqual(
        s.status === "past_due" ? ["open"] : [],
      );
    }
    const byStatus = (status: string) => subs.filter((s) => s.status === status).length;
    expect(byStatus("past_due")).toBe(result12.subscriptions.past_due);
    expect(byStatus("canceled")).toBe(result12.subscriptions.canceled);
    expect(subs.filter((s) => s.status === "active" && s.cancel_at).length).toBe(
      result12.subscriptions.cancel_scheduled,
    );
    const subscriptionInvoices = Number(
      (await ctx.db("invoices").whereNotNull("subscription_id").count({ n: "*" }))[0]!.n,
    );
    expect(result12.subscriptions.invoices).toBe(subscriptionInvoices);
    // The other invoices are the seeded accepted quotes' (docs/decisions.md#43): one each, open, not yet paid.
    const quoteInvoices = await ctx.db("invoices").whereNotNull("quote_request_id");
    expect(quoteInvoices.length).toBe((await count("invoices")) - subscriptionInvoices);
    expect(quoteInvoices.every((i) => i.status === "open")).toBe(true);
    // Nothing counted twice: revenue is the paid invoices (every seeded payment belongs to a subscription).
    // Revenue counts subtotals, net of refunds (docs/decisions.md#34): one demo invoice is partly refunded.
    const paid = Number((await ctx.db("invoices").where({ status: "paid" }).sum({ n: "subtotal_cents" }))[0]!.n);
    const refunds = await ctx.db("refunds");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount_cents: 5000, tax_cents: 575, provider: "demo" });
    const revenue = (paid - (5000 - 575)) / 100;
    expect(await ctx.container.payments.totalRevenue()).toBe(revenue);
    expect((await ctx.container.dashboard.stats()).totalRevenue).toBe(revenue);
    // Numbers are gapless: as many as there are open and paid invoices, each once.
    const numbers = (await ctx.db("invoices").whereNotNull("number").pluck("number")) as string[];
    expect(new Set(numbers).size).toBe(await count("invoices"));
  });

  it("completed inspections are fully scored with the shared scoring, with findings, and their bookings completed", async () => {
    const completed = await ctx.db("inspections").where({ status: "completed" });
    let urgent = 0;
    for (const inspection of completed) {
      const entries = await ctx.db("inspection_entries").where({ inspection_id: inspection.id });
      expect(entries.length).toBeGreaterThan(60);
      for (const e of entries) {
        if (subcategoryWeight(e.category_name, e.subcategory_name) === 0) expect(e.score).toBeNull();
        else expect([10, 7, 4, 1]).toContain(e.score);
      }
      urgent += entries.filter((e) => e.urgent).length;
      const expected = overallScore(
        scoreCategories(
          entries.map((e) => ({ categoryName: e.category_name, subcategoryName: e.subcategory_name, score: e.score })),
        ),
      );
      expect(inspection.overall_score).toBe(expected);
      expect(inspection.completed_at).toBeTruthy();
      expect((await ctx.db("inspection_bookings").where({ id: inspection.booking_id }).first()).status).toBe(
        "completed",
      );
    }
    expect(urgent).toBeGreaterThan(0);
    // Notes with commas, quotes and accents survive the bulk insert.
    const notes = (await ctx.db("inspection_entries").whereNotNull("notes").select("notes")).map(
      (n) => n.notes as string,
    );
    expect(notes.some((n) => n.includes(","))).toBe(true);
    expect(notes.every((n) => n.length > 2 && !n.startsWith("{") && !n.startsWith('"'))).toBe(true);
    const open = await ctx.db("inspections").whereNot({ status: "completed" });
    for (const inspection of open) expect(inspection.overall_score).toBeNull();
    // Scheduled inspections have nothing recorded yet.
    const scheduled = await ctx.db("inspections").where({ status: "scheduled" }).select("id");
    expect(
      await ctx
        .db("inspection_entries")
        .whereIn(
          "inspection_id",
          scheduled.map((s) => s.id),
        )
        .count({ n: "*" }),
    ).toEqual([{ n: 0 }]);
    // The list through the service shows them newest first.
    const { rows, total } = await ctx.container.inspections.list({ limit: 100, offset: 0 });
    expect(total).toBe(completed.length + open.length);
    expect(rows.map((r) => r.createdAt)).toEqual([...rows.map((r) => r.createdAt)].sort().reverse());
  });

  it("a second run adds new homes and changes nothing already there", async () => {
    const before = await ctx.db("inspections").orderBy("id");
    const paymentsBefore = await count("payments");
    const result = await seedDemo(ctx.container, { properties: 4, now });
    expect(result.properties).toBe(4);
    expect(await count("properties")).toBe(16);
    expect(await count("payments")).toBe(paymentsBefore + result.payments);
    expect((await ctx.db("inspections").orderBy("id")).slice(0, before.length)).toEqual(before);
    const emails = (await ctx.db("customers").select("email")).map((c) => c.email);
    expect(new Set(emails).size).toBe(emails.length);
  });

  it("exports its steps so other modules can append theirs", async () => {
    expect(DEMO_STEPS.map((s) => s.name)).toEqual([
      "customers and properties",
      "inspection bookings",
      "inspections",
      "payments",
      "subscriptions",
    ]);
    const seen: number[] = [];
    await seedDemo(ctx.container, {
      properties: 2,
      now,
      steps: [
        ...DEMO_STEPS,
        { name: "probe", run: async (batch) => void seen.push(...batch.inspections.map((i) => i.id)) },
      ],
    });
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe("seedDemo extras: reports, shares, quote requests and maintenance schedules", () => {
  let fresh: TestContext;
  let result: Awaited<ReturnType<typeof seedDemo>>;
  const countIn = async (table: string, where: Record<string, unknown> = {}) =>
    Number((await fresh.db(table).where(where).count({ n: "*" }))[0]!.n);

  beforeAll(async () => {
    fresh = await createTestContext();
    await fresh.container.users.create({
      email: "inspector@haven.test",
      password: "correct horse battery",
      firstName: "Ines",
      lastName: "Pector",
    });
    result = await seedDemo(fresh.container, { properties: 40, now });
  }, 240_000);
  afterAll(() => fresh.close());

  it("shows subscriptions in every state: mostly active, a couple past due, one cancellation scheduled, one canceled", async () => {
    const { active, past_due, cancel_scheduled, canceled } = result.subscriptions;
    expect(past_due).toBe(2);
    expect(cancel_scheduled).toBe(1);
    expect(canceled).toBe(1);
    expect(active).toBeGreaterThan(past_due + cancel_scheduled + canceled);
    expect(await countIn("subscriptions", { status: "past_due" })).toBe(2);
    // The past-due homes' last renewal was declined (their card fails renewals, as 4000 0000 0000 0341 does).
    const pastDue = await fresh.db("subscriptions").where({ status: "past_due" });
    for (const s of pastDue)
      expect(s).toMatchObject({
        card_last4: "0341",
        card_fails_renewals: true,
        last_payment_error: expect.stringMatching(/declined/i),
      });
    // Plan services (docs/decisions.md#26): schedules on every serving subscription's home, none on the canceled one's.
    const withServices = await fresh
      .db("maintenance_schedules")
      .whereNotNull("subscription_id")
      .distinct("subscription_id")
      .pluck("subscription_id");
    const serving = await fresh.db("subscriptions").whereIn("status", ["active", "past_due"]).pluck("id");
    expect([...withServices].sort()).toEqual([...serving].sort());
    // A past-due subscription's future plan visits are held, not deleted.
    const held = await fresh
      .db("maintenance_tasks as t")
      .join("maintenance_schedules as m", "m.id", "t.schedule_id")
      .whereIn(
        "m.subscription_id",
        pastDue.map((s) => s.id),
      )
      .where("t.held", true)
      .count({ n: "*" });
    expect(Number(held[0]!.n)).toBeGreaterThan(0);
  });

  it("generates reports for most completed inspections, with their recommendation tasks", async () => {
    const completed = await countIn("inspections", { status: "completed" });
    const reports = await countIn("reports");
    expect(reports).toBe(result.extras.reports);
    expect(reports).toBeGreaterThanOrEqual(Math.floor(completed * 0.6));
    expect(reports).toBeLessThan(completed);
    const recommendationTasks = Number(
      (await fresh.db("maintenance_tasks").whereNotNull("report_id").count({ n: "*" }))[0]!.n,
    );
    expect(recommendationTasks).toBe(result.extras.recommendationTasks);
    expect(recommendationTasks).toBeGreaterThan(0);
    // Through the service: every report is a snapshot whose recommendation ids are the tasks' ids.
    const { rows } = await fresh.container.reports.list({ limit: 5, offset: 0 });
    for (const report of rows) {
      const ids = ((report.reportData.recommendations ?? []) as { id: number }[]).map((r) => r.id);
      const tasks = await fresh.db("maintenance_tasks").whereIn("id", ids).select("report_id");
      expect(tasks.every((t) => t.report_id === report.id)).toBe(true);
    }
  });

  it("shares some reports, and the clients' answers made quote requests in every status", async () => {
    expect(result.extras.shares).toBeGreaterThanOrEqual(3);
    expect(await countIn("report_shares")).toBe(result.extras.shares);
    expect(await countIn("report_shares", { revoked: false })).toBe(result.extras.shares);
    expect(
      Number((await fresh.db("report_shares").whereNotNull("responded_at").count({ n: "*" }))[0]!.n),
    ).toBeGreaterThan(0);
    expect(Number((await fresh.db("report_shares").whereNull("claimed_at").count({ n: "*" }))[0]!.n)).toBeGreaterThan(
      0,
    );
    const statuses = (await fresh.db("quote_requests").select("status").count({ n: "*" }).groupBy("status")) as {
      status: string;
      n: string | number;
    }[];
    const byStatus = Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]));
    expect(Object.keys(byStatus).length).toBeGreaterThanOrEqual(3);
    for (const status of ["pending", "quoted", "accepted", "declined", "completed"] as const)
      expect(byStatus[status] ?? 0, status).toBe(result.extras.quoteRequests[status]);
    expect(Object.keys(byStatus).sort()).toEqual(["accepted", "completed", "declined", "pending", "quoted"]);
    // Quoted ones carry an amount and staff notes; accepted and completed moved their tasks.
    const quoted = await fresh.container.quotes.list({ limit: 500, offset: 0, status: "quoted" });
    for (const q of quoted.rows) {
      expect(q.quotedAmount).toMatch(/^\$/);
      expect(q.adminNotes).toBeTruthy();
    }
    const accepted = await fresh
      .db("quote_requests as q")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .where("q.status", "accepted")
      .select("t.status");
    expect(accepted.every((t) => t.status === "scheduled")).toBe(true);
    const done = await fresh
      .db("quote_requests as q")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .where("q.status", "completed")
      .select("t.status");
    expect(done.every((t) => t.status === "completed")).toBe(true);
  });

  it("creates schedules expanded into dated tasks this month and next, and schedules a few recommendations", async () => {
    // The extras' own schedules; the subscriptions' plan services are schedules too, counted apart.
    const own = () => fresh.db("maintenance_schedules").whereNull("subscription_id");
    expect(Number((await own().count({ n: "*" }))[0]!.n)).toBe(result.extras.schedules);
    expect(result.extras.schedules).toBeGreaterThanOrEqual(5);
    const titles = (await fresh.db("maintenance_schedules").select("title")).map((s) => s.title as string);
    for (const title of ["Furnace filter replacement", "Gutter cleaning", "Snow removal", "Annual roof check"])
      expect(titles).toContain(title);
    const dated = await fresh
      .db("maintenance_tasks")
      .whereIn("schedule_id", own().select("id"))
      .whereNotNull("scheduled_date")
      .count({ n: "*" });
    expect(Number(dated[0]!.n)).toBe(result.extras.scheduledTasks);
    for (const month of ["2026-11", "2026-12"]) {
      const { total } = await fresh.container.maintenance.listTasks({ limit: 1, offset: 0, month });
      expect(total, month).toBeGreaterThan(0);
    }
    // Recommendations made recurring: the task is scheduled, its schedule has a visit later this month.
    const fromRecommendations = await fresh
      .db("maintenance_schedules")
      .whereNotNull("source_task_id")
      .select("id", "source_task_id");
    expect(fromRecommendations.length).toBeGreaterThanOrEqual(3);
    for (const s of fromRecommendations) {
      expect((await fresh.db("maintenance_tasks").where({ id: s.source_task_id }).first()).status).toBe("scheduled");
      const first = await fresh
        .db("maintenance_tasks")
        .where({ schedule_id: s.id })
        .min({ d: "scheduled_date" })
        .first();
      expect(String(first!.d instanceof Date ? first!.d.toISOString() : first!.d).slice(0, 7)).toBe("2026-11");
    }
    // The calendar of this month shows tasks next to the bookings.
    const calendar = await fresh.container.maintenance.calendar({ month: "2026-11" });
    expect(JSON.parse(calendar.tasksJson).length).toBeGreaterThan(0);
  });

  it("a second run adds its own extras and leaves the first run's alone", async () => {
    const before = {
      reports: await countIn("reports"),
      shares: await countIn("report_shares"),
      quotes: await fresh.db("quote_requests").orderBy("id"),
    };
    const again = await seedDemo(fresh.container, { properties: 6, now });
    expect(await countIn("reports")).toBe(before.reports + again.extras.reports);
    expect(await countIn("report_shares")).toBe(before.shares + again.extras.shares);
    expect((await fresh.db("quote_requests").orderBy("id")).slice(0, before.quotes.length)).toEqual(before.quotes);
  }, 120_000);
});
