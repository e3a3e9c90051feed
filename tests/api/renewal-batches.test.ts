// The demo renewal run in batches (src/modules/subscriptions/renewals.ts, docs/decisions.md#33, #54): each batch takes
// its invoice numbers in one counter update after the batches before it, so the numbers follow the order of issue
// across the whole run; a batch that fails midway (here a row whose invoice Postgres refuses) rolls back whole:
// no number is lost, no period is billed twice, and the next run bills what is left.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RENEWAL_DECLINE } from "../../src/modules/subscriptions/demo-billing.js";
import { ACTION_REQUIRED_REASON } from "../../src/modules/subscriptions/provider-state.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";

const TZ = "America/Toronto";
/** Two batches, the second of 50 (renewals.ts bills a thousand subscriptions a transaction). */
const SUBSCRIPTIONS = 1050;
/** Subscriptions whose cancellation takes effect (g % 200 = 1): they end, billed nothing. */
const ENDING = Math.ceil(SUBSCRIPTIONS / 200);
const AS_OF = new Date("2026-03-20T16:00:00Z");

describe("demo renewal batches", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
    // Anchors over ten days, numbered against the days (the highest ids renew first): id order is not issue order.
    // 1% with a card that fails renewals, 0.5% with a cancellation taking effect.
    await ctx.db.raw(
      `insert into subscriptions (plan_type, provider, provider_subscription_id, checkout_ref, status, monthly_amount_cents,
                                  payer_email, payer_name, started_at, billing_anchor, current_period_start, current_period_end,
                                  minimum_term_ends_at, cancel_at, card_last4, card_fails_renewals)
       select 'basic', 'demo', 'demo_sub_batch_' || g, 'batch_checkout_' || g, 'active', 14900,
              'batch' || g || '@example.com', 'Batch ' || g, a.anchor + time '10:00' at time zone :tz, a.anchor,
              a.anchor at time zone :tz, (a.anchor + interval '1 month') at time zone :tz,
              (a.anchor + interval '3 months') at time zone :tz,
              case when g % 200 = 1 then (a.anchor + interval '1 month') at time zone :tz end,
              case when g % 100 = 3 then '0341' else '4242' end, g % 100 = 3
         from generate_series(1, :n::int) g,
              lateral (select date '2026-02-10' - (g * 10 / :n::int) as anchor) a`,
      { tz: TZ, n: SUBSCRIPTIONS },
    );
  });
  afterAll(() => ctx.close());

  const numbered = async () =>
    (
      await ctx.db.raw(
        `select count(*)::int as n, count(distinct number)::int as distinct_numbers,
                max(substring(number from '[0-9]+$')::int) as highest, count(recorded_late_at)::int as late,
                (select last_number from invoice_number_counters where year = 2026) as counter
           from invoices where number like '%2026%'`,
      )
    ).rows[0];

  it("a batch that fails midway leaves no gap and no double invoice; the next run bills the rest once, in order of issue", async () => {
    // The last subscription to renew (latest anchor, so in the second batch) has a failing card: Postgres refuses its
    // open invoice, inserted with the batch's paid ones.
    const target = (
      await ctx.db.raw(
        "select id from subscriptions where card_fails_renewals order by billing_anchor desc, id desc limit 1",
      )
    ).rows[0].id as number;
    await ctx.db.raw(
      `create function refuse_one_renewal() returns trigger language plpgsql as $$
       begin
         if new.subscription_id = ${Number(target)} and new.billing_reason = 'subscription_cycle' then
           raise exception 'refused for the test';
         end if;
         return new;
       end $$`,
    );
    await ctx.db.raw(
      "create trigger refuse_one_renewal before insert on invoices for each row execute function refuse_one_renewal()",
    );
    await expect(ctx.container.subscriptions.renewDue(AS_OF)).rejects.toThrow(/refused for the test/);

    // The first batch committed, the second rolled back whole: every number taken is on an invoice, no gap.
    const afterFailure = await numbered();
    expect(afterFailure.n).toBeGreaterThan(900);
    expect(afterFailure.n).toBeLessThan(1000);
    expect(afterFailure.distinct_numbers).toBe(afterFailure.n);
    expect(afterFailure.highest).toBe(afterFailure.n);
    expect(Number(afterFailure.counter)).toBe(afterFailure.n);
    const stillDue = await ctx
      .db("subscriptions")
      .where("current_period_end", "<=", AS_OF)
      .whereIn("status", ["active", "past_due"])
      .count({ n: "*" });
    expect(Number(stillDue[0]!.n)).toBe(SUBSCRIPTIONS - 1000);

    await ctx.db.raw("drop trigger refuse_one_renewal on invoices");
    await ctx.db.raw("drop function refuse_one_renewal()");
    const rest = await ctx.container.subscriptions.renewDue(AS_OF);
    expect(rest.billed).toBe(SUBSCRIPTIONS - ENDING - afterFailure.n);

    const all = await numbered();
    // One invoice each but for the subscriptions canceled at their period's end.
    expect(all.n).toBe(SUBSCRIPTIONS - ENDING);
    expect(all.distinct_numbers).toBe(all.n);
    expect(all.highest).toBe(all.n);
    expect(Number(all.counter)).toBe(all.n);
    const twice = await ctx.db.raw(
      "select count(*)::int as n from (select 1 from invoices group by subscription_id, period_start having count(*) > 1) d",
    );
    expect(twice.rows[0].n).toBe(0);
    // In order of issue: a later number is never issued on an earlier day, so none is marked recorded late.
    expect(all.late).toBe(0);
    const outOfOrder = await ctx.db.raw(
      `select count(*)::int as n from (
         select issued_at < lag(issued_at) over (order by substring(number from '[0-9]+$')::int) as back
           from invoices where number is not null) d where back`,
    );
    expect(outOfOrder.rows[0].n).toBe(0);
    // One receipt per paid renewal, none from the batch rolled back, each naming its invoice as stored: the id its PDF
    // link opens and its number. A batch queues each receipt by its invoice's id; the job reads the rest as it sends
    // it (renewal-receipts.ts, docs/decisions.md#82).
    const queued = (
      await ctx.db.raw(
        `select (j.payload->>'invoiceId')::int as id from graphile_worker._private_jobs j
           join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'subscriptions:receipt'`,
      )
    ).rows.map((r: { id: number }) => r.id as number);
    const paid = await ctx
      .db("invoices")
      .where({ status: "paid", billing_reason: "subscription_cycle" })
      .select("id", "number");
    expect(paid.length).toBeGreaterThan(1000);
    expect(queued.sort((a: number, b: number) => a - b)).toEqual(paid.map((i) => i.id as number).sort((a, b) => a - b));
    // What the job sends, read as it runs: a few of them, first, middle and last.
    const receipts = new Map<number, string>();
    for (const invoice of [paid[0]!, paid[Math.floor(paid.length / 2)]!, paid.at(-1)!])
      receipts.set(invoice.id, (await ctx.container.invoiceSide.renewalReceipts.message(invoice.id))!.text);
    for (const [id, text] of receipts) {
      const invoice = paid.find((i) => i.id === id)!;
      expect(text).toContain(invoice.number);
      expect(text).toContain(`/my-home/plan/invoices/${id}/pdf`);
    }
    expect(await ctx.container.subscriptions.renewDue(AS_OF)).toMatchObject({ billed: 0 });
    // A customer erased before the job ran: their placeholder address is never mailed.
    const erased = await ctx.db("invoices").where({ id: paid[0]!.id }).first("subscription_id");
    await ctx.db("subscriptions").where({ id: erased.subscription_id }).update({ payer_email: "erased-1@invalid" });
    expect(await ctx.container.invoiceSide.renewalReceipts.message(paid[0]!.id)).toBeNull();
  });
});

// A batch's special periods (docs/decisions.md#87): a plan change, a failing card and a bank that asks are invoiced in
// the batch's one insert with the plain periods, each as its outcome says, and each failure told once.
describe("a renewal batch's special periods", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
    await ctx.db.raw(
      `insert into subscriptions (plan_type, provider, provider_subscription_id, checkout_ref, status, monthly_amount_cents,
                                  payer_email, payer_name, started_at, billing_anchor, current_period_start, current_period_end,
                                  minimum_term_ends_at, scheduled_plan_type, scheduled_plan_at, card_last4, card_fails_renewals)
       select v.plan, 'demo', 'demo_sub_special_' || v.name, 'special_' || v.name, 'active', v.cents,
              v.name || '@example.com', 'Pat ' || v.name, timestamp '2026-02-10 10:00' at time zone :tz, date '2026-02-10',
              timestamp '2026-02-10' at time zone :tz, timestamp '2026-03-10' at time zone :tz,
              timestamp '2026-05-10' at time zone :tz, v.scheduled,
              case when v.scheduled is not null then timestamp '2026-03-10' at time zone :tz end, v.last4, v.fails
         from (values ('plain', 'basic', 14900, null, '4242', false), ('declines', 'basic', 14900, null, '0341', true),
                      ('asks', 'basic', 14900, null, '3184', false), ('downgrades', 'premium', 79900, 'basic', '4242', false))
              as v(name, plan, cents, scheduled, last4, fails)`,
      { tz: TZ },
    );
  });
  afterAll(() => ctx.close());

  const invoiceOf = async (name: string) =>
    ctx
      .db("invoices as i")
      .join("subscriptions as s", "s.id", "i.subscription_id")
      .where("s.checkout_ref", `special_${name}`)
      .where("i.billing_reason", "subscription_cycle")
      .first("i.*", "s.status as sub_status", "s.last_payment_error", "s.id as sub_id");

  it("stores each as its outcome says, numbered in the batch, and tells each failure once", async () => {
    expect(await ctx.container.subscriptions.renewDue(AS_OF)).toMatchObject({
      billed: 4,
      paid: 2,
      failed: 2,
      planChanges: 1,
    });
    const periodStart = new Date("2026-03-10T04:00:00Z");
    const plain = await invoiceOf("plain");
    expect(plain).toMatchObject({ status: "paid", subtotal_cents: 14900, failure_reason: null, sub_status: "active" });
    expect(plain.paid_at).toEqual(periodStart);
    const downgrades = await invoiceOf("downgrades");
    expect(downgrades).toMatchObject({
      status: "paid",
      subtotal_cents: 14900,
      failure_reason: null,
    });
    expect(downgrades.paid_at).toEqual(periodStart);
    expect((await ctx.db("subscriptions").where({ id: downgrades.sub_id }).first()).plan_type).toBe("basic");
    const declines = await invoiceOf("declines");
    expect(declines).toMatchObject({
      status: "open",
      paid_at: null,
      failure_reason: DEMO_RENEWAL_DECLINE,
      hosted_invoice_url: null,
      attempt_count: 1,
      sub_status: "past_due",
      last_payment_error: DEMO_RENEWAL_DECLINE,
    });
    const asks = await invoiceOf("asks");
    expect(asks).toMatchObject({
      status: "open",
      paid_at: null,
      failure_reason: ACTION_REQUIRED_REASON,
      sub_status: "past_due",
    });
    expect(asks.hosted_invoice_url).toMatch(/\/billing\/[^/]+\/card$/);
    // All four numbered in one counter update, gapless, each taxed in its home's province (Ontario, the business's).
    const all = [plain, downgrades, declines, asks];
    expect(all.map((i) => Number(i.number.match(/[0-9]+$/)[0])).sort()).toEqual([1, 2, 3, 4]);
    for (const invoice of all) expect(invoice).toMatchObject({ tax_cents: 1937, amount_cents: 16837 });

    // Told: a bell for each failure, the decline's e-mail, the bank's page to the one it asks; receipts for the paid two.
    const bells = await ctx.db("notifications").where({ kind: "payment-failed" }).pluck("record_id");
    expect(bells.sort()).toEqual([String(declines.sub_id), String(asks.sub_id)].sort());
    const mails = await queuedMails(ctx);
    expect(mails.filter((m) => /payment failed/.test(m.subject)).map((m) => m.to)).toEqual(["declines@example.com"]);
    const confirm = mails.filter((m) => /confirm your Haven payment/.test(m.subject));
    expect(confirm.map((m) => m.to)).toEqual(["asks@example.com"]);
    expect(confirm[0]!.text).toContain(asks.hosted_invoice_url);
    const receipts = (
      await ctx.db.raw(
        `select (j.payload->>'invoiceId')::int as id from graphile_worker._private_jobs j
           join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'subscriptions:receipt'`,
      )
    ).rows.map((r: { id: number }) => r.id);
    expect(receipts.sort()).toEqual([plain.id, downgrades.id].sort());

    // Again at the same time: nothing billed, nothing told twice.
    expect(await ctx.container.subscriptions.renewDue(AS_OF)).toMatchObject({ billed: 0, failed: 0 });
    expect(await ctx.db("notifications").where({ kind: "payment-failed" }).count({ n: "*" })).toEqual([{ n: 2 }]);
    expect((await queuedMails(ctx)).length).toBe(mails.length);
  });
});
