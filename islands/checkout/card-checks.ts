// Light client-side checks of the card form, with the server's messages (demoCardSchema). The server
// checks again and decides; leaving zod out keeps the payment island within the JS budget.
import { digitsOnly, expiryInFuture, luhnValid, parseExpiry } from "../../src/modules/payments/checkout.constants";
import { emailError } from "../bookings/checks";

export interface CardValues {
  name: string;
  email: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}
export type CardErrors = Partial<Record<keyof CardValues, string>>;

/** Each field's first problem; with Stripe's Payment Element only the name and e-mail are ours to check. */
export function cardErrors(values: CardValues, onlyPayer = false, now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = "Name on card is required";
  else if (name.length > 120) errors.name = "Name must be at most 120 characters";
  if (!values.email.trim()) errors.email = "Email is required";
  else errors.email = emailError(values.email);
  if (!onlyPayer) {
    const number = digitsOnly(values.cardNumber);
    if (!number) errors.cardNumber = "Card number is required";
    else if (!luhnValid(number)) errors.cardNumber = "Your card number is invalid.";
    const expiry = values.expiry.trim();
    if (!expiry) errors.expiry = "Expiry date is required";
    else if (!parseExpiry(expiry)) errors.expiry = "Enter the expiry date as MM / YY.";
    else if (!expiryInFuture(expiry, now)) errors.expiry = "Your card's expiration date is in the past.";
    const cvc = values.cvc.trim();
    if (!cvc) errors.cvc = "CVC is required";
    else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "Your card's security code is invalid.";
  }
  for (const key of Object.keys(errors) as (keyof CardValues)[]) if (!errors[key]) delete errors[key];
  return errors;
}
