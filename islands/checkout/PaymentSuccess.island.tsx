import { useEffect, useState } from "react";
import { CHECKOUT_CUSTOMER_KEY } from "./fields";

/**
 * Records the purchase in session storage (customer-side §2.6) and links on to the property form. `label` is the
 * link's words in the page's language, from the view (no messages of its own to load).
 */
export default function PaymentSuccess({ plan, intakeUrl, label }: { plan: string; intakeUrl: string; label: string }) {
  const [href, setHref] = useState(intakeUrl);

  useEffect(() => {
    sessionStorage.setItem("selectedPlan", plan);
    sessionStorage.setItem("paymentCompleted", "true");
    // The payer's name and e-mail from the card form prefill the property form.
    try {
      const payer = JSON.parse(sessionStorage.getItem(CHECKOUT_CUSTOMER_KEY) ?? "null") as {
        name?: string;
        email?: string;
      } | null;
      if (payer) {
        const url = new URL(intakeUrl, window.location.origin);
        if (payer.name) url.searchParams.set("customer_name", payer.name);
        if (payer.email) url.searchParams.set("customer_email", payer.email);
        setHref(`${url.pathname}${url.search}`);
      }
    } catch {
      // A damaged entry only loses the prefill.
    }
  }, [plan, intakeUrl]);

  return (
    <a className="btn btn-gold btn-lg" href={href} data-testid="continue-to-intake">
      {label}
    </a>
  );
}
