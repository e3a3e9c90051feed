// The stand-in's disputes against Stripe's reference (docs.stripe.com/api/disputes, also in the stripe SDK's types), for
// what Haven reads (src/modules/subscriptions/disputes.ts, charge-events.ts, reconcile-quotes.ts, docs/decisions.md#53):
// "balance_transactions: List of zero, one, or two balance transactions that show funds withdrawn and reinstated to
// your Stripe account as a result of this dispute"; the status ("warning_needs_response", "needs_response",
// "under_review", "won", "lost", "warning_closed", …); disputes.retrieve and disputes.list.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly, subscribed } from "../support/stripe-conformance.js";
import { DISPUTE_FEE, disputesOf } from "../support/stripe-stand-in-disputes.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";

let c: Conformance;
let price: string;
beforeAll(async () => {
  c = await conformance();
  price = await monthly(c.stripe, 37000);
});
afterAll(() => c.standIn.close());

/** The PaymentIntent that paid a new subscription's first invoice ($418.10, HST included). */
async function paidIntent() {
  const { subscription } = await subscribed(c, price, { defaults: [c.rates.hst] });
  return moneyOf(c.standIn).intentOf((subscription.latest_invoice as Stripe.Invoice).id!);
}

describe("disputes.retrieve through a dispute's life", () => {
  it('opened: "the payment amount, as well as a separate dispute fee … is deducted": one balance transaction; the charge cannot be refunded', async () => {
    const intent = await paidIntent();
    const opened = disputesOf(c.standIn).open(intent, { reason: "fraudulent" });
    const read = await c.stripe.disputes.retrieve(opened.id as string);
    expect(read).toMatchObject({
      object: "dispute",
      amount: 41810,
      payment_intent: intent,
      reason: "fraudulent",
      status: "needs_response",
      is_charge_refundable: false,
    });
    expect(read.balance_transactions.map((t) => [t.amount, t.fee, t.reporting_category])).toEqual([
      [-41810, DISPUTE_FEE, "dispute"],
    ]);
    const refused = await c.stripe.refunds.create({ payment_intent: intent, amount: 100 }).catch((e) => e);
    expect(refused.code).toBe("charge_disputed");
  });

  it('won: "the disputed amount … is returned to you": a second balance transaction; lost: nothing more moves', async () => {
    const disputes = disputesOf(c.standIn);
    const won = disputes.open(await paidIntent());
    disputes.update(won.id as string, "under_review");
    expect((await c.stripe.disputes.retrieve(won.id as string)).status).toBe("under_review");
    disputes.close(won.id as string, "won");
    const read = await c.stripe.disputes.retrieve(won.id as string);
    expect(read.status).toBe("won");
    expect(read.balance_transactions.map((t) => [t.amount, t.reporting_category])).toEqual([
      [-41810, "dispute"],
      [41810, "dispute_reversal"],
    ]);
    const lost = disputes.open(await paidIntent());
    disputes.close(lost.id as string, "lost");
    const gone = await c.stripe.disputes.retrieve(lost.id as string);
    expect(gone.status).toBe("lost");
    expect(gone.balance_transactions.map((t) => t.amount)).toEqual([-41810]);
    expect(() => disputes.close(lost.id as string, "won")).toThrow(/already closed/);
  });

  it("an inquiry withdraws nothing and stays refundable; it closes as warning_closed", async () => {
    const disputes = disputesOf(c.standIn);
    const intent = await paidIntent();
    const inquiry = disputes.open(intent, { inquiry: true });
    expect(inquiry).toMatchObject({ status: "warning_needs_response", is_charge_refundable: true });
    expect(inquiry.balance_transactions).toEqual([]);
    expect(await c.stripe.refunds.create({ payment_intent: intent, amount: 100 })).toMatchObject({ amount: 100 });
    expect(disputes.close(inquiry.id as string, "lost")).toMatchObject({ status: "warning_closed" });
  });

  it("an unknown dispute is a 404 resource_missing; disputes.list pages newest first", async () => {
    const missing = await c.stripe.disputes.retrieve("dp_missing").catch((e) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const ids: string[] = [];
    for await (const d of c.stripe.disputes.list({ limit: 2 })) ids.push(d.id);
    expect(new Set(ids)).toEqual(new Set(moneyOf(c.standIn).disputes.keys()));
    expect(ids.length).toBe(moneyOf(c.standIn).disputes.size);
  });
});
