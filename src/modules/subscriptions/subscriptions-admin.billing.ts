// The billing answers of a subscription's staff page (invoices.md, "A subscription's charges"): what it was bought
// at and where, the plan's price now when it differs, and what is owed now when past due.
import type { Plan } from "../plans/index.js";
import type { Invoice, Subscription, SubscriptionEvent } from "./subscriptions.constants.js";

export interface PurchaseFacts {
  /** The monthly price bought at, before tax (dollars): the first charge's subtotal, else the price now. */
  boughtAt: number;
  planType: string;
  priceList: "pricing" | "checkout";
  /** "the payment page (/checkout)" or "/pricing". */
  where: string;
  startedAt: string;
  /** The plan's price on the same list today, when it is not what this subscription pays (docs/decisions.md#23). */
  planPriceNow: number | null;
  /** Past due: what the open invoices total, since the oldest one's date, and those invoices. */
  owed: { amount: number; since: string; invoices: Invoice[] } | null;
}

export function purchaseFacts({
  subscription: s,
  priceList,
  invoices,
  events,
  plans,
}: {
  subscription: Subscription;
  priceList: "pricing" | "checkout";
  invoices: Invoice[];
  events: SubscriptionEvent[];
  plans: Map<string, Plan>;
}): PurchaseFacts {
  const first = [...invoices]
    .filter((inv) => inv.billingReason === "subscription_create")
    .sort((a, b) => a.periodStart.localeCompare(b.periodStart))[0];
  const created = events.find((e) => e.kind === "created");
  const planType = created?.toPlan ?? s.planType;
  const current = plans.get(s.planType);
  const listPrice = current ? (priceList === "checkout" ? current.checkoutPrice : current.price) : null;
  const open = invoices
    .filter((inv) => inv.status === "open")
    .sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  // An open invoice owes its total less the customer's balance applied to it (docs/decisions.md#50).
  const owedCents = open.reduce(
    (sum, inv) => sum + Math.round((inv.amount - inv.balanceApplied - inv.amountPaid - inv.refunded) * 100),
    0,
  );
  return {
    boughtAt: first ? first.subtotal : s.monthlyAmount,
    planType,
    priceList,
    where: priceList === "checkout" ? "the payment page (/checkout)" : "/pricing",
    startedAt: s.startedAt,
    planPriceNow: listPrice !== null && listPrice !== s.monthlyAmount ? listPrice : null,
    owed:
      (s.status === "past_due" || s.status === "unpaid") && open.length
        ? { amount: owedCents / 100, since: open[0]!.periodStart, invoices: open }
        : null,
  };
}
