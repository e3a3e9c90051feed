import { type FormEvent, useRef, useState } from "react";
import { DemoCardFields } from "../checkout/DemoCardFields";
import { PayerFields } from "../checkout/PayerFields";
import { type CardErrors, type CardValues, cardErrors } from "../checkout/card-checks";
import { messageOf } from "../checkout/pay-errors";
import { type IslandMessages, islandTranslator } from "../ui/i18n";
import { useStripeElement } from "../checkout/stripe-element";
import { ApiError, apiRequest } from "../ui/api";

// Paying an accepted quote (docs/decisions.md#43), with /checkout's pieces: the demo card form in demo mode, Stripe's
// Payment Element (a one-time 'payment') in Stripe mode. The server locks the invoice, so a second submit charges nothing.
interface Props {
  payUrl: string;
  confirmUrl: string;
  /** Where Stripe sends the browser back: the pay page, which reads the payment and shows the receipt. */
  returnPath: string;
  stripeMode: boolean;
  publishableKey: string | null;
  amountCents: number;
  totalText: string;
  name: string;
  email: string;
  /** The card checks' messages (`checkout`, `forms`) and the quote pages' own (`quotes`) in the page's language. */
  i18n: IslandMessages;
}

type PayAnswer = { status: "paid" } | { status: "requires_payment"; clientSecret: string };

export default function QuotePay(props: Props) {
  const { payUrl, stripeMode, publishableKey, amountCents, totalText } = props;
  const t = islandTranslator(props.i18n);
  const [values, setValues] = useState<CardValues>({
    name: props.name,
    email: props.email,
    cardNumber: "",
    expiry: "",
    cvc: "",
  });
  const [errors, setErrors] = useState<CardErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { stripe, element } = useStripeElement(stripeMode && Boolean(publishableKey), publishableKey, amountCents, {
    intentMode: "payment",
    fallbackUrl: props.returnPath,
  });

  const done = () => window.location.assign(`${props.returnPath}?paid=1`);

  const pay = async () => {
    if (!stripeMode) {
      // The answer's messages in the page's language (src/i18n/api-locale.ts).
      await apiRequest<PayAnswer>(
        "POST",
        payUrl,
        {
          name: values.name,
          email: values.email,
          cardNumber: values.cardNumber,
          expiry: values.expiry,
          cvc: values.cvc,
        },
        { "Accept-Language": t.locale },
      );
      return done();
    }
    const ready = stripe.current;
    if (!ready) throw new Error(t("checkout.pay.stillLoading"));
    const checked = await ready.elements.submit();
    if (checked.error) throw new Error(checked.error.message ?? t("checkout.pay.checkCard"));
    const answer = await apiRequest<PayAnswer>("POST", payUrl, {}, { "Accept-Language": t.locale });
    if (answer.status === "paid") return done();
    const { error } = await ready.stripe.confirmPayment({
      elements: ready.elements,
      clientSecret: answer.clientSecret,
      confirmParams: {
        return_url: `${window.location.origin}${props.returnPath}`,
        receipt_email: values.email.trim(),
        payment_method_data: { billing_details: { name: values.name.trim(), email: values.email.trim() } },
      },
    });
    throw new Error(error?.message ?? t("checkout.pay.notCompleted"));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const next = cardErrors(t, values, stripeMode);
    if (Object.keys(next).length) {
      setErrors(next);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setErrors({});
    setPending(true);
    pay().catch((error: unknown) => {
      setPending(false);
      if (error instanceof ApiError && error.status === 400) setErrors(error.fields as CardErrors);
      setFailure(messageOf(error, t("forms.tryAgain")));
    });
  };

  const set = (key: keyof CardValues, format?: (v: string) => string) => (value: string) => {
    setValues((v) => ({ ...v, [key]: format ? format(value) : value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-4 space-y-4" data-testid="quote-pay-form">
      {failure && (
        <div className="alert alert-danger" role="alert" data-testid="payment-failure">
          <p className="font-semibold">{t("quotes.pay.failed")}</p>
          <p>{failure}</p>
        </div>
      )}
      <PayerFields
        values={values}
        errors={errors}
        set={set}
        nameLabel={t("checkout.pay.name")}
        emailLabel={t("quotes.pay.receiptEmail")}
      />
      {stripeMode ? (
        <div ref={element} data-testid="stripe-payment-element" className="min-h-24" />
      ) : (
        <DemoCardFields t={t} values={values} errors={errors} set={set} />
      )}
      <button type="submit" className="btn btn-gold btn-lg w-full" disabled={pending} data-testid="quote-pay-submit">
        {pending ? t("checkout.pay.processing") : t("quotes.pay.submit", { total: totalText })}
      </button>
    </form>
  );
}
