// Signed, expiring links to a subscription's billing page: every billing e-mail carries one.
// Nothing is stored: the link is `<subscription id>.<expiry, unix seconds>.<HMAC-SHA256>` under SESSION_SECRET,
// and retired secrets (SESSION_SECRETS_PREVIOUS) still verify, as they do for cookies.
import { createHmac, timingSafeEqual } from "node:crypto";

/** How long an e-mailed billing link works. */
export const BILLING_LINK_DAYS = 30;

const mac = (secret: string, body: string) =>
  createHmac("sha256", secret).update(`billing:${body}`).digest("base64url");

export function signBillingToken(
  subscriptionId: number,
  secret: string,
  now: Date = new Date(),
  days = BILLING_LINK_DAYS,
): string {
  const expires = Math.floor(now.getTime() / 1000) + days * 86_400;
  const body = `${subscriptionId}.${expires}`;
  return `${body}.${mac(secret, body)}`;
}

/** The subscription id a token names, or null when it is malformed, forged or expired. */
export function verifyBillingToken(token: string, secrets: readonly string[], now: Date = new Date()): number | null {
  const match = /^([1-9]\d{0,9})\.(\d{1,12})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const body = `${match[1]}.${match[2]}`;
  const given = Buffer.from(match[3]!);
  const valid = secrets.some((secret) => {
    const expected = Buffer.from(mac(secret, body));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid || Number(match[2]) * 1000 <= now.getTime()) return null;
  return Number(match[1]);
}

/** The page a billing e-mail links to. */
export const billingPagePath = (token: string) => `/billing/${token}`;
