import type { Knex } from "knex";
import type { PlanType } from "../plans/plans.schemas.js";

export type PaymentProviderName = "stripe" | "demo";
export type PaymentKind = "checkout_session" | "payment_intent";
export type PaymentStatus = "pending" | "succeeded" | "failed";

export interface NewPayment {
  provider: PaymentProviderName;
  providerId: string;
  kind: PaymentKind;
  planType: PlanType | null;
  amountCents: number;
  currency: string;
  customerEmail: string | null;
  customerName: string | null;
  status: PaymentStatus;
  clientSecret?: string | null;
  /** Before tax (docs/decisions.md#32); null on rows from before tax, whose amount had none. */
  subtotalCents?: number | null;
  /** The home's postal code typed at checkout, when one was. */
  postalCode?: string | null;
}

export interface Payment extends NewPayment {
  id: number;
  createdAt: string;
}

type Row = Record<string, unknown>;

const toPayment = (row: Row): Payment => ({
  id: row.id as number,
  provider: row.provider as PaymentProviderName,
  providerId: row.provider_id as string,
  kind: row.kind as PaymentKind,
  planType: (row.plan_type as PlanType | null) ?? null,
  amountCents: row.amount_cents as number,
  currency: row.currency as string,
  customerEmail: (row.customer_email as string | null) ?? null,
  customerName: (row.customer_name as string | null) ?? null,
  status: row.status as PaymentStatus,
  clientSecret: (row.client_secret as string | null) ?? null,
  subtotalCents: (row.subtotal_cents as number | null) ?? null,
  postalCode: (row.postal_code as string | null) ?? null,
  createdAt: (row.created_at as Date).toISOString(),
});

export class PaymentsRepository {
  constructor(private readonly db: Knex) {}

  /** Inserts the payment unless its provider id is already recorded; true when this call wrote it. */
  async insertOnce(payment: NewPayment): Promise<boolean> {
    const rows = await this.db("payments")
      .insert({
        provider: payment.provider,
        provider_id: payment.providerId,
        kind: payment.kind,
        plan_type: payment.planType,
        amount_cents: payment.amountCents,
        currency: payment.currency,
        customer_email: payment.customerEmail,
        customer_name: payment.customerName,
        status: payment.status,
        client_secret: payment.clientSecret ?? null,
        subtotal_cents: payment.subtotalCents ?? null,
        postal_code: payment.postalCode ?? null,
      })
      .onConflict(["provider", "provider_id"])
      .ignore()
      .returning("id");
    return rows.length > 0;
  }

  /** Many payments in one insert, skipping provider ids already recorded; how many were written. */
  async insertManyOnce(payments: (NewPayment & { createdAt: Date })[], tx: Knex = this.db): Promise<number> {
    if (!payments.length) return 0;
    const rows = await tx("payments")
      .insert(
        payments.map((p) => ({
          provider: p.provider,
          provider_id: p.providerId,
          kind: p.kind,
          plan_type: p.planType,
          amount_cents: p.amountCents,
          currency: p.currency,
          customer_email: p.customerEmail,
          customer_name: p.customerName,
          status: p.status,
          client_secret: p.clientSecret ?? null,
          created_at: p.createdAt,
          updated_at: p.createdAt,
        })),
      )
      .onConflict(["provider", "provider_id"])
      .ignore()
      .returning("id");
    return rows.length;
  }

  async find(provider: PaymentProviderName, providerId: string): Promise<Payment | null> {
    const row = await this.db("payments").where({ provider, provider_id: providerId }).first();
    return row ? toPayment(row) : null;
  }

  /** Moves a pending payment on; the status check makes a second confirmation a no-op. */
  async settle(
    provider: PaymentProviderName,
    providerId: string,
    status: "succeeded" | "failed",
    customer: { email: string; name: string },
  ): Promise<Payment | null> {
    const [row] = await this.db("payments")
      .where({ provider, provider_id: providerId, status: "pending" })
      .update({ status, customer_email: customer.email, customer_name: customer.name, updated_at: this.db.fn.now() })
      .returning("*");
    return row ? toPayment(row) : null;
  }

  async totalRevenueCents(): Promise<number> {
    // A payment that started a subscription is counted by that subscription's invoice. Revenue is before tax
    // (docs/decisions.md#32): rows from before tax have no subtotal, and had no tax.
    const row = await this.db("payments")
      .where({ status: "succeeded" })
      .whereNull("subscription_id")
      .first(this.db.raw("sum(coalesce(subtotal_cents, amount_cents)) as total"));
    return Number(row?.total ?? 0);
  }
}
