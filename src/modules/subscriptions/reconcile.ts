// Books that match (docs/decisions.md#34): Haven's subscriptions, invoices and refunds compared with Stripe's, page by
// page (the SDK's auto-pagination). What a missed webhook left behind is repaired through the same write paths a
// webhook takes (applyProviderState, applyProviderInvoice, recordProviderRefund); every difference is reported. A paid
// invoice whose figures differ from Stripe's is corrected, with an audit event (docs/decisions.md#50).
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { ChangesRepository } from "./changes.repository.js";
import type { InvoiceFigures } from "../invoices/index.js";
import { readThenStore } from "./read-then-store.js";
import type { QuoteDifference, QuoteReconciler } from "./reconcile-quotes.js";
import type { RefundsService } from "../invoices/index.js";
import { type StripeRefunds, idOf, providerRefundOf } from "../invoices/index.js";
import { ForeignSubscriptionError, type StripeBilling, invoiceStateOf, stateOf } from "./stripe-billing.js";
import { StripeInvoiceNumbers } from "../invoices/index.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type { Invoice, ProviderInvoiceState, ProviderSubscriptionState } from "./subscriptions.constants.js";
import type { SubscriptionsService } from "./subscriptions.service.js";

export interface Difference {
  kind:
    | "subscription_missing"
    | "subscription_changed"
    | "subscription_only_in_haven"
    | "invoice_missing"
    | "invoice_changed"
    | "refund_missing"
    | QuoteDifference["kind"];
  /** Stripe's id (sub_…, in_…, re_…). */
  id: string;
  detail: string;
  repaired: boolean;
}

export interface ReconcileResult {
  mode: "stripe" | "demo";
  checked: { subscriptions: number; invoices: number; refunds: number; disputes: number };
  differences: Difference[];
  message: string;
}

export interface ReconcileDeps {
  stripe: Stripe | null;
  /** Stripe's refunds side (refunds-stripe.ts): a refund's invoice. */
  refunds: Pick<StripeRefunds, "invoiceOfPaymentIntent"> | null;
  recordRefund: Pick<RefundsService, "recordProviderRefund">;
  subscriptions: Pick<SubscriptionsService, "applyProviderState" | "applyProviderInvoice">;
  /** StripeBilling's readBack (a subscription with its customer, read as a webhook reads it before storing) and
   * taxRatesOf (the Tax Rates an invoice's taxes name, so its tax lines are Stripe's). */
  billing?: Pick<StripeBilling, "readBack" | "taxRatesOf"> | null;
  repo: Pick<SubscriptionsRepository, "findByProviderId" | "invoiceRows">;
  refundRows?: { findByProviderId(provider: string, id: string): Promise<unknown> };
  transaction: TransactionRunner;
  log: Logger;
  /** The subscriptions' row locks (docs/decisions.md#35); a ChangesRepository unless given. */
  changes?: Pick<ChangesRepository, "lockByProviderId" | "versions">;
  /** Quote payments and disputes (reconcile-quotes.ts, docs/decisions.md#53); none in demo mode. */
  quotes?: Pick<QuoteReconciler, "quoteInvoice" | "payments" | "disputes" | "holds"> | null;
  /** A paid invoice's figures corrected is an audit event (docs/decisions.md#50). */
  audit?: Pick<AuditLog, "record">;
}

/** Whether a stored invoice already has Stripe's figures (a cheap look before correcting under the lock). */
function sameFigures(local: Invoice, state: ProviderInvoiceState): boolean {
  const c = (dollars: number) => Math.round(dollars * 100);
  const taxes = state.taxLines?.map((l) => l.amountCents) ?? state.taxAmountsCents ?? [];
  return (
    c(local.amount) === (state.totalCents ?? state.amountCents) &&
    (state.subtotalCents === undefined || c(local.subtotal) === state.subtotalCents) &&
    JSON.stringify(local.taxLines.map((l) => l.amountCents)) === JSON.stringify(taxes) &&
    (!state.taxLines || local.taxLines.every((l, i) => l.label === state.taxLines![i]!.label)) &&
    c(local.balanceApplied) === (state.balanceAppliedCents ?? 0) &&
    (state.status !== "paid" || c(local.amountPaid) === state.amountCents)
  );
}

/** An invoice's figures as an audit event names them. */
const audited = (f: InvoiceFigures) => ({
  amountCents: f.amount_cents,
  subtotalCents: f.subtotal_cents,
  taxCents: f.tax_cents,
  taxLines: f.tax_lines,
  amountPaidCents: f.amount_paid_cents,
  balanceAppliedCents: f.balance_applied_cents,
});

const same = (a: string | null | undefined, b: Date | null) =>
  (a ? new Date(a).getTime() : null) === (b ? b.getTime() : null);

/** When Stripe issued an invoice (its date and its number's order, docs/decisions.md#54). */
const issueTime = (state: ProviderInvoiceState) => (state.issuedAt ?? state.periodStart).getTime();

export class Reconciler {
  private readonly changes: Pick<ChangesRepository, "lockByProviderId" | "versions">;
  private readonly numbers: StripeInvoiceNumbers | null;

  constructor(private readonly deps: ReconcileDeps) {
    this.changes = deps.changes ?? new ChangesRepository();
    this.numbers = deps.stripe
      ? new StripeInvoiceNumbers({ stripe: deps.stripe, invoices: deps.repo.invoiceRows, log: deps.log })
      : null;
  }

  /** Compares and repairs; `pageSize` is the page Stripe is asked for (up to 100). */
  async run(options: { pageSize?: number } = {}): Promise<ReconcileResult> {
    const { stripe } = this.deps;
    if (!stripe)
      return {
        mode: "demo",
        checked: { subscriptions: 0, invoices: 0, refunds: 0, disputes: 0 },
        differences: [],
        message:
          "Demo mode: the demo provider's subscriptions and invoices are Haven's own rows; there is nothing to compare.",
      };
    const limit = Math.min(Math.max(options.pageSize ?? 100, 1), 100);
    const differences: Difference[] = [];
    const checked = { subscriptions: 0, invoices: 0, refunds: 0, disputes: 0 };
    const seen = new Set<string>();

    for await (const subscription of stripe.subscriptions.list({ status: "all", limit })) {
      checked.subscriptions++;
      let state: ReturnType<typeof stateOf>;
      try {
        state = stateOf(subscription);
      } catch (error) {
        if (error instanceof ForeignSubscriptionError) continue;
        throw error;
      }
      seen.add(subscription.id);
      const local = await this.deps.repo.findByProviderId("stripe", subscription.id);
      const changes: string[] = [];
      if (local) {
        // A plan a dispute holds is past due in Haven while Stripe says active (docs/decisions.md#53): no difference.
        const held = local.status === "past_due" && (await this.deps.quotes?.holds(local.id));
        if (local.status !== state.status && !held) changes.push(`status ${local.status} → ${state.status}`);
        if (!same(local.currentPeriodEnd, state.currentPeriodEnd)) changes.push("current period");
        if (!same(local.cancelAt, state.cancelAt)) changes.push("cancellation date");
        if (!changes.length) continue;
      }
      // Its invoices are the invoices' pass's, which numbers the missed ones in their order of issue (#54).
      const repaired = await this.storeRead(subscription.id, state);
      differences.push(
        local
          ? { kind: "subscription_changed", id: subscription.id, detail: changes.join(", "), repaired }
          : {
              kind: "subscription_missing",
              id: subscription.id,
              detail: `${state.planType}, ${state.status}`,
              repaired,
            },
      );
    }

    // Missed or changed invoices are stored oldest issue first, so the numbers they take follow their order of issue
    // (docs/decisions.md#54); one issued before an invoice a webhook already numbered is marked recorded late.
    const missed: { state: ProviderInvoiceState; local: Invoice | null }[] = [];
    const open: ProviderInvoiceState[] = [];
    for await (const invoice of stripe.invoices.list({ limit })) {
      // With the Tax Rates its taxes name, so the tax lines stored are Stripe's (docs/decisions.md#50).
      const rates = this.deps.billing ? await this.deps.billing.taxRatesOf(invoice) : undefined;
      const state = invoiceStateOf(invoice, rates);
      if (!state || !seen.has(state.providerSubscriptionId)) continue;
      checked.invoices++;
      if (state.status === "open") open.push(state);
      const local = await this.deps.repo.invoiceRows.findByProviderId("stripe", state.providerInvoiceId);
      if (local?.status === "paid") {
        if (!sameFigures(local, state)) differences.push(...(await this.correctPaid(local, state)));
        continue;
      }
      if (local && local.status === state.status && sameFigures(local, state)) continue;
      missed.push({ state, local });
    }
    missed.sort((a, b) => issueTime(a.state) - issueTime(b.state));
    for (const { state, local } of missed) {
      const total = Math.round((local?.amount ?? 0) * 100);
      await this.deps.transaction(async (tx) => {
        await this.changes.lockByProviderId("stripe", state.providerSubscriptionId, tx);
        await this.deps.subscriptions.applyProviderInvoice(state, tx);
      });
      differences.push(
        local
          ? {
              kind: "invoice_changed",
              id: state.providerInvoiceId,
              detail: `${local.status} ${total} → ${state.status} ${state.totalCents ?? state.amountCents} cents`,
              repaired: true,
            }
          : {
              kind: "invoice_missing",
              id: state.providerInvoiceId,
              detail: `${state.status}, ${state.totalCents ?? state.amountCents} cents`,
              repaired: true,
            },
      );
    }
    // Stripe's page of each open invoice shows Haven's number, after the transactions (a failed call is tried again).
    await this.numbers?.show(open);

    for await (const refund of stripe.refunds.list({ limit })) {
      const intent = idOf(refund.payment_intent);
      if (!intent || (refund.status !== "succeeded" && refund.status !== "pending")) continue;
      if (await this.deps.refundRows?.findByProviderId("stripe", refund.id)) {
        checked.refunds++;
        continue;
      }
      // A quote payment's refund: its invoice holds the intent's id (docs/decisions.md#53).
      const quote = (await this.deps.quotes?.quoteInvoice(intent)) ?? null;
      const providerInvoiceId = quote ? null : await this.deps.refunds?.invoiceOfPaymentIntent(intent);
      const invoice =
        quote ??
        (providerInvoiceId ? await this.deps.repo.invoiceRows.findByProviderId("stripe", providerInvoiceId) : null);
      if (!invoice) continue;
      checked.refunds++;
      const recorded = await this.deps.transaction((tx) =>
        this.deps.recordRefund.recordProviderRefund(invoice.id, providerRefundOf(refund), tx),
      );
      differences.push({
        kind: "refund_missing",
        id: refund.id,
        detail: `${refund.amount} cents of ${invoice.number ?? providerInvoiceId}`,
        repaired: recorded !== null,
      });
    }

    // Quote invoices paid at Stripe that Haven lacks, and disputes (docs/decisions.md#53).
    if (this.deps.quotes) {
      const payments = await this.deps.quotes.payments();
      const disputes = await this.deps.quotes.disputes(limit);
      checked.invoices += payments.checked;
      checked.disputes = disputes.checked;
      differences.push(...payments.differences, ...disputes.differences);
    }

    for (const id of await this.deps.repo.invoiceRows.providerSubscriptionIds("stripe"))
      if (!seen.has(id))
        differences.push({
          kind: "subscription_only_in_haven",
          id,
          detail: "Stripe does not list it: check it in Stripe's dashboard",
          repaired: false,
        });

    const message = differences.length
      ? `${differences.length} difference(s) found, ${differences.filter((d) => d.repaired).length} repaired`
      : "Haven and Stripe agree";
    this.deps.log.info({ checked, differences: differences.length }, `reconcile: ${message}`);
    return { mode: "stripe", checked, differences, message };
  }

  /**
   * As a webhook does (docs/decisions.md#56): read back with its customer (the payer's e-mail) with no transaction
   * open, then stored under the row's lock unless the row changed meanwhile (its version), else read again, so a
   * change stored meanwhile is never overwritten by an older read. False when it kept changing: what changes it
   * (a webhook, a staff change) stores Stripe's state itself.
   */
  private async storeRead(id: string, listed: ProviderSubscriptionState): Promise<boolean> {
    const done = await readThenStore({ transaction: this.deps.transaction, changes: this.changes }, id, {
      read: async () => (this.deps.billing ? await this.deps.billing.readBack(id) : { state: listed }),
      lock: (tx) => this.changes.lockByProviderId("stripe", id, tx),
      store: (tx, read) => this.deps.subscriptions.applyProviderState(read.state, tx, { actor: "stripe" }),
    });
    return done !== null;
  }

  /**
   * A paid invoice's figures set to Stripe's (docs/decisions.md#50): under its subscription's lock, with an audit event
   * naming what changed, since a paid invoice's figures are what receipts and the tax report said.
   */
  private async correctPaid(local: Invoice, state: ProviderInvoiceState): Promise<Difference[]> {
    const change = await this.deps.transaction(async (tx) => {
      await this.changes.lockByProviderId("stripe", state.providerSubscriptionId, tx);
      const corrected = await this.deps.repo.invoiceRows.correctFigures(local.id, state, tx);
      if (corrected)
        await this.deps.audit?.record(tx, {
          action: "invoice.correct",
          recordType: "invoice",
          recordId: local.id,
          before: audited(corrected.before),
          after: { ...audited(corrected.after), source: "stripe" },
        });
      return corrected;
    });
    if (!change) return [];
    const fields = change.fields.map((f) => f.replace(/_cents$/, "").replaceAll("_", " ")).join(", ");
    return [
      {
        kind: "invoice_changed",
        id: state.providerInvoiceId,
        detail: `${local.number ?? "paid invoice"}: ${fields} corrected to Stripe's`,
        repaired: true,
      },
    ];
  }
}
