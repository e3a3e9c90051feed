import { useEffect, useRef } from "react";

// The few parts of Stripe.js the pay forms use (loaded from js.stripe.com only in Stripe mode): the Payment Element's
// deferred-intent flow, where nothing exists at Stripe until the customer submits (docs/decisions.md#32).
interface StripeJs {
  elements(options: {
    mode: "subscription" | "payment";
    amount: number;
    currency: string;
    appearance?: object;
  }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    clientSecret: string;
    confirmParams: object;
  }): Promise<{ error?: { message?: string } }>;
}
interface StripeElements {
  create(type: "payment"): { mount(el: HTMLElement): void };
  update(options: { amount: number }): void;
  submit(): Promise<{ error?: { message?: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

function loadStripeJs(): Promise<NonNullable<Window["Stripe"]>> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "https://js.stripe.com/v3/";
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error("Stripe.js did not load")));
    script.onerror = () => reject(new Error("Stripe.js did not load"));
    document.head.append(script);
  });
}

/**
 * In Stripe mode, Stripe's Payment Element mounted in `element` at once, with no intent yet (`intentMode`
 * 'subscription' for a plan, 'payment' for a one-time charge; the amount shown); `stripe` holds it for paying.
 * If Stripe.js cannot load, the customer is sent to `fallbackUrl`.
 */
export function useStripeElement(
  stripeMode: boolean,
  publishableKey: string | null,
  amountCents: number,
  {
    intentMode = "subscription",
    fallbackUrl = "/pricing",
  }: { intentMode?: "subscription" | "payment"; fallbackUrl?: string } = {},
) {
  const stripe = useRef<{ stripe: StripeJs; elements: StripeElements } | null>(null);
  const element = useRef<HTMLDivElement>(null);
  const firstAmount = useRef(amountCents);
  useEffect(() => {
    if (!stripeMode || !publishableKey) return;
    loadStripeJs()
      .then((StripeCtor) => {
        const instance = StripeCtor(publishableKey);
        const elements = instance.elements({
          mode: intentMode,
          amount: firstAmount.current,
          currency: "cad",
          appearance: { theme: "stripe", variables: { colorPrimary: "#0f2e24" } },
        });
        elements.create("payment").mount(element.current!);
        stripe.current = { stripe: instance, elements };
      })
      .catch((error) => {
        console.error("Error loading Stripe:", error);
        window.location.assign(fallbackUrl);
      });
  }, [stripeMode, publishableKey, intentMode, fallbackUrl]);
  // The element shows what will be charged: the total once the home's tax is known.
  useEffect(() => {
    stripe.current?.elements.update({ amount: amountCents });
  }, [amountCents]);
  return { stripe, element };
}
