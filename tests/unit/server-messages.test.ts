// Server refusals said again in the homeowner's language (src/i18n/server-messages.ts, docs/decisions.md#70).
import { describe, expect, it } from "vitest";
import { translator } from "../../src/i18n/index.js";
import { knownServerMessage, serverFields, serverMessage } from "../../src/i18n/server-messages.js";
import { VISIT_RULE_MESSAGES } from "../../src/modules/maintenance/plan-visit-rules.js";

const fr = translator("fr-CA");
const en = translator("en-CA");

describe("serverMessage", () => {
  it("keeps English as it is, and says a known sentence, a field pattern and its label in French", () => {
    expect(serverMessage(en, VISIT_RULE_MESSAGES.held)).toBe(VISIT_RULE_MESSAGES.held);
    expect(serverMessage(fr, VISIT_RULE_MESSAGES.held)).toBe(
      "Cette visite est suspendue tant que le paiement de votre forfait est en souffrance",
    );
    expect(serverMessage(fr, "Year built must be at least 1600")).toBe("Année de construction : au moins 1600");
    expect(serverFields(fr, { phone: "Enter a valid phone number" })).toEqual({
      phone: "Entrez un numéro de téléphone valide",
    });
  });

  it("gives an unknown message the general French sentence, or null where the caller has its own", () => {
    expect(serverMessage(fr, "Something nobody wrote down")).toBe("Vérifiez ce point et réessayez.");
    expect(knownServerMessage(fr, "Something nobody wrote down")).toBeNull();
  });
});
