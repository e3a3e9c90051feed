// The offline demo provider's billing (docs/decisions.md#24). Haven's own rows are the demo provider's
// subscriptions and invoices; this file turns them into provider states, changes them as Stripe would, and
// bills the periods that have come due.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { Plan } from "../plans/plans.schemas.js";
import type { PlansService } from "../plans/index.js";
import type { BillingMailer } from "./billing-mailer.js";
import { type period, periodOn } from "./billing-dates.js";
import type { BillingProvider, PlanChange, ProviderSubscription } from "./billing-provider.js";
import { ACTION_REQUIRED_REASON } from "./provider-state.js";
import type { StoredInvoice } from "../invoices/index.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type {
  Invoice,
  ProviderInvoiceState,
  ProviderSubscriptionState,
  Subscription,
} from "./subscriptions.constants.js";

/** 4000 0000 0000 0341: pays the first invoice, fails every renewal (as Stripe's test card). */
export const DEMO_FAILING_CARD = "4000000000000341";
/**
 * 4000 0027 6000 3184: pays the first invoice; every renewal waits for the customer's bank (3-D Secure), as Stripe's
 * test card does off session. The demo's "hosted invoice page" is the billing link's card page, where entering the
 * card again confirms and pays it.
 */
export const DEMO_AUTHENTICATION_CARD = "4000002760003184";

/** What a failed demo renewal says, as Stripe's decline does. */
export const DEMO_RENEWAL_DECLINE = "Your card was declined.";
/** Subscriptions per renewal transaction, and how many such transactions run at once. */
const BATCH = 1000;
const CONCURRENT_BATCHES = 4;

/** A demo invoice's id is derived from its subscription and period, so billing a period twice is a conflict. */
export const demoInvoiceId = (subscriptionId: number, periodStartDate: string, kind = "") =>
  `demo_in_${subscriptionId}_${periodStartDate}${kind}`;

/** The share of `cents` left for the rest of a period, for an upgrade in its middle. */
export function prorate(cents: number, periodStart: Date, periodEnd: Date, now: Date): number {
  const total = periodEnd.getTime() - periodStart.getTime();
  const left = Math.min(Math.max(periodEnd.getTime() - now.getTime(), 0), total);
  return total > 0 ? Math.round((cents * left) / total) : 0;
}

/**
 * What a renewal run calls back in SubscriptionsService (which passes itself): named here, so this file does not
 * import the service that imports it.
 */
export interface RenewalCallbacks {
  readonly mailer: Pick<BillingMailer, "gathering" | "message" | "link">;
  applyProviderState(
    state: ProviderSubscriptionState,
    tx: Tx,
    context?: { actor?: string; now?: Date; reason?: string | null },
  ): Promise<Subscription>;
  applyProviderInvoice(invoice: ProviderInvoiceState, tx: Tx, known?: Subscription): Promise<void>;
}

interface RenewContext {
  repo: SubscriptionsRepository;
  service: RenewalCallbacks;
  transaction: TransactionRunner;
  timeZone: string;
  onProgress?: (done: number) => void;
}

type Totals = { billed: number; paid: number; failed: number; ended: number; planChanges: number };

export class DemoBilling implements BillingProvider {
  readonly name = "demo" as const;
  constructor(private readonly plans: PlansService) {}

  /**
   * docs/decisions.md#23: a subscription keeps the price list its journey showed, stored on it when it was made
   * (`price_list`). A plan change bills the new plan from the same list. Given only an amount (a page that shows
   * prices without the subscription's row), the list is read from it as it used to be.
   */
  amountFor(target: Plan, current: Plan, sub: number | Pick<ProviderSubscription, "priceList">): number {
    const list =
      typeof sub === "number" ? (sub === current.checkoutPrice * 100 ? "checkout" : "pricing") : sub.priceList;
    return list === "checkout" ? target.checkoutPrice * 100 : target.price * 100;
  }

  stateOf(sub: ProviderSubscription): ProviderSubscriptionState {
    return {
      provider: "demo",
      providerSubscriptionId: sub.providerSubscriptionId,
      providerCustomerId: null,
      status: sub.status,
      planType: sub.planType,
      monthlyAmountCents: Math.round(sub.monthlyAmount * 100),
      currency: "cad",
      startedAt: new Date(sub.startedAt),
      currentPeriodStart: new Date(sub.currentPeriodStart),
      currentPeriodEnd: new Date(sub.currentPeriodEnd),
      cancelAt: sub.cancelAt ? new Date(sub.cancelAt) : null,
      canceledAt: sub.canceledAt ? new Date(sub.canceledAt) : null,
      payerEmail: sub.customerEmail,
      payerName: sub.customerName,
      checkoutRef: null,
    };
  }

  invoiceState(sub: ProviderSubscription, invoice: Invoice): ProviderInvoiceState {
    return {
      provider: "demo",
      providerInvoiceId: invoice.providerInvoiceId,
      providerSubscriptionId: sub.providerSubscriptionId,
      amountCents: Math.round(invoice.amount * 100),
      currency: invoice.currency,
      periodStart: new Date(invoice.periodStart),
      periodEnd: new Date(invoice.periodEnd),
      status: invoice.status,
      billingReason: invoice.billingReason,
      paidAt: invoice.paidAt ? new Date(invoice.paidAt) : null,
      failureReason: invoice.failureReason,
      attemptCount: 1,
    };
  }

  async read(sub: ProviderSubscription) {
    return this.stateOf(sub);
  }

  async scheduleCancel(sub: ProviderSubscription, cancelAt: Date, _key: string) {
    return { ...this.stateOf(sub), cancelAt };
  }

  async undoCancel(sub: ProviderSubscription, _key: string) {
    return { ...this.stateOf(sub), cancelAt: null };
  }

  async cancelNow(sub: ProviderSubscription, now: Date, _key: string) {
    return { ...this.stateOf(sub), status: "canceled", cancelAt: now, canceledAt: now };
  }

  async changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end" | "keep",
    now: Date,
    key: string,
    prorationDate: Date | null = null,
  ): Promise<PlanChange> {
    // A downgrade keeps the paid plan and price until the period ends, when the renewal applies it (renewBatch).
    if (when !== "now") return { state: this.stateOf(sub), invoice: null };
    // docs/decisions.md#49: a card that declines renewals declines the upgrade's charge too; the plan stays as it was.
    if (sub.cardFailsRenewals) return { state: this.stateOf(sub), invoice: null, declined: DEMO_RENEWAL_DECLINE };
    const state = { ...this.stateOf(sub), planType: plan.type, monthlyAmountCents: plan.amountCents };
    // An upgrade bills the difference for what is left of the period, at once; its id names the change
    // (docs/decisions.md#35), so a repeat of it is the same invoice.
    const start = new Date(sub.currentPeriodStart);
    const end = new Date(sub.currentPeriodEnd);
    // Prorated at the instant its preview showed (upgrade-preview.ts), so the charge is the figure shown.
    const amountCents = prorate(
      plan.amountCents - Math.round(sub.monthlyAmount * 100),
      start,
      end,
      prorationDate ?? now,
    );
    const invoice: ProviderInvoiceState | null =
      amountCents > 0
        ? {
            provider: "demo",
            providerInvoiceId: demoInvoiceId(sub.id, todayIn("UTC", now), `_up_${key.replace(/[^\w]+/g, "_")}`),
            providerSubscriptionId: sub.providerSubscriptionId,
            amountCents,
            currency: "cad",
            periodStart: now,
            periodEnd: end,
            status: "paid",
            billingReason: "subscription_update",
            paidAt: now,
            failureReason: null,
            attemptCount: 1,
          }
        : null;
    return { state, invoice };
  }

  /**
   * Bills every demo period that has come due by `asOf`, one period per subscription per pass. Batches hold
   * disjoint rows, so four run at once (each its own transaction): the few rows that change state take a dozen
   * round trips each, so the time goes into waiting on the database, not the CPU.
   */
  async renewDue(asOf: Date, ctx: RenewContext): Promise<Totals> {
    const totals: Totals = { billed: 0, paid: 0, failed: 0, ended: 0, planChanges: 0 };
    let done = 0;
    for (;;) {
      let afterId = 0;
      let seen = 0;
      const running = new Set<Promise<void>>();
      const failures: unknown[] = [];
      for (;;) {
        const ids = await ctx.repo.dueDemoIds(asOf, afterId, BATCH);
        if (!ids.length) break;
        afterId = ids[ids.length - 1]!;
        seen += ids.length;
        const batch: Promise<void> = ctx
          .transaction((tx) =>
            ctx.service.mailer.gathering(tx, (outbox) => this.renewBatch(ids, asOf, ctx, tx, totals, outbox)),
          )
          .then(() => {
            done += ids.length;
            ctx.onProgress?.(done);
          })
          .catch((error) => {
            failures.push(error);
          })
          .finally(() => running.delete(batch));
        running.add(batch);
        if (running.size >= CONCURRENT_BATCHES) await Promise.race(running);
        if (failures.length) break;
      }
      await Promise.all(running);
      if (failures.length) throw failures[0];
      if (!seen) return totals;
    }
  }

  private async renewBatch(
    ids: number[],
    asOf: Date,
    ctx: RenewContext,
    tx: Tx,
    totals: Totals,
    outbox: MailMessage[],
  ): Promise<void> {
    // Another worker renewing at once holds its rows: skip them, it bills them (each period once).
    const locked = await tx("subscriptions")
      .whereIn("id", ids)
      .where({ provider: "demo" })
      .whereIn("status", ["active", "past_due", "trialing"])
      .where("current_period_end", "<=", asOf)
      .forUpdate()
      .skipLocked()
      .select("id", "card_fails_renewals");
    if (!locked.length) return;
    const failing = new Set(locked.filter((r) => r.card_fails_renewals).map((r) => r.id as number));
    const subs = await ctx.repo.findMany(
      locked.map((r) => r.id as number),
      tx,
    );
    // The 3-D Secure test card: its renewals wait for the customer (identified by the card's last four digits).
    const authenticating = new Set(
      subs.filter((s) => s.cardLast4 === DEMO_AUTHENTICATION_CARD.slice(-4)).map((s) => s.id),
    );
    const plain: { sub: ProviderSubscription; next: ReturnType<typeof period> }[] = [];
    for (const sub of subs) {
      const endedOn = new Date(sub.currentPeriodEnd);
      const next = periodOn(sub.billingAnchor, todayIn(ctx.timeZone, endedOn), ctx.timeZone);
      const base = this.stateOf(sub);
      if (sub.cancelAt && new Date(sub.cancelAt) <= endedOn) {
        // The cancellation takes effect: nothing is charged after it.
        await ctx.service.applyProviderState({ ...base, status: "canceled", canceledAt: new Date(sub.cancelAt) }, tx, {
          actor: "system",
          now: endedOn,
        });
        totals.ended++;
      } else if (sub.status === "past_due") {
        // A month of failed retries: the subscription ends, as Stripe's default dunning setting does.
        await tx("invoices")
          .where({ subscription_id: sub.id, status: "open" })
          .update({ status: "uncollectible", updated_at: tx.fn.now() });
        await ctx.service.applyProviderState({ ...base, status: "canceled", canceledAt: endedOn }, tx, {
          actor: "system",
          now: endedOn,
          reason: "Payment failed: retries ran out",
        });
        totals.ended++;
      } else if (sub.scheduledPlanType || failing.has(sub.id) || authenticating.has(sub.id)) {
        const changes = Boolean(
          sub.scheduledPlanType && sub.scheduledPlanAt && new Date(sub.scheduledPlanAt) <= endedOn,
        );
        let amountCents = base.monthlyAmountCents;
        if (changes) {
          const [current, target] = await Promise.all([
            this.plans.get(sub.planType),
            this.plans.get(sub.scheduledPlanType!),
          ]);
          amountCents = this.amountFor(target, current, sub);
          totals.planChanges++;
        }
        const asks = authenticating.has(sub.id) && !failing.has(sub.id);
        const fails = failing.has(sub.id) || asks;
        const hostedInvoiceUrl = asks ? `${ctx.service.mailer.link(sub.id)}/card` : null;
        const state = {
          ...base,
          planType: changes ? sub.scheduledPlanType! : sub.planType,
          monthlyAmountCents: amountCents,
          currentPeriodStart: next.start,
          currentPeriodEnd: next.end,
          status: fails ? "past_due" : sub.status,
        };
        const after = await ctx.service.applyProviderState(state, tx, { actor: "system", now: endedOn });
        await ctx.service.applyProviderInvoice(
          {
            provider: "demo",
            providerInvoiceId: demoInvoiceId(sub.id, next.startDate),
            providerSubscriptionId: sub.providerSubscriptionId,
            amountCents,
            currency: "cad",
            periodStart: next.start,
            periodEnd: next.end,
            status: fails ? "open" : "paid",
            billingReason: "subscription_cycle",
            paidAt: fails ? null : endedOn,
            failureReason: asks ? ACTION_REQUIRED_REASON : fails ? DEMO_RENEWAL_DECLINE : null,
            attemptCount: 1,
            ...(asks ? { hostedInvoiceUrl } : {}),
          },
          tx,
          after,
        );
        if (asks && after.customerEmail)
          outbox.push(
            await ctx.service.mailer.message("payment_action_required", after, {
              amount: amountCents / 100,
              periodStart: next.start.toISOString(),
              periodEnd: next.end.toISOString(),
              hostedInvoiceUrl,
            }),
          );
        totals.billed++;
        if (fails) totals.failed++;
        else totals.paid++;
      } else {
        plain.push({ sub, next });
      }
    }
    await this.billPlain(plain, ctx, tx, totals, outbox);
  }

  /** The common case in bulk: the next period invoiced and paid, the period moved on, a receipt queued. */
  private async billPlain(
    plain: { sub: ProviderSubscription; next: ReturnType<typeof period> }[],
    ctx: RenewContext,
    tx: Tx,
    totals: Totals,
    outbox: MailMessage[],
  ): Promise<void> {
    if (!plain.length) return;
    // Numbered and taxed in bulk by the invoice write path (invoices.repository.ts, docs/decisions.md#33).
    const stored = await ctx.repo.insertRenewals(
      plain.map((p) => ({
        subscriptionId: p.sub.id,
        providerInvoiceId: demoInvoiceId(p.sub.id, p.next.startDate),
        subtotalCents: Math.round(p.sub.monthlyAmount * 100),
        periodStart: p.next.start,
        periodEnd: p.next.end,
      })),
      tx,
    );
    const billed = new Set<number>(stored.keys());
    await tx.raw(
      `update subscriptions s set current_period_start = v.ps, current_period_end = v.pe, version = s.version + 1, updated_at = now()
         from unnest(?::int[], ?::timestamptz[], ?::timestamptz[]) as v(sid, ps, pe) where s.id = v.sid`,
      [plain.map((p) => p.sub.id), plain.map((p) => p.next.start), plain.map((p) => p.next.end)],
    );
    for (const { sub, next } of plain) {
      if (!billed.has(sub.id) || !sub.customerEmail) continue;
      outbox.push(await this.receipt(ctx, sub, next, stored.get(sub.id)!));
    }
    totals.billed += billed.size;
    totals.paid += billed.size;
  }

  private async receipt(
    ctx: RenewContext,
    sub: ProviderSubscription,
    next: ReturnType<typeof period>,
    invoice: StoredInvoice,
  ): Promise<MailMessage> {
    return ctx.service.mailer.message("receipt", sub, {
      invoice: { ...invoice, taxLines: invoice.taxLines },
      amount: invoice.totalCents / 100,
      periodStart: next.start.toISOString(),
      periodEnd: next.end.toISOString(),
    });
  }
}
