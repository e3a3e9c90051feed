import { describe, expect, it } from "vitest";
import { translator } from "../../i18n/index.js";
import { cardRefusal, declineCodeOf } from "./card-declines.js";

// A card's refusal chosen by Stripe's code (docs/decisions.md#78), its English message kept as the fallback.
describe("cardRefusal", () => {
  const fr = translator("fr-CA");
  const en = translator("en-CA");

  it("says a known code in the reader's language, whatever Stripe's message says", () => {
    expect(cardRefusal(fr, "Your card has expired. Please use another card.", "expired_card")).toBe(
      "Votre carte est expirée.",
    );
    expect(cardRefusal(fr, "Your card has insufficient funds.", "insufficient_funds")).toBe(
      "Les fonds de votre carte sont insuffisants.",
    );
    expect(cardRefusal(en, "Your card has insufficient funds.", "insufficient_funds")).toBe(
      "Your card has insufficient funds.",
    );
  });

  it("without a known code, reads the message: English as Stripe said it, French when the catalogue has it", () => {
    expect(cardRefusal(en, "Your card was reported lost.", "lost_card")).toBe("Your card was reported lost.");
    expect(cardRefusal(fr, "Your card's security code is incorrect.", null)).toBe(
      "Le code de sécurité de votre carte est incorrect.",
    );
    expect(cardRefusal(fr, "Your card was reported lost.", "lost_card")).toBe("Votre carte a été refusée.");
  });

  it("takes Stripe's decline_code before its code", () => {
    expect(declineCodeOf({ code: "card_declined", decline_code: "insufficient_funds" })).toBe("insufficient_funds");
    expect(declineCodeOf({ code: "incorrect_cvc" })).toBe("incorrect_cvc");
    expect(declineCodeOf(null)).toBeNull();
  });
});
