// The sales-tax report (docs/decisions.md#50): for a range of business days, the figures an accountant copies into
// the two returns. The GST/HST return (the CRA's) takes every sale and the GST and HST; the QST return (Revenu
// Québec's) takes the Quebec sales and the QST, on its own. An invoice counts on the day its tax fell due, the
// earlier of its date and its payment; a refund (its credit note) is an adjustment on the day it was made, a lost
// dispute on the day it was lost (docs/decisions.md#53). The page (/admin/tax), GET /api/tax-report (and its CSV)
// and `haven tax report` all print this one object.
import { addDays, startOfBusinessDay } from "../../shared/business-time.js";
import type { TaxReportRepository, TaxSumRow } from "./tax-report.repository.js";

/** Which return a tax line is reported on. */
export type TaxReturnName = "gstHst" | "qst";

export interface TaxReportLine {
  province: string;
  /** GST, HST, QST, or "none" (invoices that charged no tax). */
  kind: string;
  label: string;
  percent: number;
  return: TaxReturnName;
  /** Dollars: sales before tax the tax was charged on, net of refunds. */
  netSales: number;
  collected: number;
  refunded: number;
  net: number;
}

/** One return's figures, in dollars. */
export interface TaxReturnFigures {
  /** Before tax: the invoices whose tax fell due in the range (each once). */
  sales: number;
  /** Before tax: what the refunds made and the disputes lost in the range gave back. */
  salesRefunded: number;
  /** sales − salesRefunded: the return's sales (GST/HST line 101). */
  netSales: number;
  /** Tax charged on those invoices, collected or collectible (GST/HST line 103). */
  taxCollected: number;
  /** Tax given back by refunds' credit notes and disputes lost in the range (line 107; docs/decisions.md#53). */
  adjustments: number;
  /** taxCollected − adjustments. */
  netTax: number;
  /** Of taxCollected, on invoices not paid yet: collectible, not collected (a bad debt is the accountant's to deduct). */
  unpaidTax: number;
}

export interface TaxReport {
  from: string;
  to: string;
  /** The CRA's GST/HST return: every sale, GST and HST. */
  gstHst: TaxReturnFigures;
  /** Revenu Québec's QST return: Quebec sales and QST. */
  qst: TaxReturnFigures;
  /** By province and tax (a "No tax" line for invoices that charged none). */
  lines: TaxReportLine[];
}

export interface TaxReportDeps {
  repo: TaxReportRepository;
  timeZone: string;
}

const dollars = (cents: number) => Math.round(cents) / 100;
const returnOf = (kind: string): TaxReturnName => (kind === "QST" ? "qst" : "gstHst");

function figures(c: { sales: number; refunded: number; tax: number; adjusted: number; unpaid: number }) {
  return {
    sales: dollars(c.sales),
    salesRefunded: dollars(c.refunded),
    netSales: dollars(c.sales - c.refunded),
    taxCollected: dollars(c.tax),
    adjustments: dollars(c.adjusted),
    netTax: dollars(c.tax - c.adjusted),
    unpaidTax: dollars(c.unpaid),
  };
}

export class TaxReportService {
  constructor(private readonly deps: TaxReportDeps) {}

  /** `from` and `to` are business days (YYYY-MM-DD), both included. */
  async report(from: string, to: string): Promise<TaxReport> {
    const { repo, timeZone } = this.deps;
    const start = startOfBusinessDay(from, timeZone);
    const end = startOfBusinessDay(addDays(to, 1), timeZone);
    const [collected, refunded, sales] = await Promise.all([
      repo.collected(start, end),
      repo.refunded(start, end),
      repo.sales(start, end),
    ]);
    const lines = new Map<string, { key: TaxSumRow; c: number; r: number; sales: number }>();
    const add = (row: TaxSumRow, side: "c" | "r") => {
      const id = `${row.province}|${row.kind}|${row.label}`;
      const line = lines.get(id) ?? { key: row, c: 0, r: 0, sales: 0 };
      line[side] += row.taxCents;
      line.sales += side === "c" ? row.baseCents : -row.baseCents;
      lines.set(id, line);
    };
    for (const row of collected) add(row, "c");
    for (const row of refunded) add(row, "r");
    const sum = (rows: TaxSumRow[], name: TaxReturnName, pick: (r: TaxSumRow) => number) =>
      rows.filter((r) => r.kind !== "none" && returnOf(r.kind) === name).reduce((s, r) => s + pick(r), 0);
    // Each Quebec invoice has one QST line: the QST lines' bases are its sales, once.
    const qstSales = (rows: TaxSumRow[]) => sum(rows, "qst", (r) => r.baseCents);
    return {
      from,
      to,
      gstHst: figures({
        sales: sales.invoicedCents,
        refunded: sales.refundedCents,
        tax: sum(collected, "gstHst", (r) => r.taxCents),
        adjusted: sum(refunded, "gstHst", (r) => r.taxCents),
        unpaid: sum(collected, "gstHst", (r) => r.unpaidCents),
      }),
      qst: figures({
        sales: qstSales(collected),
        refunded: qstSales(refunded),
        tax: sum(collected, "qst", (r) => r.taxCents),
        adjusted: sum(refunded, "qst", (r) => r.taxCents),
        unpaid: sum(collected, "qst", (r) => r.unpaidCents),
      }),
      lines: [...lines.values()]
        .sort((a, b) => a.key.province.localeCompare(b.key.province) || a.key.label.localeCompare(b.key.label))
        .map(({ key, c, r, sales: base }) => ({
          province: key.province,
          kind: key.kind,
          label: key.label,
          percent: key.percent,
          return: returnOf(key.kind),
          netSales: dollars(base),
          collected: dollars(c),
          refunded: dollars(r),
          net: dollars(c - r),
        })),
    };
  }
}

/** A row of the report's CSV: the two returns first, then each province and tax (the page's table). */
export interface TaxReportRow {
  return: string;
  province: string;
  tax: string;
  sales: number | null;
  salesRefunded: number | null;
  netSales: number;
  taxCollected: number;
  adjustments: number;
  netTax: number;
  unpaidTax: number | null;
}

export const TAX_RETURN_NAMES: Record<TaxReturnName, string> = {
  gstHst: "GST/HST (Canada Revenue Agency)",
  qst: "QST (Revenu Québec)",
};

/** The report as the CSV's rows, the same figures as the page and the CLI. */
export function taxReportRows(report: TaxReport): TaxReportRow[] {
  const returns = (["gstHst", "qst"] as const).map((name) => ({
    return: TAX_RETURN_NAMES[name],
    province: "All",
    tax: name === "gstHst" ? "GST and HST" : "QST",
    ...report[name],
  }));
  const lines = report.lines.map((l) => ({
    return: TAX_RETURN_NAMES[l.return],
    province: l.province,
    tax: l.label,
    sales: null,
    salesRefunded: null,
    netSales: l.netSales,
    taxCollected: l.collected,
    adjustments: l.refunded,
    netTax: l.net,
    unpaidTax: null,
  }));
  return [...returns, ...lines];
}
