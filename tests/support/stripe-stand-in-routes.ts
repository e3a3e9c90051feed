// The stand-in's catalogue and one-time routes: Checkout Sessions (their line's tax rates in amount_total, as
// Stripe's page shows them before Pay), PaymentIntents, Tax Rates, customers, Prices found by lookup key, and the
// billing portal's configurations and sessions.
import { randomBytes } from "node:crypto";
import { type ApiRequest, DECLINED, type Obj, id, list, listParam, metadataOf } from "./stripe-stand-in-kit.js";
import { StandInScenarios } from "./stripe-stand-in-scenarios.js";

export class StandInCatalogue extends StandInScenarios {
  /** A Checkout Session's line tax rates: its amount_total includes them, as Stripe's page shows before Pay. */
  private taxSession(session: Obj, form: Record<string, string>): void {
    const ids = listParam(form, "line_items[0][tax_rates]") ?? [];
    Object.defineProperty(session, "tax_rates", { value: ids, enumerable: false });
    const rates = this.ratesFor(ids).filter((r) => !r.inclusive);
    const subtotal = session.amount_total as number;
    const tax = this.taxesOn(subtotal, rates).reduce((sum, t) => sum + t.amount, 0);
    Object.assign(session, {
      amount_subtotal: subtotal,
      amount_total: subtotal + tax,
      total_details: { amount_tax: tax },
    });
  }

  private createSession(form: Record<string, string>): Obj | string {
    const sessionId = id("cs");
    const quantity = Number(form["line_items[0][quantity]"] ?? 1);
    const price = form["line_items[0][price]"] ? this.prices.get(form["line_items[0][price]"]) : null;
    if (form["line_items[0][price]"] && !price) return `No such price: '${form["line_items[0][price]"]}'`;
    if (form.mode === "subscription" && !price?.recurring)
      return "You must provide at least one recurring price in `subscription` mode when using prices.";
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
    return session;
  }

  private createPrice(form: Record<string, string>): Obj | string {
    const holder = [...this.prices.values()].find((p) => form.lookup_key && p.lookup_key === form.lookup_key);
    if (holder && form.transfer_lookup_key !== "true") return `A price (lookup_key ${form.lookup_key}) already exists`;
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
    return price;
  }

  private createTaxRate(form: Record<string, string>): Obj | string {
    if (!form.display_name || form.percentage === undefined || form.inclusive === undefined)
      return "Missing required param: display_name, percentage or inclusive.";
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
    return rate;
  }

  private createPortalSession(form: Record<string, string>): Obj {
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
    return session;
  }

  /** Answers the catalogue's and one-time payments' routes; false for any other. */
  protected catalogueRoutes(r: ApiRequest): boolean {
    const { form, params, expand, json, missing, invalid } = r;
    const answer = (made: Obj | string) => (typeof made === "string" ? invalid(made) : json(200, made));
    const found =
      (map: Map<string, Obj>, what: string, expanded = false) =>
      (m: RegExpExecArray) => {
        const object = map.get(m[1]!);
        if (object) json(200, expanded ? this.expand(object, expand) : object);
        else missing(what, m[1]!);
      };
    const routes: [string, RegExp, (m: RegExpExecArray) => void][] = [
      ["POST", /^\/v1\/checkout\/sessions$/, () => answer(this.createSession(form))],
      ["GET", /^\/v1\/checkout\/sessions\/([\w]+)$/, found(this.sessions, "checkout.session", true)],
      [
        "POST",
        /^\/v1\/payment_intents$/,
        () => {
          const intent = this.createIntent(form);
          // "confirm … off_session": a card that fails is a card error, the intent left requiring a payment method.
          if (form.confirm === "true" && intent.status !== "succeeded")
            r.declined(DECLINED, { payment_intent: intent });
          else json(200, intent);
        },
      ],
      ["GET", /^\/v1\/payment_intents\/([\w]+)$/, found(this.intents, "payment_intent")],
      [
        "GET",
        /^\/v1\/tax_rates$/,
        () => {
          const rates = [...this.taxRates.values()].filter(
            (rate) => params.active === undefined || String(rate.active) === params.active,
          );
          json(200, list(rates, "/v1/tax_rates"));
        },
      ],
      ["POST", /^\/v1\/tax_rates$/, () => answer(this.createTaxRate(form))],
      ["GET", /^\/v1\/tax_rates\/([\w]+)$/, found(this.taxRates, "tax_rate")],
      [
        "POST",
        /^\/v1\/customers$/,
        () =>
          json(
            200,
            this.createCustomer({
              email: form.email ?? null,
              name: form.name ?? null,
              metadata: metadataOf(form),
              preferredLocales: Object.entries(form)
                .filter(([k]) => /^preferred_locales\[\d*\]$/.test(k))
                .map(([, v]) => v),
            }),
          ),
      ],
      ["GET", /^\/v1\/customers\/([\w]+)$/, found(this.customers, "customer")],
      [
        "POST",
        /^\/v1\/customers\/([\w]+)$/,
        (m) => {
          const customer = this.customers.get(m[1]!);
          if (!customer) return missing("customer", m[1]!);
          // Kept as Stripe keeps them: the customer's languages, its e-mail's and invoices' (docs/decisions.md#65).
          const locales = Object.entries(form).filter(([k]) => /^preferred_locales\[\d*\]$/.test(k));
          if (locales.length) customer.preferred_locales = locales.map(([, v]) => v);
          if (form.email !== undefined) customer.email = form.email;
          if (form.name !== undefined) customer.name = form.name;
          json(200, customer);
        },
      ],
      [
        "GET",
        /^\/v1\/prices$/,
        () => {
          const keys = Object.entries(params)
            .filter(([k]) => /^lookup_keys\[\d*\]$/.test(k))
            .map(([, v]) => v);
          const prices = [...this.prices.values()].filter((p) => !keys.length || keys.includes(p.lookup_key as string));
          json(200, list(prices, "/v1/prices"));
        },
      ],
      ["POST", /^\/v1\/prices$/, () => answer(this.createPrice(form))],
      [
        "GET",
        /^\/v1\/billing_portal\/configurations$/,
        () => json(200, list([...this.portalConfigurations.values()], "/v1/billing_portal/configurations")),
      ],
      ["POST", /^\/v1\/billing_portal\/configurations$/, () => json(200, this.createPortalConfiguration(form))],
      [
        "POST",
        /^\/v1\/billing_portal\/sessions$/,
        () => {
          if (!this.customers.has(form.customer ?? "")) missing("customer", form.customer ?? "");
          else if (form.configuration && !this.portalConfigurations.has(form.configuration))
            missing("billing_portal.configuration", form.configuration);
          else json(200, this.createPortalSession(form));
        },
      ],
    ];
    for (const [method, pattern, handle] of routes) {
      const m = r.route(method, pattern);
      if (m) {
        handle(m);
        return true;
      }
    }
    return false;
  }

  private createIntent(form: Record<string, string>): Obj {
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
      customer: form.customer ?? null,
      payment_method: form.payment_method ?? null,
    };
    this.intents.set(intentId, intent);
    // "confirm: Set to true to attempt to confirm this PaymentIntent immediately" with the payment_method given.
    if (form.confirm === "true") {
      const card = form.payment_method ?? null;
      if (card && !this.failingCards.has(card))
        Object.assign(intent, { status: "succeeded", amount_received: intent.amount });
      else
        intent.last_payment_error = {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: DECLINED,
          payment_method: card ? { id: card } : null,
        };
    }
    return intent;
  }

  private createPortalConfiguration(form: Record<string, string>): Obj {
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
    return configuration;
  }
}
