// What the stand-in's conformance tests (tests/unit/stripe-stand-in-*.test.ts) share: the stand-in with the real SDK
// pointed at it, Canada's Tax Rates as Haven makes them, and a paying customer's monthly subscription.
import type Stripe from "stripe";
import { createStripeClient } from "../../src/modules/payments/index.js";
import { STAND_IN_KEYS, StripeStandIn } from "./stripe-stand-in.js";

export interface Conformance {
  standIn: StripeStandIn;
  stripe: Stripe;
  /** Exclusive Tax Rates: Ontario's HST, and Quebec's GST and QST. */
  rates: { hst: string; gst: string; qst: string };
}

export async function conformance(): Promise<Conformance> {
  const standIn = await StripeStandIn.start();
  const stripe = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, standIn.url);
  const rate = async (display_name: string, percentage: number, state: string) =>
    (await stripe.taxRates.create({ display_name, percentage, inclusive: false, country: "CA", state })).id;
  return {
    standIn,
    stripe,
    rates: { hst: await rate("HST", 13, "ON"), gst: await rate("GST", 5, "QC"), qst: await rate("QST", 9.975, "QC") },
  };
}

/** A recurring monthly CAD Price. */
export async function monthly(stripe: Stripe, cents: number): Promise<string> {
  return (await stripe.prices.create({ currency: "cad", unit_amount: cents, recurring: { interval: "month" } })).id;
}

/** A customer whose card pays (its id is returned as `card`), subscribed to `price`, the first invoice paid. */
export async function subscribed(
  { standIn, stripe }: Conformance,
  price: string,
  taxes: { defaults?: string[]; item?: string[] } = {},
): Promise<{ subscription: Stripe.Subscription; card: string }> {
  const customer = await stripe.customers.create({ email: "payer@example.com", name: "Pat Payer" });
  const card = standIn.updateCustomerCard(customer.id);
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price, ...(taxes.item ? { tax_rates: taxes.item } : {}) }],
    ...(taxes.defaults ? { default_tax_rates: taxes.defaults } : {}),
    metadata: { plan: "standard" },
    expand: ["latest_invoice"],
  });
  return { subscription, card };
}

/** The Tax Rate ids an invoice's taxes name, in order. */
export const taxRatesOf = (invoice: { total_taxes?: unknown }): string[] =>
  ((invoice.total_taxes as { tax_rate_details: { tax_rate: string } }[] | undefined) ?? []).map(
    (t) => t.tax_rate_details.tax_rate,
  );
