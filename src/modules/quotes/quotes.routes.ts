import type { RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { idParams, optionalQueryId, pathId } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params, query } from "../../http/validate.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import { answerEdit } from "../../http/stale-edit.js";
import { bindingCookies, setBindingCookie } from "../../shared/one-time-links.js";
import { CLIENT_DECISIONS, QUOTE_STATUSES, STAFF_MOVES, type QuoteRequest } from "./quotes.constants.js";
import { bellSeenBody, clientDecisionSchema, quoteUpdateSchema } from "./quotes.schemas.js";
import { QuoteExpiredError, type QuotesService } from "./quotes.service.js";
import { QUOTE_VALID_DAYS } from "./quote-document.js";
import { addDays, todayIn } from "../../shared/business-time.js";
import type { Notifications } from "../notifications/index.js";
import { NOTIFICATION_KINDS, NOTIFICATION_LABELS } from "../notifications/notifications.constants.js";
import { notificationListQuery } from "../notifications/notifications.schemas.js";
import { createRouter } from "../../http/router.js";
import { type Formatters, type Translator, localePath } from "../../i18n/index.js";

/** What quotes' routes use: the service, the staff page guard that app.ts builds, and settings. */
export interface QuotesRoutesDeps {
  quotes: QuotesService;
  /** The bell's notifications, listed with the client requests (src/modules/notifications/README.md). */
  notifications: Pick<Notifications, "list">;
  /** http/admin.ts staffPage(): signed-in staff, with the sidebar's user, counts and bell. */
  staffPage: RequestHandler[];
  settings: {
    /** The binding cookie is Secure in production. */
    secure: boolean;
    /** The site's public origin (publicOrigin(env)): quote report links are made under it. */
    publicUrl: string;
    /** BUSINESS_TZ: the notifications page's times. */
    timeZone: string;
  };
}

const quoteListQuery = staffListQuerySchema.extend({
  status: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(QUOTE_STATUSES, { message: `status must be one of ${QUOTE_STATUSES.join(", ")}` }).optional(),
  ),
  propertyId: optionalQueryId("propertyId"),
});
const tokenParams = z.object({ token: z.string().max(200) });
const decisionParams = z.object({ token: z.string().max(200), id: pathId("Id") });

const PAGE_SIZE = 100;

/** The page's groups: one per property, in the order of each property's newest request. */
function groupByProperty(rows: QuoteRequest[]) {
  const groups = new Map<
    number,
    { propertyId: number; propertyAddress: string; clientName: string; clientEmail: string; requests: QuoteRequest[] }
  >();
  for (const row of rows) {
    const group = groups.get(row.propertyId) ?? {
      propertyId: row.propertyId,
      propertyAddress: row.propertyAddress,
      clientName: row.clientName,
      clientEmail: row.clientEmail,
      requests: [],
    };
    group.requests.push(row);
    groups.set(row.propertyId, group);
  }
  return [...groups.values()];
}

/** The quote report page's title and its no-figure sentence, in the page's language. */
const quoteReportWords = (res: Response) => {
  const t = res.locals.t as Translator;
  return { title: t("quotes.report.title"), noFigureText: t("quotes.noFigure") };
};

const privateLink = (res: Response) => {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
};

export function quotesApi(deps: Pick<QuotesRoutesDeps, "quotes" | "settings">): Router {
  const router = createRouter();
  const { quotes, settings } = deps;

  router.get("/quote-requests", requireStaffApi, async (req, res) => {
    const { limit, offset, q, status, propertyId } = query(req, quoteListQuery);
    if (wantsCsv(req))
      return sendCsv(res, { name: "quote-requests", batches: quotes.exportRows({ q, status, propertyId }) });
    const { rows, total } = await quotes.list({ limit, offset, q, status, propertyId });
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  router.patch("/quote-requests/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const input = body(req, quoteUpdateSchema);
    // Who accepted on the homeowner's behalf, named on the office's bell (docs/decisions.md#55).
    const staff = req.staffUser;
    const name = staff && ([staff.firstName, staff.lastName].filter(Boolean).join(" ") || staff.email);
    await answerEdit(res, quotes.update(id, input, staff && name ? { name, role: staff.role } : undefined));
  });

  router.delete("/quote-requests/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    await quotes.delete(id);
    res.status(204).end();
  });

  router.post("/properties/:id/generate-quote-report", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const report = await quotes.generateQuoteReport(id, settings.publicUrl);
    res.status(201).json(report);
  });

  return router;
}

export function quotesPages(deps: QuotesRoutesDeps): Router {
  const router = createRouter();
  const { quotes, staffPage, settings } = deps;

  router.get("/admin/quote-requests", ...staffPage, async (req, res) => {
    const { q, status, offset } = query(req, quoteListQuery.omit({ limit: true }));
    const { rows, total } = await quotes.list({ limit: PAGE_SIZE, offset, q, status });
    // Properties that can be sent a quote report: those with a quoted item (of any page).
    const quotable = new Set(
      (await quotes.list({ limit: 500, offset: 0, status: "quoted" })).rows.map((r) => r.propertyId),
    );
    res.page("quotes/quote-requests", {
      title: "Quote Requests",
      admin: "quote-requests",
      islands: true,
      groups: groupByProperty(rows),
      quotable,
      total,
      offset,
      pageSize: PAGE_SIZE,
      q: q ?? "",
      status: status ?? "",
      statuses: QUOTE_STATUSES,
      moves: STAFF_MOVES,
      // The Provide Quote dialog's default validity (docs/decisions.md#42), in BUSINESS_TZ.
      today: todayIn(settings.timeZone),
      defaultValidUntil: addDays(todayIn(settings.timeZone), QUOTE_VALID_DAYS),
    });
  });

  // The header bell's list: notifications (filtered, each read when marked so) and the client requests. Opening it
  // changes nothing: its "new" is the bell's own count, the same as on every page (docs/decisions.md#55).
  router.get("/admin/notifications", ...staffPage, async (req, res) => {
    const filter = query(req, notificationListQuery);
    const [notices, items] = await Promise.all([
      deps.notifications.list(req.session.staffUserId!, filter),
      quotes.bellItems(req.session.staffUserId!),
    ]);
    const unread = notices.filter((n) => n.readAt === null).length;
    const back = new URLSearchParams(
      Object.entries({ kind: filter.kind, unread: filter.unread?.toString(), from: filter.from, to: filter.to }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    ).toString();
    res.page("quotes/notifications", {
      title: "Notifications",
      admin: "notifications",
      noindex: true,
      items,
      notices,
      unread,
      filter,
      back: back ? `?${back}` : "",
      kinds: NOTIFICATION_KINDS,
      labels: NOTIFICATION_LABELS,
      fresh: items.filter((i) => i.isNew).length,
      // "Mark seen" marks up to the newest row shown, never one that arrived after the page was drawn.
      seenUntil: items.find((i) => i.isNew)?.at ?? null,
      timeZone: settings.timeZone,
    });
  });

  // The client rows are seen: the bell drops them on every page at once.
  router.post("/admin/notifications/seen", ...staffPage, async (req, res) => {
    const { until, back } = body(req, bellSeenBody);
    await quotes.markBellSeen(req.session.staffUserId!, until);
    res.redirect(303, `/admin/notifications${back ?? ""}`);
  });

  // The client's quote report: the first view claims it for this browser, which may return until every item is answered.
  router.get("/quote-report/:token", async (req, res) => {
    privateLink(res);
    const { token } = params(req, tokenParams);
    const opened = await quotes.openQuoteReport(token, bindingCookies(req));
    if ("gone" in opened) return res.redirect(303, "/report-expired");
    if (opened.binding)
      setBindingCookie(
        res,
        opened.binding,
        // The page in each language (docs/decisions.md#65).
        [`/quote-report/${token}`, localePath(`/quote-report/${token}`, "fr-CA")],
        new Date(opened.report.expiresAt),
        settings.secure,
      );
    res.page("quotes/quote-report", {
      ...quoteReportWords(res),
      noindex: true,
      report: opened.report,
      token,
      decisions: CLIENT_DECISIONS,
      answered: null,
    });
  });

  router.post("/quote-report/:token/items/:id", async (req, res) => {
    privateLink(res);
    const { token, id } = params(req, decisionParams);
    const { decision } = body(req, clientDecisionSchema);
    let result: Awaited<ReturnType<QuotesService["decide"]>>;
    try {
      result = await quotes.decide(token, bindingCookies(req), id, decision);
    } catch (error) {
      // An expired quote (docs/decisions.md#42): the page again, saying so, with a 409.
      if (!(error instanceof QuoteExpiredError)) throw error;
      const opened = await quotes.openQuoteReport(token, bindingCookies(req));
      if ("gone" in opened) return res.redirect(303, "/report-expired");
      res.status(409);
      return res.page("quotes/quote-report", {
        ...quoteReportWords(res),
        noindex: true,
        report: opened.report,
        token,
        decisions: CLIENT_DECISIONS,
        answered: null,
        problem: (res.locals.t as Translator)("quotes.report.expired", {
          date: (res.locals.intl as Formatters).dateTime(error.validUntil, {
            year: "numeric",
            month: "long",
            day: "numeric",
          }),
        }),
      });
    }
    if ("gone" in result) return res.redirect(303, "/report-expired");
    // The last answer spends the link: show the outcome here rather than on a page that no longer opens.
    if (result.completed)
      return res.page("quotes/quote-report", {
        ...quoteReportWords(res),
        noindex: true,
        report: result,
        token,
        decisions: CLIENT_DECISIONS,
        answered: id,
      });
    res.redirect(303, `/quote-report/${token}#item-${id}`);
  });

  return router;
}
