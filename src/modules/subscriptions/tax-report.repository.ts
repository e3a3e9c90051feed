// The tax report's sums (docs/decisions.md#32–34): tax lines of paid invoices by when they were paid, and of refunds
// by when they were made, grouped by province and tax.
import type { Knex } from "knex";

export interface TaxSumRow {
  province: string;
  kind: string;
  label: string;
  percent: number;
  taxCents: number;
  /** The before-tax amounts those taxes were charged (or refunded) on. */
  baseCents: number;
}

const toRow = (row: Record<string, unknown>): TaxSumRow => ({
  province: (row.province as string | null) ?? "—",
  kind: row.kind as string,
  label: row.label as string,
  percent: Number(row.percent),
  taxCents: Number(row.tax_cents),
  baseCents: Number(row.base_cents),
});

export class TaxReportRepository {
  constructor(private readonly db: Knex) {}

  /** Tax collected on invoices paid in [from, to). */
  async collected(from: Date, to: Date): Promise<TaxSumRow[]> {
    const result = await this.db.raw(
      `select i.tax_province as province, l->>'kind' as kind, l->>'label' as label, (l->>'percent')::numeric as percent,
              sum((l->>'amountCents')::bigint) as tax_cents, sum(coalesce(i.subtotal_cents, i.amount_cents)) as base_cents
         from invoices i cross join lateral jsonb_array_elements(i.tax_lines) l
        where i.status = 'paid' and i.paid_at >= ? and i.paid_at < ?
        group by 1, 2, 3, 4 order by 1, 2, 4`,
      [from, to],
    );
    return result.rows.map(toRow);
  }

  /** Tax refunded by refunds made in [from, to), whenever their invoice was paid. */
  async refunded(from: Date, to: Date): Promise<TaxSumRow[]> {
    const result = await this.db.raw(
      `select i.tax_province as province, l->>'kind' as kind, l->>'label' as label, (l->>'percent')::numeric as percent,
              sum((l->>'amountCents')::bigint) as tax_cents, sum(r.amount_cents - r.tax_cents) as base_cents
         from refunds r join invoices i on i.id = r.invoice_id cross join lateral jsonb_array_elements(r.tax_lines) l
        where r.created_at >= ? and r.created_at < ?
        group by 1, 2, 3, 4 order by 1, 2, 4`,
      [from, to],
    );
    return result.rows.map(toRow);
  }
}
