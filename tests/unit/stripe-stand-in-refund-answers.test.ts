// The stand-in against Stripe's reference for what refunds that cannot be lost or doubled rely on
// (src/modules/invoices/refund-stripe-flow.ts, docs/decisions.md#52): an answer lost to a timeout is replayed by
// the idempotency key, a call that never reached the API is no answer kept, and the credit notes of an invoice are
// listed (a credit note already made is found rather than made twice).
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly, subscribed } from "../support/stripe-conformance.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";

let c: Conformance;
let standard: string;
beforeAll(async () => {
  c = await conformance();
  standard = await monthly(c.stripe, 37000);
});
afterAll(() => c.standIn.close());

async function paidInvoice() {
  const { subscription } = await subscribed(c, standard, { defaults: [c.rates.hst] });
  const invoice = (subscription.latest_invoice as Stripe.Invoice).id!;
  return { invoice, intent: moneyOf(c.standIn).intentOf(invoice) };
}

describe("idempotent requests", () => {
  it('"if a connection error occurs, you can safely repeat the request without risk of … performing the update twice": a refund whose answer was lost is the first refund again', async () => {
    const { intent } = await paidInvoice();
    // Lost twice: the SDK's own retry (same key) is lost too.
    c.standIn.timeOuts = { path: "/v1/refunds", times: 2 };
    await expect(
      c.stripe.refunds.create({ payment_intent: intent, amount: 500 }, { idempotencyKey: "lost-refund-1" }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect([...moneyOf(c.standIn).refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
    // "Retries with the same key return the saved response."
    const again = await c.stripe.refunds.create(
      { payment_intent: intent, amount: 500 },
      { idempotencyKey: "lost-refund-1" },
    );
    expect(again).toMatchObject({ amount: 500, status: "succeeded" });
    expect([...moneyOf(c.standIn).refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
  });

  it('"We save results only after the execution of an endpoint begins": a call turned away before it ran keeps no answer', async () => {
    const { intent } = await paidInvoice();
    c.standIn.failing = { path: "/v1/refunds", status: 400, times: 1 };
    await expect(
      c.stripe.refunds.create({ payment_intent: intent, amount: 300 }, { idempotencyKey: "turned-away-1" }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const made = await c.stripe.refunds.create(
      { payment_intent: intent, amount: 300 },
      { idempotencyKey: "turned-away-1" },
    );
    expect(made.amount).toBe(300);
  });
});

describe("creditNotes.list", () => {
  it('"invoice: Only return credit notes for the invoice specified by this invoice ID"', async () => {
    const a = await paidInvoice();
    const b = await paidInvoice();
    for (const { invoice, intent } of [a, b]) {
      const refund = await c.stripe.refunds.create({ payment_intent: intent, amount: 1000 });
      await c.stripe.creditNotes.create({
        invoice,
        amount: 1000,
        refunds: [{ refund: refund.id, amount_refunded: 1000 }],
      });
    }
    const notes = await c.stripe.creditNotes.list({ invoice: a.invoice, limit: 100 });
    expect(notes.data.map((n) => n.invoice)).toEqual([a.invoice]);
    expect(notes.data[0]!.refunds).toEqual([expect.objectContaining({ amount_refunded: 1000 })]);
  });
});
