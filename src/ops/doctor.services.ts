// `haven doctor`'s checks of the services Haven talks to: the public URL through the proxy, the SMTP server and
// Stripe (doctor.ts runs them). Each is bounded in time; a failure is a line, never a crash.
import nodemailer from "nodemailer";
import type { Env } from "../config/env.js";
import { createStripeClient } from "../modules/payments/index.js";
import { priceLookupKey } from "../modules/subscriptions/index.js";
import { type Check, fail, ok, reason, skip, warn } from "./doctor.common.js";

/** PUBLIC_URL against the Host the proxy forwards: given (--host), or by a request through the proxy. */
export async function publicUrl(env: Env, host: string | undefined, timeoutMs: number): Promise<Check> {
  const expected = new URL(env.PUBLIC_URL).host.toLowerCase();
  if (host !== undefined) {
    const given = host.trim().toLowerCase();
    return given === expected
      ? ok("public url", `the forwarded Host ${given} is PUBLIC_URL's`)
      : fail(
          "public url",
          `the proxy forwards Host ${given} but PUBLIC_URL is ${env.PUBLIC_URL}: production answers 400 to every page`,
          `set PUBLIC_URL to the address people use (https://${given}?), or have the proxy pass the public Host`,
        );
  }
  // robots.txt is a page: it goes through the production Host check, unlike /readyz.
  const url = `${env.PUBLIC_URL}/robots.txt`;
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return ok("public url", `${url} answers ${res.status}: the Host the proxy forwards is accepted`);
    if (res.status === 400)
      return fail(
        "public url",
        `${url} answers 400: the proxy forwards a Host that is not ${expected}`,
        "have the proxy pass the public Host (Caddy does by default), or set PUBLIC_URL to the address people use",
      );
    return warn(
      "public url",
      `${url} answers ${res.status}`,
      "check the proxy in front of Haven and that web is running (docker compose ps)",
    );
  } catch (error) {
    return warn(
      "public url",
      `${url} did not answer from here (${reason(error)})`,
      "check DNS, the proxy and that Haven runs; or compare offline: haven doctor --host <the Host the proxy forwards>",
    );
  }
}

export async function smtp(env: Env, timeoutMs: number): Promise<Check | null> {
  if (env.MAIL_MODE !== "smtp" || !env.SMTP_URL) return null;
  const target = new URL(env.SMTP_URL);
  const where = `${target.hostname}:${target.port || (target.protocol === "smtps:" ? 465 : 587)}`;
  const transport = nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as never);
  try {
    await transport.verify();
    return ok("smtp", `${where} answers and accepts EHLO${target.username ? " and the login" : ""} (no mail sent)`);
  } catch (error) {
    const e = error as { code?: string; responseCode?: number };
    if (e.code === "EAUTH")
      return fail(
        "smtp",
        `${where} refused the login (${reason(error)})`,
        "check the user and password in SMTP_URL (URL-encode special characters)",
      );
    return fail(
      "smtp",
      `cannot talk to the SMTP server at ${where} (${reason(error)})`,
      "check SMTP_URL's host and port, that the server runs and that this machine may connect to it",
    );
  } finally {
    transport.close();
  }
}

export type PlanPrice = { type: string; readings: number[] };

export async function stripe(env: Env, plans: PlanPrice[] | null, timeoutMs: number): Promise<Check[]> {
  if (env.PAYMENTS_MODE !== "stripe" || !env.STRIPE_SECRET_KEY) return [];
  const checks: Check[] = [];
  const secretLive = env.STRIPE_SECRET_KEY.includes("_live_");
  if (env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_PUBLISHABLE_KEY.includes("_live_") !== secretLive) {
    checks.push(
      fail(
        "stripe keys",
        "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are of different modes (one live, one test)",
        "take both keys from the same Stripe mode (Developers → API keys)",
      ),
    );
  }
  if (env.NODE_ENV === "production" && !secretLive)
    checks.push(
      warn(
        "stripe keys",
        "a test key in production: no real card is charged",
        "use the live keys (sk_live_…, pk_live_…)",
      ),
    );
  if (!env.STRIPE_WEBHOOK_SECRET)
    checks.push(
      warn(
        "stripe webhook",
        "STRIPE_WEBHOOK_SECRET is not set: Stripe's events are refused",
        "add an endpoint for $PUBLIC_URL/api/stripe/webhook in Stripe and set its signing secret (whsec_…)",
      ),
    );
  else if (!env.STRIPE_WEBHOOK_SECRET.startsWith("whsec_"))
    checks.push(
      warn(
        "stripe webhook",
        "STRIPE_WEBHOOK_SECRET does not start with whsec_",
        "copy the endpoint's signing secret, not an API key",
      ),
    );
  else checks.push(ok("stripe webhook", "STRIPE_WEBHOOK_SECRET is set"));

  const keys = (plans ?? []).flatMap((p) =>
    p.readings.map((dollars) => ({
      plan: p.type,
      cents: Math.round(dollars * 100),
      key: priceLookupKey(p.type as never, Math.round(dollars * 100)),
    })),
  );
  const client = createStripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE);
  let found: {
    lookup_key: string | null;
    unit_amount: number | null;
    currency: string;
    recurring: { interval: string } | null;
    active: boolean;
  }[];
  try {
    const list = await Promise.race([
      client.prices.list({ lookup_keys: keys.length ? keys.map((k) => k.key) : undefined, active: true, limit: 100 }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref(),
      ),
    ]);
    found = list.data;
  } catch (error) {
    const e = error as { type?: string; statusCode?: number };
    if (e.type === "StripeAuthenticationError" || e.statusCode === 401) {
      checks.push(
        fail(
          "stripe key",
          `Stripe refused STRIPE_SECRET_KEY (${reason(error)})`,
          "copy the secret key again from Stripe (Developers → API keys); a rolled key stops working",
        ),
      );
    } else if (e.type === "StripePermissionError" || e.statusCode === 403) {
      checks.push(
        fail(
          "stripe key",
          `STRIPE_SECRET_KEY may not read prices (${reason(error)})`,
          "use the secret key, or a restricted key allowed to read and write prices, customers, subscriptions and Checkout",
        ),
      );
    } else {
      checks.push(
        fail(
          "stripe key",
          `Stripe did not answer (${reason(error)})`,
          "check this machine's access to api.stripe.com (or STRIPE_API_BASE)",
        ),
      );
    }
    return checks;
  }
  checks.push(ok("stripe key", "Stripe answers with STRIPE_SECRET_KEY"));
  if (!plans) return [...checks, skip("stripe prices", "the plans could not be read (see database)")];
  if (!plans.length) return [...checks, warn("stripe prices", "no plans in the database", "run haven plans seed")];
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const k of keys) {
    const price = found.find((p) => p.lookup_key === k.key);
    if (!price) missing.push(k.key);
    else if (price.unit_amount !== k.cents || price.currency !== "cad" || price.recurring?.interval !== "month") {
      wrong.push(`${k.key} is ${price.unit_amount} ${price.currency} per ${price.recurring?.interval ?? "one time"}`);
    }
  }
  if (wrong.length)
    checks.push(
      fail(
        "stripe prices",
        `prices that do not match their lookup key: ${wrong.join("; ")}`,
        "archive them in Stripe: Haven makes the right ones at the next purchase",
      ),
    );
  else if (missing.length)
    checks.push(
      warn(
        "stripe prices",
        `no Stripe price yet for ${missing.join(", ")}`,
        "Haven makes each at its first purchase; buy once in test mode to see them, or ignore",
      ),
    );
  else
    checks.push(
      ok("stripe prices", `all ${keys.length} plan prices exist by lookup key (haven_<plan>_monthly_<cents>)`),
    );
  return checks;
}
