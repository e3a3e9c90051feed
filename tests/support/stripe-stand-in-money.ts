// The stand-in's refunds, credit notes, disputes and paged lists (docs/decisions.md#34), kept beside each StripeStandIn
// and answered from its request handler: POST/GET /v1/refunds, POST /v1/credit_notes, and `limit`/`starting_after`
// pages of GET /v1/subscriptions and /v1/invoices, as Stripe pages them (has_more, newest first).
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

type Obj = Record<string, unknown>;

/** What the stand-in's handler gives the money routes. */
export interface MoneyRequest {
  req: IncomingMessage;
  url: URL;
  form: Record<string, string>;
  params: Record<string, string>;
  json: (status: number, body: unknown) => void;
  missing: (what: string, key: string) => void;
  invalid: (message: string) => void;
}

/** The part of StripeStandIn these routes read. */
export interface StandInMaps {
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  intents: Map<string, Obj>;
  clock: () => number;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(10).toString("hex")}`;

export class StandInMoney {
  readonly refunds = new Map<string, Obj>();
  readonly creditNotes = new Map<string, Obj>();
  /** Idempotency-Key → the first answer (Stripe answers a repeat with it). */
  private readonly answers = new Map<string, Obj>();

  constructor(private readonly standIn: StandInMaps) {}

  private get now() {
    return Math.floor(this.standIn.clock() / 1000);
  }

  /** The charge of a paid PaymentIntent, as Stripe's charge events carry it. */
  chargeOf(intentId: string): Obj {
    const intent = this.standIn.intents.get(intentId);
    if (!intent) throw new Error(`No such intent ${intentId}`);
    const refunds = [...this.refunds.values()].filter((r) => r.payment_intent === intentId);
    const refunded = refunds.reduce((sum, r) => sum + (r.amount as number), 0);
    return {
      id: `ch_${intentId.slice(3)}`,
      object: "charge",
      amount: intent.amount_received ?? intent.amount,
      amount_refunded: refunded,
      refunded: refunded >= (intent.amount as number),
      currency: "cad",
      payment_intent: intentId,
      refunds: { object: "list", data: refunds, has_more: false, url: "/v1/refunds" },
    };
  }

  /** The PaymentIntent that paid an invoice. */
  intentOf(invoiceId: string): string {
    const invoice = this.standIn.invoices.get(invoiceId);
    if (!invoice) throw new Error(`No such invoice ${invoiceId}`);
    const payment = (invoice.payments as { data: Obj[] }).data[0]!;
    return (payment.payment as Obj).payment_intent as string;
  }

  /** A refund made in Stripe's dashboard: returns the charge (for a charge.refunded event). */
  refundInDashboard(invoiceId: string, amount: number): Obj {
    const intent = this.intentOf(invoiceId);
    this.createRefund({ payment_intent: intent, amount: String(amount), reason: "requested_by_customer" });
    return this.chargeOf(intent);
  }

  /** A dispute opened by the card holder's bank (for a charge.dispute.created event). */
  dispute(invoiceId: string, reason = "fraudulent"): Obj {
    const intent = this.intentOf(invoiceId);
    const charge = this.chargeOf(intent);
    return {
      id: id("dp"),
      object: "dispute",
      amount: charge.amount,
      currency: "cad",
      charge: charge.id,
      payment_intent: intent,
      reason,
      status: "needs_response",
      created: this.now,
    };
  }

  private createRefund(form: Record<string, string>): Obj | string {
    const intent = this.standIn.intents.get(form.payment_intent ?? "");
    if (!intent) return `No such payment_intent: '${form.payment_intent}'`;
    if (intent.status !== "succeeded") return "This PaymentIntent has no successful charge to refund.";
    const already = [...this.refunds.values()]
      .filter((r) => r.payment_intent === intent.id)
      .reduce((sum, r) => sum + (r.amount as number), 0);
    const amount = form.amount ? Number(form.amount) : (intent.amount as number) - already;
    if (amount + already > (intent.amount as number))
      return `Refund amount (${amount}) is greater than unrefunded amount on charge (${(intent.amount as number) - already})`;
    const refund: Obj = {
      id: id("re"),
      object: "refund",
      amount,
      currency: "cad",
      charge: `ch_${(intent.id as string).slice(3)}`,
      payment_intent: intent.id,
      reason: form.reason ?? null,
      status: "succeeded",
      created: this.now,
      metadata: Object.fromEntries(
        Object.entries(form)
          .filter(([k]) => k.startsWith("metadata["))
          .map(([k, v]) => [k.slice(9, -1), v]),
      ),
    };
    this.refunds.set(refund.id as string, refund);
    return refund;
  }

  /** A page of `items` (newest first) as Stripe's list endpoints answer `limit` and `starting_after`. */
  private page(items: Obj[], params: Record<string, string>, url: string) {
    const sorted = [...items].sort(
      (a, b) => (b.created as number) - (a.created as number) || String(b.id).localeCompare(String(a.id)),
    );
    const after = params.starting_after ? sorted.findIndex((o) => o.id === params.starting_after) + 1 : 0;
    const limit = Number(params.limit ?? 10);
    const data = sorted.slice(after, after + limit);
    return { object: "list", data, has_more: after + limit < sorted.length, url };
  }

  /** Answers the request when it is one of these routes; false otherwise (the stand-in goes on). */
  handle({ req, url, form, params, json, missing, invalid }: MoneyRequest): boolean {
    const key = req.headers["idempotency-key"] as string | undefined;
    const once = (make: () => Obj | string) => {
      const first = key ? this.answers.get(key) : undefined;
      if (first) return json(200, first);
      const made = make();
      if (typeof made === "string") return invalid(made);
      if (key) this.answers.set(key, made);
      return json(200, made);
    };
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      once(() => this.createRefund(form));
      return true;
    }
    if (req.method === "GET" && url.pathname === "/v1/refunds") {
      const found = [...this.refunds.values()].filter(
        (r) => !params.payment_intent || r.payment_intent === params.payment_intent,
      );
      json(200, this.page(found, params, "/v1/refunds"));
      return true;
    }
    if (req.method === "POST" && url.pathname === "/v1/credit_notes") {
      const invoice = this.standIn.invoices.get(form.invoice ?? "");
      if (!invoice) {
        missing("invoice", form.invoice ?? "");
        return true;
      }
      once(() => {
        const refund = this.refunds.get(form["refunds[0][refund]"] ?? "");
        if (form["refunds[0][refund]"] && !refund) return `No such refund: '${form["refunds[0][refund]"]}'`;
        const note: Obj = {
          id: id("cn"),
          object: "credit_note",
          invoice: invoice.id,
          amount: Number(form.amount),
          memo: form.memo ?? null,
          refunds: refund
            ? [{ refund: refund.id, amount_refunded: Number(form["refunds[0][amount_refunded]"] ?? refund.amount) }]
            : [],
          status: "issued",
          created: this.now,
        };
        this.creditNotes.set(note.id as string, note);
        return note;
      });
      return true;
    }
    // Paged lists (reconciliation asks with `limit`); without it the stand-in's own routes answer.
    if (req.method === "GET" && params.limit && url.pathname === "/v1/subscriptions") {
      const all = [...this.standIn.subscriptions.values()].filter(
        (s) => params.status === "all" || s.status !== "canceled",
      );
      json(200, this.page(all, params, "/v1/subscriptions"));
      return true;
    }
    if (req.method === "GET" && params.limit && url.pathname === "/v1/invoices") {
      json(200, this.page([...this.standIn.invoices.values()], params, "/v1/invoices"));
      return true;
    }
    return false;
  }
}

const attached = new WeakMap<object, StandInMoney>();

/** The money side of a stand-in, made on first use. */
export function moneyOf(standIn: StandInMaps): StandInMoney {
  let money = attached.get(standIn);
  if (!money) {
    money = new StandInMoney(standIn);
    attached.set(standIn, money);
  }
  return money;
}
