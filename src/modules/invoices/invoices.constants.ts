// Invoices (docs/decisions.md#33, #34): the shapes every part of the module, and the modules above it, share.
// Zod-free.
import type { TaxLine } from "../tax/index.js";

/** Who billed: Stripe or the offline demo provider (docs/decisions.md#4). */
export type InvoiceProvider = "stripe" | "demo";

export const INVOICE_STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;

/** The business on its invoices (docs/decisions.md#32, #33): env BUSINESS_LEGAL_NAME, BUSINESS_ADDRESS, GST_HST_NUMBER. */
export interface BusinessIdentity {
  legalName: string;
  address: string;
  /** 123456789 RT0001; null when the business is not registered (BUSINESS_TAX_REGISTERED=false). */
  gstHstNumber: string | null;
  /** 1234567890 TQ0001, printed on invoices that charge QST (docs/decisions.md#51); null when unset. */
  qstNumber?: string | null;
}

export interface Invoice {
  id: number;
  /** Null on an accepted quote's invoice, which names `quoteRequestId` instead (docs/decisions.md#43). */
  subscriptionId: number;
  quoteRequestId: number | null;
  providerInvoiceId: string;
  /** HAV-YYYY-NNNNNN, given when first stored open or paid (docs/decisions.md#33); null on a draft. */
  number: string | null;
  /**
   * The invoice's date: when it was issued, set once with its number and never moved by its payment
   * (docs/decisions.md#54).
   */
  issuedAt: string | null;
  /**
   * Set when Haven numbered it after invoices of its year issued on a later day (a missed invoice reconciliation
   * found): the documented exception to the numbers' order, shown with both dates (docs/decisions.md#54).
   */
  recordedLateAt: string | null;
  /** The total, tax included (dollars). */
  amount: number;
  /** What the payment (the card) paid of it; the rest was the customer's balance (docs/decisions.md#50). */
  amountPaid: number;
  /** The customer's balance applied: a credit used (positive) or an earlier debt carried in (negative). */
  balanceApplied: number;
  /** Before tax (dollars). */
  subtotal: number;
  tax: number;
  taxLines: TaxLine[];
  taxProvince: string | null;
  /** Refunded so far, tax included (dollars). */
  refunded: number;
  hostedInvoiceUrl: string | null;
  currency: string;
  periodStart: string;
  periodEnd: string;
  status: string;
  billingReason: string | null;
  paidAt: string | null;
  failureReason: string | null;
}

export interface ProviderInvoiceState {
  provider: InvoiceProvider;
  providerInvoiceId: string;
  providerSubscriptionId: string;
  amountCents: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  status: string;
  billingReason: string | null;
  paidAt: Date | null;
  failureReason: string | null;
  /** The provider's code of that failure (Stripe's decline_code, else code), when it gave one (docs/decisions.md#78). */
  failureCode?: string | null;
  attemptCount: number;
  /**
   * When the provider issued it (Stripe: finalized, else created): its date and its number's year
   * (docs/decisions.md#54).
   * Unset (the demo provider), the period's start: a demo invoice is issued as its period starts.
   */
  issuedAt?: Date | null;
  /** Stripe's custom fields on the invoice, kept when Haven's number is added to them (stripe-invoice-number.ts). */
  customFields?: { name: string; value: string }[];
  /**
   * Stripe's figures (docs/decisions.md#33, #50): amountCents is what was paid (or is due), totalCents the invoice's
   * total and balanceAppliedCents the customer's balance applied to it, stored as given with its subtotal and tax
   * lines; taxAmountsCents are its taxes when their Tax Rates are not known (the write path names them). Without
   * them (the demo provider), amountCents is the subtotal and the tax is computed on the home's province.
   */
  subtotalCents?: number;
  taxLines?: TaxLine[];
  totalCents?: number;
  balanceAppliedCents?: number;
  taxAmountsCents?: number[];
  hostedInvoiceUrl?: string | null;
}
