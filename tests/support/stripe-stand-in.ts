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
  idempotencyKey?: string;
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

/** A list parameter as the SDK writes it ("default_tax_rates[0]", "default_tax_rates[1]", …). */
const listParam = (form: Record<string, string>, name: string) =>
  Object.entries(form)
    .filter(([k]) => k.startsWith(`${name}[`) && /^\[\d+\]$/.test(k.slice(name.length)))
    .map(([, v]) => v);

/** One calendar month later (UTC), the day clamped to the month's last (Jan 31 → Feb 28), as Stripe bills. */
export function addMonth(seconds: number): number {
  const d = new Date(seconds * 1000);
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return Math.floor(target.getTime() / 1000);
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

/** A form's nested list ("phases[1][items][0][price]") as objects. */
function nestedList(form: Record<string, string>, prefix: string): Obj[] {
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
      if (last) container[part] = value;
      else {
        container[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
        target = container[part] as Obj;
      }
    });
  }
  return out;
}

const list = (data: unknown[], url: string) => ({ object: "list", data, has_more: false, url });

/** What the stand-in's cards answer: a card in `failingCards` is declined with this message. */
export const DECLINED = "Your card was declined.";

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Obj>();
  readonly intents = new Map<string, Obj>();
  readonly customers = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly portalConfigurations = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  /** Tax Rate objects (Haven's are exclusive and carry metadata.haven_tax). */
  readonly taxRates = new Map<string, Obj>();
  /** Payment methods whose charges are declined (failRenewal puts the subscription's card here). */
  readonly failingCards = new Set<string>();
  /** While set, every API call answers with this status (the SDK's own retry fails too). */
  failWith: number | null = null;
  /**
   * While set, every POST is carried out (or replayed by its idempotency key) but answered with a 500: Stripe applied
   * a change whose answer was lost.
   */
  loseAnswers = false;
  /** What a subscription still past due when its next period ends becomes: Stripe's "cancel" or "mark unpaid". */
  retriesEnd: "canceled" | "unpaid" = "canceled";
  readonly schedules = new Map<string, Obj>();
  /** The first answer to each Idempotency-Key (as Stripe keeps them), with the path it was used on. */
  private readonly idempotent = new Map<string, { path: string; status: number; body: string }>();
  /** The stand-in's clock (ms). A test may set it; subscriptions start and prorate by it. */
  clock: () => number = () => Date.now();
  url = "";
  private server: Server | null = null;
  /** A PaymentIntent made by an invoice → that invoice. */
  private readonly intentInvoice = new Map<string, string>();

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

  private get nowSeconds() {
    return Math.floor(this.clock() / 1000);
  }

  // ---------------------------------------------------------------- test helpers (what Stripe's side would do)

  /**
   * Completes a session as Stripe's hosted page would after a good card. A subscription-mode session
   * creates its customer and subscription and pays the first invoice.
   */
  pay(sessionId: string, customer = { email: "payer@example.com", name: "Pat Payer" }): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No such session ${sessionId}`);
    if (session.mode === "subscription" && !session.subscription) {
      const cus = this.createCustomer({ email: customer.email, name: customer.name, metadata: {} });
      const sub = this.createSubscription(
        cus.id as string,
        session.price as string,
        (session.subscription_metadata as Record<string, string>) ?? {},
        "on_subscription",
      );
      // The session's line tax rates go on the subscription's item and tax its first invoice, as Stripe's do.
      this.applyTaxRates(sub, [], (session.tax_rates as string[] | undefined) ?? []);
      const invoice = this.invoices.get(sub.latest_invoice as string)!;
      this.charge(invoice, `pm_card_${randomBytes(4).toString("hex")}`, customer.email);
      Object.assign(session, { subscription: sub.id, customer: cus.id });
    }
    Object.assign(session, {
      payment_status: "paid",
      status: "complete",
      customer_details: { email: customer.email, name: customer.name },
    });
    return session;
  }

  /** A one-time intent succeeds; an invoice's intent pays that invoice (as the Payment Element would). */
  succeedIntent(intentId: string, receiptEmail: string | null = "payer@example.com"): Obj {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`No such intent ${intentId}`);
    if (this.intentInvoice.has(intentId)) {
      this.paySubscriptionInvoice(intentId, { email: receiptEmail });
      return intent;
    }
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, receipt_email: receiptEmail });
    return intent;
  }

  /**
   * The Payment Element confirms a subscription's open invoice (`ref`: its PaymentIntent, the invoice or the
   * subscription): paid with `card`, which becomes the subscription's default (save_default_payment_method).
   */
  paySubscriptionInvoice(ref: string, options: { email?: string | null; card?: string } = {}): Obj {
    const invoice = this.invoiceFor(ref);
    const card = options.card ?? `pm_card_${randomBytes(4).toString("hex")}`;
    if (!this.charge(invoice, card, options.email ?? null)) throw new Error(`Card ${card} is declined`);
    return invoice;
  }

  /**
   * The subscription's period ends: the next one is invoiced and charged to its card (or declined when `fail`
   * or when the card is failing). A cancel_at that has come ends it instead, and a subscription still past due
   * ends as Stripe's retries running out would (canceled, its invoice uncollectible).
   */
  advancePeriod(
    subscriptionId: string,
    options: { fail?: boolean; requiresAction?: boolean } = {},
  ): { subscription: Obj; invoice: Obj | null } {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    if (["canceled", "incomplete_expired"].includes(sub.status as string))
      throw new Error(`${subscriptionId} has ended`);
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const start = item.current_period_end as number;
    if (sub.cancel_at && (sub.cancel_at as number) <= start) {
      Object.assign(sub, {
        status: "canceled",
        ended_at: sub.cancel_at,
        canceled_at: sub.canceled_at ?? this.nowSeconds,
      });
      return { subscription: sub, invoice: null };
    }
    if (sub.status === "past_due") {
      // Stripe's retries ran out: the setting's end state (the open invoice stays payable when unpaid).
      if (this.retriesEnd === "unpaid") {
        sub.status = "unpaid";
        return { subscription: sub, invoice: null };
      }
      const open = this.invoices.get(sub.latest_invoice as string);
      if (open?.status === "open") open.status = "uncollectible";
      Object.assign(sub, { status: "canceled", ended_at: start, canceled_at: start });
      return { subscription: sub, invoice: null };
    }
    if (sub.status === "unpaid") throw new Error(`${subscriptionId} is unpaid: pay its open invoice first`);
    // Periods count from the billing anchor, as Stripe's do.
    const n = Number((item as { period_index?: number }).period_index ?? 0) + 1;
    Object.defineProperty(item, "period_index", { value: n, writable: true, enumerable: false, configurable: true });
    const end = monthsFrom(sub.billing_cycle_anchor as number, n + 1);
    Object.assign(item, { current_period_start: start, current_period_end: end });
    if (!this.enterPhase(sub, start)) return { subscription: sub, invoice: null };
    const price = item.price as Obj;
    const invoice = this.createInvoice(sub, {
      amount: price.unit_amount as number,
      reason: "subscription_cycle",
      start,
      end,
    });
    const card = this.cardOf(sub);
    if (options.requiresAction) {
      // The bank asks for 3-D Secure: the invoice stays open until the customer confirms on its hosted page.
      const payment = (invoice.payments as { data: Obj[] }).data[0]!;
      const intent = this.intents.get((payment.payment as Obj).payment_intent as string)!;
      Object.assign(invoice, { attempt_count: 1, attempted: true });
      Object.assign(intent, { status: "requires_action", last_payment_error: null });
      sub.status = "past_due";
      return { subscription: sub, invoice };
    }
    if (options.fail && card) this.failingCards.add(card);
    this.charge(invoice, card, null, start);
    return { subscription: sub, invoice };
  }

  /** The customer confirms a 3-D Secure payment on the invoice's hosted page: it is paid. */
  confirmInvoice(invoiceId: string): Obj {
    const invoice = this.invoices.get(invoiceId);
    if (!invoice) throw new Error(`No such invoice ${invoiceId}`);
    const sub = this.subscriptions.get(((invoice.parent as Obj).subscription_details as Obj).subscription as string)!;
    if (!this.charge(invoice, this.cardOf(sub) ?? `pm_card_${randomBytes(4).toString("hex")}`))
      throw new Error("declined");
    return invoice;
  }

  /**
   * A schedule's phase that starts at `start` takes over the subscription (its price and metadata); past the last
   * phase, the schedule ends by its end_behavior. False when that canceled the subscription.
   */
  private enterPhase(sub: Obj, start: number): boolean {
    const schedule = sub.schedule ? this.schedules.get(sub.schedule as string) : undefined;
    if (!schedule) return true;
    const phases = schedule.phases as Obj[];
    const phase = phases.find((p) => (p.start_date as number) <= start && start < (p.end_date as number));
    if (phase) {
      const item = (sub.items as { data: Obj[] }).data[0]!;
      const priceId = ((phase.items as Obj[])[0]!.price as string) ?? "";
      const price = this.prices.get(priceId);
      if (price) item.price = price;
      Object.assign(sub.metadata as Obj, (phase.metadata as Obj | undefined) ?? {});
      schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
      return true;
    }
    if (schedule.end_behavior === "cancel") {
      Object.assign(sub, { status: "canceled", ended_at: start, canceled_at: start, schedule: null });
      schedule.status = "completed";
      return false;
    }
    Object.assign(schedule, { status: "released", released_subscription: sub.id, subscription: null });
    sub.schedule = null;
    return true;
  }

  /** A renewal whose charge is declined: the subscription's card fails from now on; past_due. */
  failRenewal(subscriptionId: string): Obj {
    return this.advancePeriod(subscriptionId, { fail: true }).invoice!;
  }

  /** What the billing portal's card flow does: a new card becomes the CUSTOMER's default (not the subscription's). */
  updateCustomerCard(customerId: string, card = `pm_card_${randomBytes(4).toString("hex")}`): string {
    const customer = this.customers.get(customerId);
    if (!customer) throw new Error(`No such customer ${customerId}`);
    (customer.invoice_settings as Obj).default_payment_method = card;
    return card;
  }

  /** The subscription as the API would return it, with these expansions. */
  subscription(subscriptionId: string, expand: string[] = []): Obj {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    return this.expand(sub, expand);
  }

  /** The subscription a PaymentIntent, invoice or session belongs to. */
  subscriptionOf(ref: string): Obj {
    if (this.subscriptions.has(ref)) return this.subscriptions.get(ref)!;
    const session = this.sessions.get(ref);
    if (session?.subscription) return this.subscriptions.get(session.subscription as string)!;
    const invoice = this.invoiceFor(ref);
    return this.subscriptions.get(((invoice.parent as Obj).subscription_details as Obj).subscription as string)!;
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

  // ---------------------------------------------------------------- the objects

  private createCustomer(fields: { email: string | null; name: string | null; metadata: Record<string, string> }): Obj {
    const customer: Obj = {
      id: id("cus"),
      object: "customer",
      email: fields.email,
      name: fields.name,
      metadata: fields.metadata,
      invoice_settings: { default_payment_method: null },
    };
    this.customers.set(customer.id as string, customer);
    return customer;
  }

  private createSubscription(
    customerId: string,
    priceId: string,
    metadata: Record<string, string>,
    saveDefault: string | undefined,
  ): Obj {
    const price = this.prices.get(priceId);
    if (!price) throw new Error(`No such price ${priceId}`);
    const now = this.nowSeconds;
    const sub: Obj = {
      id: id("sub"),
      object: "subscription",
      customer: customerId,
      status: "incomplete",
      created: now,
      start_date: now,
      billing_cycle_anchor: now,
      schedule: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      default_payment_method: null,
      metadata,
      payment_settings: { save_default_payment_method: saveDefault ?? "off" },
      latest_invoice: null,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            price,
            quantity: 1,
            current_period_start: now,
            current_period_end: addMonth(now),
          },
        ],
      },
    };
    this.subscriptions.set(sub.id as string, sub);
    this.createInvoice(sub, {
      amount: price.unit_amount as number,
      reason: "subscription_create",
      start: now,
      end: addMonth(now),
    });
    return sub;
  }

  private createInvoice(sub: Obj, bill: { amount: number; reason: string; start: number; end: number }): Obj {
    const invoiceId = id("in");
    const intentId = id("pi");
    const clientSecret = `${intentId}_secret_${randomBytes(8).toString("hex")}`;
    const intent: Obj = {
      id: intentId,
      object: "payment_intent",
      amount: bill.amount,
      amount_received: 0,
      currency: "cad",
      client_secret: clientSecret,
      status: "requires_payment_method",
      metadata: {},
      receipt_email: null,
      last_payment_error: null,
    };
    this.intents.set(intentId, intent);
    this.intentInvoice.set(intentId, invoiceId);
    const invoice: Obj = {
      id: invoiceId,
      object: "invoice",
      customer: sub.customer,
      status: "open",
      amount_due: bill.amount,
      amount_paid: 0,
      amount_remaining: bill.amount,
      currency: "cad",
      attempt_count: 0,
      attempted: false,
      billing_reason: bill.reason,
      created: this.nowSeconds,
      // Stripe's invoice-level period for a renewal is the previous period; the line carries the one billed.
      period_start: bill.start,
      period_end: bill.start,
      lines: {
        object: "list",
        data: [
          {
            id: id("il"),
            object: "line_item",
            amount: bill.amount,
            currency: "cad",
            period: { start: bill.start, end: bill.end },
          },
        ],
      },
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      status_transitions: { paid_at: null, finalized_at: this.nowSeconds },
      confirmation_secret: { client_secret: clientSecret, type: "payment_intent" },
      payments: {
        object: "list",
        data: [
          {
            id: id("inpay"),
            object: "invoice_payment",
            invoice: invoiceId,
            is_default: true,
            status: "open",
            payment: { type: "payment_intent", payment_intent: intentId },
          },
        ],
      },
    };
    invoice.hosted_invoice_url = `${this.url}/hosted/${invoiceId}`;
    this.invoices.set(invoiceId, invoice);
    sub.latest_invoice = invoiceId;
    this.taxInvoice(sub, invoice);
    return invoice;
  }

  private cardOf(sub: Obj): string | null {
    const customer = this.customers.get(sub.customer as string);
    return (
      (sub.default_payment_method as string | null) ??
      ((customer?.invoice_settings as Obj | undefined)?.default_payment_method as string | null) ??
      null
    );
  }

  /** One payment attempt on an open invoice; moves the subscription's status as Stripe does. True when paid. */
  private charge(invoice: Obj, card: string | null, receiptEmail: string | null = null, at = this.nowSeconds): boolean {
    if (invoice.status !== "open") return invoice.status === "paid";
    const payment = (invoice.payments as { data: Obj[] }).data[0]!;
    const intent = this.intents.get((payment.payment as Obj).payment_intent as string)!;
    const sub = this.subscriptions.get(((invoice.parent as Obj).subscription_details as Obj).subscription as string)!;
    Object.assign(invoice, { attempt_count: (invoice.attempt_count as number) + 1, attempted: true });
    if (!card || this.failingCards.has(card)) {
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: {
          type: "card_error",
          code: "card_declined",
          message: DECLINED,
          payment_method: card ? { id: card } : null,
        },
      });
      if (sub.status === "active") sub.status = "past_due";
      return false;
    }
    Object.assign(intent, {
      status: "succeeded",
      amount_received: intent.amount,
      last_payment_error: null,
      receipt_email: receiptEmail ?? intent.receipt_email,
      payment_method: card,
    });
    Object.assign(invoice, {
      status: "paid",
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      status_transitions: { ...(invoice.status_transitions as Obj), paid_at: at },
    });
    payment.status = "paid";
    if ((sub.payment_settings as Obj).save_default_payment_method === "on_subscription" && !sub.default_payment_method)
      sub.default_payment_method = card;
    if (["incomplete", "past_due", "unpaid"].includes(sub.status as string)) sub.status = "active";
    return true;
  }

  private invoiceFor(ref: string): Obj {
    const invoiceId = this.invoices.has(ref)
      ? ref
      : (this.intentInvoice.get(ref) ?? (this.subscriptions.get(ref)?.latest_invoice as string | undefined));
    const invoice = invoiceId ? this.invoices.get(invoiceId) : undefined;
    if (!invoice) throw new Error(`No invoice for ${ref}`);
    return invoice;
  }

  private lookup(value: string): Obj | undefined {
    for (const map of [this.customers, this.invoices, this.intents, this.subscriptions, this.prices, this.schedules]) {
      const found = map.get(value);
      if (found) return found;
    }
    return undefined;
  }

  /** A copy with `expand` paths ("customer", "latest_invoice.payments.data.payment.payment_intent") resolved. */
  private expand(object: Obj, paths: string[]): Obj {
    const copy = structuredClone(object);
    for (const path of paths) this.expandPath(copy, path.split("."));
    return copy;
  }

  private expandPath(target: unknown, parts: string[]): void {
    if (!parts.length || target == null || typeof target !== "object") return;
    const [head, ...rest] = parts as [string, ...string[]];
    const object = target as Obj;
    let value = object[head];
    if (typeof value === "string") {
      const found = this.lookup(value);
      if (found) {
        value = structuredClone(found);
        object[head] = value;
      }
    }
    if (Array.isArray(value)) for (const entry of value) this.expandPath(entry, rest);
    else this.expandPath(value, rest);
  }

  private updateSubscription(sub: Obj, form: Record<string, string>): string | null {
    if (["canceled", "incomplete_expired"].includes(sub.status as string))
      return "A canceled subscription can only update its cancellation_details and metadata.";
    if (sub.schedule && ("cancel_at" in form || "cancel_at_period_end" in form))
      return `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`;
    if ("cancel_at" in form && "cancel_at_period_end" in form)
      return "You may only specify one of these parameters: cancel_at, cancel_at_period_end.";
    const item = (sub.items as { data: Obj[] }).data[0]!;
    if ("cancel_at" in form)
      Object.assign(sub, {
        cancel_at: form.cancel_at === "" ? null : Number(form.cancel_at),
        cancel_at_period_end: false,
      });
    if ("cancel_at_period_end" in form) {
      const atEnd = form.cancel_at_period_end === "true";
      Object.assign(sub, { cancel_at_period_end: atEnd, cancel_at: atEnd ? item.current_period_end : null });
    }
    if (form.default_payment_method) sub.default_payment_method = form.default_payment_method;
    Object.assign(sub.metadata as Obj, metadataOf(form));
    const priceId = form["items[0][price]"];
    if (priceId) {
      const price = this.prices.get(priceId);
      if (!price) return `No such price: '${priceId}'`;
      const old = item.price as Obj;
      item.price = price;
      if (form.proration_behavior === "always_invoice") {
        const start = item.current_period_start as number;
        const end = item.current_period_end as number;
        const now = Math.min(Math.max(this.nowSeconds, start), end);
        const amount = Math.round(
          (((price.unit_amount as number) - (old.unit_amount as number)) * (end - now)) / (end - start),
        );
        if (amount > 0) {
          const invoice = this.createInvoice(sub, { amount, reason: "subscription_update", start: now, end });
          this.charge(invoice, this.cardOf(sub));
        }
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- tax rates

  /** The exclusive rates of a subscription: its item's, else its default ones. */
  private ratesOf(sub: Obj): Obj[] {
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const ids = ((item.tax_rates as Obj[] | undefined) ?? []).length
      ? (item.tax_rates as Obj[])
      : ((sub.default_tax_rates as Obj[] | undefined) ?? []);
    return ids.filter((rate) => !rate.inclusive);
  }

  /** Each rate's tax on an amount, rounded to the cent as Stripe does (half away from zero). */
  private taxesOn(amount: number, rates: Obj[]) {
    return rates.map((rate) => ({
      amount: Math.round((amount * (rate.percentage as number)) / 100),
      tax_behavior: "exclusive",
      taxability_reason: "standard_rated",
      taxable_amount: amount,
      type: "tax_rate_details",
      tax_rate_details: { tax_rate: rate.id },
    }));
  }

  /** A new subscription's tax rates (default_tax_rates, or its item's); its first invoice is taxed at once. */
  private applyTaxRates(sub: Obj, defaults: string[], itemRates: string[]): void {
    const found = (ids: string[]) => ids.map((rateId) => this.taxRates.get(rateId)).filter((r): r is Obj => !!r);
    sub.default_tax_rates = found(defaults);
    (sub.items as { data: Obj[] }).data[0]!.tax_rates = found(itemRates);
    const invoice = this.invoices.get(sub.latest_invoice as string);
    if (invoice) this.taxInvoice(sub, invoice);
  }

  /** An open invoice gets its subscription's taxes: the total, the amount due and its PaymentIntent grow. */
  private taxInvoice(sub: Obj, invoice: Obj): void {
    if (invoice.status !== "open") return;
    const subtotal = (invoice.subtotal as number | undefined) ?? (invoice.amount_due as number);
    const taxes = this.taxesOn(subtotal, this.ratesOf(sub));
    const total = subtotal + taxes.reduce((sum, t) => sum + t.amount, 0);
    Object.assign(invoice, {
      subtotal,
      subtotal_excluding_tax: subtotal,
      total,
      total_excluding_tax: subtotal,
      total_taxes: taxes,
      amount_due: total,
      amount_remaining: total,
    });
    const payment = (invoice.payments as { data: Obj[] }).data[0]!;
    const intent = this.intents.get((payment.payment as Obj).payment_intent as string);
    if (intent) intent.amount = total;
  }

  /** A Checkout Session's line tax rates: its amount_total includes them, as Stripe's page shows before Pay. */
  private taxSession(session: Obj, form: Record<string, string>): void {
    const ids = listParam(form, "line_items[0][tax_rates]");
    Object.defineProperty(session, "tax_rates", { value: ids, enumerable: false });
    const rates = ids.map((rateId) => this.taxRates.get(rateId)).filter((r): r is Obj => !!r && !r.inclusive);
    const subtotal = session.amount_total as number;
    const tax = this.taxesOn(subtotal, rates).reduce((sum, t) => sum + t.amount, 0);
    Object.assign(session, {
      amount_subtotal: subtotal,
      amount_total: subtotal + tax,
      total_details: { amount_tax: tax },
    });
  }

  // ---------------------------------------------------------------- HTTP

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
      return res.writeHead(status, { "Content-Type": "application/json" }).end(text);
    };
    const missing = (what: string, key: string) =>
      json(404, {
        error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${key}'` },
      });
    const invalid = (message: string) => json(400, { error: { type: "invalid_request_error", message } });
    const params = { ...Object.fromEntries(url.searchParams), ...form };
    const expand = Object.entries(params)
      .filter(([k]) => /^expand\[\d*\]$/.test(k))
      .map(([, v]) => v);
    const route = (method: string, pattern: RegExp) => (req.method === method ? pattern.exec(url.pathname) : null);

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
      return res
        .writeHead(200, { "Content-Type": "text/html" })
        .end(`<!doctype html><html lang="en"><head><title>Stand-in Checkout</title></head><body>
<main><h1>Stand-in Stripe Checkout</h1><p>Amount: ${Number(session.amount_total) / 100} ${String(session.currency).toUpperCase()}${session.mode === "subscription" ? " per month" : ""}</p>
<form method="post"><label>Email <input name="email" value="payer@example.com"></label><label>Name <input name="name" value="Pat Payer"></label><button type="submit">Pay</button></form>
<a href="${session.cancel_url}">Cancel</a></main></body></html>`);
    }

    if (req.headers.authorization !== `Bearer ${STAND_IN_KEYS.STRIPE_SECRET_KEY}`) {
      return json(401, { error: { type: "authentication_error", message: "Invalid API Key provided" } });
    }
    if (this.failWith) return json(this.failWith, { error: { type: "api_error", message: "Stand-in failure" } });
    const replay = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (replay) {
      if (replay.path !== url.pathname)
        return invalid("Keys for idempotent requests can only be used for the same endpoint they were first used for.");
      if (this.loseAnswers) return lost();
      return res
        .writeHead(replay.status, { "Content-Type": "application/json", "Idempotent-Replayed": "true" })
        .end(replay.body);
    }

    // Refunds, credit notes and paged lists (stripe-stand-in-money.ts, docs/decisions.md#34).
    const { moneyOf } = await import("./stripe-stand-in-money.js");
    if (moneyOf(this).handle({ req, url, form, params, json, missing, invalid })) return;

    // Subscription schedules (a downgrade at the period's end)
    if (route("POST", /^\/v1\/subscription_schedules$/)) {
      const sub = this.subscriptions.get(form.from_subscription ?? "");
      if (!sub) return missing("subscription", form.from_subscription ?? "");
      if (sub.schedule) return invalid(`The subscription already has a schedule: ${sub.schedule}`);
      const item = (sub.items as { data: Obj[] }).data[0]!;
      const schedule: Obj = {
        id: id("sub_sched"),
        object: "subscription_schedule",
        customer: sub.customer,
        subscription: sub.id,
        released_subscription: null,
        status: "active",
        end_behavior: "release",
        current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
        phases: [
          {
            start_date: item.current_period_start,
            end_date: item.current_period_end,
            items: [{ price: (item.price as Obj).id, quantity: item.quantity ?? 1 }],
            metadata: {},
          },
        ],
        metadata: {},
      };
      this.schedules.set(schedule.id as string, schedule);
      sub.schedule = schedule.id;
      return json(200, schedule);
    }
    let sm = route("GET", /^\/v1\/subscription_schedules\/([\w]+)$/);
    if (sm) {
      const found = this.schedules.get(sm[1]!);
      return found ? json(200, this.expand(found, expand)) : missing("subscription_schedule", sm[1]!);
    }
    sm = route("POST", /^\/v1\/subscription_schedules\/([\w]+)\/release$/);
    if (sm) {
      const found = this.schedules.get(sm[1]!);
      if (!found) return missing("subscription_schedule", sm[1]!);
      if (!["active", "not_started"].includes(found.status as string))
        return invalid(`You cannot release a subscription schedule that is currently \`${found.status}\`.`);
      const sub = this.subscriptions.get(found.subscription as string);
      if (sub) sub.schedule = null;
      Object.assign(found, { status: "released", released_subscription: found.subscription, subscription: null });
      return json(200, found);
    }
    sm = route("POST", /^\/v1\/subscription_schedules\/([\w]+)$/);
    if (sm) {
      const found = this.schedules.get(sm[1]!);
      if (!found) return missing("subscription_schedule", sm[1]!);
      if (found.status !== "active")
        return invalid(`You cannot update a subscription schedule that is \`${found.status}\`.`);
      if (form.end_behavior) found.end_behavior = form.end_behavior;
      const phases = nestedList(form, "phases");
      if (phases.length) {
        const current = found.current_phase as Obj;
        if (Number(phases[0]!.start_date) !== current.start_date)
          return invalid("You can not modify the start date of the current phase.");
        let start = current.start_date as number;
        const made: Obj[] = [];
        for (const phase of phases) {
          const items = (phase.items as Obj[] | undefined) ?? [];
          if (!items.length || !this.prices.has(items[0]!.price as string))
            return invalid("Each phase needs an item with a known price.");
          const duration = phase.duration as Obj | undefined;
          const end = phase.end_date
            ? Number(phase.end_date)
            : duration
              ? monthsFrom(start, Number(duration.interval_count ?? 1))
              : null;
          if (end === null) return invalid("A phase needs an end_date or a duration.");
          made.push({
            start_date: start,
            end_date: end,
            items: items.map((i) => ({ price: i.price, quantity: Number(i.quantity ?? 1) })),
            metadata: (phase.metadata as Obj | undefined) ?? {},
            proration_behavior: phase.proration_behavior ?? form.proration_behavior ?? "create_prorations",
          });
          start = end;
        }
        found.phases = made;
      }
      return json(200, found);
    }

    if (route("POST", /^\/v1\/checkout\/sessions$/)) {
      const sessionId = id("cs");
      const quantity = Number(form["line_items[0][quantity]"] ?? 1);
      const price = form["line_items[0][price]"] ? this.prices.get(form["line_items[0][price]"]) : null;
      if (form["line_items[0][price]"] && !price) return invalid(`No such price: '${form["line_items[0][price]"]}'`);
      if (form.mode === "subscription" && !price?.recurring)
        return invalid("You must provide at least one recurring price in `subscription` mode when using prices.");
      const session: Obj = {
        id: sessionId,
        object: "checkout.session",
        mode: form.mode,
        url: `${this.url}/pay/${sessionId}`,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        amount_total:
          (price ? (price.unit_amount as number) : Number(form["line_items[0][price_data][unit_amount]"])) * quantity,
        currency: price ? price.currency : form["line_items[0][price_data][currency]"],
        metadata: metadataOf(form),
        payment_status: "unpaid",
        status: "open",
        customer: null,
        customer_details: null,
        payment_intent: null,
        subscription: null,
      };
      // Kept beside the session (Stripe keeps them on its side too): what paying it subscribes to.
      Object.defineProperty(session, "price", { value: price?.id, enumerable: false });
      Object.defineProperty(session, "subscription_metadata", {
        value: metadataOf(form, "subscription_data[metadata]"),
        enumerable: false,
      });
      this.taxSession(session, form);
      this.sessions.set(sessionId, session);
      return json(200, session);
    }
    let m = route("GET", /^\/v1\/checkout\/sessions\/([\w]+)$/);
    if (m) {
      const found = this.sessions.get(m[1]!);
      return found ? json(200, this.expand(found, expand)) : missing("checkout.session", m[1]!);
    }
    if (route("POST", /^\/v1\/payment_intents$/)) {
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
    m = route("GET", /^\/v1\/payment_intents\/([\w]+)$/);
    if (m) {
      const found = this.intents.get(m[1]!);
      return found ? json(200, found) : missing("payment_intent", m[1]!);
    }

    // Tax rates (exclusive ones are added to each invoice of a subscription that has them)
    if (route("GET", /^\/v1\/tax_rates$/)) {
      const found = [...this.taxRates.values()].filter(
        (r) => params.active === undefined || String(r.active) === params.active,
      );
      return json(200, list(found, "/v1/tax_rates"));
    }
    if (route("POST", /^\/v1\/tax_rates$/)) {
      if (!form.display_name || form.percentage === undefined || form.inclusive === undefined)
        return invalid("Missing required param: display_name, percentage or inclusive.");
      const rate: Obj = {
        id: id("txr"),
        object: "tax_rate",
        active: form.active !== "false",
        display_name: form.display_name,
        description: form.description ?? null,
        percentage: Number(form.percentage),
        inclusive: form.inclusive === "true",
        country: form.country ?? null,
        state: form.state ?? null,
        jurisdiction: form.jurisdiction ?? null,
        tax_type: form.tax_type ?? null,
        metadata: metadataOf(form),
      };
      this.taxRates.set(rate.id as string, rate);
      return json(200, rate);
    }
    m = route("GET", /^\/v1\/tax_rates\/([\w]+)$/);
    if (m) {
      const found = this.taxRates.get(m[1]!);
      return found ? json(200, found) : missing("tax_rate", m[1]!);
    }

    // Customers
    if (route("POST", /^\/v1\/customers$/))
      return json(
        200,
        this.createCustomer({ email: form.email ?? null, name: form.name ?? null, metadata: metadataOf(form) }),
      );
    m = route("GET", /^\/v1\/customers\/([\w]+)$/);
    if (m) {
      const found = this.customers.get(m[1]!);
      return found ? json(200, found) : missing("customer", m[1]!);
    }

    // Prices (found again by lookup key)
    if (route("GET", /^\/v1\/prices$/)) {
      const keys = Object.entries(params)
        .filter(([k]) => /^lookup_keys\[\d*\]$/.test(k))
        .map(([, v]) => v);
      const found = [...this.prices.values()].filter((p) => !keys.length || keys.includes(p.lookup_key as string));
      return json(200, list(found, "/v1/prices"));
    }
    if (route("POST", /^\/v1\/prices$/)) {
      const holder = [...this.prices.values()].find((p) => form.lookup_key && p.lookup_key === form.lookup_key);
      if (holder && form.transfer_lookup_key !== "true")
        return invalid(`A price (lookup_key ${form.lookup_key}) already exists`);
      if (holder) holder.lookup_key = null;
      const price: Obj = {
        id: id("price"),
        object: "price",
        active: true,
        currency: form.currency,
        unit_amount: Number(form.unit_amount),
        lookup_key: form.lookup_key ?? null,
        recurring: form["recurring[interval]"] ? { interval: form["recurring[interval]"], interval_count: 1 } : null,
        type: form["recurring[interval]"] ? "recurring" : "one_time",
        product: id("prod"),
        metadata: metadataOf(form),
      };
      Object.defineProperty(price, "product_name", { value: form["product_data[name]"], enumerable: false });
      this.prices.set(price.id as string, price);
      return json(200, price);
    }

    // Subscriptions
    if (route("POST", /^\/v1\/subscriptions$/)) {
      if (!this.customers.has(form.customer ?? "")) return missing("customer", form.customer ?? "");
      const priceId = form["items[0][price]"] ?? "";
      if (!this.prices.has(priceId)) return invalid(`No such price: '${priceId}'`);
      const sub = this.createSubscription(
        form.customer!,
        priceId,
        metadataOf(form),
        form["payment_settings[save_default_payment_method]"],
      );
      this.applyTaxRates(sub, listParam(form, "default_tax_rates"), listParam(form, "items[0][tax_rates]"));
      // Without default_incomplete Stripe charges the customer's card at once.
      if (form.payment_behavior !== "default_incomplete")
        this.charge(this.invoices.get(sub.latest_invoice as string)!, this.cardOf(sub));
      return json(200, this.expand(sub, expand));
    }
    if (route("GET", /^\/v1\/subscriptions$/)) {
      const found = [...this.subscriptions.values()].filter((s) => !params.customer || s.customer === params.customer);
      return json(
        200,
        list(
          found.map((s) => this.expand(s, [])),
          "/v1/subscriptions",
        ),
      );
    }
    m = route("GET", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      return found ? json(200, this.expand(found, expand)) : missing("subscription", m[1]!);
    }
    m = route("POST", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      if (!found) return missing("subscription", m[1]!);
      const error = this.updateSubscription(found, form);
      return error ? invalid(error) : json(200, this.expand(found, expand));
    }
    m = route("DELETE", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      if (!found) return missing("subscription", m[1]!);
      if (found.status === "canceled") return invalid("This subscription has already been canceled.");
      Object.assign(found, { status: "canceled", canceled_at: this.nowSeconds, ended_at: this.nowSeconds });
      return json(200, this.expand(found, expand));
    }

    // Invoices
    m = route("GET", /^\/v1\/invoices\/([\w]+)$/);
    if (m) {
      const found = this.invoices.get(m[1]!);
      return found ? json(200, this.expand(found, expand)) : missing("invoice", m[1]!);
    }
    m = route("POST", /^\/v1\/invoices\/([\w]+)\/pay$/);
    if (m) {
      const found = this.invoices.get(m[1]!);
      if (!found) return missing("invoice", m[1]!);
      if (found.status !== "open") return invalid("Invoice is already paid");
      const sub = this.subscriptions.get(((found.parent as Obj).subscription_details as Obj).subscription as string)!;
      if (!this.charge(found, form.payment_method ?? this.cardOf(sub)))
        return json(402, { error: { type: "card_error", code: "card_declined", message: DECLINED } });
      return json(200, this.expand(found, expand));
    }
    if (route("GET", /^\/v1\/invoice_payments$/)) {
      const intentId = params["payment[payment_intent]"];
      const invoiceId = intentId ? this.intentInvoice.get(intentId) : params.invoice;
      const found = invoiceId
        ? ((this.invoices.get(invoiceId)?.payments as { data: Obj[] } | undefined)?.data ?? [])
        : [];
      return json(200, list(found, "/v1/invoice_payments"));
    }

    // The billing portal
    if (route("GET", /^\/v1\/billing_portal\/configurations$/))
      return json(200, list([...this.portalConfigurations.values()], "/v1/billing_portal/configurations"));
    if (route("POST", /^\/v1\/billing_portal\/configurations$/)) {
      const configuration: Obj = {
        id: id("bpc"),
        object: "billing_portal.configuration",
        active: true,
        features: {
          payment_method_update: { enabled: form["features[payment_method_update][enabled]"] === "true" },
          invoice_history: { enabled: form["features[invoice_history][enabled]"] === "true" },
          subscription_cancel: {
            enabled: form["features[subscription_cancel][enabled]"] === "true",
            mode: form["features[subscription_cancel][mode]"] ?? "at_period_end",
          },
        },
        metadata: metadataOf(form),
      };
      this.portalConfigurations.set(configuration.id as string, configuration);
      return json(200, configuration);
    }
    if (route("POST", /^\/v1\/billing_portal\/sessions$/)) {
      if (!this.customers.has(form.customer ?? "")) return missing("customer", form.customer ?? "");
      if (form.configuration && !this.portalConfigurations.has(form.configuration))
        return missing("billing_portal.configuration", form.configuration);
      const sessionId = id("bps");
      const session: Obj = {
        id: sessionId,
        object: "billing_portal.session",
        customer: form.customer,
        configuration: form.configuration ?? null,
        return_url: form.return_url ?? null,
        flow: form["flow_data[type]"] ? { type: form["flow_data[type]"] } : null,
        url: `${this.url}/portal/${sessionId}`,
      };
      this.portalSessions.set(sessionId, session);
      return json(200, session);
    }
    return json(404, {
      error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    });
  }
}
