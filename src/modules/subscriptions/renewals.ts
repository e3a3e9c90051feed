// The demo provider's billing run (docs/decisions.md#24): every demo period that has come due is billed, in batches
// of a thousand subscriptions, each its own transaction. How a batch takes its invoice numbers
// (docs/decisions.md#33, #54): all of them in one counter update at its end, and the batches take their turns
// in order of issue, so the numbers run in the order of the periods they bill and the counter's row is held only for
// the batch's last steps while the next batches do their first ones.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { PreparedRenewals, RenewalInvoice } from "../invoices/index.js";
import type { PlansService } from "../plans/index.js";
import { type period, periodOn } from "./billing-dates.js";
import type { ProviderSubscription } from "./billing-provider.js";
import type { BillingMailer } from "./billing-mailer.js";
import { ACTION_REQUIRED_REASON, type ProviderState } from "./provider-state.js";
import type { ProviderSubscriptionState, Subscription } from "./subscriptions.constants.js";
import type { Plan } from "../plans/plans.schemas.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { nameRenewalTasks, queueReceipts } from "./renewal-receipts.js";

/**
 * 4000 0027 6000 3184: pays the first invoice; every renewal waits for the customer's bank (3-D Secure), as Stripe's
 * test card does off session. The demo's "hosted invoice page" is the billing link's card page, where entering the
 * card again confirms and pays it.
 */
export const DEMO_AUTHENTICATION_CARD = "4000002760003184";

/** What a failed demo renewal says, as Stripe's decline does. */
export const DEMO_RENEWAL_DECLINE = "Your card was declined.";
/** A demo invoice's id is derived from its subscription and period, so billing a period twice is a conflict. */
export const demoInvoiceId = (subscriptionId: number, periodStartDate: string, kind = "") =>
  `demo_in_${subscriptionId}_${periodStartDate}${kind}`;

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
}

/** What the run asks of the demo provider (demo-billing.ts): its plans, a row as a provider state, a plan's price. */
export interface DemoPricing {
  readonly plans: PlansService;
  stateOf(sub: ProviderSubscription): ProviderSubscriptionState;
  amountFor(target: Plan, current: Plan, sub: Pick<ProviderSubscription, "priceList">): number;
}

/** Subscriptions per renewal transaction, and how many such transactions run at once. */
const BATCH = 1000;
const CONCURRENT_BATCHES = 4;

export interface RenewContext {
  repo: SubscriptionsRepository;
  service: RenewalCallbacks;
  /** A failed renewal's reason, bell and e-mail, as for any provider invoice (provider-state.ts). */
  failures: Pick<ProviderState, "followFailedPayment">;
  transaction: TransactionRunner;
  timeZone: string;
  onProgress?: (done: number) => void;
}

export type Totals = { billed: number; paid: number; failed: number; ended: number; planChanges: number };

type Next = ReturnType<typeof period>;

/** A period whose subscription changes as it starts: a plan change, a failing card, a bank that asks (3-D Secure). */
interface Special {
  sub: ProviderSubscription;
  after: Subscription;
  next: Next;
  amountCents: number;
  fails: boolean;
  asks: boolean;
  /** Why it is left open (the card's decline, or the bank's question); null when it is paid. */
  failureReason: string | null;
  hostedInvoiceUrl: string | null;
  /** When the period before ended: a paid renewal's payment. */
  endedOn: Date;
}

/**
 * Bills every demo period that has come due by `asOf`, one period per subscription per pass. A pass takes the due
 * subscriptions in order of the period they start, so batch k bills periods no later than batch k + 1's. Batches
 * hold disjoint rows, so four run at once, but each waits for the one before it to have committed before it takes
 * its numbers (`turn`): the numbers follow the order of issue across the run, with no gap (a batch that fails rolls
 * its numbers back and stops the run).
 */
export async function renewDueDemo(billing: DemoPricing, asOf: Date, ctx: RenewContext): Promise<Totals> {
  const { plans } = billing;
  const totals: Totals = { billed: 0, paid: 0, failed: 0, ended: 0, planChanges: 0 };
  let done = 0;
  await ctx.transaction((tx) => nameRenewalTasks(tx));
  for (;;) {
    const due = await ctx.repo.dueDemoIds(asOf);
    if (!due.length) return totals;
    const running = new Set<Promise<void>>();
    const failures: unknown[] = [];
    let turn: Promise<unknown> = Promise.resolve();
    for (let at = 0; at < due.length && !failures.length; at += BATCH) {
      const ids = due.slice(at, at + BATCH);
      const before = turn;
      // The batch's e-mails are queued in one statement, before its turn.
      const batch: Promise<void> = ctx
        .transaction(async (tx) => {
          const b = { billing, plans, asOf, ctx, tx, totals, before };
          const ready = await ctx.service.mailer.gathering(tx, (outbox) => prepareBatch(ids, { ...b, outbox }));
          if (ready) await billBatch(ready, b);
        })
        .then(() => {
          done += ids.length;
          ctx.onProgress?.(done);
        })
        .catch((error) => {
          failures.push(error);
        })
        .finally(() => running.delete(batch));
      // The next batch numbers after this one has committed (or rolled back) and every one before it has.
      turn = Promise.all([before, batch]);
      running.add(batch);
      if (running.size >= CONCURRENT_BATCHES) await Promise.race(running);
    }
    await Promise.all(running);
    if (failures.length) throw failures[0];
  }
}

interface Batch {
  billing: DemoPricing;
  plans: PlansService;
  asOf: Date;
  ctx: RenewContext;
  tx: Tx;
  totals: Totals;
  outbox: MailMessage[];
  /** Settles once every earlier batch of the pass has committed or rolled back. */
  before: Promise<unknown>;
}

/** What a batch's turn writes: prepared before it (prepareBatch), numbered and inserted in it (billBatch). */
interface Ready {
  prepared: PreparedRenewals;
  /** How many of the prepared invoices are left open: a failing card, a bank that asks. */
  failed: number;
}

/** A period's invoice as the batch inserts it, paid as the period starts unless `outcome` says otherwise. */
const renewalInvoice = (
  subscriptionId: number,
  next: Next,
  subtotalCents: number,
  outcome?: RenewalInvoice["outcome"],
): RenewalInvoice => ({
  subscriptionId,
  providerInvoiceId: demoInvoiceId(subscriptionId, next.startDate),
  subtotalCents,
  periodStart: next.start,
  periodEnd: next.end,
  outcome,
});

/**
 * Everything that takes no number (docs/decisions.md#77): the rows locked, cancellations and ended dunning, each
 * special row's new state, the plain periods moved, the invoices' taxes and ids, the receipts queued by invoice id
 * (renewal-receipts.ts), and each failed payment told. Null when the batch has nothing left to bill.
 */
async function prepareBatch(ids: number[], b: Batch): Promise<Ready | null> {
  const { ctx, tx, totals, billing } = b;
  // Another worker renewing at once holds some rows: skipped, it bills them (each period once).
  const subs = await ctx.repo.lockDueDemo(ids, b.asOf, tx);
  if (!subs.length) return null;
  const failing = new Set(subs.filter((s) => s.cardFailsRenewals).map((s) => s.id));
  // The 3-D Secure test card: its renewals wait for the customer (identified by the card's last four digits).
  const authenticating = new Set(
    subs.filter((s) => s.cardLast4 === DEMO_AUTHENTICATION_CARD.slice(-4)).map((s) => s.id),
  );
  // First what takes no number: cancellations, ended dunning, and each special row's new state.
  const plain: { sub: ProviderSubscription; next: Next }[] = [];
  const special: Special[] = [];
  for (const sub of subs) {
    const endedOn = new Date(sub.currentPeriodEnd);
    const next = periodOn(sub.billingAnchor, todayIn(ctx.timeZone, endedOn), ctx.timeZone);
    const base = billing.stateOf(sub);
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
      special.push(await moveSpecial(sub, next, base, failing.has(sub.id), authenticating.has(sub.id), b));
    } else {
      plain.push({ sub, next });
    }
  }
  if (plain.length)
    await tx.raw(
      `update subscriptions s set current_period_start = v.ps, current_period_end = v.pe, version = s.version + 1, updated_at = now()
         from unnest(?::int[], ?::timestamptz[], ?::timestamptz[]) as v(sid, ps, pe) where s.id = v.sid`,
      [plain.map((p) => p.sub.id), plain.map((p) => p.next.start), plain.map((p) => p.next.end)],
    );
  if (!plain.length && !special.length) return null;

  // The invoices, taxed and given their ids; a period already billed keeps its invoice and takes no number (this
  // batch holds the rows: nobody adds one now), and is told nothing again.
  const prepared = await ctx.repo.invoiceRows.prepareRenewals(
    [
      ...plain.map((p) => renewalInvoice(p.sub.id, p.next, Math.round(p.sub.monthlyAmount * 100))),
      ...special.map((s) =>
        renewalInvoice(s.after.id, s.next, s.amountCents, {
          paidAt: s.fails ? null : s.endedOn,
          failureReason: s.failureReason,
          hostedInvoiceUrl: s.hostedInvoiceUrl,
        }),
      ),
    ],
    tx,
  );
  const idOf = new Map(prepared.todo.map((r, i) => [r.providerInvoiceId, prepared.ids[i]!]));
  // The receipts name their invoices by the ids taken above; their jobs read the rest when they run.
  const receipts = plain
    .filter((p) => p.sub.customerEmail)
    .map((p) => idOf.get(demoInvoiceId(p.sub.id, p.next.startDate)));
  let failed = 0;
  for (const s of special) {
    const id = idOf.get(demoInvoiceId(s.after.id, s.next.startDate));
    if (id === undefined) continue;
    if (!s.fails) {
      if (s.after.customerEmail) receipts.push(id);
      continue;
    }
    failed++;
    await tellFailure(s, b);
  }
  await queueReceipts(
    tx,
    receipts.filter((id): id is number => id !== undefined),
  );
  return { prepared, failed };
}

/** The batch's turn: after every earlier batch, all its numbers in one counter update, in order of issue; then the insert. */
async function billBatch(ready: Ready, b: Omit<Batch, "outbox">): Promise<void> {
  const { ctx, tx, totals } = b;
  await b.before;
  const { todo } = ready.prepared;
  // A renewal is issued as its period starts (docs/decisions.md#54).
  await ctx.repo.invoiceRows.reserveNumbers(
    todo.map((r) => ({ providerInvoiceId: r.providerInvoiceId, issuedAt: r.periodStart })),
    tx,
  );
  const stored = await ctx.repo.insertRenewals(ready.prepared, tx);
  totals.billed += stored.size;
  totals.failed += ready.failed;
  totals.paid += stored.size - ready.failed;
  // Every reserved number is on an invoice, or the batch rolls back (no gap).
  if (ctx.repo.invoiceRows.reservedLeft(tx) !== 0)
    throw new Error("A renewal batch left an invoice number unused; the batch is rolled back");
}

/** A special row's next period: the plan it moves to, and its state stored (the invoice follows, numbered). */
async function moveSpecial(
  sub: ProviderSubscription,
  next: Next,
  base: ProviderSubscriptionState,
  failing: boolean,
  authenticating: boolean,
  { ctx, tx, totals, billing, plans }: Batch,
): Promise<Special> {
  const endedOn = new Date(sub.currentPeriodEnd);
  const changes = Boolean(sub.scheduledPlanType && sub.scheduledPlanAt && new Date(sub.scheduledPlanAt) <= endedOn);
  let amountCents = base.monthlyAmountCents;
  if (changes) {
    const [current, target] = await Promise.all([plans.get(sub.planType), plans.get(sub.scheduledPlanType!)]);
    amountCents = billing.amountFor(target, current, sub);
    totals.planChanges++;
  }
  const asks = authenticating && !failing;
  const fails = failing || asks;
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
  const failureReason = asks ? ACTION_REQUIRED_REASON : fails ? DEMO_RENEWAL_DECLINE : null;
  return { sub, after, next, amountCents, fails, asks, failureReason, hostedInvoiceUrl, endedOn };
}

/** A special row's failed payment, told as any provider invoice's is; a bank that asks gets its own e-mail. */
async function tellFailure(s: Special, { ctx, tx, outbox }: Batch): Promise<void> {
  const { after, next, amountCents, asks, failureReason, hostedInvoiceUrl } = s;
  await ctx.failures.followFailedPayment(
    {
      provider: "demo",
      providerInvoiceId: demoInvoiceId(after.id, next.startDate),
      providerSubscriptionId: s.sub.providerSubscriptionId,
      amountCents,
      currency: "cad",
      periodStart: next.start,
      periodEnd: next.end,
      status: "open",
      billingReason: "subscription_cycle",
      paidAt: null,
      failureReason,
      attemptCount: 1,
    },
    after,
    tx,
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
}
