import { type TaxQuote, money } from "../../src/modules/payments/checkout.constants";

/**
 * The subtotal, each tax and the total, right above the pay button (docs/decisions.md#32); null `quote` while the
 * home's tax is not known yet.
 */
export function TaxSummary({
  subtotalCents,
  quote,
}: {
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
        <dt className="text-ink/75">Subtotal (before tax)</dt>
        <dd data-testid="pay-subtotal">{money(subtotalCents)}</dd>
      </div>
      {quote ? (
        quote.lines.map((line) => (
          <div key={line.label} className="flex justify-between gap-4">
            <dt className="text-ink/75">{line.label}</dt>
            <dd data-testid="pay-tax">{money(line.amountCents)}</dd>
          </div>
        ))
      ) : (
        <div className="flex justify-between gap-4">
          <dt className="text-ink/75">Tax</dt>
          <dd className="text-ink/75">Enter the home's postal code</dd>
        </div>
      )}
      <div className="flex items-baseline justify-between gap-4 border-t border-green-900/10 pt-1.5">
        <dt className="font-semibold">Total due today</dt>
        <dd className="text-lg font-bold text-green-900" data-testid="pay-total">
          {quote ? money(quote.totalCents) : "—"}
        </dd>
      </div>
    </dl>
  );
}
