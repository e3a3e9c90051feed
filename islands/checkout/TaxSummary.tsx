import type { TaxQuote } from "../../src/modules/payments/checkout.constants";
import { taxLineParts } from "../../src/modules/payments/checkout.constants";
import type { IslandT } from "../ui/i18n";

/**
 * The subtotal, each tax and the total, right above the pay button (docs/decisions.md#32); null `quote` while the
 * home's tax is not known yet. Each tax by its name in the page's language (GST/TPS, HST/TVH, QST/TVQ).
 */
export function TaxSummary({
  t,
  money,
  subtotalCents,
  quote,
}: {
  t: IslandT;
  /** Cents in the page's language: "$412.00" / "412,00 $". */
  money: (cents: number) => string;
  subtotalCents: number;
  quote: Pick<TaxQuote, "lines" | "totalCents"> | null;
}) {
  return (
    <dl
      className="space-y-1.5 rounded-md border border-green-900/15 p-3 text-sm"
      data-testid="pay-summary"
      aria-live="polite"
    >
      <div className="flex justify-between gap-4">
        <dt className="text-ink/75">{t("checkout.tax.subtotal")}</dt>
        <dd data-testid="pay-subtotal">{money(subtotalCents)}</dd>
      </div>
      {quote ? (
        quote.lines.map((line) => {
          const parts = taxLineParts(line.label);
          return (
            <div key={line.label} className="flex justify-between gap-4">
              <dt className="text-ink/75">{parts ? t("checkout.tax.line", parts) : line.label}</dt>
              <dd data-testid="pay-tax">{money(line.amountCents)}</dd>
            </div>
          );
        })
      ) : (
        <div className="flex justify-between gap-4">
          <dt className="text-ink/75">{t("checkout.tax.tax")}</dt>
          <dd className="text-ink/75">{t("checkout.tax.enterPostal")}</dd>
        </div>
      )}
      <div className="flex items-baseline justify-between gap-4 border-t border-green-900/10 pt-1.5">
        <dt className="font-semibold">{t("checkout.tax.total")}</dt>
        <dd className="text-lg font-bold text-green-900" data-testid="pay-total">
          {quote ? money(quote.totalCents) : "—"}
        </dd>
      </div>
    </dl>
  );
}
