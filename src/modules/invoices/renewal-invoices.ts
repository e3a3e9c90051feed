// A demo renewal batch's invoices (InvoicesRepository.prepareRenewals and insertRenewals, docs/decisions.md#75, #77).
import type { TaxLine, taxFor } from "../tax/index.js";

/** One period of a demo renewal batch, billed at the subscription's monthly price (before tax). */
export interface RenewalInvoice {
  subscriptionId: number;
  providerInvoiceId: string;
  subtotalCents: number;
  periodStart: Date;
  periodEnd: Date;
  /**
   * How its payment went when it is not paid as its period starts (a plan change, a failing card, a bank that asks):
   * paid at `paidAt`, or open with the card's failure and the page that pays it.
   */
  outcome?: { paidAt: Date | null; failureReason: string | null; hostedInvoiceUrl: string | null };
}

/** A renewal batch's invoices left to insert, each with its tax and its id (InvoicesRepository.prepareRenewals). */
export interface PreparedRenewals {
  todo: RenewalInvoice[];
  taxed: ReturnType<typeof taxFor>[];
  ids: number[];
}

/** What a renewal batch stored for one subscription (its receipt names it). */
export interface StoredInvoice {
  id: number;
  subscriptionId: number;
  number: string;
  subtotalCents: number;
  taxLines: TaxLine[];
  totalCents: number;
}
