// What a refund looks like to the API and the pages (docs/decisions.md#52): recorded (`succeeded`: a credit note with
// its number) or sent to Stripe and not confirmed yet (`pending`: its amount reserved, no number yet).
import type { TaxLine } from "../tax/index.js";
import type { RefundIntent } from "./refund-requests.repository.js";
import type { Refund } from "./refunds.repository.js";
import type { Invoice } from "./invoices.constants.js";

/** A refund as the API shows it: recorded (`succeeded`, a credit note with its number) or sent and not confirmed. */
export type RefundView = Omit<Refund, "id" | "providerRefundId" | "taxCents"> & {
  id: number | null;
  providerRefundId: string | null;
  taxCents: number | null;
  status: "pending" | "succeeded";
  /** The staff request that made it, when one did. */
  requestId: number | null;
};

export interface RefundOutcome {
  refund: RefundView;
  invoice: Invoice;
  /** A repeat of a request already made: the first refund's answer. */
  repeated: boolean;
}

export const succeededView = (refund: Refund, requestId: number | null = null): RefundView => ({
  ...refund,
  status: "succeeded",
  requestId,
});

/** A refund sent to Stripe whose answer is not recorded yet: its amount is reserved, its tax and number come later. */
export const pendingView = (intent: RefundIntent): RefundView => ({
  id: null,
  invoiceId: intent.invoiceId,
  provider: "stripe",
  providerRefundId: intent.providerRefundId,
  amountCents: intent.amountCents,
  taxCents: null,
  taxLines: [],
  reason: intent.reason,
  actor: intent.actor,
  creditNoteId: null,
  requestKey: intent.requestKey,
  number: null,
  createdAt: intent.createdAt,
  status: "pending",
  requestId: intent.id,
});

/** What a refund being stored says of itself. */
export interface NewRefund {
  providerRefundId: string;
  creditNoteId: string | null;
  amountCents: number;
  reason: string | null;
  actor: string;
  requestKey: string | null;
  createdAt?: Date;
  /** False: no e-mail (the demo seed's refund). */
  notify?: boolean;
  /** The tax it gives back, when it is only tax charged in the wrong province (docs/decisions.md#57); else in proportion. */
  taxLines?: TaxLine[];
}
