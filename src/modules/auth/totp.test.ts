import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchTotp, newTotpSecret, stepOf, totpAt } from "./totp.js";

// RFC 6238 appendix B, SHA-1: the ASCII secret "12345678901234567890", 8 digits.
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP (RFC 6238)", () => {
  it("matches the RFC's SHA-1 test vectors", () => {
    for (const [seconds, code] of [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
    ] as const)
      expect(totpAt(RFC_SECRET, stepOf(new Date(seconds * 1000)), 8)).toBe(code);
  });

  it("base32 round-trips and a new secret is 32 characters", () => {
    const bytes = Buffer.from("any bytes at all, even odd ones!");
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it("accepts the code of now and one step either side, nothing else", () => {
    const secret = newTotpSecret();
    const now = new Date("2026-12-01T12:00:10Z");
    const step = stepOf(now);
    expect(matchTotp(secret, totpAt(secret, step), now)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, step + 1), now)).toBe(step + 1);
    expect(matchTotp(secret, totpAt(secret, step - 2), now)).toBeNull();
    expect(matchTotp(secret, "12345", now)).toBeNull();
    expect(matchTotp(secret, "abcdef", now)).toBeNull();
  });
});
