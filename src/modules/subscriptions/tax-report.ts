// The GST/HST report (docs/decisions.md#32–34): for a range of business days, the tax collected on invoices paid in
// it and the tax refunded by refunds made in it, by province and tax, and the net: the figures of the return.
import { addDays } from "../../shared/business-time.js";
import { startOfBusinessDay } from "./billing-dates.js";
import type { TaxReportRepository, TaxSumRow } from "./tax-report.repository.js";

export interface TaxReportLine {
  province: string;
  kind: string;
  label: string;
  percent: number;
  /** Dollars: sales before tax the tax was charged on, net of refunds. */
  netSales: number;
  collected: number;
  refunded: number;
  net: number;
}

export interface TaxReport {
  from: string;
  to: string;
  lines: TaxReportLine[];
  totals: { netSales: number; collected: number; refunded: number; net: number };
}

export interface TaxReportDeps {
  repo: TaxReportRepository;
  timeZone: string;
}

const dollars = (cents: number) => Math.round(cents) / 100;

export class TaxReportService {
  constructor(private readonly deps: TaxReportDeps) {}

  /** `from` and `to` are business days (YYYY-MM-DD), both included. */
  async report(from: string, to: string): Promise<TaxReport> {
    const { repo, timeZone } = this.deps;
    const start = startOfBusinessDay(from, timeZone);
    const end = startOfBusinessDay(addDays(to, 1), timeZone);
    const [collected, refunded] = await Promise.all([repo.collected(start, end), repo.refunded(start, end)]);
    const lines = new Map<
      string,
      { key: Omit<TaxSumRow, "taxCents" | "baseCents">; c: number; r: number; sales: number }
    >();
    const add = (row: TaxSumRow, side: "c" | "r") => {
      const id = `${row.province}|${row.label}`;
      const line = lines.get(id) ?? { key: row, c: 0, r: 0, sales: 0 };
      line[side] += row.taxCents;
      line.sales += side === "c" ? row.baseCents : -row.baseCents;
      lines.set(id, line);
    };
    for (const row of collected) add(row, "c");
    for (const row of refunded) add(row, "r");
    const out: TaxReportLine[] = [...lines.values()]
      .sort((a, b) => a.key.province.localeCompare(b.key.province) || a.key.label.localeCompare(b.key.label))
      .map(({ key, c, r, sales }) => ({
        province: key.province,
        kind: key.kind,
        label: key.label,
        percent: key.percent,
        netSales: dollars(sales),
        collected: dollars(c),
        refunded: dollars(r),
        net: dollars(c - r),
      }));
    const sum = (pick: (l: TaxReportLine) => number) => dollars(out.reduce((s, l) => s + Math.round(pick(l) * 100), 0));
    return {
      from,
      to,
      lines: out,
      totals: {
        netSales: sum((l) => l.netSales),
        collected: sum((l) => l.collected),
        refunded: sum((l) => l.refunded),
        net: sum((l) => l.net),
      },
    };
  }
}
