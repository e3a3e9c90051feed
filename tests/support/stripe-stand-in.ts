import { randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import Stripe from "stripe";

/**
 * A local HTTP server that answers the few Stripe API calls Haven makes, so the real `stripe` SDK
 * (pointed here through STRIPE_API_BASE) can be exercised offline. It records every request, and
 * serves a tiny hosted-checkout page whose Pay button completes the session like Stripe's would.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The form-encoded body, keys as Stripe's SDK writes them (e.g. "metadata[plan]"). */
  form: Record<string, string>;
  authorization: string | undefined;
}

type Obj = Record<string, unknown>;

export const STAND_IN_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_stand_in",
  STRIPE_PUBLISHABLE_KEY: "pk_test_stand_in",
  STRIPE_WEBHOOK_SECRET: "whsec_stand_in_secret",
} as const;

const id = (prefix: string) => `${prefix}_test_${randomBytes(10).toString("hex")}`;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (chunk) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
  });

const metadataOf = (form: Record<string, string>, prefix = "metadata") =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith(`${prefix}[`))
      .map(([k, v]) => [k.slice(prefix.length + 1, -1), v]),
  );

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Obj>();
  readonly intents = new Map<string, Obj>();
  /** While set, every API call answers with this status (the SDK's own retry fails too). */
  failWith: number | null = null;
  url = "";
  private server: Server | null = null;

  static async start(): Promise<StripeStandIn> {
    const standIn = new StripeStandIn();
    standIn.server = createServer((req, res) => {
      standIn.handle(req, res).catch((error) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => standIn.server!.listen(0, "127.0.0.1", resolve));
    const address = standIn.server.address();
    standIn.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    return standIn;
  }

  /** Environment that puts Haven in Stripe mode against this server. */
  env(): Record<string, string> {
    return { ...STAND_IN_KEYS, STRIPE_API_BASE: this.url };
  }

  /** API calls only (not the hosted page). */
  apiCalls(method: string, path: string | RegExp) {
    return this.requests.filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)));
  }

  /** Completes a session as Stripe's hosted page would after a good card. */
  pay(sessionId: string, customer = { email: "payer@example.com", name: "Pat Payer" }): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No such session ${sessionId}`);
    Object.assign(session, { payment_status: "paid", status: "complete", customer_details: { email: customer.email, name: customer.name } });
    return session;
  }

  succeedIntent(intentId: string, receiptEmail: string | null = "payer@example.com"): Obj {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`No such intent ${intentId}`);
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, receipt_email: receiptEmail });
    return intent;
  }

  /** A webhook event body and a valid Stripe-Signature header for it. */
  static signedEvent(type: string, object: Obj, secret: string = STAND_IN_KEYS.STRIPE_WEBHOOK_SECRET) {
    const payload = JSON.stringify({ id: id("evt"), object: "event", type, api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const raw = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(raw));
    this.requests.push({ method: req.method ?? "GET", path: url.pathname, form, authorization: req.headers.authorization });
    const json = (status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    const missing = (what: string, key: string) => json(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${key}'` } });

    // The hosted checkout page (browser-facing, no API key).
    const pay = /^\/pay\/([\w]+)$/.exec(url.pathname);
    if (pay) {
      const session = this.sessions.get(pay[1]!);
      if (!session) return res.writeHead(404).end("No such session");
      if (req.method === "POST") {
        this.pay(session.id as string, { email: form.email || "payer@example.com", name: form.name || "Pat Payer" });
        const next = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id as string);
        return res.writeHead(303, { Location: next }).end();
      }
      return res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><html lang="en"><head><title>Stand-in Checkout</title></head><body>
<main><h1>Stand-in Stripe Checkout</h1><p>Amount: ${Number(session.amount_total) / 100} ${String(session.currency).toUpperCase()}</p>
<form method="post"><label>Email <input name="email" value="payer@example.com"></label><label>Name <input name="name" value="Pat Payer"></label><button type="submit">Pay</button></form>
<a href="${session.cancel_url}">Cancel</a></main></body></html>`);
    }

    if (req.headers.authorization !== `Bearer ${STAND_IN_KEYS.STRIPE_SECRET_KEY}`) {
      return json(401, { error: { type: "authentication_error", message: "Invalid API Key provided" } });
    }
    if (this.failWith) return json(this.failWith, { error: { type: "api_error", message: "Stand-in failure" } });

    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const sessionId = id("cs");
      const quantity = Number(form["line_items[0][quantity]"] ?? 1);
      const session: Obj = {
        id: sessionId,
        object: "checkout.session",
        mode: form.mode,
        url: `${this.url}/pay/${sessionId}`,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        amount_total: Number(form["line_items[0][price_data][unit_amount]"]) * quantity,
        currency: form["line_items[0][price_data][currency]"],
        metadata: metadataOf(form),
        payment_status: "unpaid",
        status: "open",
        customer_details: null,
        payment_intent: null,
      };
      this.sessions.set(sessionId, session);
      return json(200, session);
    }
    const session = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
    if (req.method === "GET" && session) {
      const found = this.sessions.get(session[1]!);
      return found ? json(200, found) : missing("checkout.session", session[1]!);
    }
    if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
      const intentId = id("pi");
      const intent: Obj = {
        id: intentId,
        object: "payment_intent",
        amount: Number(form.amount),
        amount_received: 0,
        currency: form.currency,
        client_secret: `${intentId}_secret_${randomBytes(8).toString("hex")}`,
        status: "requires_payment_method",
        metadata: metadataOf(form),
        receipt_email: null,
      };
      this.intents.set(intentId, intent);
      return json(200, intent);
    }
    const intent = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
    if (req.method === "GET" && intent) {
      const found = this.intents.get(intent[1]!);
      return found ? json(200, found) : missing("payment_intent", intent[1]!);
    }
    return json(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  }
}
