import type { Knex } from "knex";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/index.js";
import type { Tx } from "../../db/transaction.js";
import type { PlanType } from "../plans/plans.schemas.js";
import type { ProviderSubscription } from "./billing-provider.js";
import {
  type InvoiceSettings,
  InvoicesRepository,
  type PreparedRenewals,
  type RenewalInvoice,
  type StoredInvoice,
  toInvoice,
} from "../invoices/index.js";
import { QuoteInvoicesRepository } from "../invoices/index.js";
import { SEARCH_COUNT_CAP, countToCap } from "../../db/property-search.js";
import { type SubscriptionFilter, matchingIds, whereSubscriptionMatch } from "./subscription-filter.js";
import { SubscriptionFiguresRepository } from "./subscription-figures.repository.js";
import type {
  Invoice,
  ProviderInvoiceState,
  ProviderSubscriptionState,
  SubscriptionEvent,
  SubscriptionProvider,
} from "./subscriptions.constants.js";

type Row = Record<string, unknown>;
type Db = Knex | Tx;

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value == null ? null : new Date(value as string).toISOString();
const dateOnly = (value: unknown) =>
  value instanceof Date
    ? `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, "0")}-${String(value.getDate()).padStart(2, "0")}`
    : String(value).slice(0, 10);

/** A subscription row (joined with its customer and property) as the API and the providers see it. */
export const toSubscription = (row: Row): ProviderSubscription => ({
  id: row.id as number,
  customerId: (row.customer_id as number | null) ?? null,
  propertyId: (row.property_id as number | null) ?? null,
  planType: row.plan_type as PlanType,
  status: row.status as string,
  provider: row.provider as SubscriptionProvider,
  startedAt: iso(row.started_at)!,
  currentPeriodStart: iso(row.current_period_start)!,
  currentPeriodEnd: iso(row.current_period_end)!,
  minimumTermEndsAt: iso(row.minimum_term_ends_at)!,
  cancelAt: iso(row.cancel_at),
  canceledAt: iso(row.canceled_at),
  monthlyAmount: (row.monthly_amount_cents as number) / 100,
  cancellationReason: (row.cancellation_reason as string | null) ?? null,
  scheduledPlanType: (row.scheduled_plan_type as PlanType | null) ?? null,
  scheduledPlanAt: iso(row.scheduled_plan_at),
  customerName: ((row.customer_name ?? row.payer_name) as string | null) ?? null,
  customerEmail: ((row.customer_email ?? row.payer_email) as string | null) ?? null,
  customerLocale: isLocale(row.customer_locale) ? row.customer_locale : DEFAULT_LOCALE,
  propertyAddress: (row.property_address as string | null) ?? null,
  cardLast4: (row.card_last4 as string | null) ?? null,
  lastPaymentError: (row.last_payment_error as string | null) ?? null,
  lastPaymentErrorCode: (row.last_payment_error_code as string | null) ?? null,
  version: row.version as number,
  providerSubscriptionId: row.provider_subscription_id as string,
  providerCustomerId: (row.provider_customer_id as string | null) ?? null,
  billingAnchor: dateOnly(row.billing_anchor),
  priceList: row.price_list === "checkout" ? "checkout" : "pricing",
  cardFailsRenewals: Boolean(row.card_fails_renewals),
});

const toEvent = (row: Row): SubscriptionEvent => ({
  id: Number(row.id),
  kind: row.kind as string,
  fromPlan: (row.from_plan as string | null) ?? null,
  toPlan: (row.to_plan as string | null) ?? null,
  actor: row.actor as string,
  detail: (row.detail as Record<string, unknown> | null) ?? null,
  createdAt: iso(row.created_at)!,
});

/** The local fields Haven keeps beside the provider's state. */
export interface LocalFields {
  billingAnchor: string;
  minimumTermEndsAt: Date;
  cardLast4?: string | null;
  cardFailsRenewals?: boolean;
  taxProvince?: string | null;
}

export class SubscriptionsRepository {
  /** The invoice write path and reads (invoices.repository.ts); the methods below delegate to it. */
  readonly invoiceRows: InvoicesRepository;
  /** Accepted quotes' invoices (quote-invoices.repository.ts), numbered by invoiceRows; the quotes module's port. */
  readonly quoteInvoiceRows: QuoteInvoicesRepository;
  /** The staff's figures: MRR, counts, revenue (subscription-figures.repository.ts). */
  readonly figures: SubscriptionFiguresRepository;

  constructor(
    private readonly db: Knex,
    invoiceSettings: Partial<InvoiceSettings> = {},
  ) {
    this.invoiceRows = new InvoicesRepository(db, invoiceSettings);
    this.quoteInvoiceRows = new QuoteInvoicesRepository(db, this.invoiceRows);
    this.figures = new SubscriptionFiguresRepository(db);
  }

  private joined(db: Db = this.db) {
    return db("subscriptions as s")
      .leftJoin("customers as c", "c.id", "s.customer_id")
      .leftJoin("properties as p", "p.id", "s.property_id")
      .select(
        "s.*",
        "c.name as customer_name",
        "c.email as customer_email",
        "c.locale as customer_locale",
        db.raw("concat_ws(', ', p.address, p.city) as property_address"),
      );
  }

  /** A customer's language and the Stripe customers of their plans (its preferred_locales follow it). */
  async stripeCustomersOf(customerId: number, db: Db = this.db): Promise<{ ids: string[]; locale: string | null }> {
    const rows = await db("subscriptions as s")
      .join("customers as c", "c.id", "s.customer_id")
      .where({ "s.customer_id": customerId, "s.provider": "stripe" })
      .whereNotNull("s.provider_customer_id")
      .distinct("s.provider_customer_id", "c.locale");
    return {
      ids: rows.map((r: { provider_customer_id: string }) => r.provider_customer_id),
      locale: (rows[0]?.locale as string | undefined) ?? null,
    };
  }

  async find(id: number, db: Db = this.db): Promise<ProviderSubscription | null> {
    const row = await this.joined(db).where("s.id", id).first();
    return row ? toSubscription(row) : null;
  }

  /** The row locked for the caller's transaction (every state change goes through here). */
  async lock(id: number, tx: Tx): Promise<ProviderSubscription | null> {
    await tx("subscriptions").where({ id }).forUpdate().first("id");
    return this.find(id, tx);
  }

  async findByProviderId(
    provider: SubscriptionProvider,
    providerSubscriptionId: string,
    db: Db = this.db,
  ): Promise<ProviderSubscription | null> {
    const row = await this.joined(db)
      .where({ "s.provider": provider, "s.provider_subscription_id": providerSubscriptionId })
      .first();
    return row ? toSubscription(row) : null;
  }

  async findByCheckoutRef(ref: string, db: Db = this.db): Promise<ProviderSubscription | null> {
    const row = await this.joined(db).where("s.checkout_ref", ref).first();
    return row ? toSubscription(row) : null;
  }

  async latestForProperty(propertyId: number, db: Db = this.db): Promise<ProviderSubscription | null> {
    const row = await this.joined(db)
      .where("s.property_id", propertyId)
      .orderBy([
        { column: "s.created_at", order: "desc" },
        { column: "s.id", order: "desc" },
      ])
      .first();
    return row ? toSubscription(row) : null;
  }

  /**
   * Inserts the provider's subscription or stores its current state over the row (one row per provider id).
   * Returns the row before (null when new) and after.
   */
  async upsertState(
    state: ProviderSubscriptionState,
    local: LocalFields,
    tx: Tx,
  ): Promise<{ before: ProviderSubscription | null; id: number }> {
    const fields = {
      provider_customer_id: state.providerCustomerId,
      status: state.status,
      monthly_amount_cents: state.monthlyAmountCents,
      currency: state.currency,
      current_period_start: state.currentPeriodStart,
      current_period_end: state.currentPeriodEnd,
      cancel_at: state.cancelAt,
      canceled_at: state.canceledAt,
    };
    // The checkout's redirect and Stripe's first webhooks race to insert: one wins, the others update under its lock.
    const [inserted] = await tx("subscriptions")
      .insert({
        ...fields,
        provider: state.provider,
        provider_subscription_id: state.providerSubscriptionId,
        plan_type: state.planType,
        payer_email: state.payerEmail,
        payer_name: state.payerName,
        checkout_ref: state.checkoutRef,
        started_at: state.startedAt,
        billing_anchor: local.billingAnchor,
        minimum_term_ends_at: local.minimumTermEndsAt,
        card_last4: local.cardLast4 ?? null,
        card_fails_renewals: local.cardFailsRenewals ?? false,
        // Stored when it is made (docs/decisions.md#23, #32): plan changes bill this list; tax follows the home.
        price_list: state.priceList ?? "pricing",
        tax_postal_code: state.postalCode ?? null,
        tax_province: local.taxProvince ?? null,
      })
      .onConflict(["provider", "provider_subscription_id"])
      .ignore()
      .returning("id");
    if (inserted) return { before: null, id: inserted.id as number };
    const before = await tx("subscriptions")
      .where({ provider: state.provider, provider_subscription_id: state.providerSubscriptionId })
      .forUpdate()
      .first();
    await tx("subscriptions")
      .where({ id: before.id })
      .update({
        ...fields,
        payer_email: before.payer_email ?? state.payerEmail,
        payer_name: before.payer_name ?? state.payerName,
        checkout_ref: before.checkout_ref ?? state.checkoutRef,
        // The provider's own third period (Stripe's anchor): rows stored before it was read this way follow it.
        ...(state.minimumTermEndsAt ? { minimum_term_ends_at: state.minimumTermEndsAt } : {}),
        version: tx.raw("version + 1"),
        updated_at: tx.fn.now(),
      });
    return { before: toSubscription(before), id: before.id as number };
  }

  async update(id: number, fields: Row, tx: Tx): Promise<void> {
    await tx("subscriptions")
      .where({ id })
      .update({ ...fields, version: tx.raw("version + 1"), updated_at: tx.fn.now() });
  }

  async attach(id: number, ids: { customerId: number; propertyId: number }, tx: Tx): Promise<void> {
    await this.update(id, { customer_id: ids.customerId, property_id: ids.propertyId }, tx);
  }

  async cardFailsRenewals(id: number, db: Db = this.db): Promise<boolean> {
    const row = await db("subscriptions").where({ id }).first("card_fails_renewals");
    return Boolean(row?.card_fails_renewals);
  }

  /** Inserts or updates an invoice by provider id, numbered and taxed (invoices.repository.ts). */
  upsertInvoice(
    subscriptionId: number,
    invoice: ProviderInvoiceState,
    tx: Tx,
  ): Promise<{ before: string | null; attemptsBefore: number; id: number }> {
    return this.invoiceRows.upsertInvoice(subscriptionId, invoice, tx);
  }

  /** A demo renewal batch's paid invoices in one insert, numbered and taxed (invoices.repository.ts). */
  insertRenewals(rows: RenewalInvoice[] | PreparedRenewals, tx: Tx): Promise<Map<number, StoredInvoice>> {
    return this.invoiceRows.insertRenewals(rows, tx);
  }

  invoices(subscriptionId: number, db: Db = this.db): Promise<Invoice[]> {
    return this.invoiceRows.invoices(subscriptionId, db);
  }

  /** The latest unpaid invoice of a subscription (the one a new card pays). */
  async openInvoice(subscriptionId: number, tx: Tx): Promise<(Invoice & { amountCents: number }) | null> {
    const row = await tx("invoices")
      .where({ subscription_id: subscriptionId, status: "open" })
      .orderBy("period_start", "desc")
      .forUpdate()
      .first();
    return row ? { ...toInvoice(row), amountCents: row.amount_cents as number } : null;
  }

  async logEvent(
    subscriptionId: number,
    event: {
      kind: string;
      actor: string;
      fromPlan?: string | null;
      toPlan?: string | null;
      detail?: Record<string, unknown> | null;
    },
    tx: Tx,
  ): Promise<void> {
    await tx("subscription_events").insert({
      subscription_id: subscriptionId,
      kind: event.kind,
      actor: event.actor,
      from_plan: event.fromPlan ?? null,
      to_plan: event.toPlan ?? null,
      detail: event.detail ? JSON.stringify(event.detail) : null,
    });
  }

  async events(subscriptionId: number, db: Db = this.db): Promise<SubscriptionEvent[]> {
    const rows = await db("subscription_events")
      .where({ subscription_id: subscriptionId })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    return rows.map(toEvent);
  }

  /** Whether a provider event id was already processed (looked at before Stripe is called for it). */
  async eventClaimed(eventId: string, db: Db = this.db): Promise<boolean> {
    return Boolean(await db("provider_events").where({ event_id: eventId }).first("event_id"));
  }

  /** Records a provider event id; false when it was already processed (the caller then does nothing). */
  async claimEvent(eventId: string, type: string, tx: Tx): Promise<boolean> {
    const rows = await tx("provider_events")
      .insert({ event_id: eventId, type })
      .onConflict("event_id")
      .ignore()
      .returning("event_id");
    return rows.length > 0;
  }

  /**
   * A page of the staff list and its count. A search counts its matches up to SEARCH_COUNT_CAP: past it, `total` is
   * the cap and `capped` is true, and the page walks the list's order and stops at its rows (docs/decisions.md#77).
   */
  async list(filter: SubscriptionFilter): Promise<{ rows: ProviderSubscription[]; total: number; capped: boolean }> {
    const newestFirst = (query: Knex.QueryBuilder) =>
      query
        .orderBy([
          { column: "s.created_at", order: "desc" },
          { column: "s.id", order: "desc" },
        ])
        .limit(filter.limit)
        .offset(filter.offset);
    if (filter.q?.trim()) {
      const ids = await matchingIds(this.db, filter, SEARCH_COUNT_CAP + 1);
      const count = countToCap(ids);
      const rows = count.capped
        ? await newestFirst(whereSubscriptionMatch(this.joined(), filter))
        : await newestFirst(this.joined().whereRaw("s.id = any(?::int[])", [ids]));
      return { rows: rows.map(toSubscription), ...count };
    }
    const rows = await newestFirst(whereSubscriptionMatch(this.joined(), filter));
    const [{ count }] = await whereSubscriptionMatch(this.db("subscriptions as s"), filter).count({ count: "*" });
    return { rows: rows.map(toSubscription), total: Number(count), capped: false };
  }

  /**
   * Demo subscriptions whose current period ended by `asOf`, in order of the period that ends (the renewal's issue,
   * renewals.ts), then of id.
   */
  async dueDemoIds(asOf: Date): Promise<number[]> {
    const rows = await this.db("subscriptions")
      .where({ provider: "demo" })
      .whereIn("status", ["active", "past_due", "trialing"])
      .where("current_period_end", "<=", asOf)
      .orderBy(["current_period_end", "id"])
      .select("id");
    return rows.map((r) => r.id as number);
  }

  /**
   * Those of `ids` still due by `asOf`, read and locked in one query for a renewal batch (renewals.ts); rows another
   * transaction holds are skipped (a renewal running at once bills them).
   */
  async lockDueDemo(ids: number[], asOf: Date, tx: Tx): Promise<ProviderSubscription[]> {
    const rows = await this.joined(tx)
      .whereRaw("s.id = any(?::int[])", [ids])
      .where({ "s.provider": "demo" })
      .whereIn("s.status", ["active", "past_due", "trialing"])
      .where("s.current_period_end", "<=", asOf)
      .orderBy("s.id")
      .forUpdate("s")
      .skipLocked();
    return rows.map(toSubscription);
  }
}
