// One-time links (docs/decisions.md#7): report shares, quote reports and My Home's sign-in links. The token and
// the browser binding are random; only their SHA-256 is stored, so a database leak never yields a working link.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { CookieOptions, Request, Response } from "express";

/** 32 random bytes in base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const LINK_TTL_DAYS = 30;
export const LINK_COOKIE = "haven_link";

export const newToken = (): string => randomBytes(32).toString("base64url");
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
export const isToken = (value: unknown): value is string => typeof value === "string" && TOKEN_PATTERN.test(value);

export const expiryFrom = (now: Date, days = LINK_TTL_DAYS) => new Date(now.getTime() + days * 86_400_000);

/** A fresh browser binding: the cookie value and the hash the row keeps. */
export function newBinding(): { cookie: string; hash: string } {
  const cookie = randomBytes(32).toString("base64url");
  return { cookie, hash: hashToken(cookie) };
}

/** Whether the request's binding cookie is the one this link was claimed with. */
export function sameBrowser(cookieValue: string | undefined, bindingHash: string | null): boolean {
  if (!cookieValue || !bindingHash) return false;
  const a = Buffer.from(hashToken(cookieValue), "hex");
  const b = Buffer.from(bindingHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every binding cookie value the request carries (one per matching path; no cookie parser in the stack). */
export function bindingCookies(req: Request): string[] {
  const values: string[] = [];
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === LINK_COOKIE) values.push(decodeURIComponent(rest.join("=")));
  }
  return values;
}

/** Binds this browser: an httpOnly cookie scoped to the link's page and API paths only. */
export function setBindingCookie(res: Response, value: string, paths: string[], expires: Date, secure: boolean): void {
  const options: CookieOptions = { httpOnly: true, sameSite: "lax", secure, expires };
  for (const path of paths) res.cookie(LINK_COOKIE, value, { ...options, path });
}

// Case-blind, as Express matches paths: /Billing/<token> reaches the billing page too. My Home's sign-in link
// (/my-home/sign-in/<token>) is one, and so is an accepted quote's pay link (/quote-pay/<token>, /api/quote-pay/<token>);
// the sign-in's code form (/my-home/sign-in/code) and the sample report carry none.
const SECRET_PATH =
  /\/(client-report|quote-report|quote-pay|calendar\/feed|billing|my-home\/sign-in|demo-checkout)\/(?!(?:sample|code)(?:[/?#]|$))[^/?#]+/gi;
// Checkout sessions and payment intents open a customer's intake and payment; Stripe adds client secrets on return.
const SECRET_QUERY = /([?&](?:session_id|payment_intent|[^=&#]*(?:secret|token)[^=&#]*)=)[^&#]*/gi;

/** Log lines never carry a link token or another secret of a URL: the path segment or query value is replaced. */
export function redactLinkTokens(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PATH, "/$1/[token]").replace(SECRET_QUERY, "$1[token]");
}

/** The columns every one-time link row has (report shares and quote report links). */
export interface LinkState {
  revoked: boolean;
  expiresAt: string;
  claimedAt: string | null;
  browserBinding: string | null;
  completedAt?: string | null;
}

export const GONE_MESSAGE = "This link has already been used or has expired";

export const isLive = (row: LinkState, now = new Date()) =>
  !row.revoked && new Date(row.expiresAt) > now && !row.completedAt;
export const boundTo = (row: LinkState, cookies: string[]) => cookies.some((c) => sameBrowser(c, row.browserBinding));

/**
 * Opens a one-time link: a live, unclaimed link is claimed by this request (when `claim` is allowed) and
 * bound to a new cookie; a claimed one opens only for the browser holding its cookie. Anything else is
 * `gone` (the caller answers 410 or sends the page to /report-expired). Unknown tokens are gone too, so a
 * caller learns nothing by guessing.
 */
export async function openLink<T extends LinkState>(
  find: () => Promise<T | null>,
  claim: ((bindingHash: string) => Promise<T | null>) | null,
  cookies: string[],
): Promise<{ row: T; binding?: string } | { gone: true }> {
  let row = await find();
  if (!row || !isLive(row)) return { gone: true };
  if (row.claimedAt === null) {
    if (!claim) return { row };
    const binding = newBinding();
    const claimed = await claim(binding.hash);
    if (claimed) return { row: claimed, binding: binding.cookie };
    // Another request claimed it first: this one opens only if it is that browser.
    row = await find();
    if (!row || !isLive(row)) return { gone: true };
  }
  return boundTo(row, cookies) ? { row } : { gone: true };
}
