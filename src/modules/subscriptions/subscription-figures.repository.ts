// The staff's figures over every subscription (the list's cards, the dashboard, Total Revenue): MRR and counts by
// status, past-due homes, and revenue net of refunds and lost disputes.
import type { Knex } from "knex";
import { MRR_STATUSES } from "./subscriptions.constants.js";

export class SubscriptionFiguresRepository {
  constructor(private readonly db: Knex) {}

  /** MRR (cents), active and past-due counts, and cancellations that took effect since `monthStart`. */
  async metrics(
    monthStart: Date,
    now: Date,
  ): Promise<{ mrrCents: number; active: number; pastDue: number; canceledThisMonth: number }> {
    const row = await this.db("subscriptions")
      .select(
        this.db.raw("coalesce(sum(monthly_amount_cents) filter (where status = any(?)), 0)::bigint as mrr", [
          MRR_STATUSES as string[],
        ]),
        this.db.raw("count(*) filter (where status in ('active', 'trialing'))::int as active"),
        this.db.raw("count(*) filter (where status = 'past_due')::int as past_due"),
        this.db.raw("count(*) filter (where canceled_at >= ? and canceled_at <= ?)::int as canceled", [
          monthStart,
          now,
        ]),
      )
      .first();
    return { mrrCents: Number(row.mrr), active: row.active, pastDue: row.past_due, canceledThisMonth: row.canceled };
  }

  async pastDuePropertyIds(propertyIds: number[]): Promise<number[]> {
    if (!propertyIds.length) return [];
    const rows = await this.db("subscriptions")
      .whereIn("property_id", propertyIds)
      .where({ status: "past_due" })
      .distinct("property_id");
    return rows.map((r) => r.property_id as number);
  }

  async pastDueCount(): Promise<number> {
    const [row] = await this.db("subscriptions").where({ status: "past_due" }).count({ count: "*" });
    return Number(row?.count ?? 0);
  }

  /**
   * Revenue of paid invoices (docs/decisions.md#34): subtotals before tax, net of what was refunded of them and of
   * what lost disputes took back (docs/decisions.md#53).
   */
  async paidInvoicesCents(): Promise<number> {
    const result = await this.db.raw(
      `select coalesce((select sum(coalesce(subtotal_cents, amount_cents)) from invoices where status = 'paid'), 0)
            - coalesce((select sum(r.amount_cents - r.tax_cents) from refunds r join invoices i on i.id = r.invoice_id
                         where i.status = 'paid'), 0)
            - coalesce((select sum(d.lost_cents - d.lost_tax_cents) from disputes d join invoices i on i.id = d.invoice_id
                         where i.status = 'paid' and d.lost_at is not null), 0) as total`,
    );
    return Number(result.rows[0]?.total ?? 0);
  }
}
