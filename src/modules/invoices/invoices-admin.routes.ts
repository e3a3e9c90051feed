// /admin/invoices (invoices.md, "The staff page"): the office finds a charge by its amount and day ("why was I
// charged $412 on the 4th?"), opens its subscription, and resends its receipt. 100 a page; htmx swaps the results.
import type { RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { HttpError, ValidationError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { staffActor } from "../../http/guards.js";
import { params, parse } from "../../http/validate.js";
import { addDays, startOfBusinessDay } from "../../shared/business-time.js";
import { staffFormatters } from "../../shared/staff-format.js";
import { dollarAmountField, invoiceListQuerySchema, refundFormSchema, resendKeySchema } from "./invoices.schemas.js";
import type { InvoicesService } from "./invoices.service.js";
import { INVOICE_STATUSES } from "./invoices.constants.js";

/** Rows per page of /admin/invoices. */
export const INVOICES_PAGE_SIZE = 100;

export interface InvoicesAdminDeps {
  invoices: Pick<InvoicesService, "list" | "resendReceipt" | "lastResends" | "get" | "payer" | "refund">;
  /** The plans' names, read per request (the catalogue can change). */
  planNames: () => Promise<(type: string) => string>;
  staffPage: RequestHandler[];
  timeZone: string;
}

const INVOICE_LABELS: Record<string, string> = {
  paid: "Paid",
  open: "Open",
  void: "Void",
  uncollectible: "Uncollectible",
  draft: "Draft",
};

// The page never refuses its own links: a value it cannot read is no filter, and says why under its field.
const text = z.string().trim().max(40).catch("").default("");
const pageQuery = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  amount: text,
  from: text,
  to: text,
  status: z.enum(INVOICE_STATUSES).or(z.literal("")).catch("").default(""),
  subscriptionId: text,
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  resent: z.coerce.number().int().min(1).optional().catch(undefined),
});

/** A fresh key for each resend button: a double click repeats it (one e-mail), the next click has a new one. */
export const clickKey = () => `resend-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Where a resend without script goes back to: this page or a subscription's, never elsewhere. */
const backTo = (value: unknown) =>
  typeof value === "string" && /^\/admin\/(invoices|subscriptions\/\d+)(\?[^\s#]*)?$/.test(value)
    ? value
    : "/admin/invoices";

export function invoicesAdminPages(router: Router, { invoices, planNames, staffPage, timeZone }: InvoicesAdminDeps) {
  const fmt = staffFormatters(timeZone);

  router.get("/admin/invoices", ...staffPage, async (req, res) => {
    const raw = pageQuery.parse(req.query);
    const errors: Record<string, string> = {};
    const amount = raw.amount ? dollarAmountField.safeParse(raw.amount) : null;
    if (amount && !amount.success) errors.amount = "Amount must be in dollars, like 412 or 465.56";
    // The API's own rules for the rest (dates, their order, the subscription's id).
    const checked = invoiceListQuerySchema.safeParse({
      from: raw.from,
      to: raw.to,
      subscriptionId: raw.subscriptionId,
    });
    const ok = checked.success ? checked.data : { from: undefined, to: undefined, subscriptionId: undefined };
    if (!checked.success)
      for (const issue of checked.error.issues) errors[String(issue.path[0] ?? "from")] ??= issue.message;
    const filter = {
      q: raw.q || undefined,
      subscriptionId: errors.subscriptionId ? undefined : ok.subscriptionId,
      status: raw.status || undefined,
      amountCents: amount?.success ? amount.data : undefined,
      from: ok.from && !errors.from ? startOfBusinessDay(ok.from, timeZone) : undefined,
      to: ok.to && !errors.to ? startOfBusinessDay(addDays(ok.to, 1), timeZone) : undefined,
    };
    const { rows, total } = await invoices.list({
      ...filter,
      limit: INVOICES_PAGE_SIZE,
      offset: (raw.page - 1) * INVOICES_PAGE_SIZE,
    });
    const [resends, planName] = await Promise.all([invoices.lastResends(rows.map((r) => r.id)), planNames()]);
    const values = {
      q: raw.q,
      amount: raw.amount,
      from: raw.from,
      to: raw.to,
      status: raw.status,
      subscriptionId: raw.subscriptionId,
    };
    const locals = {
      title: "Invoices",
      admin: "subscriptions",
      noindex: true,
      values,
      errors,
      page: raw.page,
      pages: Math.max(1, Math.ceil(total / INVOICES_PAGE_SIZE)),
      total,
      pageSize: INVOICES_PAGE_SIZE,
      rows,
      resends,
      resent: raw.resent,
      statuses: INVOICE_STATUSES.map((value) => ({ value, label: INVOICE_LABELS[value] ?? value })),
      invoiceLabel: (status: string) => INVOICE_LABELS[status] ?? status,
      planName,
      clickKey,
      fmt,
      csvHref: `/api/invoices?${new URLSearchParams(
        Object.entries({ ...values, amount: amount?.success ? raw.amount : "", format: "csv" }).filter(
          ([key, v]) => v && !errors[key],
        ),
      ).toString()}`,
      back: req.originalUrl,
    };
    if (req.get("hx-target") === "invoice-results") return res.page("subscriptions/_invoice-results", locals);
    res.page("subscriptions/invoices", locals);
  });

  // One invoice, a subscription's or an accepted quote's: its figures, its credit notes (each refund, numbered, with
  // its PDF), a refund Stripe has not confirmed yet, and the refund form (docs/decisions.md#52).
  const invoicePage = async (
    res: Response,
    id: number,
    form: { notice?: { variant: string; title: string; description: string }; values?: object; errors?: object } = {},
    status = 200,
  ) => {
    const [detail, payer, resends] = await Promise.all([
      invoices.get(id),
      invoices.payer(id),
      invoices.lastResends([id]),
    ]);
    const number = detail.invoice.number ?? `#${id}`;
    res.status(status).page("subscriptions/invoice", {
      title: `Invoice ${number}`,
      admin: "subscriptions",
      noindex: true,
      ...detail,
      payer,
      lastResend: resends.get(id) ?? null,
      invoiceLabel: (value: string) => INVOICE_LABELS[value] ?? value,
      fmt,
      clickKey,
      notice: form.notice ?? null,
      values: form.values ?? {},
      errors: form.errors ?? {},
    });
  };
  const REFUND_NOTICES = {
    succeeded: { variant: "success", title: "Refund made", description: "The customer is e-mailed its credit note." },
    pending: {
      variant: "info",
      title: "Refund sent, waiting for Stripe",
      description:
        "Stripe has not confirmed it yet: it is checked again shortly. Sending the form again does not refund twice.",
    },
  };

  router.get("/admin/invoices/:id", ...staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const { refund } = z
      .object({ refund: z.enum(["succeeded", "pending"]).optional().catch(undefined) })
      .parse(req.query);
    await invoicePage(res, id, { notice: refund ? REFUND_NOTICES[refund] : undefined });
  });

  // The refund form: a 303 back with the outcome; a refused field under its field; a refusal of the whole refund
  // (409, 503: nothing was refunded) as a notice. The form's refunded-so-far figure makes a repeat the same refund.
  router.post("/admin/invoices/:id/refund", ...staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const typed = (typeof req.body === "object" && req.body ? req.body : {}) as Record<string, unknown>;
    try {
      const input = parse(refundFormSchema, { ...typed, invoiceId: String(id) });
      const { refund } = await invoices.refund(id, {
        amountCents: input.amount,
        reason: input.reason,
        expectedRefundedCents: input.expectedRefundedCents,
        actor: staffActor(req),
      });
      return res.redirect(303, `/admin/invoices/${id}?refund=${refund.status}`);
    } catch (error) {
      if (error instanceof ValidationError) {
        const fields = { ...error.fields };
        if (fields.amountCents) fields.amount = fields.amountCents;
        return invoicePage(
          res,
          id,
          { values: typed, errors: Object.keys(fields).length ? fields : { _: error.message } },
          400,
        );
      }
      if (error instanceof HttpError && (error.status === 409 || error.status === 503))
        return invoicePage(
          res,
          id,
          { values: typed, notice: { variant: "error", title: "Nothing was changed", description: error.message } },
          error.status,
        );
      throw error;
    }
  });

  // The resend button: htmx swaps the button back in (a fresh key) with a toast; without script, back to the page.
  router.post("/admin/invoices/:id/resend-receipt", ...staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const typed = (typeof req.body === "object" && req.body ? req.body : {}) as Record<string, unknown>;
    const { key } = parse(resendKeySchema, { key: typed.key });
    const { resend, repeated } = await invoices.resendReceipt(id, { key: key ?? null, actor: staffActor(req) });
    if (req.get("hx-request") !== "true") {
      const back = backTo(typed.back);
      return res.redirect(303, `${back}${back.includes("?") ? "&" : "?"}resent=${id}`);
    }
    res.page("subscriptions/_resend", {
      title: "Receipt sent",
      invoiceId: id,
      number: typeof typed.number === "string" ? typed.number.slice(0, 40) : String(id),
      back: backTo(typed.back),
      clickKey,
      toast: {
        title: repeated ? "Receipt already sent" : "Receipt sent",
        description: `${repeated ? "It went" : "It is on its way"} to ${resend.sentTo} (${fmt.moment(resend.createdAt)}).`,
      },
    });
  });
}
