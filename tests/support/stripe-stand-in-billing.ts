// The stand-in's subscriptions and invoices routes, with Stripe's documented update semantics: payment_behavior
// (an update applies "regardless of whether payment succeeds" unless pending_if_incomplete, which takes only the
// parameters pending updates support at the request's API version), proration_behavior (create_prorations waits for
// the next invoice, always_invoice bills now, none does neither), items' tax_rates winning over default_tax_rates.
import {
  type ApiRequest,
  type Obj,
  list,
  listParam,
  mergeMetadata,
  metadataOf,
  nestedList,
  since,
} from "./stripe-stand-in-kit.js";
import { type Line, StandInObjects } from "./stripe-stand-in-objects.js";

/**
 * "Only certain attributes can be used to create a pending update" (docs.stripe.com/billing/subscriptions/
 * pending-updates-reference), and the API versions that added more: metadata (2026-05-27.dahlia, "Previously,
 * passing metadata with payment_behavior=pending_if_incomplete returned an error") and cancel_at_period_end
 * (2026-09-30.endive).
 */
const PENDING_PARAMS = [
  "expand",
  "payment_behavior",
  "proration_behavior",
  "proration_date",
  "billing_cycle_anchor",
  "items",
  "trial_end",
  "trial_from_plan",
  "add_invoice_items",
];
const PENDING_PARAMS_SINCE: Record<string, string> = { metadata: "2026-05-27", cancel_at_period_end: "2026-09-30" };
/** Pending updates support an item's `price` and `quantity` (and its `id`, naming it). */
const PENDING_ITEM_FIELDS = ["id", "price", "quantity"];
/** "If these times are greater than 23 hours from the time the update is made, the expired_at time is calculated to 23 hours after the update call was made." */
const PENDING_EXPIRY_SECONDS = 23 * 3600;

/** What an update answers: the subscription, a refusal (400), or a card error (402). */
type UpdateOutcome = null | { invalid: string } | { declined: string };

/**
 * POST /v1/invoices/:id's `custom_fields`, as Stripe documents them: "A list of up to 4 custom fields to be displayed
 * on the invoice. If a value for custom_fields is specified, the list specified will replace the existing custom
 * field list on this invoice. Pass an empty string to remove previously-defined fields"; a name "may be up to 40
 * characters", a value "up to 140"; they "can be updated on draft and open invoices", so a paid (or void,
 * uncollectible) invoice refuses the update. Null when applied, else the refusal.
 */
function updateCustomFields(invoice: Obj, form: Record<string, string>): string | null {
  if (!("custom_fields" in form) && !Object.keys(form).some((k) => k.startsWith("custom_fields["))) return null;
  if (!["draft", "open"].includes(invoice.status as string))
    return `Stand-in: custom_fields can only be updated on draft and open invoices; this invoice is ${invoice.status}.`;
  const fields = form.custom_fields === "" ? [] : nestedList(form, "custom_fields");
  if (fields.length > 4) return "Stand-in: custom_fields takes at most 4 fields.";
  for (const field of fields) {
    const name = String(field.name ?? "");
    const value = String(field.value ?? "");
    if (!name || name.length > 40) return "Stand-in: a custom field's name is 1 to 40 characters.";
    if (!value || value.length > 140) return "Stand-in: a custom field's value is 1 to 140 characters.";
  }
  invoice.custom_fields = fields.length ? fields.map((f) => ({ name: f.name, value: f.value })) : null;
  return null;
}

export class StandInBilling extends StandInObjects {
  /** The parameters of this update that pending updates do not take at `version`. */
  private unsupportedWhenPending(form: Record<string, string>, version: string): string[] {
    const bad = new Set<string>();
    for (const key of Object.keys(form)) {
      const top = key.split("[")[0]!;
      if (top === "items") {
        const field = /^items\[\d+\]\[(\w+)\]/.exec(key)?.[1];
        if (field && !PENDING_ITEM_FIELDS.includes(field)) bad.add(`items[${field}]`);
      } else if (
        !PENDING_PARAMS.includes(top) &&
        !(PENDING_PARAMS_SINCE[top] && since(version, PENDING_PARAMS_SINCE[top]))
      )
        bad.add(top);
    }
    return [...bad];
  }

  /**
   * The proration lines of a price change at `now` (or the request's `proration_date`: "Stripe will calculate the
   * proration as if the subscription was updated at the given time"): the unused time credited, the remaining time
   * charged.
   */
  protected prorationLines(sub: Obj, from: Obj, to: Obj, at: number = this.nowSeconds): Line[] {
    const item = this.itemOf(sub);
    const start = item.current_period_start as number;
    const end = item.current_period_end as number;
    const now = Math.min(Math.max(at, start), end);
    const share = (cents: number) => Math.round((cents * (end - now)) / (end - start));
    return [
      { amount: -share(from.unit_amount as number), start: now, end, proration: true, description: "Unused time" },
      { amount: share(to.unit_amount as number), start: now, end, proration: true, description: "Remaining time" },
    ];
  }

  /** A change of price billed as `behavior` says: lines for the next invoice, an invoice now, or nothing. */
  protected prorate(sub: Obj, from: Obj, to: Obj, behavior: string, at?: number): Obj | null {
    if (behavior === "none" || from.id === to.id) return null;
    const lines = this.prorationLines(sub, from, to, at);
    if (behavior === "always_invoice") return this.createInvoice(sub, "subscription_update", lines);
    const waiting = this.prorations.get(sub.id as string) ?? [];
    this.prorations.set(sub.id as string, [...waiting, ...lines]);
    return null;
  }

  protected updateSubscription(sub: Obj, form: Record<string, string>, version: string): UpdateOutcome {
    if (["canceled", "incomplete_expired"].includes(sub.status as string))
      return { invalid: "A canceled subscription can only update its cancellation_details and metadata." };
    if (sub.schedule && ("cancel_at" in form || "cancel_at_period_end" in form))
      return {
        invalid: `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      };
    if ("cancel_at" in form && "cancel_at_period_end" in form)
      return { invalid: "You may only specify one of these parameters: cancel_at, cancel_at_period_end." };
    const behavior = form.payment_behavior ?? "allow_incomplete";
    if (behavior === "pending_if_incomplete") {
      const bad = this.unsupportedWhenPending(form, version);
      // The stand-in's wording; Stripe refuses these with a 400 (invalid_request_error).
      if (bad.length)
        return {
          invalid: `Stand-in: pending updates (payment_behavior=pending_if_incomplete) do not support ${bad.join(", ")} at API version ${version}.`,
        };
    }
    const item = this.itemOf(sub);
    const priceId = form["items[0][price]"];
    const price = priceId ? this.prices.get(priceId) : undefined;
    if (priceId && !price) return { invalid: `No such price: '${priceId}'` };
    if (priceId && form["items[0][id]"] !== item.id)
      return { invalid: "Stand-in: an item without its id is a new item; Haven's subscriptions have one." };
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
    const defaults = listParam(form, "default_tax_rates");
    if (defaults) sub.default_tax_rates = this.ratesFor(defaults);
    const itemRates = listParam(form, "items[0][tax_rates]");
    if (itemRates) item.tax_rates = this.ratesFor(itemRates);
    const metadata = metadataOf(form);
    const invoice = price
      ? this.prorate(
          sub,
          item.price as Obj,
          price,
          form.proration_behavior ?? "create_prorations",
          form.proration_date ? Number(form.proration_date) : undefined,
        )
      : null;
    if (!invoice || behavior === "allow_incomplete" || behavior === "default_incomplete") {
      // No payment asked, or Stripe's default: "updates are applied regardless of whether payment on the new invoice succeeds".
      if (price) item.price = price;
      mergeMetadata(sub.metadata as Obj, metadata);
      if (invoice && behavior === "default_incomplete") {
        if (sub.status === "active") sub.status = "past_due";
      } else if (invoice) this.charge(invoice, this.cardOf(sub));
      return null;
    }
    if (behavior === "error_if_incomplete") {
      if (this.charge(invoice, this.cardOf(sub))) {
        item.price = price!;
        mergeMetadata(sub.metadata as Obj, metadata);
        return null;
      }
      invoice.status = "void";
      return { declined: "Your card was declined." };
    }
    // pending_if_incomplete: applied once paid; "If payment fails, the updated values are added to the pending_update hash".
    if (invoice.status === "paid") {
      item.price = price!;
      mergeMetadata(sub.metadata as Obj, metadata);
      return null;
    }
    this.pending.set(sub.id as string, { invoice: invoice.id as string, price: price!, metadata });
    sub.pending_update = {
      billing_cycle_anchor: null,
      cancel_at_period_end: null,
      discounts: null,
      expires_at: Math.min(item.current_period_end as number, this.nowSeconds + PENDING_EXPIRY_SECONDS),
      metadata: Object.keys(metadata).length ? metadata : null,
      subscription_items: [{ ...structuredClone(item), price: structuredClone(price!) }],
      trial_end: null,
      trial_from_plan: null,
    };
    this.charge(invoice, this.cardOf(sub));
    return null;
  }

  /**
   * POST /v1/invoices/create_preview for a subscription's item and price change ("the invoice the subscription would
   * generate if you made these changes"): its proration lines at `subscription_details[proration_date]` taxed as its
   * invoices are, and nothing stored or charged. The stand-in previews only that change, the one Haven asks about.
   */
  private previewInvoice({ form, json, missing, invalid }: ApiRequest): void {
    const sub = this.subscriptions.get(form.subscription ?? "");
    if (!sub) {
      missing("subscription", form.subscription ?? "");
      return;
    }
    const item = this.itemOf(sub);
    const price = this.prices.get(form["subscription_details[items][0][price]"] ?? "");
    if (!price || form["subscription_details[items][0][id]"] !== item.id) {
      invalid("Stand-in: create_preview takes the subscription's item id and a known price.");
      return;
    }
    const at = form["subscription_details[proration_date]"];
    const lines = this.prorationLines(sub, item.price as Obj, price, at ? Number(at) : undefined);
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const taxes = this.taxesOn(subtotal, this.ratesOf(sub));
    const total = subtotal + taxes.reduce((sum, t) => sum + t.amount, 0);
    const balance = (this.customers.get(sub.customer as string)?.balance as number | undefined) ?? 0;
    const due = total > 0 ? total + Math.max(balance, -total) : 0;
    json(200, {
      id: `upcoming_in_${String(sub.id).slice(4)}`,
      object: "invoice",
      customer: sub.customer,
      status: "draft",
      billing_reason: "subscription_update",
      currency: "cad",
      subtotal,
      subtotal_excluding_tax: subtotal,
      total,
      total_excluding_tax: subtotal,
      total_taxes: taxes,
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      starting_balance: balance,
      ending_balance: total > 0 ? balance - (due - total) : balance + total,
      attempt_count: 0,
      lines: {
        object: "list",
        data: lines.map((l) => ({ object: "line_item", amount: l.amount, period: { start: l.start, end: l.end } })),
      },
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    });
  }

  /** POST/GET /v1/subscriptions…, GET and POST /v1/invoices/:id, POST /v1/invoices/:id/pay, GET /v1/invoice_payments. */
  protected billingRoutes(r: ApiRequest): boolean {
    const { form, params, expand, route, json, missing, invalid } = r;
    if (route("POST", /^\/v1\/subscriptions$/)) {
      if (!this.customers.has(form.customer ?? "")) {
        missing("customer", form.customer ?? "");
        return true;
      }
      const priceId = form["items[0][price]"] ?? "";
      if (!this.prices.has(priceId)) {
        invalid(`No such price: '${priceId}'`);
        return true;
      }
      const sub = this.createSubscription(
        form.customer!,
        priceId,
        metadataOf(form),
        form["payment_settings[save_default_payment_method]"],
      );
      sub.automatic_tax = { enabled: form["automatic_tax[enabled]"] === "true" };
      this.applyTaxRates(sub, listParam(form, "default_tax_rates"), listParam(form, "items[0][tax_rates]"));
      // Without default_incomplete Stripe charges the customer's card at once.
      if (form.payment_behavior !== "default_incomplete")
        this.charge(this.invoices.get(sub.latest_invoice as string)!, this.cardOf(sub));
      json(200, this.expand(sub, expand));
      return true;
    }
    if (route("GET", /^\/v1\/subscriptions$/)) {
      const found = [...this.subscriptions.values()].filter((s) => !params.customer || s.customer === params.customer);
      json(
        200,
        list(
          found.map((s) => this.expand(s, [])),
          "/v1/subscriptions",
        ),
      );
      return true;
    }
    let m = route("GET", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      if (found) json(200, this.expand(found, expand));
      else missing("subscription", m[1]!);
      return true;
    }
    m = route("POST", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      if (!found) {
        missing("subscription", m[1]!);
        return true;
      }
      const outcome = this.updateSubscription(found, form, r.apiVersion);
      if (!outcome) json(200, this.expand(found, expand));
      else if ("invalid" in outcome) invalid(outcome.invalid);
      else r.declined(outcome.declined);
      return true;
    }
    m = route("DELETE", /^\/v1\/subscriptions\/([\w]+)$/);
    if (m) {
      const found = this.subscriptions.get(m[1]!);
      if (!found) {
        missing("subscription", m[1]!);
        return true;
      }
      if (found.status === "canceled") {
        invalid("This subscription has already been canceled.");
        return true;
      }
      Object.assign(found, { status: "canceled", canceled_at: this.nowSeconds, ended_at: this.nowSeconds });
      json(200, this.expand(found, expand));
      return true;
    }
    m = route("GET", /^\/v1\/invoices\/([\w]+)$/);
    if (m) {
      const found = this.invoices.get(m[1]!);
      if (found) json(200, this.expand(found, expand));
      else missing("invoice", m[1]!);
      return true;
    }
    if (route("POST", /^\/v1\/invoices\/create_preview$/)) {
      this.previewInvoice(r);
      return true;
    }
    m = route("POST", /^\/v1\/invoices\/([\w]+)$/);
    if (m) {
      const found = this.invoices.get(m[1]!);
      if (!found) {
        missing("invoice", m[1]!);
        return true;
      }
      // Only custom_fields and metadata: the stand-in refuses what Haven never sends rather than ignore it.
      const unknown = Object.keys(form).filter((k) => !/^(custom_fields|metadata|expand)(\[|$)/.test(k));
      if (unknown.length) {
        invalid(`Stand-in: POST /v1/invoices/:id does not take ${unknown.join(", ")}`);
        return true;
      }
      if (found.status === "paid") {
        invalid("Stand-in: a paid invoice can no longer be updated.");
        return true;
      }
      const refused = updateCustomFields(found, form);
      if (refused) {
        invalid(refused);
        return true;
      }
      found.metadata = { ...((found.metadata as Obj | undefined) ?? {}) };
      mergeMetadata(found.metadata as Obj, metadataOf(form));
      json(200, this.expand(found, expand));
      return true;
    }
    m = route("POST", /^\/v1\/invoices\/([\w]+)\/pay$/);
    if (m) {
      const found = this.invoices.get(m[1]!);
      if (!found) {
        missing("invoice", m[1]!);
        return true;
      }
      // Stripe answers a paid invoice's pay with a 400 invalid_request_error, "Invoice is already paid".
      if (found.status !== "open") {
        invalid(found.status === "paid" ? "Invoice is already paid" : `This invoice is ${found.status}.`);
        return true;
      }
      if (!this.charge(found, form.payment_method ?? this.cardOf(this.subscriptionOfInvoice(found)))) {
        // A card error (402) names the decline, as the PaymentIntent's last_payment_error does.
        const intent = this.intents.get(
          ((found.payments as { data: Obj[] }).data[0]!.payment as Obj).payment_intent as string,
        )!;
        const error = intent.last_payment_error as Obj;
        r.declined(error.message as string, { code: error.code, decline_code: error.decline_code });
      } else json(200, this.expand(found, expand));
      return true;
    }
    if (route("GET", /^\/v1\/invoice_payments$/)) {
      const intentId = params["payment[payment_intent]"];
      const invoiceId = intentId ? this.intentInvoice.get(intentId) : params.invoice;
      const found = invoiceId
        ? ((this.invoices.get(invoiceId)?.payments as { data: Obj[] } | undefined)?.data ?? [])
        : [];
      json(200, list(found, "/v1/invoice_payments"));
      return true;
    }
    return false;
  }
}
