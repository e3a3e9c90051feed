// What a homeowner is asked for or told of, said whole (docs/decisions.md#63): the total with tax, then what it is
// made of, "$418.10 CAD ($370.00 + HST $48.10)". The tax is the home's province's (docs/decisions.md#57) on the day
// the charge is made, by the tax module's own arithmetic (taxFor), as the invoice write path taxes it. Pure.
import { todayIn } from "../../shared/business-time.js";
import { type Province, taxFor } from "../tax/index.js";

export interface ChargeWithTax {
  /** Before tax, in cents. */
  subtotalCents: number;
  /** Each tax: "HST 13%", and its cents. */
  taxLines: { label: string; amountCents: number }[];
  totalCents: number;
}

/** A charge of `subtotalCents` made `at`, for a home in `province`. */
export function chargeWithTax(
  subtotalCents: number,
  province: Province,
  at: Date | string,
  timeZone: string,
): ChargeWithTax {
  const taxed = taxFor(subtotalCents, province, todayIn(timeZone, new Date(at)));
  return {
    subtotalCents,
    taxLines: taxed.lines.map((l) => ({ label: l.label, amountCents: l.amountCents })),
    totalCents: taxed.totalCents,
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** "$418.10 CAD ($370.00 + HST $48.10)"; a charge without tax is its amount alone. */
export function chargeWords(charge: ChargeWithTax): string {
  const total = `${dollars(charge.totalCents)} CAD`;
  const taxes = charge.taxLines.filter((l) => l.amountCents !== 0);
  if (!taxes.length) return total;
  // The label's kind without its rate ("HST 13%" → "HST"): the page says the amount, the invoice the rate.
  const parts = taxes.map((l) => `${l.label.replace(/\s*[\d.]+\s*%$/, "")} ${dollars(l.amountCents)}`);
  return `${total} (${[dollars(charge.subtotalCents), ...parts].join(" + ")})`;
}
