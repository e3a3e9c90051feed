// The language of a customer's billing documents (docs/decisions.md#68): invoices, credit notes and receipts follow
// the customer's locale, except that a document taxed in Quebec is always in French. Quebec's Charter of the French
// Language asks for invoices and receipts in French for Quebec consumers; one French document meets it without a
// second, bilingual layout.
import { type Locale, type Translator, formatters } from "../../i18n/index.js";
import type { RenderLocale } from "../../i18n/locales.js";

/** The language of a billing document for a customer in `locale`, taxed in `taxProvince` (null: not taxed). */
export function documentLocale(locale: Locale | null | undefined, taxProvince: string | null | undefined): Locale {
  if (taxProvince === "QC") return "fr-CA";
  return locale ?? "en-CA";
}

/** A tax line as a document prints it: "QST 9.975%" / "TVQ 9,975 %"; a line of an unknown kind keeps its label. */
export function taxLineLabel(
  t: Translator,
  line: { kind?: string | null; label: string; percent?: number | null },
): string {
  const percent = line.percent ?? Number(/([\d.]+)%\s*$/.exec(line.label)?.[1] ?? Number.NaN);
  const kind = line.kind ?? /^([A-Z]+)\s/.exec(line.label)?.[1];
  if (!kind || !Number.isFinite(percent)) return line.label;
  return t("documents.tax.line", { kind, percent });
}

/** Cents as the document's language writes them: "-$1,234.56" / "-1 234,56 $". */
export function documentMoney(locale: RenderLocale, timeZone: string) {
  const f = formatters(locale, timeZone);
  return (cents: number) => f.money(cents / 100);
}
