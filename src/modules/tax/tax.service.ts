import {
  FIRST_LETTER,
  NUNAVUT_PREFIXES,
  PROVINCES,
  type Province,
  TAX_RATES,
  type TaxKind,
  type TaxRate,
} from "./tax.rates.js";

export interface TaxLine {
  kind: TaxKind;
  /** "HST 13%", "QST 9.975%": what an invoice and a receipt print. */
  label: string;
  percent: number;
  amountCents: number;
}

export interface TaxedAmount {
  province: Province;
  subtotalCents: number;
  lines: TaxLine[];
  taxCents: number;
  totalCents: number;
}

/** The province of a Canadian postal code ("K1S 2B4" → ON), or null for one that names none. */
export function provinceOfPostalCode(postalCode: string): Province | null {
  const code = postalCode.replace(/[\s-]/g, "").toUpperCase();
  if (!/^[A-Z]\d[A-Z]/.test(code)) return null;
  if (code[0] === "X") return NUNAVUT_PREFIXES.includes(code.slice(0, 3)) ? "NU" : "NT";
  return FIRST_LETTER[code[0]!] ?? null;
}

export function isProvince(value: string): value is Province {
  return (PROVINCES as readonly string[]).includes(value);
}

/** The rates of a province on a day (YYYY-MM-DD in the business's time zone). */
export function ratesOn(province: Province, day: string): TaxRate[] {
  return TAX_RATES.filter((r) => r.province === province && r.from <= day && (r.until === null || day < r.until));
}

/** Half a cent rounds away from zero, as the CRA's rounding of tax does. */
function roundCents(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

export function taxLabel(rate: Pick<TaxRate, "kind" | "percent">): string {
  return `${rate.kind} ${rate.percent}%`;
}

/** A before-tax amount with each tax computed on it, for a home in `province` on `day`. */
export function taxFor(subtotalCents: number, province: Province, day: string): TaxedAmount {
  const lines = ratesOn(province, day).map((rate) => ({
    kind: rate.kind,
    label: taxLabel(rate),
    percent: rate.percent,
    amountCents: roundCents((subtotalCents * rate.percent) / 100),
  }));
  const taxCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  return { province, subtotalCents, lines, taxCents, totalCents: subtotalCents + taxCents };
}

/**
 * The tax of one refund of `partCents` of an invoice whose lines are `lines` and total `totalCents`, after
 * `refundedBeforeCents` was refunded with the tax lines `earlier` (docs/decisions.md#49). Each line's share of all
 * that is refunded so far is rounded, never a refund's alone, less what earlier refunds took of that line: every
 * refund's tax is between 0 and what is left of its line, and refunding the whole invoice refunds each line exactly.
 */
export function refundedTax(
  lines: TaxLine[],
  totalCents: number,
  refundedBeforeCents: number,
  partCents: number,
  earlier: Pick<TaxLine, "label" | "amountCents">[],
): TaxLine[] {
  const refunded = Math.min(refundedBeforeCents + partCents, totalCents);
  return lines.map((line) => {
    const before = earlier.filter((l) => l.label === line.label).reduce((sum, l) => sum + l.amountCents, 0);
    const soFar = totalCents > 0 ? roundCents((line.amountCents * refunded) / totalCents) : 0;
    const amountCents = Math.max(0, Math.min(soFar, line.amountCents) - before);
    return { ...line, amountCents };
  });
}

/**
 * The tax of a part of an invoice (a partial refund), in proportion to the part of the subtotal it is, each line
 * rounded on its own so that refunding every part refunds each line exactly once.
 */
export function proportionalTax(lines: TaxLine[], subtotalCents: number, partCents: number): TaxLine[] {
  if (subtotalCents === 0) return lines.map((line) => ({ ...line, amountCents: 0 }));
  return lines.map((line) => ({ ...line, amountCents: roundCents((line.amountCents * partCents) / subtotalCents) }));
}

/**
 * What moving an invoice's tax from the lines it charged (`was`) to the lines it should have charged (`should`) takes
 * (docs/decisions.md#57): `owed`, each line charged too little (a charge of its own), and `back`, each line charged
 * too much (a credit note). Lines are matched by label ("GST 5%", "HST 13%"); a line that is the same is in neither.
 */
export function taxDifference(was: TaxLine[], should: TaxLine[]): { owed: TaxLine[]; back: TaxLine[] } {
  const amountOf = (lines: TaxLine[], label: string) =>
    lines.filter((l) => l.label === label).reduce((sum, l) => sum + l.amountCents, 0);
  const owed = should
    .map((line) => ({ ...line, amountCents: line.amountCents - amountOf(was, line.label) }))
    .filter((line) => line.amountCents > 0);
  const back = was
    .map((line) => ({ ...line, amountCents: line.amountCents - amountOf(should, line.label) }))
    .filter((line) => line.amountCents > 0);
  return { owed, back };
}

/** Whether a rate starts or stops on this day (YYYY-MM-DD): the day subscriptions take the new rates. */
export function ratesChangeOn(day: string): boolean {
  return TAX_RATES.some((r) => r.from === day || r.until === day);
}
