import { type FormEvent, useMemo, useRef, useState } from "react";
import { intlLocale } from "../../src/i18n/locales";
import { type TaxQuote, homePostalCode } from "../../src/modules/payments/checkout.constants";
import { ApiError, apiRequest } from "../ui/api";
import { type IslandMessages, islandTranslator } from "../ui/i18n";
import { useSubmission } from "../ui/data";
import { toast } from "../ui/toast";
import { DemoCardFields } from "./DemoCardFields";
import { PayerFields } from "./PayerFields";
import { TaxSummary } from "./TaxSummary";
import { type CardErrors, type CardValues, cardErrors } from "./card-checks";
import { CHECKOUT_CUSTOMER_KEY, Field } from "./fields";
import { messageOf } from "./pay-errors";
import { useStripeElement } from "./stripe-element";
import { useTaxQuote } from "./tax-quote";

interface Props {
  plan: { type: string; name: string; checkoutPrice: number };
  mode: "demo" | "stripe";
  publishableKey: string | null;
  /**
   * The demo hosted checkout (/demo-checkout/:id): the session already exists, so its secret comes with
   * the page, and a paid card goes on to the session's success URL (the intake page), as Stripe Checkout does.
   */
  hosted?: { clientSecret: string; successUrl: string; quote: TaxQuote };
  /** The home this browser already entered (docs/decisions.md#57): its postal code, prefilled and still editable. */
  postalCode?: string | null;
  /** The `checkout` and `forms` namespaces in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
  /** /payment-success and /pricing in the page's language (from the server: no address code in this bundle). */
  paths: { success: string; pricing: string };
}

type Values = CardValues & { postalCode: string };
type Errors = CardErrors & { postalCode?: string };

/** The intent a submit made, kept for a retry with another card while the home and payer stay the same. */
interface Made {
  clientSecret: string;
  key: string;
}

export default function PaymentForm({ plan, mode, publishableKey, hosted, postalCode, i18n, paths }: Props) {
  const t = useMemo(() => islandTranslator(i18n), [i18n]);
  const locale = intlLocale(t.locale);
  // src/i18n/format.ts's money ("$412.00" / "412,00 $") without its date code (the JS budget).
  const money = useMemo(() => {
    const format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: "CAD",
      currencyDisplay: "narrowSymbol",
    });
    return (cents: number) => format.format(cents / 100);
  }, [locale]);
  const stripeMode = mode === "stripe" && Boolean(publishableKey);
  const [values, setValues] = useState<Values>({
    name: "",
    email: "",
    cardNumber: "",
    expiry: "",
    cvc: "",
    postalCode: postalCode ?? "",
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
    window.location.assign(`${paths.success}?${next}`);
  };

  const failed = (message: string) => {
    setFailure(message);
    toast({ title: t("checkout.pay.failed"), description: message, variant: "destructive" });
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
        // The payer's language: Stripe's e-mails and the customer follow it (docs/decisions.md#65).
        locale,
      });
      made.current = { clientSecret, key };
      return clientSecret;
    } catch (error) {
      // Refused fields and the limit are the customer's to fix or wait out; anything else is the spec's
      // "payment intent failure": logged, back to /pricing.
      if (error instanceof ApiError && (error.status === 400 || error.status === 429)) throw error;
      console.error("Error creating payment intent:", error);
      window.location.assign(paths.pricing);
      throw error;
    }
  };

  const pay = useSubmission(
    async (): Promise<string | undefined> => {
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
      if (!ready) throw new Error(t("checkout.pay.stillLoading"));
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
      if (checked.error) throw new Error(checked.error.message ?? t("checkout.pay.checkCard"));
      const clientSecret = await intentFor(postalCode);
      const returnUrl = `${window.location.origin}${paths.success}?plan=${encodeURIComponent(plan.type)}`;
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
      throw new Error(error?.message ?? t("checkout.pay.notCompleted"));
    },
    {
      onSuccess: (paymentIntentId) => paid(paymentIntentId),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) setErrors(error.fields as Errors);
        failed(messageOf(error, t("forms.tryAgain")));
      },
    },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    // Check on this side first; the server checks the same rules again.
    const next: Errors = cardErrors(t, values, stripeMode);
    if (!hosted && !homePostalCode(values.postalCode)) next.postalCode = t("forms.postalCode");
    if (Object.keys(next).length) {
      setErrors(next);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setErrors({});
    void pay.mutate();
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
          <p className="font-semibold">{t("checkout.pay.failed")}</p>
          <p>{failure}</p>
        </div>
      )}
      <PayerFields
        values={values}
        errors={errors}
        set={set}
        nameLabel={t("checkout.pay.name")}
        emailLabel={t("checkout.pay.email")}
      />
      {!hosted && (
        <Field
          id="pay-postal"
          label={t("checkout.pay.postal")}
          value={values.postalCode}
          error={errors.postalCode}
          hint={t("checkout.pay.postalHint")}
          onChange={set("postalCode", (v) => v.toUpperCase().slice(0, 7))}
          autoComplete="postal-code"
          placeholder="K1S 2B4"
          required
        />
      )}
      {stripeMode ? (
        <div ref={elementRef} data-testid="stripe-payment-element" className="min-h-24" />
      ) : (
        <DemoCardFields t={t} values={values} errors={errors} set={set} />
      )}
      {!hosted && <TaxSummary t={t} money={money} subtotalCents={subtotalCents} quote={quote} />}
      <button type="submit" className="btn btn-gold btn-lg w-full" disabled={pay.isPending}>
        {pay.isPending
          ? t("checkout.pay.processing")
          : hosted
            ? t("checkout.pay.subscribe")
            : t("checkout.pay.complete")}
      </button>
      <p className="text-center text-xs text-ink/70" data-testid="pay-charge">
        {total
          ? t("checkout.pay.charge", { total, subtotal: money(quote!.subtotalCents), plan: plan.name })
          : t("checkout.pay.chargeBefore", { subtotal: money(subtotalCents), plan: plan.name })}
      </p>
    </form>
  );
}
