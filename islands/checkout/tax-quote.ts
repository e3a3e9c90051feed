import { useEffect, useState } from "react";
import { type TaxQuote, homePostalCode } from "../../src/modules/payments/checkout.constants";
import { apiRequest } from "../ui/api";

/**
 * What the pay button will charge for the home typed so far: asked of the server (GET /api/checkout/quote) once the
 * postal code is a Canadian one; null until then. The hosted checkout's is fixed with its session.
 */
export function useTaxQuote(plan: { type: string }, postalCode: string, fixed: TaxQuote | undefined): TaxQuote | null {
  const [quote, setQuote] = useState<TaxQuote | null>(fixed ?? null);
  const code = fixed ? null : homePostalCode(postalCode);
  useEffect(() => {
    if (fixed) return;
    if (!code) return setQuote(null);
    let live = true;
    const query = new URLSearchParams({ plan: plan.type, priceList: "checkout", postalCode: code });
    apiRequest<TaxQuote>("GET", `/api/checkout/quote?${query}`)
      .then((result) => live && setQuote(result))
      .catch(() => live && setQuote(null));
    return () => {
      live = false;
    };
  }, [plan.type, code, fixed]);
  return quote;
}
