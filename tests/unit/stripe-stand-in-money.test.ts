// The stand-in against Stripe's API reference for the refund, credit-note, dispute and list calls Haven makes
// (src/modules/invoices/refunds-stripe.ts, src/modules/subscriptions/charge-events.ts, reconcile.ts,
// docs/decisions.md#34). Each test quotes the reference (docs.stripe.com/api, also in the stripe SDK's types) and
// checks the stand-in does that, the unkind parts included.
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

/** A paid invoice of $418.10 (HST included) and the PaymentIntent that paid it. */
async function paidInvoice() {
  const { subscription } = await subscribed(c, standard, { defaults: [c.rates.hst] });
  const invoice = c.standIn.invoices.get((subscription.latest_invoice as Stripe.Invoice).id!)!;
  return { invoice: invoice.id as string, intent: moneyOf(c.standIn).intentOf(invoice.id as string) };
}

describe("refunds.create", () => {
  it('"You can optionally refund only part of a charge … until the entire charge has been refunded"; more than is left, a reason not in the list, or a charge refunded in full is refused', async () => {
    const { intent } = await paidInvoice();
    const first = await c.stripe.refunds.create({
      payment_intent: intent,
      amount: 10000,
      reason: "requested_by_customer",
    });
    expect(first).toMatchObject({ amount: 10000, status: "succeeded", payment_intent: intent });
    await expect(c.stripe.refunds.create({ payment_intent: intent, amount: 31811 })).rejects.toMatchObject({
      statusCode: 400,
      code: "amount_too_large",
    });
    // "If set, possible values are `duplicate`, `fraudulent`, and `requested_by_customer`."
    await expect(
      c.stripe.refunds.create({ payment_intent: intent, amount: 1, reason: "goodwill" as "duplicate" }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const rest = await c.stripe.refunds.create({ payment_intent: intent });
    expect(rest.amount).toBe(41810 - 10000);
    // "Once entirely refunded, a charge can't be refunded again."
    await expect(c.stripe.refunds.create({ payment_intent: intent, amount: 1 })).rejects.toMatchObject({
      code: "charge_already_refunded",
    });
  });
});

describe("refunds.list", () => {
  it("filters by PaymentIntent and pages newest first with limit, starting_after and has_more", async () => {
    const { intent } = await paidInvoice();
    for (const amount of [100, 200, 300]) await c.stripe.refunds.create({ payment_intent: intent, amount });
    const page = await c.stripe.refunds.list({ payment_intent: intent, limit: 2 });
    expect(page.has_more).toBe(true);
    const next = await c.stripe.refunds.list({ payment_intent: intent, limit: 2, starting_after: page.data[1]!.id });
    expect(next.has_more).toBe(false);
    const all: number[] = [];
    for await (const refund of c.stripe.refunds.list({ payment_intent: intent, limit: 1 })) all.push(refund.amount);
    expect(all.sort()).toEqual([100, 200, 300]);
  });
});

describe("creditNotes.create", () => {
  it('linking Haven\'s refund: "The sum of refunds, customer balance credits, and outside of Stripe credits must equal the post_payment_amount"; no more than is left to credit', async () => {
    const { invoice, intent } = await paidInvoice();
    const refund = await c.stripe.refunds.create({ payment_intent: intent, amount: 20905 });
    const note = await c.stripe.creditNotes.create({
      invoice,
      amount: 20905,
      refunds: [{ refund: refund.id, amount_refunded: 20905 }],
      memo: "Half of March",
      email_type: "none",
      metadata: { haven_invoice: "1" },
    });
    expect(note).toMatchObject({ invoice, amount: 20905, status: "issued" });
    // Nothing to say where the money went: refused.
    await expect(c.stripe.creditNotes.create({ invoice, amount: 100 })).rejects.toMatchObject({ statusCode: 400 });
    // "the credit note API subtracts those refund amounts [made through the Refund API] from the maximum creditable amount".
    const other = await c.stripe.refunds.create({ payment_intent: intent, amount: 20000 });
    await expect(
      c.stripe.creditNotes.create({ invoice, amount: 20905, out_of_band_amount: 20905 }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const rest = await c.stripe.creditNotes.create({
      invoice,
      amount: 20000,
      refunds: [{ refund: other.id, amount_refunded: 20000 }],
    });
    expect(rest.amount).toBe(20000);
    await expect(c.stripe.creditNotes.create({ invoice: "in_missing", amount: 1 })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe("disputes (charge.dispute.created) and the charge", () => {
  it('a dispute names the charge\'s PaymentIntent, amount and reason, "needs_response"; the charge is disputed and "The charge you\'re attempting to refund has been charged back"', async () => {
    const { invoice, intent } = await paidInvoice();
    const money = moneyOf(c.standIn);
    const dispute = money.dispute(invoice, "fraudulent");
    expect(dispute).toMatchObject({
      object: "dispute",
      payment_intent: intent,
      amount: 41810,
      reason: "fraudulent",
      status: "needs_response",
      is_charge_refundable: false,
    });
    expect(money.chargeOf(intent)).toMatchObject({ disputed: true, payment_intent: intent });
    const refused = await c.stripe.refunds.create({ payment_intent: intent, amount: 100 }).catch((e) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused.code).toBe("charge_disputed");
    expect(money.closeDispute(dispute.id as string, "lost")).toMatchObject({ status: "lost" });
  });
});

describe("invoices.list and subscriptions.list (reconciliation's pages)", () => {
  it("page with limit and starting_after; status=all lists canceled subscriptions too", async () => {
    const { subscription } = await subscribed(c, standard);
    await c.stripe.subscriptions.cancel(subscription.id);
    const ids: string[] = [];
    for await (const s of c.stripe.subscriptions.list({ status: "all", limit: 2 })) ids.push(s.id);
    expect(ids).toContain(subscription.id);
    const live: string[] = [];
    for await (const s of c.stripe.subscriptions.list({ limit: 2 })) live.push(s.id);
    expect(live).not.toContain(subscription.id);
    const invoices: string[] = [];
    for await (const invoice of c.stripe.invoices.list({ limit: 3 })) invoices.push(invoice.id!);
    expect(new Set(invoices).size).toBe(c.standIn.invoices.size);
  });
});
