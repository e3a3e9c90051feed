// Light client-side checks of the card form, with the server's messages (demoCardSchema) in the page's language.
// The server checks again and decides; leaving zod out keeps the payment island within the JS budget.
import { digitsOnly, expiryInFuture, luhnValid, parseExpiry } from "../../src/modules/payments/checkout.constants";
import { type CheckT, emailError, requiredError } from "../bookings/checks";

export interface CardValues {
  name: string;
  email: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}
export type CardErrors = Partial<Record<keyof CardValues, string>>;

/**
 * Each field's first problem; with Stripe's Payment Element only the name and e-mail are ours to check. `t` has the
 * `checkout` and `forms` namespaces.
 */
export function cardErrors(t: CheckT, values: CardValues, onlyPayer = false, now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = requiredError(t, t("checkout.pay.name"));
  else if (name.length > 120) errors.name = t("checkout.card.nameLong");
  if (!values.email.trim()) errors.email = requiredError(t, t("checkout.pay.email"));
  else errors.email = emailError(t, values.email);
  if (!onlyPayer) {
    const number = digitsOnly(values.cardNumber);
    if (!number) errors.cardNumber = requiredError(t, t("checkout.pay.card"));
    else if (!luhnValid(number)) errors.cardNumber = t("checkout.card.numberInvalid");
    const expiry = values.expiry.trim();
    if (!expiry) errors.expiry = requiredError(t, t("checkout.card.field.expiry"));
    else if (!parseExpiry(expiry)) errors.expiry = t("checkout.card.expiryFormat");
    else if (!expiryInFuture(expiry, now)) errors.expiry = t("checkout.card.expiryPast");
    const cvc = values.cvc.trim();
    if (!cvc) errors.cvc = requiredError(t, t("checkout.pay.cvc"));
    else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = t("checkout.card.cvcInvalid");
  }
  for (const key of Object.keys(errors) as (keyof CardValues)[]) if (!errors[key]) delete errors[key];
  return errors;
}
