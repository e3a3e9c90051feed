// The stand-in's refunds, credit notes, disputes and paged lists (docs/decisions.md#34), kept beside each StripeStandIn
// and answered from its request handler: POST/GET /v1/refunds, POST/GET /v1/credit_notes, and `limit`/`starting_after`
// pages of GET /v1/subscriptions and /v1/invoices, as Stripe pages them (has_more, newest first). Stripe's rules
// apply: a refund at most what is left of the charge, never of a charge disputed (charged back); a credit note on a
// paid invoice whose refunds, credits and out-of-band amounts add up to it, within what is left to credit.
import type { ApiRequest, Obj } from "./stripe-stand-in-kit.js";
import { id } from "./stripe-stand-in-kit.js";
import { disputesOf } from "./stripe-stand-in-disputes.js";

/** The part of StripeStandIn these routes read. */
export interface StandInMaps {
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  intents: Map<string, Obj>;
  clock: () => number;
}

/** Why Stripe refuses a request (400), with its error code when the reference names one. */
type Refusal = { refused: string; code?: string };

/** "If set, possible values are `duplicate`, `fraudulent`, and `requested_by_customer`." */
const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"];

export class StandInMoney {
  readonly refunds = new Map<string, Obj>();
  readonly creditNotes = new Map<string, Obj>();
  /** Disputes by id; a disputed charge is `disputed` and cannot be refunded. */
  readonly disputes = new Map<string, Obj>();
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
      disputed: [...this.disputes.values()].some((d) => d.payment_intent === intentId),
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

  /** A dispute opened on an invoice's payment (stripe-stand-in-disputes.ts: funds withdrawn, the charge disputed). */
  dispute(invoiceId: string, reason = "fraudulent"): Obj {
    return disputesOf(this.standIn).open(this.intentOf(invoiceId), { reason });
  }

  /** The dispute decided (stripe-stand-in-disputes.ts): won gives the funds back, lost keeps them withdrawn. */
  closeDispute(disputeId: string, outcome: "won" | "lost"): Obj {
    return disputesOf(this.standIn).close(disputeId, outcome);
  }

  private createRefund(form: Record<string, string>): Obj | Refusal {
    const intent = this.standIn.intents.get(form.payment_intent ?? "");
    if (!intent) return { refused: `No such payment_intent: '${form.payment_intent}'`, code: "resource_missing" };
    if (intent.status !== "succeeded") return { refused: "This PaymentIntent has no successful charge to refund." };
    if (form.reason && !REFUND_REASONS.includes(form.reason))
      return { refused: `Invalid reason: must be one of ${REFUND_REASONS.join(", ")}`, code: "parameter_invalid" };
    const charge = this.chargeOf(intent.id as string);
    // "is_charge_refundable: If true, it's still possible to refund the disputed payment" (an inquiry's).
    if ([...this.disputes.values()].some((d) => d.payment_intent === intent.id && !d.is_charge_refundable))
      return { refused: "The charge you're attempting to refund has been charged back.", code: "charge_disputed" };
    const already = charge.amount_refunded as number;
    if (already >= (intent.amount as number))
      return { refused: `Charge ${charge.id} has already been refunded.`, code: "charge_already_refunded" };
    const amount = form.amount ? Number(form.amount) : (intent.amount as number) - already;
    if (amount <= 0 || amount + already > (intent.amount as number))
      return {
        refused: `Refund amount (${amount}) is greater than unrefunded amount on charge (${(intent.amount as number) - already})`,
        code: "amount_too_large",
      };
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

  /**
   * "Issue a credit note to adjust the amount of a finalized invoice … The sum of refunds, customer balance credits, and
   * outside of Stripe credits must equal the post_payment_amount", and "the credit note API subtracts those refund
   * amounts [made through the Refund API] from the maximum creditable amount".
   */
  private createCreditNote(invoice: Obj, form: Record<string, string>): Obj | Refusal {
    if (!["open", "paid"].includes(invoice.status as string))
      return { refused: "You can only create credit notes for finalized invoices (open or paid)." };
    if (!form.amount) return { refused: "One of `amount`, `lines`, or `shipping_cost` must be provided." };
    const amount = Number(form.amount);
    const linked: Obj[] = [];
    for (let i = 0; form[`refunds[${i}][refund]`]; i++) {
      const refund = this.refunds.get(form[`refunds[${i}][refund]`]!);
      if (!refund) return { refused: `No such refund: '${form[`refunds[${i}][refund]`]}'`, code: "resource_missing" };
      const amountRefunded = Number(form[`refunds[${i}][amount_refunded]`] ?? refund.amount);
      if (refund.payment_intent !== this.intentOf(invoice.id as string) || amountRefunded > (refund.amount as number))
        return { refused: `Refund ${refund.id} is not a refund of this invoice's payment of that amount.` };
      linked.push({ refund: refund.id, amount_refunded: amountRefunded });
    }
    const prePayment = Math.min(amount, invoice.amount_remaining as number);
    const postPayment = amount - prePayment;
    const covered =
      linked.reduce((sum, l) => sum + (l.amount_refunded as number), 0) +
      Number(form.refund_amount ?? 0) +
      Number(form.credit_amount ?? 0) +
      Number(form.out_of_band_amount ?? 0);
    if (covered !== postPayment)
      return {
        refused: `The sum of refunds, credit amount and out of band amount (${covered}) must equal the credit note's post-payment amount (${postPayment}).`,
      };
    const notes = [...this.creditNotes.values()].filter((n) => n.invoice === invoice.id);
    const linkedIds = new Set(
      [...notes, { refunds: linked }].flatMap((n) => (n.refunds as Obj[]).map((r) => r.refund)),
    );
    const unlinkedRefunds = [...this.refunds.values()]
      .filter((r) => r.payment_intent === this.intentOf(invoice.id as string) && !linkedIds.has(r.id))
      .reduce((sum, r) => sum + (r.amount as number), 0);
    const creditable =
      (invoice.total as number) - notes.reduce((sum, n) => sum + (n.amount as number), 0) - unlinkedRefunds;
    if (amount > creditable)
      return {
        refused: `The credit note's amount (${amount}) is greater than what is left to credit (${creditable}).`,
      };
    const note: Obj = {
      id: id("cn"),
      object: "credit_note",
      invoice: invoice.id,
      amount,
      pre_payment_amount: prePayment,
      post_payment_amount: postPayment,
      memo: form.memo ?? null,
      refunds: linked,
      status: "issued",
      created: this.now,
    };
    this.creditNotes.set(note.id as string, note);
    return note;
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
  handle({ req, url, form, params, json, missing, invalid }: ApiRequest): boolean {
    const key = req.headers["idempotency-key"] as string | undefined;
    const once = (make: () => Obj | Refusal) => {
      const first = key ? this.answers.get(key) : undefined;
      if (first) return json(200, first);
      const made = make();
      if ("refused" in made) return invalid(made.refused as string, made.code ? { code: made.code } : {});
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
      once(() => this.createCreditNote(invoice, form));
      return true;
    }
    // "Returns a list of credit notes", newest first; `invoice` "only return credit notes for the invoice specified".
    if (req.method === "GET" && url.pathname === "/v1/credit_notes") {
      const found = [...this.creditNotes.values()].filter((n) => !params.invoice || n.invoice === params.invoice);
      json(200, this.page(found, params, "/v1/credit_notes"));
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
