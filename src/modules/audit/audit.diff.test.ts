import { describe, expect, it } from "vitest";
import { ERASED, changedFields, erasePersonal, isSecretKey, personalPattern, withoutSecrets } from "./audit.diff.js";

describe("the audit trail's secrets deny-list", () => {
  it("names password hashes, tokens, secrets, card numbers and door codes, in either case style", () => {
    for (const key of [
      "password",
      "passwordHash",
      "password_hash",
      "token",
      "tokenHash",
      "staffSessionToken",
      "sessionSecret",
      "cardNumber",
      "card_number",
      "cvc",
      "totpSecret",
      "accessCode",
      "access_code",
      "apiKey",
    ])
      expect(isSecretKey(key), key).toBe(true);
    for (const key of ["email", "status", "planType", "cardLast4", "amountCents", "reason"])
      expect(isSecretKey(key), key).toBe(false);
  });

  it("drops them at any depth, and keeps the rest", () => {
    expect(
      withoutSecrets({
        email: "a@b.ca",
        password_hash: "$argon2id$…",
        nested: { token: "t", ok: 1 },
        list: [{ cvc: "1" }],
      }),
    ).toEqual({ email: "a@b.ca", nested: { ok: 1 }, list: [{}] });
  });
});

describe("changedFields", () => {
  it("keeps only the fields that changed, each side its own value; timestamps of the write are not changes", () => {
    expect(
      changedFields(
        { id: 1, city: "Ottawa", notes: null, updatedAt: "2026-01-01T00:00:00Z", version: 1 },
        { id: 1, city: "Nepean", notes: "gate", updatedAt: "2026-02-01T00:00:00Z", version: 2 },
      ),
    ).toEqual({ before: { city: "Ottawa", notes: null }, after: { city: "Nepean", notes: "gate" } });
  });

  it("a creation has no before, a deletion no after; secrets are left out of both", () => {
    expect(changedFields(null, { id: 2, passwordHash: "x" })).toEqual({ before: null, after: { id: 2 } });
    expect(changedFields({ id: 2, token: "x" }, null)).toEqual({ before: { id: 2 }, after: null });
  });
});

describe("erasePersonal", () => {
  const pattern = personalPattern(["Avery T", "613-555-0100", "jo@example.com"]);

  it("in the person's own event, blanks personal keys; anywhere, replaces their strings as whole values", () => {
    expect(
      erasePersonal(
        { clientName: "Avery T", address: "1 Elm St", status: "scheduled", memo: "Call Avery T at 613-555-0100", n: 3 },
        pattern,
        true,
      ),
    ).toEqual({ clientName: ERASED, address: ERASED, status: "scheduled", memo: `Call ${ERASED} at ${ERASED}`, n: 3 });
  });

  it("never touches another person's value that merely contains theirs", () => {
    const other = { clientEmail: "bjo@example.com", clientName: "Avery Tremblay", memo: "mary.jo@example.com.au" };
    expect(erasePersonal(other, pattern, false)).toEqual(other);
    expect(erasePersonal({ clientEmail: "JO@example.com" }, pattern, false)).toEqual({ clientEmail: ERASED });
  });
});
