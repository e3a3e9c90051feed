import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import Stripe from "stripe";
import {
  type ApiRequest,
  type Obj,
  type RecordedRequest,
  STAND_IN_KEYS,
  apiVersionOf,
  id,
  readBody,
} from "./stripe-stand-in-kit.js";
import { disputesOf } from "./stripe-stand-in-disputes.js";
import { moneyOf } from "./stripe-stand-in-money.js";
import { StandInCatalogue } from "./stripe-stand-in-routes.js";

export { DECLINED, type RecordedRequest, STAND_IN_KEYS, addMonth, monthsFrom } from "./stripe-stand-in-kit.js";

/**
 * A local HTTP server that answers the Stripe API calls Haven makes, so the real `stripe` SDK (pointed here through
 * STRIPE_API_BASE) can be exercised offline, with Stripe's documented semantics (tests/unit/stripe-stand-in-*.test.ts
 * check them against the reference). It records every request, keeps each idempotency key's first answer, and
 * serves a tiny hosted-checkout page whose Pay button completes the session like Stripe's would. Its parts:
 * stripe-stand-in-objects.ts (what every call does to the objects), -billing.ts (subscriptions and invoices),
 * -schedules.ts, -scenarios.ts (Stripe's side between calls), -routes.ts (catalogue, one-time payments, portal),
 * -money.ts (refunds, credit notes, paged lists), -disputes.ts (disputes through their close).
 */
export class StripeStandIn extends StandInCatalogue {
  readonly requests: RecordedRequest[] = [];
  /** While set, every API call answers with this status (the SDK's own retry fails too). */
  failWith: number | null = null;
  /**
   * While set, every POST is carried out (or replayed by its idempotency key) but answered with a 500: Stripe applied
   * a change whose answer was lost.
   */
  loseAnswers = false;
  /**
   * Calls to a path that time out (docs/decisions.md#52): the next `times` POSTs are carried out (or replayed by their
   * idempotency key) and their answer kept for the key, but the connection closes with no answer, as a timeout
   * looks to the SDK (which retries once with the same key). `times: 1` is a timeout the SDK's retry recovers.
   */
  timeOuts: { path: string; times: number } | null = null;
  /**
   * The next `times` calls to a path (of `method`, when given) answer `status` without reaching the API (nothing
   * done, nothing kept).
   */
  failing: { path: string; status: number; times: number; method?: string } | null = null;
  /** Calls held unanswered by `stall`, each gate with the calls it holds. */
  private readonly stalls: { path: string | RegExp; held: number; gate: Promise<void>; arrivals: (() => void)[] }[] =
    [];
  /** The first answer to each Idempotency-Key (as Stripe keeps them), with the path it was used on. */
  private readonly idempotent = new Map<string, { path: string; status: number; body: string }>();
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
    return this.requests.filter(
      (r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
    );
  }

  /** A webhook event body and a valid Stripe-Signature header for it. */
  static signedEvent(type: string, object: Obj, secret: string = STAND_IN_KEYS.STRIPE_WEBHOOK_SECRET) {
    const payload = JSON.stringify({
      id: id("evt"),
      object: "event",
      type,
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  /**
   * A slow spell at Stripe (docs/decisions.md#56): every API call whose path matches is held, unanswered, until the
   * test calls `release()` (no timer: the test decides when Stripe answers). `held(n)` resolves once n calls are
   * waiting. Released calls are then carried out as usual. Keep the hold under the SDK's 20 s timeout.
   */
  stall(path: string | RegExp): { held(count: number): Promise<void>; release(): void } {
    let open = () => {};
    const stall = {
      path,
      held: 0,
      gate: new Promise<void>((resolve) => {
        open = resolve;
      }),
      arrivals: [] as (() => void)[],
    };
    this.stalls.push(stall);
    return {
      held: (count) =>
        new Promise<void>((resolve) => {
          const check = () => (stall.held >= count ? resolve() : stall.arrivals.push(check));
          check();
        }),
      release: () => {
        const at = this.stalls.indexOf(stall);
        if (at >= 0) this.stalls.splice(at, 1);
        open();
      },
    };
  }

  /** Waits while a stall holds this path. */
  private async stalled(path: string): Promise<void> {
    for (const stall of this.stalls.filter((s) => (typeof s.path === "string" ? s.path === path : s.path.test(path)))) {
      stall.held++;
      for (const arrival of stall.arrivals.splice(0)) arrival();
      await stall.gate;
    }
  }

  /** Whether this call's answer is lost to a timeout (`timeOuts`), counting it. */
  private timedOut(method: string | undefined, path: string): boolean {
    if (method !== "POST" || this.timeOuts?.path !== path || this.timeOuts.times <= 0) return false;
    this.timeOuts.times--;
    return true;
  }

  /** The hosted checkout page (browser-facing, no API key): its Pay button completes the session. */
  private hostedCheckout(req: IncomingMessage, res: ServerResponse, sessionId: string, form: Record<string, string>) {
    const session = this.sessions.get(sessionId);
    if (!session) return res.writeHead(404).end("No such session");
    if (req.method === "POST") {
      this.pay(session.id as string, { email: form.email || "payer@example.com", name: form.name || "Pat Payer" });
      const next = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id as string);
      return res.writeHead(303, { Location: next }).end();
    }
    return res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(`<!doctype html><html lang="en"><head><title>Stand-in Checkout</title></head><body>
<main><h1>Stand-in Stripe Checkout</h1><p>Amount: ${Number(session.amount_total) / 100} ${String(session.currency).toUpperCase()}${session.mode === "subscription" ? " per month" : ""}</p>
<form method="post"><label>Email <input name="email" value="payer@example.com"></label><label>Name <input name="name" value="Pat Payer"></label><button type="submit">Pay</button></form>
<a href="${session.cancel_url}">Cancel</a></main></body></html>`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const raw = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(raw));
    this.requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      form,
      authorization: req.headers.authorization,
      idempotencyKey: typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : undefined,
    });
    const idempotencyKey =
      req.method === "POST" && typeof req.headers["idempotency-key"] === "string" && url.pathname.startsWith("/v1/")
        ? req.headers["idempotency-key"]
        : null;
    const lost = () =>
      res
        .writeHead(500, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { type: "api_error", message: "Stand-in: the answer was lost" } }));
    const json = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      // Stripe keeps the first answer to a key and gives it again to a retry with the same key.
      if (idempotencyKey && !this.idempotent.has(idempotencyKey) && !this.failWith)
        this.idempotent.set(idempotencyKey, { path: url.pathname, status, body: text });
      if (this.loseAnswers && req.method === "POST" && url.pathname.startsWith("/v1/")) return lost();
      if (this.timedOut(req.method, url.pathname)) return void req.socket.destroy();
      return res.writeHead(status, { "Content-Type": "application/json" }).end(text);
    };
    const params = { ...Object.fromEntries(url.searchParams), ...form };
    const request: ApiRequest = {
      req,
      url,
      form,
      params,
      expand: Object.entries(params)
        .filter(([k]) => /^expand\[\d*\]$/.test(k))
        .map(([, v]) => v),
      apiVersion: apiVersionOf(req),
      json,
      missing: (what, key) =>
        json(404, {
          error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${key}'` },
        }),
      invalid: (message, extra = {}) => json(400, { error: { type: "invalid_request_error", message, ...extra } }),
      declined: (message, extra = {}) =>
        json(402, {
          error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message, ...extra },
        }),
      route: (method, pattern) => (req.method === method ? pattern.exec(url.pathname) : null),
    };

    const pay = /^\/pay\/([\w]+)$/.exec(url.pathname);
    if (pay) return this.hostedCheckout(req, res, pay[1]!, form);
    if (req.headers.authorization !== `Bearer ${STAND_IN_KEYS.STRIPE_SECRET_KEY}`)
      return json(401, { error: { type: "authentication_error", message: "Invalid API Key provided" } });
    await this.stalled(url.pathname);
    if (this.failWith) return json(this.failWith, { error: { type: "api_error", message: "Stand-in failure" } });
    if (
      this.failing?.path === url.pathname &&
      (!this.failing.method || this.failing.method === req.method) &&
      this.failing.times > 0
    ) {
      this.failing.times--;
      return res
        .writeHead(this.failing.status, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { type: "api_error", message: "Stand-in: the call failed" } }));
    }
    const replay = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (replay) {
      if (replay.path !== url.pathname)
        return request.invalid(
          "Keys for idempotent requests can only be used for the same endpoint they were first used for.",
        );
      if (this.loseAnswers) return lost();
      if (this.timedOut(req.method, url.pathname)) return void req.socket.destroy();
      return res
        .writeHead(replay.status, { "Content-Type": "application/json", "Idempotent-Replayed": "true" })
        .end(replay.body);
    }
    // Refunds, credit notes, disputes and paged lists first (stripe-stand-in-money.ts, docs/decisions.md#34).
    if (moneyOf(this).handle(request) || disputesOf(this).handle(request)) return;
    if (this.scheduleRoutes(request) || this.billingRoutes(request) || this.catalogueRoutes(request)) return;
    return json(404, {
      error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    });
  }
}
