import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { type CardErrors, type CardValues, cardErrors } from "./card-checks";
import { CHECKOUT_CUSTOMER_KEY, Field } from "./fields";

/** This island uses react-query: the loader wraps it in the query provider (islands/main.ts). */
export const queries = true;

interface Props {
  plan: { type: string; name: string; checkoutPrice: number };
  mode: "demo" | "stripe";
  publishableKey: string | null;
  /**
   * The demo hosted checkout (/demo-checkout/:id): the session already exists, so its secret comes with
   * the page, and a paid card goes on to the session's success URL (the intake page), as Stripe Checkout does.
   */
  hosted?: { clientSecret: string; successUrl: string };
}

type Values = CardValues;
type Errors = CardErrors;

// The few parts of Stripe.js this form uses (loaded from js.stripe.com only in Stripe mode).
interface StripeJs {
  elements(options: { clientSecret: string; appearance?: object }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    confirmParams: object;
  }): Promise<{ error?: { message?: string } }>;
}
interface StripeElements {
  create(type: "payment"): { mount(el: HTMLElement): void };
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

/** The error text of a failed call: the API's message when it sent one. */
function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    try {
      return (JSON.parse(error.body) as { message?: string }).message ?? error.body;
    } catch {
      return error.body;
    }
  }
  return error instanceof Error ? error.message : "Something went wrong. Please try again.";
}

const formatCard = (value: string) =>
  value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

const formatExpiry = (value: string) => {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
};

/** The payment's client secret: the hosted checkout's own, else a new intent. The server decides the amount; it refuses any other. */
function usePaymentIntent(plan: Props["plan"], hosted: Props["hosted"]): string | null {
  const [clientSecret, setClientSecret] = useState<string | null>(hosted?.clientSecret ?? null);
  // No intent means no payment: back to /pricing.
  useEffect(() => {
    if (hosted) return;
    let live = true;
    apiRequest<{ clientSecret: string }>("POST", "/api/create-payment-intent", {
      amount: plan.checkoutPrice,
      plan: plan.type,
    })
      .then((result) => live && setClientSecret(result.clientSecret))
      .catch((error) => {
        console.error("Error creating payment intent:", error);
        window.location.assign("/pricing");
      });
    return () => {
      live = false;
    };
  }, [plan.checkoutPrice, plan.type, hosted]);
  return clientSecret;
}

/** In Stripe mode, Stripe's payment element mounted in `element` once the intent exists; `stripe` holds it for paying. */
function useStripeElement(stripeMode: boolean, clientSecret: string | null, publishableKey: string | null) {
  const stripe = useRef<{ stripe: StripeJs; elements: StripeElements } | null>(null);
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!stripeMode || !clientSecret || !publishableKey) return;
    loadStripeJs()
      .then((StripeCtor) => {
        const instance = StripeCtor(publishableKey);
        const elements = instance.elements({
          clientSecret,
          appearance: { theme: "stripe", variables: { colorPrimary: "#0f2e24" } },
        });
        elements.create("payment").mount(element.current!);
        stripe.current = { stripe: instance, elements };
      })
      .catch((error) => {
        console.error("Error loading Stripe:", error);
        window.location.assign("/pricing");
      });
  }, [stripeMode, clientSecret, publishableKey]);
  return { stripe, element };
}

interface DemoCardFieldsProps {
  values: Values;
  errors: Errors;
  set: (key: keyof Values, format?: (v: string) => string) => (value: string) => void;
}

/** Demo mode's own card fields, formatted as typed, and the test cards to use. */
function DemoCardFields({ values, errors, set }: DemoCardFieldsProps) {
  return (
    <>
      <Field
        id="pay-card"
        label="Card number"
        value={values.cardNumber}
        error={errors.cardNumber}
        onChange={set("cardNumber", formatCard)}
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        required
      />
      <div className="grid grid-cols-2 items-end gap-4">
        <Field
          id="pay-expiry"
          label="Expiry (MM / YY)"
          value={values.expiry}
          error={errors.expiry}
          onChange={set("expiry", formatExpiry)}
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder="MM / YY"
          required
        />
        <Field
          id="pay-cvc"
          label="CVC"
          value={values.cvc}
          error={errors.cvc}
          onChange={set("cvc", (v) => v.replace(/\D/g, "").slice(0, 4))}
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder="123"
          required
        />
      </div>
      <p className="rounded-md bg-gold-200/50 p-3 text-sm text-ink/85">
        Demo mode: no card is charged. Use 4242 4242 4242 4242 with any future date and any CVC; 4000 0000 0000 0002 is
        declined.
      </p>
    </>
  );
}

export default function PaymentForm({ plan, mode, publishableKey, hosted }: Props) {
  const stripeMode = mode === "stripe" && Boolean(publishableKey);
  const clientSecret = usePaymentIntent(plan, hosted);
  const { stripe: stripeRef, element: elementRef } = useStripeElement(stripeMode, clientSecret, publishableKey);
  const [values, setValues] = useState<Values>({ name: "", email: "", cardNumber: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const paid = (paymentIntentId?: string) => {
    sessionStorage.setItem(
      CHECKOUT_CUSTOMER_KEY,
      JSON.stringify({ name: values.name.trim(), email: values.email.trim() }),
    );
    if (hosted) return window.location.assign(hosted.successUrl);
    const next = new URLSearchParams({ plan: plan.type });
    if (paymentIntentId) next.set("payment_intent", paymentIntentId);
    window.location.assign(`/payment-success?${next}`);
  };

  const failed = (message: string) => {
    setFailure(message);
    toast({ title: "Payment Failed", description: message, variant: "destructive" });
  };

  const pay = useMutation({
    mutationFn: async (): Promise<string | undefined> => {
      if (!stripeMode) {
        const result = await apiRequest<{ paymentIntentId: string }>("POST", "/api/demo/confirm-payment", {
          ...values,
          clientSecret,
        });
        return result.paymentIntentId;
      }
      const ready = stripeRef.current;
      if (!ready) throw new Error("The payment form is still loading.");
      const returnUrl = `${window.location.origin}/payment-success?plan=${encodeURIComponent(plan.type)}`;
      sessionStorage.setItem(
        CHECKOUT_CUSTOMER_KEY,
        JSON.stringify({ name: values.name.trim(), email: values.email.trim() }),
      );
      const { error } = await ready.stripe.confirmPayment({
        elements: ready.elements,
        confirmParams: {
          return_url: returnUrl,
          receipt_email: values.email.trim(),
          payment_method_data: { billing_details: { name: values.name.trim(), email: values.email.trim() } },
        },
      });
      // Stripe redirects on success; coming back here means the card was refused.
      throw new Error(error?.message ?? "Your payment could not be completed.");
    },
    onSuccess: (paymentIntentId) => paid(paymentIntentId),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) setErrors(error.fields as Errors);
      failed(messageOf(error));
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    // Check on this side first; the server checks the same rules again.
    const next = cardErrors(values, stripeMode);
    if (Object.keys(next).length) {
      setErrors(next);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setErrors({});
    pay.mutate();
  };

  const set = (key: keyof Values, format?: (v: string) => string) => (value: string) => {
    setValues((v) => ({ ...v, [key]: format ? format(value) : value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  if (!clientSecret) {
    return (
      <p className="mt-4 text-ink/75" role="status">
        Preparing your secure payment…
      </p>
    );
  }

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className="mt-4 space-y-4"
      aria-describedby={failure ? "payment-failure" : undefined}
    >
      {failure && (
        <div id="payment-failure" className="alert alert-danger" role="alert" data-testid="payment-failure">
          <p className="font-semibold">Payment Failed</p>
          <p>{failure}</p>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="pay-name"
          label="Name on card"
          value={values.name}
          error={errors.name}
          onChange={set("name")}
          autoComplete="cc-name"
          required
        />
        <Field
          id="pay-email"
          label="Email"
          type="email"
          value={values.email}
          error={errors.email}
          onChange={set("email")}
          autoComplete="email"
          required
        />
      </div>
      {stripeMode ? (
        <div ref={elementRef} data-testid="stripe-payment-element" className="min-h-24" />
      ) : (
        <DemoCardFields values={values} errors={errors} set={set} />
      )}
      <button type="submit" className="btn btn-gold btn-lg w-full" disabled={pay.isPending}>
        {pay.isPending ? "Processing..." : hosted ? "Subscribe" : "Complete Payment"}
      </button>
      <p className="text-center text-xs text-ink/70">
        You will be charged ${plan.checkoutPrice} CAD for the {plan.name} plan{hosted ? ", then monthly" : ""}.
      </p>
    </form>
  );
}
