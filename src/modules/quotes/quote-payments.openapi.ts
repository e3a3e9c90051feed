import { z } from "zod";
import { idParams } from "../../http/fields.js";
import { apiCalls, dateString, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { demoCardSchema } from "../payments/index.js";

// OpenAPI entries of quote-payments.routes.ts (docs/decisions.md#43); see docs/api.md.

const tokenParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .meta({ description: "The acceptance e-mail's pay link token" }),
});

const quoteInvoice = z
  .object({
    id: idNumber,
    subscriptionId: z.null(),
    quoteRequestId: idNumber,
    providerInvoiceId: z.string().meta({ example: "quote_42" }),
    number: z.string().nullable().meta({ description: "HAV-YYYY-NNNNNN, the subscriptions' gapless counter" }),
    amount: z.number().meta({ description: "The total charged, tax included (dollars)", example: 734.5 }),
    subtotal: z.number().meta({ description: "Before tax (dollars)", example: 650 }),
    tax: z.number(),
    taxLines: z.array(
      z.object({ kind: z.string(), label: z.string(), percent: z.number(), amountCents: z.number().int() }),
    ),
    taxProvince: z.string().nullable(),
    refunded: z.number(),
    hostedInvoiceUrl: z.string().nullable(),
    currency: z.string(),
    periodStart: dateTimeString.meta({ description: "When the quote was accepted" }),
    periodEnd: dateTimeString,
    status: z.string().meta({ description: "open until paid, then paid" }),
    billingReason: z.string().nullable().meta({ example: "quote" }),
    paidAt: dateTimeString.nullable(),
    failureReason: z.string().nullable(),
    pdfUrl: z.string().meta({ description: "The invoice as a PDF, for the same payer" }),
  })
  .meta({ id: "QuoteInvoice" });

const payAnswer = z
  .union([
    z.object({
      status: z.literal("paid"),
      alreadyPaid: z.boolean().meta({ description: "Paid before this call: nothing was charged now" }),
      invoice: quoteInvoice,
    }),
    z.object({
      status: z.literal("requires_payment"),
      clientSecret: z.string().meta({ description: "Stripe: the invoice's one PaymentIntent, for confirmPayment" }),
      invoice: quoteInvoice,
    }),
  ])
  .meta({ id: "QuotePayAnswer" });

const confirmAnswer = z.object({ status: z.string(), invoice: quoteInvoice });

const payDescription =
  "Demo mode: the demo card form's fields (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined with a 402). " +
  "Stripe mode: an empty body; answers the client secret of the invoice's one PaymentIntent (made with an " +
  "idempotency key from the invoice), which the Payment Element confirms. The invoice row is locked first: two " +
  "pays at once charge once, and a paid invoice answers `paid` with `alreadyPaid`. The receipt e-mail is queued " +
  "in the payment's transaction. A quote not accepted, or past its validUntil (its whole last day in BUSINESS_TZ), " +
  "is a 409 ('This quote expired on <date>; ask us for a new one') that charges and writes nothing.";

const confirmDescription =
  "Reads the invoice's PaymentIntent back under the invoice's row lock: a succeeded one marks the invoice paid " +
  "(once), even past the quote's validUntil, since the money moved. With nothing charged, a quote past its " +
  "validUntil is a 409.";

const tags = ["Quote payments"];

export const quotePaymentsCalls = apiCalls([
  {
    method: "post",
    path: "/api/my-home/quotes/{id}/pay",
    summary: "Pay an accepted quote from My Home",
    description: `The homeowner's own quote request (anyone else's is a 404). ${payDescription}`,
    tags,
    access: "public",
    params: idParams,
    body: demoCardSchema.partial(),
    responses: { 200: payAnswer },
    errors: [401, 402, 404, 409, 502],
  },
  {
    method: "post",
    path: "/api/my-home/quotes/{id}/pay/confirm",
    summary: "After Stripe's confirmation: read the PaymentIntent back and mark the invoice paid",
    description: confirmDescription,
    tags,
    access: "public",
    params: idParams,
    responses: { 200: confirmAnswer },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/quote-pay/{token}",
    summary: "Pay an accepted quote by its e-mailed link",
    description: payDescription,
    tags,
    access: "public",
    params: tokenParams,
    body: demoCardSchema.partial(),
    responses: { 200: payAnswer },
    errors: [402, 404, 409, 502],
  },
  {
    method: "post",
    path: "/api/quote-pay/{token}/confirm",
    summary: "After Stripe's confirmation, by the e-mailed link",
    description: confirmDescription,
    tags,
    access: "public",
    params: tokenParams,
    responses: { 200: confirmAnswer },
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/my-home/quote-invoices",
    summary: "The homeowner's invoices of accepted quotes, newest first (their plans' are GET /api/my-home/invoices)",
    tags,
    access: "public",
    responses: { 200: z.object({ invoices: z.array(quoteInvoice) }) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/quotes-to-book",
    summary: "Accepted quotes for the office to book: not booked first, oldest acceptance first",
    description:
      "The office books each with the homeowner within 2 business days (docs/decisions.md#43) by setting the task's " +
      "date, time and assignee in the calendar's task dialog. `booked=false` lists only those still to book.",
    tags,
    access: "staff",
    query: z.object({ booked: z.enum(["true", "false"]).optional() }),
    responses: {
      200: z.array(
        z.object({
          quoteRequestId: idNumber,
          maintenanceTaskId: idNumber,
          propertyId: idNumber,
          propertyAddress: z.string(),
          clientName: z.string(),
          taskTitle: z.string(),
          quotedAmount: z.string().nullable(),
          acceptedAt: dateTimeString,
          scheduledDate: dateString.nullable(),
          scheduledTime: z.string().nullable().meta({ example: "10:00 AM" }),
          assignedTo: idNumber.nullable(),
          invoiceStatus: z
            .string()
            .nullable()
            .meta({ description: "open or paid; null for a quote with no single price" }),
          task: z
            .object({
              id: idNumber,
              title: z.string(),
              description: z.string().nullable(),
              category: z.string(),
              priority: z.string(),
              status: z.string(),
              scheduledDate: dateString.nullable(),
              scheduledTime: z.string().nullable(),
              estimatedDuration: z.number().int().nullable(),
              notes: z.string().nullable(),
              assignedTo: idNumber.nullable(),
              version: z.number().int().min(1),
              propertyAddress: z.string(),
              clientName: z.string(),
            })
            .meta({
              description: "The task as the calendar's task dialog edits it (PATCH /api/maintenance-tasks/{id})",
            }),
        }),
      ),
    },
  },
]);
