// What every part of the Stripe stand-in shares: its keys, ids, Stripe's form encoding read back into objects, the
// month arithmetic Stripe bills by, and the request each route answers (tests/support/stripe-stand-in.ts).
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import Stripe from "stripe";

export type Obj = Record<string, unknown>;

/** One API request as the stand-in recorded it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The form-encoded body, keys as Stripe's SDK writes them (e.g. "metadata[plan]"). */
  form: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey?: string;
}

export const STAND_IN_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_stand_in",
  STRIPE_PUBLISHABLE_KEY: "pk_test_stand_in",
  STRIPE_WEBHOOK_SECRET: "whsec_stand_in_secret",
} as const;

/** What the stand-in's cards answer: a card in `failingCards` is declined with this message. */
export const DECLINED = "Your card was declined.";

export const id = (prefix: string) => `${prefix}_test_${randomBytes(10).toString("hex")}`;

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (chunk) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
  });

export const metadataOf = (form: Record<string, string>, prefix = "metadata") =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith(`${prefix}[`))
      .map(([k, v]) => [k.slice(prefix.length + 1, -1), v]),
  );

/** Metadata merged as Stripe merges it: new keys added, existing replaced, a key posted empty removed. */
export function mergeMetadata(target: Obj, changes: Record<string, string>): void {
  for (const [key, value] of Object.entries(changes)) {
    if (value === "") delete target[key];
    else target[key] = value;
  }
}

/** A list parameter as the SDK writes it ("default_tax_rates[0]", …); null when absent, [] when posted empty. */
export function listParam(form: Record<string, string>, name: string): string[] | null {
  if (form[name] === "") return [];
  const values = Object.entries(form)
    .filter(([k]) => k.startsWith(`${name}[`) && /^\[\d+\]$/.test(k.slice(name.length)))
    .map(([, v]) => v);
  return values.length ? values : null;
}

/** The anchor plus n months as Stripe counts them: always from the anchor, its day clamped (Jan 31 → Feb 28 → Mar 31). */
export function monthsFrom(anchor: number, n: number): number {
  const d = new Date(anchor * 1000);
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return Math.floor(target.getTime() / 1000);
}

/** One calendar month later (UTC), the day clamped to the month's last (Jan 31 → Feb 28), as Stripe bills. */
export const addMonth = (seconds: number): number => monthsFrom(seconds, 1);

/** A form's nested list ("phases[1][items][0][price]") as objects; a list posted empty ("tax_rates=") is []. */
export function nestedList(form: Record<string, string>, prefix: string): Obj[] {
  const out: Obj[] = [];
  for (const [key, value] of Object.entries(form)) {
    if (!key.startsWith(`${prefix}[`)) continue;
    const path = key
      .slice(prefix.length)
      .split(/\]\[|\[|\]/)
      .filter(Boolean);
    let target: Obj | unknown[] = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const container = target as Record<string, unknown>;
      if (last) container[part] = value === "" && /tax_rates$/.test(part) ? [] : value;
      else {
        container[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
        target = container[part] as Obj;
      }
    });
  }
  return out;
}

export const list = (data: unknown[], url: string) => ({ object: "list", data, has_more: false, url });

/** The API version a request names (Stripe-Version), else the one the SDK is pinned to. */
export const apiVersionOf = (req: IncomingMessage): string =>
  (typeof req.headers["stripe-version"] === "string" && req.headers["stripe-version"]) || Stripe.API_VERSION;

/** Whether `version` (2026-10-28.endive) is `from` (a YYYY-MM-DD) or later: Stripe's changes apply by version. */
export const since = (version: string, from: string) => version.slice(0, 10) >= from;

/** One API request, as each group of routes receives it. */
export interface ApiRequest {
  req: IncomingMessage;
  url: URL;
  form: Record<string, string>;
  params: Record<string, string>;
  expand: string[];
  apiVersion: string;
  json: (status: number, body: unknown) => void;
  missing: (what: string, key: string) => void;
  invalid: (message: string, extra?: Obj) => void;
  /** Stripe's card error (402), as the SDK raises StripeCardError. */
  declined: (message: string, extra?: Obj) => void;
  /** The route's match when the request is `method` on a path matching `pattern`. */
  route: (method: string, pattern: RegExp) => RegExpExecArray | null;
}
