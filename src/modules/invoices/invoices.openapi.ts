import { z } from "zod";
import { apiCalls, binary, dateTimeString, idNumber, idempotencyHeaders } from "../../http/openapi.kit.js";
import { idParams } from "../../http/fields.js";
import { invoiceListQuerySchema, refundSchema, resendKeySchema, taxReportQuerySchema } from "./invoices.schemas.js";
import { INVOICE_STATUSES } from "./invoices.constants.js";

// OpenAPI entries of invoices.routes.ts (the staff's invoice, refund and tax-report calls, docs/decisions.md#33, #34)
// and of My Home's invoice PDF (my-home/invoices.routes.ts); see docs/api.md.

const taxLine = z
  .object({
    kind: z.enum(["GST", "HST", "QST"]),
    label: z.string().meta({ example: "HST 13%" }),
    percent: z.number().meta({ example: 13 }),
    amountCents: z.number().int().meta({ example: 5356 }),
  })
  .meta({ id: "TaxLine" });

const invoice = z
  .object({
    id: idNumber,
    subscriptionId: idNumber.nullable().meta({ description: "Null on an accepted quote's invoice" }),
    quoteRequestId: idNumber
      .nullable()
      .meta({ description: "The accepted quote it bills (docs/decisions.md#43); null on a subscription's" }),
    providerInvoiceId: z.string(),
    number: z
      .string()
      .nullable()
      .meta({ description: "HAV-YYYY-NNNNNN, gapless per year; null on a draft", example: "HAV-2027-000123" }),
    issuedAt: dateTimeString.nullable().meta({
      description:
        "The invoice's date: when it was issued, set once with its number, never moved by the payment (docs/decisions.md#54); null on a draft",
    }),
    recordedLateAt: dateTimeString.nullable().meta({
      description:
        "When Haven numbered it, set only when that came after invoices of its year issued on a later day (a missed invoice reconciliation recorded): the exception to the numbers' order (docs/decisions.md#54)",
    }),
    amount: z.number().meta({ description: "The total, tax included (dollars)", example: 465.56 }),
    amountPaid: z.number().meta({
      description: "What the payment (the card) paid of the total; the rest was the customer's balance (dollars)",
      example: 465.56,
    }),
    balanceApplied: z.number().meta({
      description:
        "The customer's balance applied: a credit used (positive) or an earlier debt carried in (negative); amount = amountPaid + balanceApplied once paid",
      example: 0,
    }),
    subtotal: z.number().meta({ description: "Before tax (dollars)", example: 412 }),
    tax: z.number().meta({ description: "Dollars", example: 53.56 }),
    taxLines: z.array(taxLine),
    taxProvince: z.string().nullable().meta({ example: "ON" }),
    refunded: z.number().meta({ description: "Refunded so far, tax included (dollars)" }),
    hostedInvoiceUrl: z.string().nullable(),
    currency: z.string(),
    periodStart: dateTimeString,
    periodEnd: dateTimeString,
    status: z.string().meta({ description: INVOICE_STATUSES.join(", ") }),
    billingReason: z.string().nullable(),
    paidAt: dateTimeString.nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: "InvoiceDocument" });

const listRow = invoice
  .extend({
    customerName: z.string().nullable(),
    customerEmail: z.string().nullable(),
    planType: z.string().meta({ description: "The subscription's plan; 'quote' for a quote's invoice" }),
    priceList: z.enum(["pricing", "checkout"]).nullable().meta({
      description: "The price list its subscription was sold from (docs/decisions.md#23); null for a quote's",
    }),
    quoteTitle: z.string().nullable().meta({ description: "What a quote's invoice is for; null for a subscription's" }),
    taxes: z
      .object({ GST: z.number(), HST: z.number(), QST: z.number() })
      .meta({ description: "Each tax kind in dollars (the CSV's taxes.GST, taxes.HST, taxes.QST columns)" }),
    refundedTax: z.number().meta({ description: "The tax part of the refunds (dollars)" }),
  })
  .meta({ id: "InvoiceListRow" });

const refund = z
  .object({
    id: idNumber
      .nullable()
      .meta({ description: "The refund's id (its credit note's PDF: /api/refunds/{id}/pdf); null while pending" }),
    number: z.string().nullable().meta({
      description:
        "Its credit note's number, HAV-CN-<year>-<6 digits>, gapless per year (docs/decisions.md#52); null while pending",
    }),
    status: z.enum(["succeeded", "pending"]).meta({
      description:
        "`pending`: sent to Stripe, not confirmed yet (its amount is reserved; the job or a repeat finishes it)",
    }),
    requestId: idNumber.nullable().meta({ description: "The staff request that made it, when one did" }),
    invoiceId: idNumber,
    provider: z.enum(["stripe", "demo"]),
    providerRefundId: z.string().nullable().meta({ description: "Stripe's re_…, or demo_re_<invoice>_<n>" }),
    amountCents: z.number().int().meta({ description: "Back to the customer, tax included" }),
    taxCents: z.number().int().nullable().meta({ description: "Null while pending (its tax is set when recorded)" }),
    taxLines: z.array(taxLine).meta({ description: "The tax part, each tax in proportion" }),
    reason: z.string().nullable(),
    actor: z.string().meta({ description: "staff:<id>, cli or stripe (made in Stripe's dashboard)" }),
    creditNoteId: z.string().nullable().meta({ description: "Stripe's cn_…, or the demo's twin" }),
    requestKey: z.string().nullable(),
    createdAt: dateTimeString,
  })
  .meta({ id: "Refund" });

const taxReportLine = z.object({
  province: z.string(),
  kind: z.string().meta({ description: "GST, HST, QST, or none (invoices that charged no tax)" }),
  label: z.string().meta({ example: "HST 13%" }),
  percent: z.number(),
  return: z
    .enum(["gstHst", "qst"])
    .meta({ description: "The return it goes on: the CRA's GST/HST or Revenu Québec's QST" }),
  netSales: z.number().meta({ description: "Sales before tax the tax was charged on, net of refunds (dollars)" }),
  collected: z.number(),
  refunded: z.number(),
  net: z.number(),
});

const taxReturn = z
  .object({
    sales: z.number().meta({ description: "Before tax: invoices whose tax fell due in the range, each once" }),
    salesRefunded: z.number().meta({ description: "Before tax: given back by refunds made in the range" }),
    netSales: z.number().meta({ description: "sales − salesRefunded (GST/HST line 101)" }),
    taxCollected: z.number().meta({ description: "Collected or collectible (GST/HST line 103)" }),
    adjustments: z.number().meta({ description: "Tax given back by the refunds' credit notes (GST/HST line 107)" }),
    netTax: z.number().meta({ description: "taxCollected − adjustments" }),
    unpaidTax: z.number().meta({ description: "Of taxCollected, on invoices not paid yet" }),
  })
  .meta({ id: "TaxReturnFigures" });

const homeInvoice = z
  .object({
    id: idNumber,
    number: z.string().nullable(),
    issuedAt: dateTimeString.nullable().meta({
      description:
        "The invoice's date: when it was issued, set once with its number, never moved by the payment (docs/decisions.md#54); null on a draft",
    }),
    amount: z.number().meta({ description: "The total, tax included (dollars)" }),
    subtotal: z.number(),
    tax: z.number(),
    taxLines: z.array(z.object({ label: z.string(), amountCents: z.number().int() })),
    refunded: z.number(),
    currency: z.string(),
    periodStart: dateTimeString,
    periodEnd: dateTimeString,
    status: z.string(),
    paidAt: dateTimeString.nullable(),
    failureReason: z.string().nullable(),
    subscriptionId: idNumber,
    planName: z.string(),
    propertyAddress: z.string().nullable(),
    pdfUrl: z.string().meta({ example: "/api/my-home/invoices/7/pdf" }),
  })
  .meta({ id: "HomeInvoice" });

const resendAnswer = z
  .object({
    resend: z.object({
      id: idNumber,
      invoiceId: idNumber,
      sentTo: z.string(),
      actor: z.string().meta({ description: "staff:<id>" }),
      createdAt: dateTimeString,
    }),
    invoice,
    repeated: z.boolean().meta({ description: "True when this answered a repeat (no e-mail sent)" }),
  })
  .meta({ id: "ReceiptResend" });

const pdf = { 200: { description: "The invoice as a PDF", contentType: "application/pdf", schema: binary } };
const tags = ["Invoices"];

export const invoicesCalls = apiCalls([
  {
    method: "get",
    path: "/api/invoices",
    summary: "Invoices, newest period first",
    description:
      "By `subscriptionId`, `status`, `amount` (dollars, `412` or `465.56`: the subtotal or the total, to the cent) and issue date (`from`/`to`, YYYY-MM-DD in BUSINESS_TZ, both included; the day it was charged, else its period's start; the invoice's own date is `issuedAt`, docs/decisions.md#54). Each filter is an index range. `?format=csv` gives every matching row (number, dates, subtotal, each tax, total, refunded, provider id, price list), for the accountant.",
    tags,
    access: "staff",
    query: invoiceListQuerySchema,
    list: true,
    csv: true,
    responses: { 200: z.array(listRow) },
  },
  {
    method: "get",
    path: "/api/invoices/{id}",
    summary: "One invoice with its credit notes (its refunds, numbered) and what is left to refund",
    tags,
    access: "staff",
    params: idParams,
    responses: {
      200: z.object({ invoice, refunds: z.array(refund), refundable: z.number().meta({ description: "Dollars" }) }),
    },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/invoices/{id}/pdf",
    summary: "The invoice as a PDF (docs/decisions.md#33)",
    description:
      "The business's name, address and GST/HST number, the number and date, the buyer, the plan and period, the subtotal, each tax with its rate, the total, the terms, and any refunds.",
    tags,
    access: "staff",
    params: idParams,
    responses: pdf,
    errors: [404],
  },
  {
    method: "post",
    path: "/api/invoices/{id}/refund",
    summary: "Refund a paid invoice in full or in part",
    description:
      "A subscription's or an accepted quote's invoice. `amountCents` is what the customer gets back, tax included (default: all that is left); its tax is in proportion. Each refund is a credit note with its own number. With Stripe the request is recorded first, then Stripe's refund under a key from it (and for a subscription's invoice Stripe's credit note; a quote's payment has no Stripe invoice to credit); in demo mode their twin; the customer is e-mailed. A repeat with the same Idempotency-Key (or the same `expectedRefundedCents`) answers the first refund with 200. Stripe did not answer: 202, the refund `pending` (its amount reserved; a job or the same request again finishes it). More than is left is a 400; nothing left, an unpaid invoice or a stale `expectedRefundedCents` a 409; 503 only when nothing was refunded (Stripe unreachable before the refund was sent, or Stripe refused it) (docs/decisions.md#52).",
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyHeaders,
    body: refundSchema,
    responses: {
      201: z.object({ refund, invoice }),
      200: z.object({ refund, invoice }),
      202: z.object({ refund, invoice }),
    },
    errors: [404, 409, 503],
  },
  {
    method: "get",
    path: "/api/refunds/{id}/pdf",
    summary: "A refund's credit note as a PDF (docs/decisions.md#52)",
    description:
      "Its number and date, the invoice it credits, the buyer, the amount before tax, each tax refunded, the total and the reason, with the GST/HST number (and the QST number when QST was refunded).",
    tags,
    access: "staff",
    params: idParams,
    responses: pdf,
    errors: [404],
  },
  {
    method: "post",
    path: "/api/invoices/{id}/resend-receipt",
    summary: "E-mail a paid invoice's receipt again",
    description:
      "To the subscription's payer, as the first receipt (number, each tax, the PDF's link); an audit event `invoice.resend_receipt`. One e-mail per click: the `Idempotency-Key` header (or the body's `key`) seen again within a minute answers the first resend with 200 and `repeated: true`; without a key, the caller's repeats within a minute are one. An invoice not paid, or with no payer e-mail, is a 409.",
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyHeaders,
    body: resendKeySchema,
    responses: {
      201: resendAnswer,
      200: { description: "A repeat within a minute: the first resend, nothing sent", schema: resendAnswer },
    },
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/tax-report",
    summary: "The GST/HST return's and the QST return's figures, and the taxes by province and rate",
    description:
      "docs/decisions.md#50. An invoice counts on the day its tax fell due (the earlier of its date and its payment): paid ones, and unpaid renewals and quote invoices; a refund's credit note is an adjustment on the day it was made. `gstHst` takes every sale and the GST and HST; `qst` the Quebec sales and the QST. `from`/`to` are business days, both included. `?format=csv`: the two returns' rows, then one row per province and tax.",
    tags,
    access: "staff",
    csv: true,
    query: taxReportQuerySchema,
    responses: {
      200: z
        .object({
          from: z.string(),
          to: z.string(),
          gstHst: taxReturn,
          qst: taxReturn,
          lines: z.array(taxReportLine),
        })
        .meta({ id: "TaxReport" }),
    },
  },
  {
    method: "get",
    path: "/api/my-home/invoices",
    summary: "The homeowner's invoices",
    description:
      "Every invoice of the homeowner's plans (one plan per home), newest first within each home, with the plan, the home and the PDF's address. A My Home session (haven_home cookie).",
    tags: ["My Home"],
    access: "public",
    responses: { 200: z.object({ invoices: z.array(homeInvoice) }) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/my-home/invoices/{id}",
    summary: "One of the homeowner's invoices",
    description: "An invoice of anyone else's is a 404.",
    tags: ["My Home"],
    access: "public",
    params: idParams,
    responses: { 200: homeInvoice },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/api/my-home/invoices/{id}/pdf",
    summary: "One of the homeowner's invoices as a PDF",
    description: "A My Home session (haven_home cookie); an invoice of anyone else's is a 404.",
    tags: ["My Home"],
    access: "public",
    params: idParams,
    responses: pdf,
    errors: [401, 404],
  },
]);
