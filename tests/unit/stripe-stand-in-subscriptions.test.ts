// The stand-in against Stripe's API reference, for the subscription and invoice calls Haven makes
// (src/modules/payments/payment-providers.ts, src/modules/subscriptions/stripe-billing.ts). Each test quotes what
// the reference (docs.stripe.com/api, also in the stripe SDK's types) or Stripe's guides say, and checks the stand-in
// does that, the unkind parts included. The real SDK talks to it over HTTP, as Haven does.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly, subscribed, taxRatesOf } from "../support/stripe-conformance.js";

type Obj = Record<string, unknown>;
let c: Conformance;
let standard: string;
let premium: string;
beforeAll(async () => {
  c = await conformance();
  standard = await monthly(c.stripe, 37000);
  premium = await monthly(c.stripe, 79900);
});
afterAll(() => c.standIn.close());

const invoiceOf = (sub: Stripe.Subscription) =>
  c.standIn.invoices.get(typeof sub.latest_invoice === "string" ? sub.latest_invoice : sub.latest_invoice!.id!)!;
const itemPrice = (id: string) => ((c.standIn.subscription(id).items as { data: Obj[] }).data[0]!.price as Obj).id;

describe("subscriptions.create", () => {
  it('"The tax rates which apply to the item. When set, the `default_tax_rates` do not apply to this item."', async () => {
    const { hst, gst, qst } = c.rates;
    const { subscription } = await subscribed(c, standard, { defaults: [gst, qst], item: [hst] });
    expect(taxRatesOf(invoiceOf(subscription))).toEqual([hst]);
    const quebec = await subscribed(c, standard, { defaults: [gst, qst] });
    // "The tax rates that will apply to any subscription item that does not have `tax_rates` set."
    expect(taxRatesOf(invoiceOf(quebec.subscription))).toEqual([gst, qst]);
    expect(invoiceOf(quebec.subscription)).toMatchObject({
      status: "paid",
      subtotal: 37000,
      total: 37000 + 1850 + 3691,
    });
  });

  it('payment_behavior=default_incomplete: the first invoice waits "for explicit confirmation of the invoice\'s payment intent"', async () => {
    const customer = await c.stripe.customers.create({ email: "later@example.com" });
    const created = await c.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: standard }],
      payment_behavior: "default_incomplete",
      expand: ["latest_invoice.confirmation_secret"],
    });
    expect(created.status).toBe("incomplete");
    const invoice = created.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe("open");
    expect(invoice.confirmation_secret?.client_secret).toMatch(/^pi_.+_secret_/);
  });
});

describe("subscriptions.retrieve and subscriptions.list", () => {
  it("expand resolves the latest invoice's payments down to the PaymentIntent; list filters by customer", async () => {
    const { subscription } = await subscribed(c, standard);
    const read = await c.stripe.subscriptions.retrieve(subscription.id, {
      expand: ["customer", "latest_invoice.payments.data.payment.payment_intent"],
    });
    const invoice = read.latest_invoice as Stripe.Invoice;
    const intent = invoice.payments!.data[0]!.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent.status).toBe("succeeded");
    expect((read.customer as Stripe.Customer).email).toBe("payer@example.com");
    const listed = await c.stripe.subscriptions.list({
      customer: (read.customer as Stripe.Customer).id,
      status: "all",
    });
    expect(listed.data.map((s) => s.id)).toEqual([subscription.id]);
  });
});

describe("subscriptions.update", () => {
  it('payment_behavior omitted: "By default, Stripe applies updates regardless of whether payment on the new invoice succeeds" (docs.stripe.com/billing/subscriptions/pending-updates)', async () => {
    const { subscription, card } = await subscribed(c, standard);
    c.standIn.failingCards.add(card);
    const item = subscription.items.data[0]!;
    const updated = await c.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: premium }],
      proration_behavior: "always_invoice",
    });
    expect(updated.items.data[0]!.price.id).toBe(premium);
    // "Use allow_incomplete to transition the subscription to status=past_due if a payment is required but cannot be paid."
    expect(updated.status).toBe("past_due");
  });

  it('payment_behavior=pending_if_incomplete, declined: "the updated values are added to the pending_update hash … The subscription will continue to cycle as if no update request was made"; paid, "the changes are applied and the pending_update hash is cleared"', async () => {
    const { subscription, card } = await subscribed(c, standard);
    c.standIn.failingCards.add(card);
    const item = subscription.items.data[0]!;
    const updated = await c.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: premium }],
      proration_behavior: "always_invoice",
      payment_behavior: "pending_if_incomplete",
      metadata: { plan: "premium" },
      expand: ["latest_invoice.payments.data.payment.payment_intent"],
    });
    expect(updated.items.data[0]!.price.id).toBe(standard);
    expect(updated.status).toBe("active");
    expect(updated.metadata.plan).toBe("standard");
    expect(updated.pending_update?.subscription_items?.[0]?.price.id).toBe(premium);
    // 2026-05-27.dahlia: "The metadata is stored in pending_update.metadata and applied … when the pending update is resolved."
    expect(updated.pending_update?.metadata).toEqual({ plan: "premium" });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: "open", billing_reason: "subscription_update" });
    const intent = invoice.payments!.data[0]!.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent.last_payment_error?.message).toBe("Your card was declined.");
    // "If you don't take any action after an update fails … This time is set to either the trial end time or the current period end, whichever comes first", at most 23 hours.
    expect(updated.pending_update!.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 23 * 3600);

    const good = c.standIn.updateCustomerCard(subscription.customer as string);
    await c.stripe.invoices.pay(invoice.id!, { payment_method: good });
    const after = await c.stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data[0]!.price.id).toBe(premium);
    expect(after.pending_update).toBeNull();
    expect(after.metadata.plan).toBe("premium");
  });

  it('pending_if_incomplete: "When you use pending_if_incomplete you can only pass the parameters supported by pending updates" — metadata only from 2026-05-27 ("Previously, passing metadata … returned an error")', async () => {
    const { subscription } = await subscribed(c, standard);
    const item = subscription.items.data[0]!;
    const change = {
      items: [{ id: item.id, price: premium }],
      proration_behavior: "always_invoice" as const,
      payment_behavior: "pending_if_incomplete" as const,
    };
    await expect(
      c.stripe.subscriptions.update(
        subscription.id,
        { ...change, metadata: { plan: "premium" } },
        { apiVersion: "2025-03-31.basil" },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    // Not a supported attribute at any version: an item's tax rates, the default payment method.
    await expect(
      c.stripe.subscriptions.update(subscription.id, {
        ...change,
        items: [{ id: item.id, price: premium, tax_rates: "" }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/items\[tax_rates\]/) });
    await expect(
      c.stripe.subscriptions.update(subscription.id, { ...change, default_payment_method: "pm_other" }),
    ).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/default_payment_method/) });
    expect(itemPrice(subscription.id)).toBe(standard);
  });

  it('proration_behavior: create_prorations (the default) "will cause proration invoice items to be created", billed with the next invoice; always_invoice invoices them at once; none creates none', async () => {
    const t0 = Date.UTC(2026, 2, 2, 15);
    c.standIn.clock = () => t0;
    try {
      const prorated = async (behavior?: "always_invoice" | "none") => {
        const { subscription } = await subscribed(c, standard);
        c.standIn.clock = () => t0 + 10 * 86_400_000;
        const before = c.standIn.invoices.size;
        await c.stripe.subscriptions.update(subscription.id, {
          items: [{ id: subscription.items.data[0]!.id, price: premium }],
          ...(behavior ? { proration_behavior: behavior } : {}),
        });
        c.standIn.clock = () => t0;
        return { id: subscription.id, invoicedNow: c.standIn.invoices.size - before };
      };
      const later = await prorated();
      expect(later.invoicedNow).toBe(0);
      const renewal = c.standIn.advancePeriod(later.id).invoice!;
      const lines = (renewal.lines as { data: { amount: number; parent: Obj }[] }).data;
      // "Unused time" on Standard credited and "Remaining time" on Premium charged, then the new period.
      expect(lines.map((l) => Math.sign(l.amount))).toEqual([-1, 1, 1]);
      expect(lines.at(-1)!.amount).toBe(79900);
      const now = await prorated("always_invoice");
      expect(now.invoicedNow).toBe(1);
      const invoice = c.standIn.invoices.get(c.standIn.subscription(now.id).latest_invoice as string)!;
      expect(invoice).toMatchObject({ billing_reason: "subscription_update", status: "paid" });
      expect((invoice.lines as { data: unknown[] }).data).toHaveLength(2);
      const none = await prorated("none");
      expect(none.invoicedNow).toBe(0);
      const next = c.standIn.advancePeriod(none.id).invoice!;
      expect((next.lines as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      c.standIn.clock = () => Date.now();
    }
  });

  it('items[].tax_rates: "When updating, pass an empty string to remove previously-defined tax rates" — the default_tax_rates then apply', async () => {
    const { hst, gst } = c.rates;
    const { subscription } = await subscribed(c, standard, { defaults: [gst], item: [hst] });
    const item = subscription.items.data[0]!;
    await c.stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, tax_rates: "" }] });
    expect(taxRatesOf(c.standIn.advancePeriod(subscription.id).invoice!)).toEqual([gst]);
    await c.stripe.subscriptions.update(subscription.id, { default_tax_rates: [hst] });
    expect(taxRatesOf(c.standIn.advancePeriod(subscription.id).invoice!)).toEqual([hst]);
  });

  it('cancel_at and cancel_at_period_end: one per call; "updating any cancelation behavior directly is not allowed" on a subscription a schedule manages', async () => {
    const { subscription } = await subscribed(c, standard);
    await expect(
      c.stripe.subscriptions.update(subscription.id, { cancel_at: 2_000_000_000, cancel_at_period_end: true }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const end = subscription.items.data[0]!.current_period_end;
    const set = await c.stripe.subscriptions.update(subscription.id, { cancel_at: end, proration_behavior: "none" });
    expect(set.cancel_at).toBe(end);
    const undone = await c.stripe.subscriptions.update(subscription.id, { cancel_at: "" });
    expect(undone.cancel_at).toBeNull();
    await c.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    await expect(c.stripe.subscriptions.update(subscription.id, { cancel_at: end })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/managed by the subscription schedule/),
    });
  });
});

describe("subscriptions.cancel", () => {
  it('"Cancels a customer\'s subscription immediately": canceled, and a second cancel is refused', async () => {
    const { subscription } = await subscribed(c, standard);
    const canceled = await c.stripe.subscriptions.cancel(subscription.id);
    expect(canceled.status).toBe("canceled");
    expect(canceled.ended_at).not.toBeNull();
    await expect(c.stripe.subscriptions.cancel(subscription.id)).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe("invoices.retrieve, invoices.pay and invoicePayments.list", () => {
  it("a declined card is a card error (402), the invoice stays open; a good one pays it; the payment names its PaymentIntent", async () => {
    const { subscription, card } = await subscribed(c, standard);
    const { invoice } = c.standIn.advancePeriod(subscription.id, { fail: true });
    await expect(c.stripe.invoices.pay(invoice!.id as string, { payment_method: card })).rejects.toBeInstanceOf(
      Stripe.errors.StripeCardError,
    );
    const open = await c.stripe.invoices.retrieve(invoice!.id as string, { expand: ["payments"] });
    expect(open.status).toBe("open");
    const paid = await c.stripe.invoices.pay(open.id!, { payment_method: "pm_card_good" });
    expect(paid.status).toBe("paid");
    const intent = open.payments!.data[0]!.payment.payment_intent as string;
    const payments = await c.stripe.invoicePayments.list({
      payment: { type: "payment_intent", payment_intent: intent },
      limit: 1,
    });
    expect(payments.data[0]!.invoice).toBe(open.id);
    await expect(c.stripe.invoices.pay(open.id!)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('"Invoice is already paid" (400 invalid_request_error) for a paid invoice; a decline is a card_error naming its decline_code (docs.stripe.com/declines/codes: insufficient_funds)', async () => {
    const { subscription, card } = await subscribed(c, standard);
    const { invoice } = c.standIn.advancePeriod(subscription.id, { fail: true });
    c.standIn.cardDeclines.set(card, {
      declineCode: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    const declined = await c.stripe.invoices.pay(invoice!.id as string).catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({
      statusCode: 402,
      type: "StripeCardError",
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    const paid = await c.stripe.invoices.pay(invoice!.id as string, { payment_method: "pm_card_good" });
    expect(paid.status).toBe("paid");
    const again = await c.stripe.invoices.pay(invoice!.id as string).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again).toMatchObject({ statusCode: 400, message: "Invoice is already paid" });
  });
});

describe("invoices.createPreview and proration_date", () => {
  it('"the invoice the subscription would generate if you made these changes", taxed as its invoices are; with the same proration_date, the update invoices exactly that; the preview stores and charges nothing', async () => {
    const { subscription } = await subscribed(c, standard, { defaults: [c.rates.hst] });
    const item = subscription.items.data[0]!;
    const at = item.current_period_start + 9 * 86_400 + 1234;
    const invoicesBefore = c.standIn.invoices.size;
    const preview = await c.stripe.invoices.createPreview({
      subscription: subscription.id,
      subscription_details: {
        items: [{ id: item.id, price: premium }],
        proration_behavior: "always_invoice",
        proration_date: at,
      },
    });
    expect(c.standIn.invoices.size).toBe(invoicesBefore);
    expect(itemPrice(subscription.id)).toBe(standard);
    expect(taxRatesOf(preview)).toEqual([c.rates.hst]);
    expect(preview.total).toBe(preview.subtotal + preview.total_taxes![0]!.amount);
    // "Stripe will calculate the proration as if the subscription was updated at the given time."
    const updated = await c.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: premium }],
      proration_behavior: "always_invoice",
      proration_date: at,
      expand: ["latest_invoice"],
    });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ subtotal: preview.subtotal, total: preview.total, status: "paid" });
  });
});
