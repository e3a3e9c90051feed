// Staff input of the invoice, refund and tax-report calls and pages (docs/decisions.md#33, #34).
import { z } from "zod";
import { dateField, multiLineText, optionalQueryId } from "../../http/fields.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import { INVOICE_STATUSES } from "./invoices.constants.js";

const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);
const optionalDate = (label: string) => z.preprocess(blankIsAbsent, dateField(label).optional());

/** Dollars as staff type them ("412", "$465.56", "1,200"), in cents. */
export const dollarAmountField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().replace(/^\$/, "").replaceAll(",", "") : v),
  z
    .string({ message: "Amount must be in dollars, like 412 or 465.56" })
    .regex(/^\d{1,7}(\.\d{1,2})?$/, "Amount must be in dollars, like 412 or 465.56")
    .transform((v) => Math.round(Number(v) * 100)),
);

/**
 * GET /api/invoices and /admin/invoices: by who or what it is for (`q`: the invoice's number, or its home's address
 * or client's name or e-mail), subscription, amount (dollars, the subtotal or the total), issue dates (YYYY-MM-DD,
 * business zone, `to` included) and status.
 */
export const invoiceListQuerySchema = staffListQuerySchema
  .extend({
    subscriptionId: optionalQueryId("Subscription id"),
    amount: z
      .preprocess(blankIsAbsent, dollarAmountField.optional())
      .meta({ description: "Dollars (412 or 465.56): invoices whose subtotal or total is exactly this" }),
    from: optionalDate("From"),
    to: optionalDate("To"),
    status: z.preprocess(
      blankIsAbsent,
      z.enum(INVOICE_STATUSES, { message: `Status must be one of ${INVOICE_STATUSES.join(", ")}` }).optional(),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "From must be on or before To", path: ["from"] });

const reasonField = z.preprocess(
  (value) => (value === undefined || value === null ? "" : value),
  multiLineText("Why it is refunded", 500).pipe(
    z.string().trim().min(1, "Say why it is refunded: the customer is told"),
  ),
);

const cents = (label: string) =>
  z
    .number({ message: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(1, `${label} must be at least 1 cent`)
    .max(100_000_000, `${label} is too large`);

/** POST /api/invoices/{id}/refund: what the customer gets back, tax included (default: all that is left). */
export const refundSchema = z.object({
  amountCents: cents("Amount").optional(),
  reason: reasonField,
  /** The refunded-so-far figure the client saw: a repeat of the same request is one refund. */
  expectedRefundedCents: z.number().int().min(0).optional(),
});

/** The staff page's refund form: the amount in dollars ("12.50"; blank: all that is left). */
export const refundFormSchema = z.object({
  invoiceId: z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(1)),
  amount: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Amount must be in dollars, like 12.50")
      .transform((v) => Math.round(Number(v) * 100))
      .pipe(z.number().min(1, "Amount must be at least $0.01"))
      .optional(),
  ),
  reason: reasonField,
  expectedRefundedCents: z.preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    z.number().int().min(0).optional(),
  ),
});

/** POST /api/invoices/{id}/resend-receipt and its staff form: the click's key (a double click is one e-mail). */
export const resendKeySchema = z.object({
  key: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .trim()
      .max(200, "The key must be at most 200 characters")
      .regex(/^[\x21-\x7e]+$/, "The key must be visible ASCII characters")
      .optional(),
  ),
});

/** GET /api/tax-report and `haven tax report`: a range of business days, both included. */
export const taxReportQuerySchema = z
  .object({ from: dateField("From"), to: dateField("To") })
  .refine((q) => q.from <= q.to, { message: "From must be on or before To", path: ["from"] });
