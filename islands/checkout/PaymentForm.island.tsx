import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  POSTAL_CODE_MESSAGE,
  type TaxQuote,
  homePostalCode,
  money,
} from "../../src/modules/payments/checkout.constants";
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
  hosted?: { clientSecret: string; successUrl: string; quote: TaxQuote };
}

type Values = CardValues & { postalCode: string };
type Errors = CardErrors & { postalCode?: string };

// The few parts of Stripe.js this form uses (loaded from js.stripe.com only in Stripe mode): the Payment Element's
// deferred-intent flow, where nothing exists at Stripe until the customer submits (docs/decisions.md#32).
interface StripeJs {
  elements(options: { mode: "subscription"; amount: number; currency: string; appearance?: object }): StripeElements;
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

/**
 * What the pay button will charge for the home typed so far: asked of the server (GET /api/checkout/quote) once the
 * postal code is a Canadian one; null until then. The hosted checkout's is fixed with its session.
 */
function useTaxQuote(plan: Props["plan"], postalCode: string, fixed: TaxQuote | undefined): TaxQuote | null {
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

/**
 * In Stripe mode, Stripe's Payment Element mounted in `element` at once, with no intent yet (mode 'subscription',
 * the amount shown); `stripe` holds it for paying.
 */
function useStripeElement(stripeMode: boolean, publishableKey: string | null, amountCents: number) {
  const stripe = useRef<{ stripe: StripeJs; elements: StripeElements } | null>(null);
  const element = useRef<HTMLDivElement>(null);
  const firstAmount = useRef(amountCents);
  useEffect(() => {
    if (!stripeMode || !publishableKey) return;
    loadStripeJs()
      .then((StripeCtor) => {
        const instance = StripeCtor(publishableKey);
        const elements = instance.elements({
          mode: "subscription",
          amount: firstAmount.current,
          currency: "cad",
          appearance: { theme: "stripe", variables: { colorPrimary: "#0f2e24" } },
        });
        elements.create("payment").mount(element.current!);
        stripe.current = { stripe: instance, elements };
      })
      .catch((error) => {
        console.error("Error loading Stripe:", error);
        window.location.assign("/pricing");
      });
  }, [stripeMode, publishableKey]);
  // The element shows what will be charged: the total once the home's tax is known.
  useEffect(() => {
    stripe.current?.elements.update({ amount: amountCents });
  }, [amountCents]);
  return { stripe, element };
}

/** The subtotal, each tax and the total, right above the pay button (docs/decisions.md#32). */
function TaxSummary({ subtotalCents, quote }: { subtotalCents: number; quote: TaxQuote | null }) {
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

/** The intent a submit made, kept for a retry with another card while the home and payer stay the same. */
interface Made {
  clientSecret: string;
  key: string;
}

export default function PaymentForm({ plan, mode, publishableKey, hosted }: Props) {
  const stripeMode = mode === "stripe" && Boolean(publishableKey);
  const [values, setValues] = useState<Values>({
    name: "",
    email: "",
    cardNumber: "",
    expiry: "",
    cvc: "",
    postalCode: "",
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const made = useRef<Made | null>(hosted ? { clientSecret: hosted.clientSecret, key: "" } : null);
  const quote = useTaxQuote(plan, values.postalCode, hosted?.quote);
  const subtotalCents = Math.round(plan.checkoutPrice * 100);
  const { stripe: stripeRef, element: elementRef } = useStripeElement(
    stripeMode,
    publishableKey,
    quote?.totalCents ?? subtotalCents,
  );

  const remember = (postalCode: string | null) =>
    sessionStorage.setItem(
      CHECKOUT_CUSTOMER_KEY,
      JSON.stringify({
        name: values.name.trim(),
        email: values.email.trim(),
        ...(postalCode ? { postalCode } : {}),
      }),
    );

  const paid = (paymentIntentId?: string) => {
    if (hosted) return window.location.assign(hosted.successUrl);
    const next = new URLSearchParams({ plan: plan.type });
    if (paymentIntentId) next.set("payment_intent", paymentIntentId);
    window.location.assign(`/payment-success?${next}`);
  };

  const failed = (message: string) => {
    setFailure(message);
    toast({ title: "Payment Failed", description: message, variant: "destructive" });
  };

  /** The submit makes the intent (docs/decisions.md#32); a retry for the same home and payer reuses it. */
  const intentFor = async (postalCode: string): Promise<string> => {
    const key = JSON.stringify([postalCode, values.email.trim().toLowerCase(), values.name.trim()]);
    if (made.current && (hosted || made.current.key === key)) return made.current.clientSecret;
    try {
      const { clientSecret } = await apiRequest<{ clientSecret: string }>("POST", "/api/create-payment-intent", {
        amount: plan.checkoutPrice,
        plan: plan.type,
        postalCode,
        email: values.email.trim(),
        name: values.name.trim(),
      });
      made.current = { clientSecret, key };
      return clientSecret;
    } catch (error) {
      // Refused fields and the limit are the customer's to fix or wait out; anything else is the spec's
      // "payment intent failure": logged, back to /pricing.
      if (error instanceof ApiError && (error.status === 400 || error.status === 429)) throw error;
      console.error("Error creating payment intent:", error);
      window.location.assign("/pricing");
      throw error;
    }
  };

  const pay = useMutation({
    mutationFn: async (): Promise<string | undefined> => {
      const postalCode = hosted ? (hosted.quote.postalCode ?? "") : (homePostalCode(values.postalCode) ?? "");
      remember(postalCode || null);
      if (!stripeMode) {
        const clientSecret = await intentFor(postalCode);
        const result = await apiRequest<{ paymentIntentId: string }>("POST", "/api/demo/confirm-payment", {
          name: values.name,
          email: values.email,
          cardNumber: values.cardNumber,
          expiry: values.expiry,
          cvc: values.cvc,
          clientSecret,
        });
        return result.paymentIntentId;
      }
      const ready = stripeRef.current;
      if (!ready) throw new Error("The payment form is still loading.");
      // The element confirms the total the customer saw: the quote for this home (asked again if it has not come).
      const total =
        quote?.postalCode === postalCode
          ? quote.totalCents
          : (
              await apiRequest<TaxQuote>(
                "GET",
                `/api/checkout/quote?${new URLSearchParams({ plan: plan.type, priceList: "checkout", postalCode })}`,
              )
            ).totalCents;
      ready.elements.update({ amount: total });
      // Stripe checks the card fields first; only then is anything made at Stripe.
      const checked = await ready.elements.submit();
      if (checked.error) throw new Error(checked.error.message ?? "Check your card details.");
      const clientSecret = await intentFor(postalCode);
      const returnUrl = `${window.location.origin}/payment-success?plan=${encodeURIComponent(plan.type)}`;
      const { error } = await ready.stripe.confirmPayment({
        elements: ready.elements,
        clientSecret,
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
    const next: Errors = cardErrors(values, stripeMode);
    if (!hosted && !homePostalCode(values.postalCode)) next.postalCode = POSTAL_CODE_MESSAGE;
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

  const total = quote ? money(quote.totalCents) : null;
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
      {!hosted && (
        <Field
          id="pay-postal"
          label="Postal code of the home"
          value={values.postalCode}
          error={errors.postalCode}
          hint="The home we will look after: its province sets the sales tax."
          onChange={set("postalCode", (v) => v.toUpperCase().slice(0, 7))}
          autoComplete="postal-code"
          placeholder="K1S 2B4"
          required
        />
      )}
      {stripeMode ? (
        <div ref={elementRef} data-testid="stripe-payment-element" className="min-h-24" />
      ) : (
        <DemoCardFields values={values} errors={errors} set={set} />
      )}
      {!hosted && <TaxSummary subtotalCents={subtotalCents} quote={quote} />}
      <button type="submit" className="btn btn-gold btn-lg w-full" disabled={pay.isPending}>
        {pay.isPending ? "Processing..." : hosted ? "Subscribe" : "Complete Payment"}
      </button>
      <p className="text-center text-xs text-ink/70" data-testid="pay-charge">
        {total
          ? `You will be charged ${total} CAD (${money(quote!.subtotalCents)} + tax) for the ${plan.name} plan, then monthly.`
          : `${money(subtotalCents)} CAD a month before tax for the ${plan.name} plan; the tax follows the home's postal code.`}
      </p>
    </form>
  );
}
