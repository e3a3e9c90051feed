// The tax report's sums (docs/decisions.md#50): the tax lines of invoices whose tax fell due in a range, and of the
// refunds (credit notes) made and disputes lost in it (docs/decisions.md#53), by province and tax, with the sales
// before tax counted once per invoice.
import type { Knex } from "knex";

export interface TaxSumRow {
  province: string;
  /** GST, HST or QST; "none" for invoices (or their refunds) that charged no tax. */
  kind: string;
  label: string;
  percent: number;
  taxCents: number;
  /** The before-tax amounts those taxes were charged (or refunded) on. */
  baseCents: number;
  /** Of taxCents, on invoices not paid yet (collectible, not collected). */
  unpaidCents: number;
}

/**
 * The day an invoice's tax falls due: the earlier of its date and its payment (the CRA's rule, which Revenu Québec's
 * QST follows). Its date is its period's start: a renewal's first day, a quote invoice's issue. The report is read a
 * few times a quarter: a scan of the invoices, rather than one more index for every invoice written to keep up.
 */
const TAX_POINT = "least(i.period_start, i.paid_at)";

/**
 * Invoices whose tax is due: paid ones, and unpaid renewals and quote invoices (issued for a supply already under way
 * or agreed). An unpaid first invoice or upgrade is not a sale until paid (Stripe voids it when it expires); drafts
 * and voided invoices never are.
 */
const DUE = `(i.status = 'paid' or (i.status in ('open', 'uncollectible') and i.number is not null
              and i.billing_reason in ('subscription_cycle', 'quote')))`;

/**
 * What went back to customers in [from, to) (two pairs of bindings): refunds on the day they were made, and disputes
 * on the day they were lost, each with its amount (tax included), its tax and its tax lines (docs/decisions.md#53).
 */
const GIVEN_BACK = `select r.invoice_id, r.amount_cents, r.tax_cents, r.tax_lines from refunds r
                     where r.created_at >= ? and r.created_at < ?
                    union all
                    select d.invoice_id, d.lost_cents, d.lost_tax_cents, d.lost_tax_lines from disputes d
                     where d.lost_at >= ? and d.lost_at < ? and d.invoice_id is not null`;

const toRow = (row: Record<string, unknown>): TaxSumRow => ({
  province: (row.province as string | null) ?? "—",
  kind: (row.kind as string | null) ?? "none",
  label: (row.label as string | null) ?? "No tax",
  percent: Number(row.percent ?? 0),
  taxCents: Number(row.tax_cents),
  baseCents: Number(row.base_cents),
  unpaidCents: Number(row.unpaid_cents ?? 0),
});

export class TaxReportRepository {
  constructor(private readonly db: Knex) {}

  /** Tax charged on invoices whose tax fell due in [from, to): each tax line, and a "none" row for untaxed ones. */
  async collected(from: Date, to: Date): Promise<TaxSumRow[]> {
    const result = await this.db.raw(
      `select i.tax_province as province, l->>'kind' as kind, l->>'label' as label, (l->>'percent')::numeric as percent,
              coalesce(sum((l->>'amountCents')::bigint), 0) as tax_cents,
              sum(coalesce(i.subtotal_cents, i.amount_cents)) as base_cents,
              coalesce(sum((l->>'amountCents')::bigint) filter (where i.status <> 'paid'), 0) as unpaid_cents
         from invoices i left join lateral jsonb_array_elements(i.tax_lines) l on true
        where ${DUE} and ${TAX_POINT} >= ? and ${TAX_POINT} < ?
        group by 1, 2, 3, 4 order by 1, 2, 4`,
      [from, to],
    );
    return result.rows.map(toRow);
  }

  /**
   * Tax given back in [from, to), whenever its invoice was paid: by refunds made then, and by disputes lost then
   * (docs/decisions.md#53: the customer's bank took the money back, tax included); "none" for untaxed ones.
   */
  async refunded(from: Date, to: Date): Promise<TaxSumRow[]> {
    const result = await this.db.raw(
      `select i.tax_province as province, l->>'kind' as kind, l->>'label' as label, (l->>'percent')::numeric as percent,
              coalesce(sum((l->>'amountCents')::bigint), 0) as tax_cents, sum(r.amount_cents - r.tax_cents) as base_cents
         from (${GIVEN_BACK}) r join invoices i on i.id = r.invoice_id
              left join lateral jsonb_array_elements(r.tax_lines) l on true
        group by 1, 2, 3, 4 order by 1, 2, 4`,
      [from, to, from, to],
    );
    return result.rows.map(toRow);
  }

  /** Sales before tax, each invoice and each refund once: the invoices due in [from, to) and the refunds made in it. */
  async sales(from: Date, to: Date): Promise<{ invoicedCents: number; refundedCents: number }> {
    const result = await this.db.raw(
      `select (select coalesce(sum(coalesce(i.subtotal_cents, i.amount_cents)), 0) from invoices i
                where ${DUE} and ${TAX_POINT} >= ? and ${TAX_POINT} < ?) as invoiced,
              (select coalesce(sum(r.amount_cents - r.tax_cents), 0) from (${GIVEN_BACK}) r) as refunded`,
      [from, to, from, to, from, to],
    );
    const row = result.rows[0] as { invoiced: string; refunded: string };
    return { invoicedCents: Number(row.invoiced), refundedCents: Number(row.refunded) };
  }
}
