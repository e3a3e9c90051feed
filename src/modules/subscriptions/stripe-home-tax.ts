// A Stripe subscription taxed as its home is (docs/decisions.md#57): the Tax Rates of the home's province on the day
// are set where the subscription keeps its taxes (its item's rates when Checkout put them there, which win over the
// defaults; else its default rates), or, while a Subscription Schedule manages it, on every phase from the current
// one (an update's phases replace the schedule's, each with only the taxes it is given, docs/decisions.md#49).
// Stripe applies new rates from the next invoice. Called outside any transaction: Haven's decision is committed first.
import type { Logger } from "pino";
import type Stripe from "stripe";
import { stripeTaxRates } from "../payments/index.js";
import type { Province } from "../tax/index.js";
import { idOf } from "./stripe-billing-state.js";
import { changeAtStripe, readAtStripe } from "./stripe-calls.js";

const rateIds = (rates: (string | Stripe.TaxRate)[] | null | undefined): string[] =>
  (rates ?? []).map((rate) => idOf(rate)!).filter(Boolean);
const same = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));
const ENDED = ["canceled", "incomplete_expired"];

/** What was done at Stripe: nothing (already so, ended, or Stripe Tax computes it), the subscription, or its schedule. */
export type StripeTaxSync = "unchanged" | "subscription" | "schedule";

export async function taxAtStripe(
  stripe: Stripe,
  subscriptionId: string,
  province: Province,
  day: string,
  log?: Logger,
): Promise<StripeTaxSync> {
  const sub = await readAtStripe(() => stripe.subscriptions.retrieve(subscriptionId), log);
  const item = sub.items.data[0];
  // Stripe Tax (STRIPE_AUTOMATIC_TAX) reads the customer's address: intake's and staff's addresses are not sent there.
  if (!item || ENDED.includes(sub.status) || sub.automatic_tax?.enabled) return "unchanged";
  const want = await stripeTaxRates(stripe).idsFor(province, day);
  const onItem = rateIds(item.tax_rates).length > 0;
  const key = `tax:${subscriptionId}:${want.join(",")}`;
  const scheduleId = idOf(sub.schedule);
  if (scheduleId) {
    const schedule = await readAtStripe(() => stripe.subscriptionSchedules.retrieve(scheduleId), log);
    const start = schedule.current_phase?.start_date ?? 0;
    const phases = schedule.phases.filter((p) => p.end_date > start);
    const taxed = phases.every((p) =>
      onItem ? p.items.every((i) => same(rateIds(i.tax_rates), want)) : same(rateIds(p.default_tax_rates), want),
    );
    if (taxed) return "unchanged";
    await changeAtStripe(
      () =>
        stripe.subscriptionSchedules.update(
          scheduleId,
          {
            phases: phases.map((p) => ({
              items: p.items.map((i) => ({
                price: idOf(i.price)!,
                quantity: i.quantity ?? 1,
                ...(onItem ? { tax_rates: want } : {}),
              })),
              start_date: p.start_date,
              end_date: p.end_date,
              proration_behavior: "none" as const,
              metadata: p.metadata ?? {},
              ...(onItem ? {} : { default_tax_rates: want }),
            })),
          },
          { idempotencyKey: `${key}:phases:${scheduleId}` },
        ),
      log,
    );
    return "schedule";
  }
  if (same(onItem ? rateIds(item.tax_rates) : rateIds(sub.default_tax_rates), want)) return "unchanged";
  await changeAtStripe(
    () =>
      stripe.subscriptions.update(
        subscriptionId,
        onItem
          ? { items: [{ id: item.id, tax_rates: want }], proration_behavior: "none" }
          : { default_tax_rates: want, proration_behavior: "none" },
        { idempotencyKey: key },
      ),
    log,
  );
  return "subscription";
}

/**
 * The tax a first invoice owed, charged at Stripe (docs/decisions.md#57): one PaymentIntent, confirmed off session
 * with the card the subscription pays with (its own, else its customer's default), its key from Haven's invoice so a
 * repeat is the same charge. A declined card is an answer (`declined`), not a failure to retry.
 */
export async function chargeTaxAtStripe(
  stripe: Stripe,
  input: { subscriptionId: string; amountCents: number; description: string; invoiceId: number },
  log?: Logger,
): Promise<{ paymentIntentId: string | null; declined: string | null }> {
  const sub = await readAtStripe(
    () => stripe.subscriptions.retrieve(input.subscriptionId, { expand: ["customer"] }),
    log,
  );
  const customer = typeof sub.customer === "object" && !("deleted" in sub.customer) ? sub.customer : null;
  const card = idOf(sub.default_payment_method) ?? idOf(customer?.invoice_settings?.default_payment_method);
  if (!card) return { paymentIntentId: null, declined: "No card is on file for this plan." };
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: "cad",
        customer: idOf(sub.customer)!,
        payment_method: card,
        off_session: true,
        confirm: true,
        description: input.description,
        metadata: { haven_tax_invoice: String(input.invoiceId) },
      },
      { idempotencyKey: `haven-tax-invoice-${input.invoiceId}` },
    );
    return intent.status === "succeeded"
      ? { paymentIntentId: intent.id, declined: null }
      : {
          paymentIntentId: intent.id,
          declined: intent.last_payment_error?.message ?? "The card payment did not go through.",
        };
  } catch (error) {
    const card = error as { type?: string; message?: string; payment_intent?: { id?: string } };
    if (card.type !== "StripeCardError") return changeAtStripe(() => Promise.reject(error), log);
    return { paymentIntentId: card.payment_intent?.id ?? null, declined: card.message ?? "Your card was declined." };
  }
}
