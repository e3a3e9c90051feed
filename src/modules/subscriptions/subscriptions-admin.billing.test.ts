// A subscription's billing answers (invoices.md, "A subscription's charges"): bought at the first charge's price on
// its list, the plan's price now only when it differs, and what is owed when past due.
import { describe, expect, it } from "vitest";
import type { Plan } from "../plans/index.js";
import { purchaseFacts } from "./subscriptions-admin.billing.js";
import type { Invoice, Subscription, SubscriptionEvent } from "./subscriptions.constants.js";

const standard = { type: "standard", name: "Standard", price: 370, checkoutPrice: 412 } as Plan;
const premium = { type: "premium", name: "Premium", price: 799, checkoutPrice: 889 } as Plan;
const plans = new Map<string, Plan>([
  ["standard", standard],
  ["premium", premium],
]);

const sub = (over: Partial<Subscription> = {}) =>
  ({
    id: 1,
    planType: "standard",
    status: "active",
    monthlyAmount: 412,
    startedAt: "2027-01-05T02:30:00.000Z",
    ...over,
  }) as Subscription;

let n = 0;
const invoice = (over: Partial<Invoice>): Invoice =>
  ({
    id: ++n,
    subscriptionId: 1,
    providerInvoiceId: `demo_in_${n}`,
    number: `HAV-2027-00000${n}`,
    amount: 465.56,
    // An open invoice has not been paid yet; nothing came from the customer's balance.
    amountPaid: over.status === "open" ? 0 : 465.56,
    balanceApplied: 0,
    subtotal: 412,
    tax: 53.56,
    taxLines: [],
    taxProvince: "ON",
    refunded: 0,
    hostedInvoiceUrl: null,
    currency: "cad",
    periodStart: "2027-01-05T05:00:00.000Z",
    periodEnd: "2027-02-05T05:00:00.000Z",
    status: "paid",
    billingReason: "subscription_cycle",
    paidAt: "2027-01-05T05:00:00.000Z",
    failureReason: null,
    ...over,
  }) as Invoice;

const created: SubscriptionEvent = {
  id: 1,
  kind: "created",
  fromPlan: null,
  toPlan: "standard",
  actor: "customer",
  detail: null,
  createdAt: "2027-01-05T02:30:00.000Z",
};

describe("purchaseFacts", () => {
  it("bought at the first charge's subtotal on /checkout, even after an upgrade; the plan's price now only when it differs", () => {
    const facts = purchaseFacts({
      subscription: sub({ planType: "premium", monthlyAmount: 889 }),
      priceList: "checkout",
      invoices: [
        invoice({ subtotal: 477, billingReason: "subscription_update", periodStart: "2027-01-20T05:00:00.000Z" }),
        invoice({ subtotal: 412, billingReason: "subscription_create" }),
      ],
      events: [created],
      plans,
    });
    expect(facts).toMatchObject({
      boughtAt: 412,
      planType: "standard",
      where: "the payment page (/checkout)",
      planPriceNow: null,
      owed: null,
    });
    const repriced = purchaseFacts({
      subscription: sub(),
      priceList: "checkout",
      invoices: [],
      events: [],
      plans: new Map([["standard", { ...standard, checkoutPrice: 430 }]]),
    });
    expect(repriced).toMatchObject({ boughtAt: 412, planPriceNow: 430, where: "the payment page (/checkout)" });
    const pricing = purchaseFacts({
      subscription: sub({ monthlyAmount: 370 }),
      priceList: "pricing",
      invoices: [],
      events: [],
      plans,
    });
    expect(pricing).toMatchObject({ boughtAt: 370, where: "/pricing", planPriceNow: null });
  });

  it("past due: the open invoices' total less refunds, since the oldest open period", () => {
    const older = invoice({
      status: "open",
      paidAt: null,
      periodStart: "2027-02-05T05:00:00.000Z",
      failureReason: "Your card was declined.",
    });
    const newer = invoice({ status: "open", paidAt: null, periodStart: "2027-03-05T05:00:00.000Z" });
    const facts = purchaseFacts({
      subscription: sub({ status: "past_due" }),
      priceList: "checkout",
      invoices: [newer, older, invoice({ billingReason: "subscription_create" })],
      events: [created],
      plans,
    });
    expect(facts.owed).toEqual({ amount: 931.12, since: "2027-02-05T05:00:00.000Z", invoices: [older, newer] });
    // An active subscription owes nothing, whatever a stray open invoice says.
    expect(
      purchaseFacts({ subscription: sub(), priceList: "checkout", invoices: [newer], events: [], plans }).owed,
    ).toBeNull();
  });
});
