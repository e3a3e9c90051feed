// Payments and subscriptions: each paid home's purchase, and the monthly demo subscription it bought.
//
// Every paid purchase is a monthly demo subscription (docs/decisions.md#24) billed since the purchase: one invoice per
// period up to today's, paid at the period's start. The purchase's payment row is linked to it
// (payments.subscription_id), so Total Revenue counts the invoices and never the payment too. Written in bulk
// (a few statements per batch); the invoice ids are the demo provider's (demo_in_<subscription>_<period start>),
// so `haven subscriptions renew` carries on from here and never bills a seeded period twice.
import { todayIn } from "../../src/shared/business-time.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import {
  DEMO_RENEWAL_DECLINE,
  cancellationTakesEffect,
  minimumTermEnd,
  period,
  periodOn,
} from "../../src/modules/subscriptions/index.js";
import { SERVING_STATUSES } from "../../src/modules/subscriptions/subscriptions.constants.js";
import { DAY } from "./dates.js";
import type { DemoStep, DemoSubscriptionKind, PlannedProperty } from "./model.js";

export const paymentsStep: DemoStep = {
  name: "payments",
  async run(batch, { container }) {
    const paid = batch.planned.filter((p) => p.customer.subscriptionPlan !== "free-score");
    batch.payments = await container.payments.importDemoPayments(
      paid.map((p) => ({
        providerId: `pi_demo_seed_${p.index}`,
        planType: p.customer.subscriptionPlan as PlanType,
        customerEmail: p.customer.email,
        customerName: p.customer.name,
        createdAt: new Date(p.createdAt.getTime() - 20 * 60_000),
      })),
      batch.tx,
    );
  },
};

/**
 * The state of the paid homes of a batch, by their rank among them: mostly active; in every 50 paid homes two past
 * due (their card, 4000 0000 0000 0341, failed this period's renewal), one with a cancellation scheduled and one
 * canceled. A 40-home run shows a couple past due and one of each of the others.
 */
export function demoSubscriptionKind(rank: number, periodsBilled: number): DemoSubscriptionKind {
  const slot = rank % 50;
  // Past due needs a renewal: the first invoice always pays.
  if ((slot === 1 || slot === 7) && periodsBilled > 1) return "past_due";
  if (slot === 3) return "cancel_scheduled";
  if (slot === 5) return "canceled";
  return "active";
}

const REASONS = ["Selling the house in the spring", "Moving out of the area", "Budget: will come back next year"];
const DECLINED_CARD = "0341";

interface PlannedSubscription {
  kind: DemoSubscriptionKind;
  row: Record<string, unknown>;
  /** Invoices for periods 0..lastPeriod; the last one open (declined) when past due. */
  lastPeriod: number;
  lastOpen: boolean;
  events: {
    kind: string;
    actor: string;
    at: Date;
    fromPlan?: string | null;
    toPlan?: string | null;
    detail?: Record<string, unknown>;
  }[];
}

/** One paid home's subscription, from its purchase to `now` (pure). */
function planSubscription(
  p: PlannedProperty,
  rank: number,
  ids: { customerId: number; propertyId: number },
  amountCents: number,
  now: Date,
  timeZone: string,
): PlannedSubscription {
  const startedAt = new Date(p.createdAt.getTime() - 20 * 60_000);
  const anchor = todayIn(timeZone, startedAt);
  const current = periodOn(anchor, todayIn(timeZone, now), timeZone).index;
  const kind = demoSubscriptionKind(rank, current + 1);
  const minimumTermEndsAt = minimumTermEnd(anchor, timeZone);
  const planType = p.customer.subscriptionPlan as PlanType;
  const events: PlannedSubscription["events"] = [
    { kind: "created", actor: "customer", at: startedAt, toPlan: planType, detail: { status: "active" } },
  ];
  let lastPeriod = current;
  let status = "active";
  let cancelAt: Date | null = null;
  let canceledAt: Date | null = null;
  let reason: string | null = null;
  if (kind === "past_due") {
    status = "past_due";
    events.push({
      kind: "payment_failed",
      actor: "system",
      at: period(anchor, current, timeZone).start,
      detail: { from: "active", to: "past_due" },
    });
  } else if (kind === "cancel_scheduled") {
    // Asked two days ago (or right after the purchase): docs/decisions.md#25 says when it takes effect.
    const askedAt = new Date(Math.max(startedAt.getTime() + 3_600_000, now.getTime() - 2 * DAY));
    cancelAt = cancellationTakesEffect({
      now: askedAt,
      minimumTermEndsAt,
      currentPeriodEnd: period(anchor, current, timeZone).end,
    });
    reason = REASONS[p.index % REASONS.length]!;
    events.push({
      kind: "cancel_scheduled",
      actor: "customer",
      at: askedAt,
      detail: { cancelAt: cancelAt.toISOString(), reason },
    });
  } else if (kind === "canceled") {
    status = "canceled";
    reason = REASONS[(p.index + 1) % REASONS.length]!;
    if (current >= 3) {
      // Canceled after the minimum term: it took effect at the end of the last paid period.
      lastPeriod = current - 1;
      canceledAt = period(anchor, lastPeriod, timeZone).end;
      events.push({
        kind: "cancel_scheduled",
        actor: "customer",
        at: new Date(canceledAt.getTime() - 10 * DAY),
        detail: { cancelAt: canceledAt.toISOString(), reason },
      });
    } else {
      // Within the minimum term only staff end one at once (a duplicate purchase, say).
      canceledAt = new Date(Math.max(startedAt.getTime() + 3_600_000, now.getTime() - 2 * DAY));
      reason = "Duplicate purchase";
    }
    cancelAt = canceledAt;
    events.push({ kind: "canceled", actor: "system", at: canceledAt, detail: { status: "canceled", reason } });
  }
  const periodNow = period(anchor, lastPeriod, timeZone);
  return {
    kind,
    lastPeriod,
    lastOpen: kind === "past_due",
    events,
    row: {
      customer_id: ids.customerId,
      property_id: ids.propertyId,
      plan_type: planType,
      provider: "demo",
      provider_subscription_id: `demo_sub_seed_${p.index}`,
      // The seeded payment of the purchase (pi_demo_seed_<index>) is this subscription's checkout.
      checkout_ref: `pi_demo_seed_${p.index}`,
      status,
      monthly_amount_cents: amountCents,
      currency: "cad",
      payer_email: p.customer.email,
      payer_name: p.customer.name,
      started_at: startedAt,
      billing_anchor: anchor,
      current_period_start: periodNow.start,
      current_period_end: periodNow.end,
      minimum_term_ends_at: minimumTermEndsAt,
      cancel_at: cancelAt,
      canceled_at: canceledAt,
      cancellation_reason: reason,
      card_last4: kind === "past_due" ? DECLINED_CARD : "4242",
      card_fails_renewals: kind === "past_due",
      last_payment_error: kind === "past_due" ? DEMO_RENEWAL_DECLINE : null,
      created_at: startedAt,
      updated_at: canceledAt ?? now,
    },
  };
}

export const subscriptionsStep: DemoStep = {
  name: "subscriptions",
  async run(batch, { container, now }) {
    const { tx } = batch;
    const timeZone = container.env.BUSINESS_TZ;
    // The purchase path of the seeded payments (/checkout) bills its own reading of the price every month (docs/decisions.md#23).
    const prices = new Map((await container.plans.list()).map((plan) => [plan.type, plan.checkoutPrice * 100]));
    let rank = 0;
    const planned = batch.planned.flatMap((p, i) => {
      if (p.customer.subscriptionPlan === "free-score") return [];
      const ids = { customerId: batch.customerIds[i]!, propertyId: batch.propertyIds[i]! };
      return [planSubscription(p, rank++, ids, prices.get(p.customer.subscriptionPlan as PlanType)!, now, timeZone)];
    });
    if (!planned.length) return;
    const inserted: { id: number; provider_subscription_id: string }[] = await tx("subscriptions")
      .insert(planned.map((s) => s.row))
      .returning(["id", "provider_subscription_id"]);
    const idOf = new Map(inserted.map((r) => [r.provider_subscription_id, r.id]));
    const subIds = planned.map((s) => idOf.get(s.row.provider_subscription_id as string)!);
    // Periods 0..last of each, computed in SQL by the same month-end rule as billing-dates.ts (anchor + n months, at midnight in the zone).
    const invoices = await tx.raw(
      `insert into invoices (subscription_id, provider, provider_invoice_id, amount_cents, currency, period_start, period_end, status,
                             billing_reason, paid_at, failure_reason, attempt_count, created_at, updated_at)
       select s.id, 'demo', 'demo_in_' || s.id || '_' || to_char(s.billing_anchor + g * interval '1 month', 'YYYY-MM-DD'),
              s.monthly_amount_cents, 'cad',
              (s.billing_anchor + g * interval '1 month') at time zone ?, (s.billing_anchor + (g + 1) * interval '1 month') at time zone ?,
              case when v.last_open and g = v.last then 'open' else 'paid' end,
              case when g = 0 then 'subscription_create' else 'subscription_cycle' end,
              case when v.last_open and g = v.last then null when g = 0 then s.started_at else (s.billing_anchor + g * interval '1 month') at time zone ? end,
              case when v.last_open and g = v.last then ? end, 1,
              greatest(s.started_at, (s.billing_anchor + g * interval '1 month') at time zone ?), now()
         from unnest(?::int[], ?::int[], ?::boolean[]) as v(sid, last, last_open)
         join subscriptions s on s.id = v.sid
         cross join lateral generate_series(0, v.last) g
       returning id`,
      [
        timeZone,
        timeZone,
        timeZone,
        DEMO_RENEWAL_DECLINE,
        timeZone,
        subIds,
        planned.map((s) => s.lastPeriod),
        planned.map((s) => s.lastOpen),
      ],
    );
    // Each invoice gets the tax of its home's province and its number, as the invoice write path gives them
    // (docs/decisions.md#32, #33): the amount inserted above is the subtotal.
    const invoiceIds = (invoices.rows as { id: number }[]).map((r) => r.id);
    await container.invoiceSide.invoices.taxAndNumber(invoiceIds, tx);
    await tx("subscription_events").insert(
      planned.flatMap((s, k) =>
        s.events.map((e) => ({
          subscription_id: subIds[k],
          kind: e.kind,
          actor: e.actor,
          from_plan: e.fromPlan ?? null,
          to_plan: e.toPlan ?? null,
          detail: e.detail ? JSON.stringify(e.detail) : null,
          created_at: e.at,
        })),
      ),
    );
    // The purchase's payment is the first invoice's: revenue counts the invoice alone.
    await tx.raw(
      `update payments p set subscription_id = s.id from subscriptions s
        where s.id = any(?::int[]) and p.provider = 'demo' and p.provider_id = s.checkout_ref and p.subscription_id is null`,
      [subIds],
    );
    // A canceled plan leaves the home on the free score, as the service does when one ends.
    const ended = planned.flatMap((s) => (s.kind === "canceled" ? [s.row.property_id as number] : []));
    if (ended.length) await tx("properties").whereIn("id", ended).update({ subscription_plan: "free-score" });
    // The plan services of each serving subscription become schedules on its home (docs/decisions.md#26).
    const today = todayIn(timeZone, now);
    for (const [k, s] of planned.entries()) {
      if (!SERVING_STATUSES.includes(s.row.status as string)) continue;
      await container.planServices.sync(
        tx,
        {
          id: subIds[k]!,
          propertyId: s.row.property_id as number,
          planType: s.row.plan_type as PlanType,
          status: s.row.status as string,
          anchor: s.row.billing_anchor as string,
        },
        today,
      );
    }
    // One demo invoice is partly refunded (docs/decisions.md#34), the first time the seed runs.
    const first = subIds[planned.findIndex((s) => s.kind === "active")];
    if (first && !(await tx("refunds").first("id"))) {
      const paid = await tx("invoices").where({ subscription_id: first, status: "paid" }).orderBy("id").first("id");
      if (paid)
        await container.invoiceSide.refunds.refundIn(tx, paid.id as number, {
          amountCents: 5000,
          reason: "Window cleaning visit rescheduled: $50 credited",
          actor: "system",
          notify: false,
        });
    }
    for (const s of planned) batch.subscriptions[s.kind]++;
    batch.invoices += invoices.rowCount ?? 0;
  },
};
