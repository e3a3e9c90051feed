// A staff refund's intent (docs/decisions.md#52): written under the invoice's row lock before Stripe is called,
// with the key Stripe's idempotency key comes from, so a repeat finds it and reaches the same Stripe refund. Pending
// until Stripe's answer is recorded as a refund; deleted when Stripe certainly refused it (nothing changed).
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { TaxLine } from "../tax/index.js";

type Db = Knex | Tx;

/** The graphile-worker job that finishes a Stripe refund: its answer, then its credit note (refunds.tasks.ts). */
export const REFUNDS_FINISH_TASK = "refunds:finish";

/** How long the job waits: the request that queued it normally finishes first, and the job then finds nothing to do. */
export const FINISH_AFTER_SECONDS = 60;

export interface RefundIntent {
  id: number;
  invoiceId: number;
  requestKey: string;
  amountCents: number;
  reason: string;
  actor: string;
  status: "pending" | "succeeded";
  providerRefundId: string | null;
  refundId: number | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  /** The tax it gives back when it is only tax charged in the wrong province (docs/decisions.md#57); else null. */
  taxLines: TaxLine[] | null;
}

const toIntent = (row: Record<string, unknown>): RefundIntent => ({
  id: row.id as number,
  invoiceId: row.invoice_id as number,
  requestKey: row.request_key as string,
  amountCents: row.amount_cents as number,
  reason: row.reason as string,
  actor: row.actor as string,
  status: row.status as RefundIntent["status"],
  providerRefundId: (row.provider_refund_id as string | null) ?? null,
  refundId: (row.refund_id as number | null) ?? null,
  attempts: row.attempts as number,
  lastError: (row.last_error as string | null) ?? null,
  createdAt: new Date(row.created_at as string).toISOString(),
  taxLines: (row.tax_lines as TaxLine[] | null | undefined) ?? null,
});

export class RefundRequestsRepository {
  constructor(private readonly db: Knex) {}

  async find(id: number, db: Db = this.db): Promise<RefundIntent | null> {
    const row = await db("refund_requests").where({ id }).first();
    return row ? toIntent(row) : null;
  }

  async findByKey(requestKey: string, db: Db = this.db): Promise<RefundIntent | null> {
    const row = await db("refund_requests").where({ request_key: requestKey }).first();
    return row ? toIntent(row) : null;
  }

  /** An invoice's refunds not recorded yet, oldest first (their amounts are reserved). */
  async pendingOf(invoiceId: number, db: Db = this.db): Promise<RefundIntent[]> {
    const rows = await db("refund_requests").where({ invoice_id: invoiceId, status: "pending" }).orderBy("id");
    return rows.map(toIntent);
  }

  /**
   * The finishing job of a request, queued in the caller's transaction (it exists only if the intent does), one per
   * request (its job key: queued again, it is moved rather than doubled). Retried with graphile-worker's backoff.
   */
  async queueFinish(id: number, tx: Tx, afterSeconds = FINISH_AFTER_SECONDS): Promise<void> {
    await tx.raw(
      `select graphile_worker.add_job(?, json_build_object('requestId', ?::int), run_at => now() + make_interval(secs => ?),
              max_attempts => 25, job_key => ?)`,
      [REFUNDS_FINISH_TASK, id, afterSeconds, `refund-request:${id}`],
    );
  }

  /**
   * One more try at Stripe, claimed before the call: the intent as it is now, or null when it is no longer pending
   * (recorded meanwhile, or removed). A request whose tries are 0 was never sent to Stripe.
   */
  async claimAttempt(id: number, db: Db = this.db): Promise<RefundIntent | null> {
    const [row] = await db("refund_requests")
      .where({ id, status: "pending" })
      .update({ attempts: db.raw("attempts + 1"), updated_at: db.fn.now() })
      .returning("*");
    return row ? toIntent(row) : null;
  }

  /** The intent, written in the caller's transaction (it holds the invoice's row lock). */
  async insert(
    intent: Pick<RefundIntent, "invoiceId" | "requestKey" | "amountCents" | "reason" | "actor"> & {
      taxLines?: TaxLine[] | null;
    },
    tx: Tx,
  ): Promise<RefundIntent> {
    const [row] = await tx("refund_requests")
      .insert({
        invoice_id: intent.invoiceId,
        request_key: intent.requestKey,
        amount_cents: intent.amountCents,
        reason: intent.reason,
        actor: intent.actor,
        tax_lines: intent.taxLines ? JSON.stringify(intent.taxLines) : null,
      })
      .returning("*");
    return toIntent(row);
  }

  /** Recorded: Stripe's refund is the refund row `refundId`. */
  async succeeded(id: number, refund: { refundId: number; providerRefundId: string }, tx: Tx): Promise<void> {
    await tx("refund_requests").where({ id }).update({
      status: "succeeded",
      refund_id: refund.refundId,
      provider_refund_id: refund.providerRefundId,
      last_error: null,
      updated_at: tx.fn.now(),
    });
  }

  /** A try that left it pending: what went wrong, for the staff page and the logs. */
  async failed(id: number, error: string, db: Db = this.db): Promise<void> {
    await db("refund_requests")
      .where({ id, status: "pending" })
      .update({ last_error: error.slice(0, 500), updated_at: db.fn.now() });
  }

  /**
   * Nothing was refunded (never sent, or Stripe certainly refused): nothing stays, so a repeat asks Stripe again
   * with the same key. `neverSent`: only while no try was claimed (a parallel repeat may be sending it).
   */
  async remove(id: number, options: { neverSent?: boolean } = {}, db: Db = this.db): Promise<boolean> {
    const query = db("refund_requests").where({ id, status: "pending" });
    return (await (options.neverSent ? query.where({ attempts: 0 }) : query).delete()) > 0;
  }
}
