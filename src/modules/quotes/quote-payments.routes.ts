// Paying an accepted quote (docs/decisions.md#43): from My Home (the homeowner's session, their own home's quote) or
// from the acceptance e-mail's link (its token, SHA-256 stored). Demo mode takes the demo card form; Stripe mode makes
// the invoice's PaymentIntent, which the Payment Element confirms, and the return marks it paid. The office's list of
// accepted quotes to book is here too.
import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { SaidRefusal, UnauthorizedError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params, query } from "../../http/validate.js";
import { TASK_STATUSES } from "../maintenance/maintenance.constants.js";
import { allowStripeJs, demoCardSchema } from "../payments/index.js";
import { QuotePayExpiredError, type QuotePayments } from "./quote-payments.js";
import type { PayOutcome, Payer } from "./quote-payments.ports.js";
import { apiLocale } from "../../i18n/api-locale.js";
import { createRouter } from "../../http/router.js";
import {
  type Formatters,
  type Translator,
  formatters,
  islandMessages,
  localePath,
  translator,
} from "../../i18n/index.js";

export interface QuotePaymentsRoutesDeps {
  payments: QuotePayments;
  /** The signed-in homeowner's e-mail (My Home's session, which app.ts reads), or null. */
  homeEmail: (res: Response) => string | null;
  /** The homeowner's own homes (My Home's access rule). */
  ownedPropertyIds: (email: string) => Promise<number[]>;
  /** http/admin.ts staffPage(): signed-in staff, with the sidebar's user, counts and bell. */
  staffPage: RequestHandler[];
  /** The active staff a task may be assigned to (the task dialog's choices). */
  staffOptions: () => Promise<{ id: number; name: string }[]>;
  settings: { stripeMode: boolean; publishableKey: string | null };
}

const tokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This pay link is not valid") });
const toBookQuery = z.object({
  booked: z
    .enum(["true", "false"], { message: "booked must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
});

/** An answer carries the invoice's figures and where its PDF is, never a token. */
const answer = (outcome: PayOutcome, pdfUrl: string) =>
  outcome.status === "paid"
    ? { status: "paid", alreadyPaid: outcome.alreadyPaid, invoice: { ...outcome.invoice, pdfUrl } }
    : { status: "requires_payment", clientSecret: outcome.clientSecret, invoice: { ...outcome.invoice, pdfUrl } };

const noStore = (res: Response) => res.setHeader("Cache-Control", "no-store");

export function quotePaymentsRoutes(deps: QuotePaymentsRoutesDeps): { api: Router; pages: Router } {
  const { payments, settings } = deps;
  const homePayer = async (res: Response, id: number): Promise<Payer> => {
    const email = deps.homeEmail(res);
    if (!email) throw new UnauthorizedError("Sign in to My Home first");
    const own = new Set(await deps.ownedPropertyIds(email));
    return { quoteRequestId: id, mayPay: (propertyId) => own.has(propertyId) };
  };
  const pay = async (payer: Payer, req: Request) => {
    try {
      return await (settings.stripeMode
        ? payments.startStripe(payer)
        : payments.payDemo(payer, body(req, demoCardSchema)));
    } catch (error) {
      // The pay island names its page's language (src/i18n/api-locale.ts): the expired quote's 409 says it in it.
      if (error instanceof QuotePayExpiredError && apiLocale(req) !== "en-CA") {
        const locale = apiLocale(req);
        const date = formatters(locale).dateTime(error.validUntil, { year: "numeric", month: "long", day: "numeric" });
        throw new SaidRefusal(409, translator(locale)("quotes.report.expired", { date }));
      }
      throw error;
    }
  };

  const api = createRouter();
  api.post("/my-home/quotes/:id/pay", async (req, res) => {
    noStore(res);
    const { id } = params(req, idParams);
    res.json(answer(await pay(await homePayer(res, id), req), `/my-home/quotes/${id}/invoice.pdf`));
  });
  api.post("/my-home/quotes/:id/pay/confirm", async (req, res) => {
    noStore(res);
    const { id } = params(req, idParams);
    const invoice = await payments.confirmStripe(await homePayer(res, id));
    res.json({ status: invoice.status, invoice: { ...invoice, pdfUrl: `/my-home/quotes/${id}/invoice.pdf` } });
  });
  api.post("/quote-pay/:token", async (req, res) => {
    noStore(res);
    const { token } = params(req, tokenParams);
    res.json(answer(await pay({ token }, req), `/quote-pay/${token}/invoice.pdf`));
  });
  api.post("/quote-pay/:token/confirm", async (req, res) => {
    noStore(res);
    const { token } = params(req, tokenParams);
    const invoice = await payments.confirmStripe({ token });
    res.json({ status: invoice.status, invoice: { ...invoice, pdfUrl: `/quote-pay/${token}/invoice.pdf` } });
  });
  // The office: accepted quotes to book (oldest first), with the task's date, time and assignee once booked.
  api.get("/quotes-to-book", requireStaffApi, async (req, res) => {
    const { booked } = query(req, toBookQuery);
    res.json(await payments.toBook({ booked }));
  });

  const pages = createRouter();
  const page = async (res: Response, payer: Payer, base: { payUrl: string; pdfUrl: string; back: string }) => {
    noStore(res);
    const view = await payments.view(payer);
    if (settings.stripeMode) allowStripeJs(res);
    res.page("quotes/quote-pay", {
      title: (res.locals.t as Translator)("quotes.pay.title", {
        total: (res.locals.intl as Formatters).money(view.invoice.amount, {
          whole: Number.isInteger(view.invoice.amount),
        }),
        title: view.quote.taskTitle,
      }),
      noindex: true,
      // Paid or expired (docs/decisions.md#43): no card form, so no island.
      islands: view.invoice.status !== "paid" && !view.expired,
      view,
      ...base,
      formProps: {
        payUrl: base.payUrl,
        confirmUrl: `${base.payUrl}/confirm`,
        // Stripe's return comes back to the page in its language (docs/decisions.md#65).
        returnPath: localePath(base.back, res.req.locale),
        stripeMode: settings.stripeMode,
        publishableKey: settings.publishableKey,
        amountCents: Math.round(view.invoice.amount * 100),
        totalText: (res.locals.intl as Formatters).money(view.invoice.amount, {
          whole: Number.isInteger(view.invoice.amount),
        }),
        name: view.quote.clientName,
        email: view.quote.clientEmail,
        // The card checks' messages (islands/checkout/card-checks.ts) in the page's language.
        i18n: islandMessages(res.req.locale, "checkout", "forms", "quotes"),
      },
    });
  };
  const pdf = async (res: Response, payer: Payer) => {
    const { filename, body: file } = await payments.pdf(payer);
    noStore(res);
    res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="${filename}"`).send(file);
  };
  const requireHome: RequestHandler = (req, res, next) =>
    deps.homeEmail(res) ? next() : res.redirect(303, `/my-home/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
  // My Home's quotes page (my-home's route, after this one) shows each accepted quote's invoice and its Pay button.
  pages.get("/my-home/quotes", async (_req, res, next) => {
    const email = deps.homeEmail(res);
    if (email) {
      res.locals.afterYes = Object.fromEntries(await payments.afterYesOfHomes(await deps.ownedPropertyIds(email)));
    }
    next();
  });
  // The homeowner's quote invoices, beside their plans' (GET /api/my-home/invoices), each with its PDF's address.
  api.get("/my-home/quote-invoices", async (_req, res) => {
    noStore(res);
    const email = deps.homeEmail(res);
    if (!email) throw new UnauthorizedError("Sign in to My Home first");
    const states = await payments.afterYesOfHomes(await deps.ownedPropertyIds(email));
    const full = await payments.invoicesOf([...states].filter(([, s]) => s.invoice).map(([id]) => id));
    res.json({
      invoices: full.map((i) => ({ ...i, pdfUrl: `/my-home/quotes/${i.quoteRequestId}/invoice.pdf` })),
    });
  });
  pages.get("/my-home/quotes/:id/pay", requireHome, async (req, res) => {
    const { id } = params(req, idParams);
    await page(res, await homePayer(res, id), {
      payUrl: `/api/my-home/quotes/${id}/pay`,
      pdfUrl: `/my-home/quotes/${id}/invoice.pdf`,
      back: `/my-home/quotes/${id}/pay`,
    });
  });
  pages.get("/my-home/quotes/:id/invoice.pdf", requireHome, async (req, res) => {
    const { id } = params(req, idParams);
    await pdf(res, await homePayer(res, id));
  });
  pages.get("/quote-pay/:token", async (req, res) => {
    const { token } = params(req, tokenParams);
    res.setHeader("Referrer-Policy", "no-referrer");
    await page(
      res,
      { token },
      {
        payUrl: `/api/quote-pay/${token}`,
        pdfUrl: `/quote-pay/${token}/invoice.pdf`,
        back: `/quote-pay/${token}`,
      },
    );
  });
  pages.get("/quote-pay/:token/invoice.pdf", async (req, res) => {
    const { token } = params(req, tokenParams);
    await pdf(res, { token });
  });
  // The office's accepted quotes to book (docs/decisions.md#43): each opens the calendar's Task Details dialog.
  pages.get("/admin/quotes-to-book", ...deps.staffPage, async (_req, res) => {
    const [items, staff] = await Promise.all([payments.toBook(), deps.staffOptions()]);
    res.page("quotes/quotes-to-book", {
      title: "Accepted Quotes to Book | Haven Admin",
      admin: "quote-requests",
      islands: true,
      noindex: true,
      items,
      props: { items, staff, statuses: TASK_STATUSES },
    });
  });
  return { api, pages };
}
