// Total Properties and Total Revenue come from rollup rows that triggers append in each writer's transaction
// (docs/decisions.md#83). The oracle is the SQL the dashboard ran before: after any sequence of writes, by any
// writer, in bulk or one row at a time, committed or rolled back, beside other writers and compactions, the rollup
// equals it.
import fc from "fast-check";
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as migration from "../../migrations/20261220000100_dashboard_rollup.js";
import { createKnex } from "../../src/db/knex.js";
import { COMPACT_AFTER, DashboardRepository } from "../../src/modules/dashboard/dashboard.repository.js";
import { type TestContext, createTestContext } from "../support/context.js";

/** The dashboard's revenue before the rollup: every row read on each call. */
const REVENUE_SQL = `select (select coalesce(sum(coalesce(subtotal_cents, amount_cents)), 0) from payments where status = 'succeeded' and subscription_id is null)
  + (select coalesce(sum(coalesce(subtotal_cents, amount_cents)), 0) from invoices where status = 'paid')
  - (select coalesce(sum(r.amount_cents - r.tax_cents), 0) from refunds r join invoices i on i.id = r.invoice_id where i.status = 'paid')
  - (select coalesce(sum(d.lost_cents - d.lost_tax_cents), 0) from disputes d join invoices i on i.id = d.invoice_id where i.status = 'paid' and d.lost_at is not null) as n`;

let ctx: TestContext;
let repo: DashboardRepository;
let customerId: number;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  repo = new DashboardRepository(ctx.db);
  await ctx.container.plans.seed();
  customerId = (await ctx.db("customers").insert({ email: "rollup@example.ca", name: "Roll Up" }).returning("id"))[0]
    .id;
});
afterAll(() => ctx?.close());

/** What the old SQL counts now. */
async function oracle(db: Knex = ctx.db) {
  const properties = Number((await db.raw("select count(*) as n from properties")).rows[0].n);
  const revenue = Number((await db.raw(REVENUE_SQL)).rows[0].n);
  return { properties, revenue };
}

async function rollup(db: Knex = ctx.db) {
  const figures = await new DashboardRepository(db).rollup(["properties", "revenue"]);
  return { properties: figures.get("properties") ?? 0, revenue: figures.get("revenue") ?? 0 };
}

const deltaRows = async () => Number((await ctx.db.raw("select count(*) as n from rollup_deltas")).rows[0].n);

// ---- writes, as data fast-check can generate and shrink ----
const PAYMENT_STATUS = ["succeeded", "pending", "failed"] as const;
const INVOICE_STATUS = ["paid", "open", "void", "uncollectible"] as const;
const cents = fc.integer({ min: 0, max: 90_000 });
const pick = fc.nat(1000);

const op = fc.oneof(
  fc.record({
    kind: fc.constant("payment" as const),
    rows: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom(...PAYMENT_STATUS),
    sub: fc.boolean(),
    subtotal: fc.option(cents),
    amount: cents,
  }),
  fc.record({
    kind: fc.constant("payment-update" as const),
    pick,
    status: fc.constantFrom(...PAYMENT_STATUS),
    sub: fc.option(fc.boolean()),
    subtotal: fc.option(cents),
  }),
  fc.record({ kind: fc.constant("payment-delete" as const), pick }),
  fc.record({
    kind: fc.constant("invoice" as const),
    rows: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom(...INVOICE_STATUS),
    subtotal: fc.option(cents),
    amount: cents,
  }),
  fc.record({ kind: fc.constant("invoice-status" as const), pick, status: fc.constantFrom(...INVOICE_STATUS) }),
  fc.record({ kind: fc.constant("invoice-amounts" as const), pick, subtotal: fc.option(cents), amount: cents }),
  fc.record({
    kind: fc.constant("invoices-bulk" as const),
    mod: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom(...INVOICE_STATUS),
  }),
  fc.record({ kind: fc.constant("invoice-delete" as const), pick }),
  fc.record({
    kind: fc.constant("refund" as const),
    pick,
    amount: cents,
    tax: fc.integer({ min: 0, max: 9_000 }),
  }),
  fc.record({
    kind: fc.constant("refund-update" as const),
    pick,
    amount: cents,
    tax: fc.integer({ min: 0, max: 9_000 }),
    moveTo: fc.option(pick),
  }),
  fc.record({ kind: fc.constant("refund-delete" as const), pick }),
  fc.record({
    kind: fc.constant("dispute" as const),
    invoice: fc.option(pick),
    lost: fc.boolean(),
    lostCents: cents,
    lostTax: fc.integer({ min: 0, max: 9_000 }),
  }),
  fc.record({ kind: fc.constant("dispute-loss" as const), pick, lost: fc.boolean(), lostCents: cents }),
  fc.record({ kind: fc.constant("dispute-invoice" as const), pick, invoice: fc.option(pick) }),
  fc.record({ kind: fc.constant("dispute-delete" as const), pick }),
  fc.record({ kind: fc.constant("subscription" as const) }),
  fc.record({ kind: fc.constant("subscription-delete" as const), pick }),
  fc.record({ kind: fc.constant("properties" as const), rows: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant("properties-delete" as const), pick, rows: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant("truncate" as const), table: fc.constantFrom("refunds", "disputes", "payments") }),
  fc.record({ kind: fc.constant("compact" as const) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** The id at position `n` (modulo) of a table, or null when it is empty. */
async function nth(db: Knex, table: string, n: number): Promise<number | null> {
  const ids = (await db(table).orderBy("id").pluck("id")) as number[];
  return ids.length === 0 ? null : ids[n % ids.length]!;
}

async function subscription(db: Knex): Promise<number> {
  return (await nth(db, "subscriptions", seq)) ?? newSubscription(db);
}

/** A demo subscription of a new home, written on `db` (a transaction's own connection, when in one). */
async function newSubscription(db: Knex): Promise<number> {
  seq++;
  const [property] = await db("properties")
    .insert({
      customer_id: customerId,
      address: `${seq} Rollup Road`,
      city: "Ottawa",
      postal_code: "K1P 1J1",
      client_name: "Roll Up",
      client_email: "rollup@example.ca",
    })
    .returning("id");
  const started = new Date("2026-03-01T05:00:00Z");
  const [row] = await db("subscriptions")
    .insert({
      customer_id: customerId,
      property_id: property.id,
      plan_type: "basic",
      provider: "demo",
      provider_subscription_id: `sub_rollup_${seq}`,
      status: "active",
      monthly_amount_cents: 79_900,
      started_at: started,
      billing_anchor: "2026-03-01",
      current_period_start: started,
      current_period_end: new Date("2026-04-01T04:00:00Z"),
      minimum_term_ends_at: new Date("2026-06-01T04:00:00Z"),
    })
    .returning("id");
  return row.id as number;
}

async function apply(db: Knex, w: Op): Promise<void> {
  const id = async (table: string, n: number) => nth(db, table, n);
  switch (w.kind) {
    case "payment": {
      const subscriptionId = w.sub ? await subscription(db) : null;
      await db("payments").insert(
        Array.from({ length: w.rows }, () => ({
          provider: "demo",
          provider_id: `pi_rollup_${++seq}`,
          kind: "payment_intent",
          amount_cents: w.amount,
          subtotal_cents: w.subtotal,
          status: w.status,
          subscription_id: subscriptionId,
        })),
      );
      return;
    }
    case "payment-update": {
      const target = await id("payments", w.pick);
      if (target === null) return;
      const change: Record<string, unknown> = { status: w.status, subtotal_cents: w.subtotal };
      if (w.sub !== null) change.subscription_id = w.sub ? await subscription(db) : null;
      await db("payments").where({ id: target }).update(change);
      return;
    }
    case "payment-delete":
      await db("payments")
        .where({ id: await id("payments", w.pick) })
        .del();
      return;
    case "invoice": {
      const subscriptionId = await subscription(db);
      await db("invoices").insert(
        Array.from({ length: w.rows }, () => ({
          subscription_id: subscriptionId,
          provider: "demo",
          provider_invoice_id: `in_rollup_${++seq}`,
          amount_cents: w.amount,
          subtotal_cents: w.subtotal,
          period_start: new Date("2026-03-01T05:00:00Z"),
          period_end: new Date("2026-04-01T04:00:00Z"),
          status: w.status,
        })),
      );
      return;
    }
    case "invoice-status":
      await db("invoices")
        .where({ id: await id("invoices", w.pick) })
        .update({ status: w.status });
      return;
    case "invoice-amounts":
      await db("invoices")
        .where({ id: await id("invoices", w.pick) })
        .update({ subtotal_cents: w.subtotal, amount_cents: w.amount });
      return;
    case "invoices-bulk":
      await db.raw("update invoices set status = ? where id % ? = 0", [w.status, w.mod]);
      return;
    case "invoice-delete":
      await db("invoices")
        .where({ id: await id("invoices", w.pick) })
        .del();
      return;
    case "refund": {
      const invoiceId = await id("invoices", w.pick);
      if (invoiceId === null) return;
      await db("refunds").insert({
        invoice_id: invoiceId,
        provider: "demo",
        provider_refund_id: `re_rollup_${++seq}`,
        amount_cents: w.amount,
        tax_cents: w.tax,
        actor: "rollup test",
      });
      return;
    }
    case "refund-update": {
      const target = await id("refunds", w.pick);
      if (target === null) return;
      const moveTo = w.moveTo === null ? null : await id("invoices", w.moveTo);
      await db("refunds")
        .where({ id: target })
        .update({ amount_cents: w.amount, tax_cents: w.tax, ...(moveTo !== null && { invoice_id: moveTo }) });
      return;
    }
    case "refund-delete":
      await db("refunds")
        .where({ id: await id("refunds", w.pick) })
        .del();
      return;
    case "dispute":
      await db("disputes").insert({
        invoice_id: w.invoice === null ? null : await id("invoices", w.invoice),
        provider_dispute_id: `dp_rollup_${++seq}`,
        amount_cents: w.lostCents,
        status: w.lost ? "lost" : "needs_response",
        lost_at: w.lost ? new Date() : null,
        lost_cents: w.lostCents,
        lost_tax_cents: w.lostTax,
      });
      return;
    case "dispute-loss":
      await db("disputes")
        .where({ id: await id("disputes", w.pick) })
        .update({ lost_at: w.lost ? new Date() : null, lost_cents: w.lostCents });
      return;
    case "dispute-invoice":
      await db("disputes")
        .where({ id: await id("disputes", w.pick) })
        .update({ invoice_id: w.invoice === null ? null : await id("invoices", w.invoice) });
      return;
    case "dispute-delete":
      await db("disputes")
        .where({ id: await id("disputes", w.pick) })
        .del();
      return;
    case "subscription":
      await newSubscription(db);
      return;
    case "subscription-delete":
      // Its invoices go (and their refunds); its payments become one-time payments (set null).
      await db("subscriptions")
        .where({ id: await id("subscriptions", w.pick) })
        .del();
      return;
    case "properties":
      await db.raw(
        `insert into properties (customer_id, address, city, postal_code, client_name, client_email)
         select ?, g || ' Bulk Street', 'Ottawa', 'K1P 1J1', 'Bulk', 'bulk@example.ca' from generate_series(1, ?::int) g`,
        [customerId, w.rows],
      );
      return;
    case "properties-delete":
      // Homes without a subscription (a subscription's home is kept: its row says which home it serves).
      await db.raw(
        `delete from properties where id in (select id from properties p
           where not exists (select 1 from subscriptions s where s.property_id = p.id) order by id offset ? limit ?)`,
        [w.pick % 7, w.rows],
      );
      return;
    case "truncate":
      await db.raw(`truncate ${w.table} cascade`);
      return;
    case "compact":
      await new DashboardRepository(db).compact();
      return;
  }
}

describe("the dashboard's rollup (Total Properties, Total Revenue)", () => {
  it("equals the old SQL after any sequence of writes, one at a time, in bulk, or rolled back", async () => {
    // What the runs counted on the way (a run may end on a truncate, so the last state proves nothing).
    const seen = { revenue: false, properties: false };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), fc.boolean(), async (ops, rollBack) => {
        for (const w of ops) {
          await apply(ctx.db, w);
          const truth = await oracle();
          expect(await rollup()).toEqual(truth);
          seen.revenue ||= truth.revenue !== 0;
          seen.properties ||= truth.properties > 0;
        }
        // The same writes in one transaction: counted as they happen inside it, and not at all when it rolls back.
        const before = await rollup();
        await ctx.db
          .transaction(async (tx) => {
            for (const w of ops) {
              await apply(tx, w);
              expect(await rollup(tx)).toEqual(await oracle(tx));
            }
            if (rollBack) throw new Error("rolled back");
          })
          .catch((error: Error) => {
            if (error.message !== "rolled back") throw error;
          });
        if (rollBack) expect(await rollup()).toEqual(before);
        expect(await rollup()).toEqual(await oracle());
      }),
      // A fixed seed, as the fuzz tests have: the same 40 sequences every run.
      { numRuns: 40, seed: 20261129 },
    );
    expect(seen, "the runs made revenue and homes to count").toEqual({ revenue: true, properties: true });
  });

  it("a bulk insert appends one delta row, not one per row", async () => {
    const before = await deltaRows();
    await apply(ctx.db, { kind: "properties", rows: 500 });
    expect(await deltaRows()).toBe(before + 1);
    expect(await rollup()).toEqual(await oracle());
  });

  it("writers wait on no counter: one writes while another's write is uncommitted, and a compaction runs beside both", async () => {
    const open = await ctx.db.transaction();
    try {
      await apply(open, { kind: "payment", rows: 1, status: "succeeded", sub: false, subtotal: null, amount: 12_345 });
      const other = createKnex(ctx.url, { min: 0, max: 1 });
      try {
        // Any wait for the open transaction's lock would fail at once.
        await other.raw("set lock_timeout = '200ms'");
        await apply(other, { kind: "payment", rows: 1, status: "succeeded", sub: false, subtotal: 500, amount: 900 });
        await new DashboardRepository(other).compact();
        expect(await rollup(other)).toEqual(await oracle(other));
      } finally {
        await other.destroy();
      }
      await open.commit();
    } catch (error) {
      await open.rollback();
      throw error;
    }
    expect(await rollup()).toEqual(await oracle());
  });

  it("stays exact under concurrent writers and compactions on many connections", async () => {
    const pool = createKnex(ctx.url, { min: 0, max: 12 });
    try {
      const writes: Op[] = [];
      for (let i = 0; i < 60; i++) {
        writes.push(
          [
            { kind: "payment", rows: 1, status: "succeeded", sub: false, subtotal: null, amount: 100 + i } as const,
            { kind: "refund", pick: i, amount: 300 + i, tax: 39 } as const,
            { kind: "invoice-status", pick: i, status: i % 2 ? "paid" : "void" } as const,
            { kind: "dispute-loss", pick: i, lost: i % 3 === 0, lostCents: 700 } as const,
            { kind: "compact" } as const,
          ][i % 5]!,
        );
      }
      // Each write in its own transaction, many at a time; a deadlock between two writers is Postgres's to break,
      // and is retried like any writer would.
      const once = async (w: Op) => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await pool.transaction((tx) => apply(tx, w));
          } catch (error) {
            if ((error as { code?: string }).code !== "40P01" || attempt > 3) throw error;
          }
        }
      };
      await Promise.all(writes.map(once));
      expect(await rollup()).toEqual(await oracle());
    } finally {
      await pool.destroy();
    }
  });

  it("a read folds the delta rows once they pass COMPACT_AFTER, and the figures stay", async () => {
    for (let i = 0; i <= COMPACT_AFTER; i++)
      await ctx.db("payments").insert({
        provider: "demo",
        provider_id: `pi_fold_${i}`,
        kind: "payment_intent",
        amount_cents: 100,
        status: "succeeded",
      });
    expect(await deltaRows()).toBeGreaterThan(COMPACT_AFTER);
    const stats = await repo.stats({ from: new Date(0), to: new Date() });
    expect(await deltaRows()).toBeLessThanOrEqual(2);
    const figures = await oracle();
    expect({ properties: stats.totalProperties, revenue: stats.revenueCents }).toEqual(figures);
    // The office's read sums no revenue (docs/decisions.md#36), and still folds the rows.
    expect((await repo.stats({ from: new Date(0), to: new Date() }, undefined, false)).revenueCents).toBeNull();
  });

  it("the migration builds the rollup exact from the rows already there, refunds and lost disputes on their invoices", async () => {
    await ctx.db.transaction((tx) => migration.down(tx));
    // Rows written while no trigger counts them.
    await apply(ctx.db, { kind: "invoice", rows: 3, status: "paid", subtotal: 10_000, amount: 11_300 });
    await apply(ctx.db, { kind: "refund", pick: 0, amount: 2_260, tax: 260 });
    await apply(ctx.db, { kind: "dispute", invoice: 1, lost: true, lostCents: 5_650, lostTax: 650 });
    await apply(ctx.db, { kind: "properties", rows: 3 });
    await ctx.db.transaction((tx) => migration.up(tx));
    expect(await rollup()).toEqual(await oracle());
    const returned = await ctx.db.raw(
      `select count(*) as n from invoices i
        where revenue_returned_cents <> (select coalesce(sum(amount_cents - tax_cents), 0) from refunds where invoice_id = i.id)
                                      + (select coalesce(sum(lost_cents - lost_tax_cents), 0) from disputes where invoice_id = i.id and lost_at is not null)`,
    );
    expect(Number(returned.rows[0].n)).toBe(0);
    await apply(ctx.db, { kind: "invoice-status", pick: 0, status: "void" });
    expect(await rollup()).toEqual(await oracle());
  });
});
