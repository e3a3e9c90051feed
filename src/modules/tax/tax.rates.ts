// Canada's sales taxes on a service to a home, by province, each dated from the day it applies
// (docs/decisions.md#32). The place of supply of a service to real property is the province of the home, so the
// home's postal code picks the row. Sources and the provinces where a provincial sales tax does or does not reach
// home services: docs/tax.md.

export const PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const;
export type Province = (typeof PROVINCES)[number];

/** GST and HST are filed on the GST/HST return; QST on Revenu Québec's. */
export type TaxKind = "GST" | "HST" | "QST";

export interface TaxRate {
  province: Province;
  kind: TaxKind;
  /** A percentage with up to three decimals, as the law states it (9.975). */
  percent: number;
  /** The first day (inclusive, in the business's time zone) this rate applies. */
  from: string;
  /** The first day it no longer applies; null while current. */
  until: string | null;
}

const GST_ONLY: Province[] = ["AB", "BC", "MB", "NT", "NU", "SK", "YT"];

export const TAX_RATES: readonly TaxRate[] = [
  ...GST_ONLY.map((province) => ({ province, kind: "GST" as const, percent: 5, from: "2008-01-01", until: null })),
  { province: "ON", kind: "HST", percent: 13, from: "2010-07-01", until: null },
  { province: "NB", kind: "HST", percent: 15, from: "2016-07-01", until: null },
  { province: "NL", kind: "HST", percent: 15, from: "2016-07-01", until: null },
  { province: "PE", kind: "HST", percent: 15, from: "2016-10-01", until: null },
  { province: "NS", kind: "HST", percent: 15, from: "2010-07-01", until: "2025-04-01" },
  { province: "NS", kind: "HST", percent: 14, from: "2025-04-01", until: null },
  { province: "QC", kind: "GST", percent: 5, from: "2008-01-01", until: null },
  { province: "QC", kind: "QST", percent: 9.975, from: "2013-01-01", until: null },
];

/** Canada Post's first letter of a postal code names the province (X is split by the next three characters). */
export const FIRST_LETTER: Record<string, Province> = {
  A: "NL",
  B: "NS",
  C: "PE",
  E: "NB",
  G: "QC",
  H: "QC",
  J: "QC",
  K: "ON",
  L: "ON",
  M: "ON",
  N: "ON",
  P: "ON",
  R: "MB",
  S: "SK",
  T: "AB",
  V: "BC",
  Y: "YT",
};
export const NUNAVUT_PREFIXES = ["X0A", "X0B", "X0C"];
