// The stand-in's disputes (docs/decisions.md#53), as Stripe's reference describes them, kept in the money side's map
// (stripe-stand-in-money.ts: a disputed charge cannot be refunded), and answered from the stand-in's handler:
// GET /v1/disputes/:id and GET /v1/disputes (pages, newest first). What Stripe does between calls is offered for the
// tests to drive, each returning the dispute as the matching event carries it:
// - open: "the issuer creates a formal dispute … which immediately reverses the payment": the disputed amount and the
//   dispute fee are withdrawn, one balance transaction (charge.dispute.created, then charge.dispute.funds_withdrawn);
//   an inquiry (`warning_needs_response`) withdraws nothing;
// - update: the status moves, evidence under review (charge.dispute.updated);
// - close won: "the disputed amount … is returned to you": a second balance transaction gives the funds back
//   (charge.dispute.funds_reinstated, charge.dispute.closed); lost: nothing more moves, the funds stay withdrawn
//   (charge.dispute.closed); an inquiry closes as `warning_closed`. "List of zero, one, or two balance
//   transactions that show funds withdrawn and reinstated to your Stripe account as a result of this dispute."
import type { ApiRequest, Obj } from "./stripe-stand-in-kit.js";
import { id } from "./stripe-stand-in-kit.js";
import { type StandInMaps, moneyOf } from "./stripe-stand-in-money.js";

/** The dispute fee Stripe passes on, in cents; given back when the dispute is won. */
export const DISPUTE_FEE = 1500;

const CLOSED = ["won", "lost", "warning_closed", "prevented"];

export class StandInDisputes {
  constructor(private readonly standIn: StandInMaps) {}

  private get all(): Map<string, Obj> {
    return moneyOf(this.standIn).disputes;
  }

  private get now() {
    return Math.floor(this.standIn.clock() / 1000);
  }

  private get(disputeId: string): Obj {
    const dispute = this.all.get(disputeId);
    if (!dispute) throw new Error(`No such dispute ${disputeId}`);
    return dispute;
  }

  private move(dispute: Obj, amount: number, fee: number, category: "dispute" | "dispute_reversal"): Obj {
    return {
      id: id("txn"),
      object: "balance_transaction",
      amount,
      fee,
      net: amount - fee,
      currency: dispute.currency,
      type: "adjustment",
      reporting_category: category,
      source: dispute.id,
      status: "available",
      created: this.now,
      description: `${category === "dispute" ? "Chargeback withdrawal" : "Chargeback reversal"} for ${dispute.charge}`,
    };
  }

  /** The card holder's bank disputes a succeeded PaymentIntent's charge (all of it unless `amount`). */
  open(intentId: string, options: { reason?: string; amount?: number; inquiry?: boolean } = {}): Obj {
    const charge = moneyOf(this.standIn).chargeOf(intentId);
    const intent = this.standIn.intents.get(intentId)!;
    if (intent.status !== "succeeded") throw new Error(`Intent ${intentId} has no successful charge to dispute`);
    const inquiry = options.inquiry ?? false;
    const dispute: Obj = {
      id: id("dp"),
      object: "dispute",
      amount: options.amount ?? charge.amount,
      currency: "cad",
      charge: charge.id,
      payment_intent: intentId,
      reason: options.reason ?? "fraudulent",
      status: inquiry ? "warning_needs_response" : "needs_response",
      // "If true, it's still possible to refund the disputed payment": an inquiry only.
      is_charge_refundable: inquiry,
      balance_transactions: [] as Obj[],
      evidence_details: { due_by: this.now + 7 * 86400, has_evidence: false, past_due: false, submission_count: 0 },
      livemode: false,
      metadata: {},
      created: this.now,
    };
    if (!inquiry)
      (dispute.balance_transactions as Obj[]).push(
        this.move(dispute, -(dispute.amount as number), DISPUTE_FEE, "dispute"),
      );
    this.all.set(dispute.id as string, dispute);
    return structuredClone(dispute);
  }

  /** The dispute's status moves while open (evidence submitted: `under_review`). */
  update(disputeId: string, status: string): Obj {
    const dispute = this.get(disputeId);
    if (CLOSED.includes(dispute.status as string)) throw new Error(`Dispute ${disputeId} is closed`);
    dispute.status = status;
    return structuredClone(dispute);
  }

  /** Decided: won gives the funds and the fee back; lost leaves them withdrawn; an inquiry just closes. */
  close(disputeId: string, outcome: "won" | "lost"): Obj {
    const dispute = this.get(disputeId);
    if (CLOSED.includes(dispute.status as string)) throw new Error(`Dispute ${disputeId} is already closed`);
    if ((dispute.status as string).startsWith("warning_")) {
      dispute.status = "warning_closed";
      return structuredClone(dispute);
    }
    dispute.status = outcome;
    if (outcome === "won")
      (dispute.balance_transactions as Obj[]).push(
        this.move(dispute, dispute.amount as number, -DISPUTE_FEE, "dispute_reversal"),
      );
    return structuredClone(dispute);
  }

  /** A page of disputes, newest first, as Stripe's list endpoints answer `limit` and `starting_after`. */
  private page(params: Record<string, string>) {
    const sorted = [...this.all.values()]
      .filter((d) => !params.payment_intent || d.payment_intent === params.payment_intent)
      .sort((a, b) => (b.created as number) - (a.created as number) || String(b.id).localeCompare(String(a.id)));
    const after = params.starting_after ? sorted.findIndex((d) => d.id === params.starting_after) + 1 : 0;
    const limit = Number(params.limit ?? 10);
    return {
      object: "list",
      data: sorted.slice(after, after + limit),
      has_more: after + limit < sorted.length,
      url: "/v1/disputes",
    };
  }

  /** Answers GET /v1/disputes/:id and GET /v1/disputes; false for any other request. */
  handle({ params, route, json, missing }: ApiRequest): boolean {
    const one = route("GET", /^\/v1\/disputes\/([\w]+)$/);
    if (one) {
      const dispute = this.all.get(one[1]!);
      if (dispute) json(200, dispute);
      else missing("dispute", one[1]!);
      return true;
    }
    if (route("GET", /^\/v1\/disputes$/)) {
      json(200, this.page(params));
      return true;
    }
    return false;
  }
}

const attached = new WeakMap<object, StandInDisputes>();

/** The disputes side of a stand-in, made on first use. */
export function disputesOf(standIn: StandInMaps): StandInDisputes {
  let disputes = attached.get(standIn);
  if (!disputes) {
    disputes = new StandInDisputes(standIn);
    attached.set(standIn, disputes);
  }
  return disputes;
}
