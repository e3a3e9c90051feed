// The invoices module's interface for other modules, the CLI and the seeds (README "Interface for other modules").
export { BillingUncertainError, BillingUnavailableError } from "./billing-errors.js";
export type {
  BilledSubscription,
  InvoiceMailData,
  InvoiceMailer,
  InvoiceSubscriptions,
} from "./invoices.ports.js";
export { type Invoices, type InvoicesWiringDeps, createInvoices } from "./invoices.wiring.js";
export { type InvoiceDetail, type InvoicesDeps, InvoicesService } from "./invoices.service.js";
export {
  DEFAULT_INVOICE_SETTINGS,
  type InvoiceSettings,
  InvoicesRepository,
  type PreparedRenewals,
  type RenewalInvoice,
  type StoredInvoice,
  cents,
  toInvoice,
} from "./invoices.repository.js";
export { paidCents } from "./invoice-rows.js";
export { numberColumns } from "./invoice-numbers.js";
export type { InvoiceFigures } from "./invoice-figures.js";
export { InvoiceListRepository } from "./invoice-list.repository.js";
export { type NewQuoteInvoice, QuoteInvoicesRepository } from "./quote-invoices.repository.js";
export { type MailInvoice, billingAmount, mailInvoice } from "./invoice-mail.js";
export { quoteInvoicePdf, renderInvoicePdf } from "./invoice-pdf.js";
export { documentLocale, taxLineLabel } from "./document-locale.js";
export { type RefundRequest, type RefundsDeps, RefundsService, refundTax } from "./refunds.js";
export type { RefundsRepository } from "./refunds.repository.js";
export { type StripeRefunds, idOf, providerRefundOf } from "./refunds-stripe.js";
export { REFUNDS_FINISH_TASK, refundsFinishTask } from "./refunds.tasks.js";
export type { QuoteReceipts } from "./receipt-resends.js";
export { StripeInvoiceNumbers } from "./stripe-invoice-number.js";
export { type InvoicesRoutesDeps, invoicesApi } from "./invoices.routes.js";
export { type InvoicesAdminDeps, clickKey, invoicesAdminPages } from "./invoices-admin.routes.js";
export { type TaxReportPagesDeps, taxReportPages } from "./tax-report.routes.js";
export { TAX_RETURN_NAMES, type TaxReport, TaxReportService, type TaxReturnFigures } from "./tax-report.js";
export { invoicesCalls } from "./invoices.openapi.js";
export type { BusinessIdentity, Invoice, InvoiceProvider, ProviderInvoiceState } from "./invoices.constants.js";
