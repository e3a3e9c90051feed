// Disputes through their close, and quote payments' refunds and disputes (docs/decisions.md#53), with the real SDK
// against the stand-in (tests/support/stripe-stand-in-disputes.ts). Funds withdrawn hold a plan as a failed payment
// does (past due, its visits held, the same words on the billing page) until the dispute is won or the funds come
// back; a lost dispute comes off revenue and its tax is an adjustment of the day it was lost; the bell rings. Each
// event replayed changes nothing. A quote payment is found by the PaymentIntent stored on its invoice, and
// reconciliation finds a quote payment, refund or dispute Haven missed. Disputes exist only at Stripe: the demo
// provider has none.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeClient } from "../../src/modules/payments/index.js";
import { signBillingToken } from "../../src/modules/subscriptions/index.js";
import { suiteToday } from "../support/clock.js";
import type { TestContext } from "../support/context.js";
import { paidQuoteInvoice } from "../support/quote-invoices.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";
import { disputesOf } from "../support/stripe-stand-in-disputes.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";
import { postStripeEvent, closeStripeSite, openStripeSite } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;

let ctx: TestContext;
let stripe: StripeStandIn;

beforeAll(async () => {
  ({ ctx, stripe } = await openStripeSite());
});
afterAll(() => closeStripeSite({ ctx, stripe }));

/** Each event delivered twice, as Stripe retries: the second is a replay (the same event id) and records nothing. */
async function deliver(type: string, object: Obj) {
  const delivery = StripeStandIn.signedEvent(type, structuredClone(object));
  const post = () =>
    ctx
      .agent()
      .post("/api/stripe/webhook")
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", delivery.header)
      .send(delivery.payload)
      .expect(200);
  expect((await post()).body.recorded).toBe(true);
  expect((await post()).body.recorded).toBe(false);
}

/**
 * A Standard plan bought at /pricing (Stripe Checkout, taxed) serving a home (its services scheduled), its paid
 * first invoice and that invoice's PaymentIntent.
 */
async function servingPlan(email: string) {
  const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
  const session = stripe.pay(body.url.split("/pay/")[1] as string, { email, name: "Dana Dispute" });
  await postStripeEvent(ctx, "checkout.session.completed", session).expect(200);
  const stripeId = session.subscription as string;
  const { id } = await ctx.db("subscriptions").where({ provider_subscription_id: stripeId }).first();
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: "Dana Dispute", phone: "613-555-0101", subscriptionPlan: "standard" },
    { address: `${randomBytes(3).toString("hex")} Bank St`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
  );
  await ctx.db("subscriptions").where({ id }).update({ customer_id: customer.id, property_id: property.id });
  await postStripeEvent(ctx, "customer.subscription.updated", stripe.subscription(stripeId)).expect(200);
  const invoice = await ctx.db("invoices").where({ subscription_id: id, status: "paid" }).first();
  expect(invoice.tax_cents).toBeGreaterThan(0);
  return { id: id as number, invoice, intent: moneyOf(stripe).intentOf(invoice.provider_invoice_id), stripeId };
}

const held = async (id: number) =>
  (await ctx.db("maintenance_schedules").where({ subscription_id: id }).whereNull("ended_at")).map((s) => s.held);
const status = async (id: number) => (await ctx.db("subscriptions").where({ id }).first()).status as string;
const revenue = async () => ({
  subscriptions: await ctx.container.subscriptions.paidInvoicesCents(),
  dashboard: (await ctx.container.dashboard.stats(new Date(), { revenue: true })).totalRevenue!,
});
const taxReport = () => ctx.container.invoiceSide.taxReport.report(suiteToday(), suiteToday());

describe("a subscription's dispute through its close", () => {
  it("funds withdrawn hold the plan as a failed payment; lost: revenue and the tax report lowered, the bell rung, once", async () => {
    const plan = await servingPlan("lost.dispute@example.com");
    expect(await held(plan.id)).not.toContain(true);
    expect((await held(plan.id)).length).toBeGreaterThan(0);
    const [revenueBefore, taxBefore] = [await revenue(), await taxReport()];

    const opened = disputesOf(stripe).open(plan.intent, { reason: "product_not_received" });
    await deliver("charge.dispute.created", opened);
    await deliver("charge.dispute.funds_withdrawn", opened);
    expect(await status(plan.id)).toBe("past_due");
    expect(await held(plan.id)).not.toContain(false);
    // The customer reads the failed payment's words, and Stripe's "active" read later keeps it past due.
    const page = await ctx
      .agent()
      .get(`/billing/${signBillingToken(plan.id, ctx.env.SESSION_SECRET)}`)
      .expect(200);
    expect(page.text).toContain("Your last payment failed: Your bank took the payment back (a dispute).");
    expect(page.text).toContain("your plan&#39;s visits are on hold");
    await postStripeEvent(ctx, "customer.subscription.updated", stripe.subscription(plan.stripeId)).expect(200);
    expect(await status(plan.id)).toBe("past_due");

    await deliver("charge.dispute.updated", disputesOf(stripe).update(opened.id as string, "under_review"));
    await deliver("charge.dispute.closed", disputesOf(stripe).close(opened.id as string, "lost"));
    const row = await ctx.db("disputes").where({ provider_dispute_id: opened.id }).first();
    expect(row).toMatchObject({
      status: "lost",
      invoice_id: plan.invoice.id,
      subscription_id: plan.id,
      funds_withdrawn_cents: plan.invoice.amount_cents,
      lost_cents: plan.invoice.amount_cents,
      lost_tax_cents: plan.invoice.tax_cents,
      holds_services: true,
    });
    expect(await status(plan.id)).toBe("past_due");
    // Revenue (before tax) loses the invoice's subtotal; its tax is an adjustment of today, on the GST/HST return.
    const [revenueAfter, taxAfter] = [await revenue(), await taxReport()];
    expect(revenueBefore.subscriptions - revenueAfter.subscriptions).toBe(plan.invoice.subtotal_cents);
    expect(Math.round((revenueBefore.dashboard - revenueAfter.dashboard) * 100)).toBe(plan.invoice.subtotal_cents);
    expect(Math.round((taxAfter.gstHst.adjustments - taxBefore.gstHst.adjustments) * 100)).toBe(plan.invoice.tax_cents);
    expect(Math.round((taxAfter.gstHst.salesRefunded - taxBefore.gstHst.salesRefunded) * 100)).toBe(
      plan.invoice.subtotal_cents,
    );
    expect(taxAfter.qst.adjustments).toBe(taxBefore.qst.adjustments);
    const bell = await ctx
      .db("notifications")
      .where({ kind: "dispute", record_id: String(plan.id) })
      .orderBy("id");
    expect(bell.map((n) => n.text)).toEqual([
      expect.stringContaining("disputed (product_not_received)"),
      expect.stringContaining("dispute lost"),
    ]);
    const events = await ctx.db("subscription_events").where({ subscription_id: plan.id }).orderBy("id");
    const kinds = events.map((e) => e.kind);
    for (const kind of ["disputed", "payment_failed", "dispute_lost"])
      expect(kinds.filter((k) => k === kind)).toHaveLength(1);
  });

  it("won: the funds come back and release the plan, whatever order the events come in; revenue is untouched", async () => {
    const plan = await servingPlan("won.dispute@example.com");
    const before = await revenue();
    const opened = disputesOf(stripe).open(plan.intent);
    await deliver("charge.dispute.funds_withdrawn", opened);
    expect(await status(plan.id)).toBe("past_due");
    const won = disputesOf(stripe).close(opened.id as string, "won");
    // The close comes first, the reinstatement and a late "created" after it: each reads the dispute as it is now.
    await deliver("charge.dispute.closed", won);
    await deliver("charge.dispute.funds_reinstated", won);
    await deliver("charge.dispute.created", opened);
    expect(await status(plan.id)).toBe("active");
    expect(await held(plan.id)).not.toContain(true);
    const row = await ctx.db("disputes").where({ provider_dispute_id: opened.id }).first();
    expect(row).toMatchObject({
      status: "won",
      holds_services: false,
      lost_at: null,
      funds_reinstated_cents: row.amount_cents,
    });
    expect(await revenue()).toEqual(before);
    const kinds = (await ctx.db("subscription_events").where({ subscription_id: plan.id })).map((e) => e.kind);
    expect(kinds.filter((k) => k === "payment_recovered")).toHaveLength(1);
    expect(kinds.filter((k) => k === "dispute_won")).toHaveLength(1);
  });
});

/**
 * An accepted quote ($650 before tax, Ontario) paid by card at Stripe (tests/support/quote-invoices.ts); `missed`:
 * Haven never heard of the payment (neither Stripe's return nor its webhook came), so its invoice is still open.
 */
async function quotePayment(missed = false) {
  const { invoiceId, quoteId } = await paidQuoteInvoice(ctx, { stripe, postalCode: "K1C 1A1", province: "ON" });
  if (missed) await ctx.db("invoices").where({ id: invoiceId }).update({ status: "open", paid_at: null });
  const invoice = await ctx.db("invoices").where({ id: invoiceId }).first();
  const quote = await ctx
    .db("quote_requests as q")
    .join("properties as p", "p.id", "q.property_id")
    .where("q.id", quoteId)
    .first("p.address");
  return { quoteId, address: quote.address as string, intent: invoice.payment_intent_id as string, invoice };
}

describe("quote payments' refunds and disputes", () => {
  const client = () => createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url);

  it("a dashboard refund of a quote payment is recorded on its invoice, once", async () => {
    const quote = await quotePayment();
    expect(quote.invoice.status).toBe("paid");
    const refund = await client().refunds.create({ payment_intent: quote.intent, amount: 10_000 });
    await deliver("charge.refunded", moneyOf(stripe).chargeOf(quote.intent));
    const rows = await ctx.db("refunds").where({ invoice_id: quote.invoice.id });
    expect(rows.map((r) => [r.provider_refund_id, r.amount_cents])).toEqual([[refund.id, 10_000]]);
  });

  it("a lost dispute of a quote payment rings the bell with the quote's page and comes off revenue; nothing is held", async () => {
    const quote = await quotePayment();
    const before = await revenue();
    const opened = disputesOf(stripe).open(quote.intent);
    await deliver("charge.dispute.created", opened);
    await deliver("charge.dispute.closed", disputesOf(stripe).close(opened.id as string, "lost"));
    const row = await ctx.db("disputes").where({ provider_dispute_id: opened.id }).first();
    expect(row).toMatchObject({
      invoice_id: quote.invoice.id,
      subscription_id: null,
      lost_cents: quote.invoice.amount_cents,
      holds_services: false,
    });
    expect(before.dashboard - (await revenue()).dashboard).toBeCloseTo(quote.invoice.subtotal_cents / 100, 2);
    const bell = await ctx.db("notifications").where({ kind: "dispute", record_type: "quote_request" }).orderBy("id");
    expect(bell.map((n) => [n.record_id, n.link])).toEqual([
      [String(quote.quoteId), `/admin/quote-requests?${new URLSearchParams({ q: quote.address })}`],
      [String(quote.quoteId), `/admin/quote-requests?${new URLSearchParams({ q: quote.address })}`],
    ]);
  });

  it("reconciliation finds a quote payment, a quote refund and a dispute Haven missed, and records each once", async () => {
    const unpaid = await quotePayment(true);
    expect(unpaid.invoice.status).toBe("open");
    const refunded = await quotePayment();
    const refund = await client().refunds.create({ payment_intent: refunded.intent, amount: 2_500 });
    const disputed = await quotePayment();
    const opened = disputesOf(stripe).open(disputed.intent);
    const result = await ctx.container.invoiceSide.reconcile.run({ pageSize: 2 });
    const found = result.differences.map((d) => `${d.kind}:${d.id}:${d.repaired}`);
    expect(found).toContain(`quote_payment_missing:${unpaid.intent}:true`);
    expect(found).toContain(`refund_missing:${refund.id}:true`);
    expect(found).toContain(`dispute_missing:${opened.id}:true`);
    expect((await ctx.db("invoices").where({ id: unpaid.invoice.id }).first()).status).toBe("paid");
    expect(await ctx.db("refunds").where({ provider_refund_id: refund.id })).toHaveLength(1);
    expect(
      await ctx.db("disputes").where({ provider_dispute_id: opened.id, invoice_id: disputed.invoice.id }),
    ).toHaveLength(1);
    const again = await ctx.container.invoiceSide.reconcile.run({ pageSize: 2 });
    expect(again.differences.filter((d) => d.kind !== "subscription_only_in_haven")).toEqual([]);
  });
});
