// A card's refusal in the homeowner's language, chosen by the code Stripe gives it (docs/decisions.md#78): a card
// error's `decline_code` ("insufficient_funds") or, without one, its `code` ("expired_card", "incorrect_cvc"). The
// English message is kept beside it for a code Haven does not know; a French reader then gets the catalogue's French
// for that message, or the general "Your card was declined." in French.
import type { Translator } from "../../i18n/index.js";
import { knownServerMessage } from "../../i18n/server-messages.js";

/** Stripe's codes (docs.stripe.com/declines/codes, /error-codes) and the catalogue's sentence for each. */
const DECLINE_TEXT: Record<string, string> = {
  insufficient_funds: "errors.api.card.funds",
  expired_card: "errors.api.card.expired",
  incorrect_cvc: "errors.api.card.cvcIncorrect",
  invalid_cvc: "errors.api.card.cvcInvalid",
  incorrect_number: "errors.api.card.numberIncorrect",
  invalid_number: "errors.api.card.numberInvalid",
  card_not_supported: "errors.api.card.unsupported",
  processing_error: "errors.api.card.processing",
  generic_decline: "errors.api.card.declined",
  card_declined: "errors.api.card.declined",
  do_not_honor: "errors.api.card.declined",
};

/** The code a failed PaymentIntent's `last_payment_error` gives: its decline_code, else its code. */
export const declineCodeOf = (error: { decline_code?: string | null; code?: string | null } | null | undefined) =>
  error?.decline_code || error?.code || null;

/** Why a card was refused, in t's language: by its code, else by its message, else the general refusal. */
export function cardRefusal(t: Translator, message: string, code?: string | null): string {
  const key = code ? DECLINE_TEXT[code] : undefined;
  if (key) return t(key);
  return knownServerMessage(t, message) ?? t("errors.api.card.declined");
}
