// My Home's Visits: the page, its plain forms (POST, then a redirect), the JSON calls under
// /api/my-home/, and the private ICS feed (public, guarded by its secret). Signed in only: requireHome*.
import type { Request, Response, Router } from "express";
import { HttpError, NotFoundError } from "../../http/errors.js";
import { body, params, parse, query } from "../../http/validate.js";
import { type Translator, translator } from "../../i18n/index.js";
import { apiLocale } from "../../i18n/api-locale.js";
import { serverFields, serverMessage } from "../../i18n/server-messages.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import {
  bookingParams,
  homeBookingChangeSchema,
  planVisitMoveSchema,
  planVisitParams,
  serviceRequestSchema,
  visitsQuery,
} from "./visits.schemas.js";
import { RescheduleTakenError } from "./visit-items.js";
import { type VisitsService, monthWeeks, shiftMonth } from "./visits.service.js";
import { createRouter } from "../../http/router.js";
import { visitWords } from "./visit-words.js";

/** What the Visits page and calls use. */
export interface VisitsRoutesDeps {
  visits: VisitsService;
}

/** What a page shows again when its form is refused: the status, the message, each field's and what was typed. */
interface FormRefusal {
  status?: number;
  problem?: string | null;
  errors?: Record<string, string>;
  values?: Record<string, string>;
}

/**
 * A refusal the page shows with the form kept as typed (a 4xx); null for anything else, which the error handler
 * answers. `notFoundIsError`: a 404 is the error page (the record is not theirs), not the form again.
 */
function refusalOf(
  error: unknown,
  values: Record<string, string> | undefined,
  { notFoundIsError }: { notFoundIsError: boolean },
): FormRefusal | null {
  if (!(error instanceof HttpError) || error.status >= 500 || (notFoundIsError && error.status === 404)) return null;
  return { status: error.status, problem: error.message, errors: error.fields ?? {}, ...(values && { values }) };
}

/** A 409's message and fields in the language the call asked for (src/i18n/api-locale.ts). */
const saidIn = (req: Request, error: RescheduleTakenError) => {
  const t = translator(apiLocale(req));
  return { message: serverMessage(t, error.message), fields: serverFields(t, error.fields) };
};

export function visitsApi(deps: VisitsRoutesDeps): Router {
  const router = createRouter();
  const { visits } = deps;

  router.get("/my-home/visits", requireHomeApi, async (req, res) => {
    const { month } = query(req, visitsQuery);
    res.json(await visits.view(homeViewer(res).email, { month }));
  });

  // Reschedule ({scheduledDate, timeSlot}) or cancel ({status: 'cancelled'}) one of the homeowner's bookings.
  router.patch("/my-home/bookings/:id", requireHomeApi, async (req, res) => {
    const { id } = params(req, bookingParams);
    try {
      res.json(await visits.changeBooking(homeViewer(res).email, id, body(req, homeBookingChangeSchema)));
    } catch (error) {
      // A time taken meanwhile: the wizard's 409, with the times still free (docs/decisions.md#37).
      if (!(error instanceof RescheduleTakenError)) throw error;
      res.status(409).json({ ...saidIn(req, error), reschedule: error.reschedule });
    }
  });

  // Plan visits the homeowner moves, skips or restores (docs/decisions.md#44).
  router.get("/my-home/plan-visits/:id", requireHomeApi, async (req, res) => {
    const { id } = params(req, planVisitParams);
    res.json(await visits.planVisitOptions(homeViewer(res).email, id));
  });

  router.post("/my-home/plan-visits/:id/move", requireHomeApi, async (req, res) => {
    const { id } = params(req, planVisitParams);
    const input = body(req, planVisitMoveSchema);
    try {
      res.json(await visits.changePlanVisit(homeViewer(res).email, id, { action: "move", ...input }));
    } catch (error) {
      if (!(error instanceof RescheduleTakenError)) throw error;
      res.status(409).json({ ...saidIn(req, error), reschedule: error.reschedule });
    }
  });

  for (const action of ["skip", "unskip"] as const)
    router.post(`/my-home/plan-visits/:id/${action}`, requireHomeApi, async (req, res) => {
      const { id } = params(req, planVisitParams);
      res.json(await visits.changePlanVisit(homeViewer(res).email, id, { action }));
    });

  router.post("/my-home/service-requests", requireHomeApi, async (req, res) => {
    res.status(201).json(await visits.requestService(homeViewer(res).email, body(req, serviceRequestSchema)));
  });

  // A new private feed URL (the old one stops working). The URL is shown once: only its hash is kept.
  router.post("/my-home/calendar-feed", requireHomeApi, async (_req, res) => {
    res.status(201).json(await visits.rotateFeed(homeViewer(res).email));
  });

  return router;
}

/** What a page form did, by code: the catalogue's my-home-visits.flash.<code>. */
const FLASHES = new Set(["rescheduled", "cancelled", "requested", "moved", "booked", "skipped", "restored"]);

/** The page's translator (res.locals.t: the address's language). */
const tOf = (res: Response) => res.locals.t as Translator;

export function visitsPages(deps: VisitsRoutesDeps): Router {
  const router = createRouter();
  const { visits } = deps;

  const renderVisits = async (
    req: Request,
    res: Response,
    extra: {
      status?: number;
      problem?: string | null;
      errors?: Record<string, string>;
      values?: Record<string, string>;
      feedUrl?: string | null;
    } = {},
  ) => {
    const parsed = visitsQuery.safeParse(req.query);
    const month = parsed.success ? parsed.data.month : undefined;
    const view = await visits.view(homeViewer(res).email, { month });
    const done =
      typeof req.query.done === "string" && FLASHES.has(req.query.done)
        ? tOf(res)(`my-home-visits.flash.${req.query.done}`)
        : null;
    res.status(extra.status ?? 200).page("my-home/visits", {
      title: tOf(res)("my-home-visits.title"),
      noindex: true,
      footer: true,
      tab: "visits",
      view,
      weeks: monthWeeks(view.month),
      prevMonth: shiftMonth(view.month, -1),
      nextMonth: shiftMonth(view.month, 1),
      flash: done,
      problem: extra.problem ? serverMessage(tOf(res), extra.problem) : null,
      errors: serverFields(tOf(res), extra.errors),
      values: extra.values ?? {},
      feedUrl: extra.feedUrl ?? null,
      words: visitWords(res),
    });
  };

  router.get("/my-home/visits", requireHomePage, (req, res) => renderVisits(req, res));

  router.post("/my-home/visits/requests", requireHomePage, async (req, res) => {
    const values = {
      propertyId: String(req.body?.propertyId ?? ""),
      service: String(req.body?.service ?? ""),
      date: String(req.body?.date ?? ""),
      notes: String(req.body?.notes ?? ""),
    };
    try {
      await visits.requestService(
        homeViewer(res).email,
        parse(serviceRequestSchema, { ...values, ...splitService(values.service, values.propertyId) }),
      );
    } catch (error) {
      const refusal = refusalOf(error, values, { notFoundIsError: false });
      if (refusal) return renderVisits(req, res, refusal);
      throw error;
    }
    res.redirect(303, "/my-home/visits?done=requested");
  });

  router.post("/my-home/visits/feed", requireHomePage, async (req, res) => {
    const { url } = await visits.rotateFeed(homeViewer(res).email);
    // Shown once, in this answer only: never in a URL or a log.
    res.setHeader("Cache-Control", "no-store");
    await renderVisits(req, res, { feedUrl: url });
  });

  // One booking: the offered dates and slots to move it to, and cancelling it.
  const renderBooking = async (req: Request, res: Response, extra: FormRefusal = {}) => {
    const { id } = params(req, bookingParams);
    const email = homeViewer(res).email;
    const view = await visits.view(email);
    const booking = [...view.upcoming, ...view.monthItems].find((i) => i.kind === "inspection" && i.id === id);
    if (!booking) throw new NotFoundError("Booking not found");
    const options = await visits.rescheduleOptionsFor(email, id);
    res.status(extra.status ?? 200).page("my-home/visit-booking", {
      title: tOf(res)("my-home-visits.booking.title"),
      noindex: true,
      footer: true,
      tab: "visits",
      booking,
      options,
      problem: extra.problem ? serverMessage(tOf(res), extra.problem) : null,
      errors: serverFields(tOf(res), extra.errors),
      values: extra.values ?? { scheduledDate: "", timeSlot: booking.timeSlot ?? "" },
      words: visitWords(res),
    });
  };

  router.get("/my-home/visits/bookings/:id", requireHomePage, (req, res) => renderBooking(req, res));

  router.post("/my-home/visits/bookings/:id/reschedule", requireHomePage, async (req, res) => {
    const { id } = params(req, bookingParams);
    // The page offers each date with its free times as one choice, `when` = 'YYYY-MM-DD|slot'.
    const [whenDate, whenSlot] = String(req.body?.when ?? "").split("|");
    const values = {
      scheduledDate: whenDate || String(req.body?.scheduledDate ?? ""),
      timeSlot: whenSlot || String(req.body?.timeSlot ?? ""),
    };
    try {
      await visits.changeBooking(
        homeViewer(res).email,
        id,
        parse(homeBookingChangeSchema, {
          scheduledDate: values.scheduledDate || undefined,
          timeSlot: values.timeSlot || undefined,
        }),
      );
    } catch (error) {
      const refusal = refusalOf(error, values, { notFoundIsError: true });
      if (refusal) return renderBooking(req, res, refusal);
      throw error;
    }
    res.redirect(303, "/my-home/visits?done=rescheduled");
  });

  router.post("/my-home/visits/bookings/:id/cancel", requireHomePage, async (req, res) => {
    const { id } = params(req, bookingParams);
    try {
      await visits.changeBooking(homeViewer(res).email, id, { status: "cancelled" });
    } catch (error) {
      const refusal = refusalOf(error, undefined, { notFoundIsError: true });
      if (refusal) return renderBooking(req, res, refusal);
      throw error;
    }
    res.redirect(303, "/my-home/visits?done=cancelled");
  });

  // One plan visit: move it within its window, skip it or restore it (docs/decisions.md#44).
  const renderPlanVisit = async (req: Request, res: Response, extra: FormRefusal = {}) => {
    const { id } = params(req, planVisitParams);
    const options = await visits.planVisitOptions(homeViewer(res).email, id);
    const words = visitWords(res);
    res.status(extra.status ?? 200).page("my-home/visit-plan", {
      title: tOf(res)("my-home-visits.plan.title", { title: words.title(options.visit) }),
      noindex: true,
      footer: true,
      tab: "visits",
      options: { ...options, reason: options.reason && serverMessage(tOf(res), options.reason) },
      problem: extra.problem ? serverMessage(tOf(res), extra.problem) : null,
      errors: serverFields(tOf(res), extra.errors),
      values: extra.values ?? { date: "", when: "" },
      words,
    });
  };

  router.get("/my-home/visits/plan-visits/:id", requireHomePage, (req, res) => renderPlanVisit(req, res));

  router.post("/my-home/visits/plan-visits/:id/:action", requireHomePage, async (req, res) => {
    const { id } = params(req, planVisitParams);
    const action = req.params.action;
    if (action !== "move" && action !== "skip" && action !== "unskip") throw new NotFoundError("Page not found");
    // The annual inspection's form offers each free date and time as one choice, `when` = 'YYYY-MM-DD|part'.
    const [whenDate, whenSlot] = String(req.body?.when ?? "").split("|");
    const values = { date: whenDate || String(req.body?.date ?? ""), when: String(req.body?.when ?? "") };
    let result: Awaited<ReturnType<VisitsService["changePlanVisit"]>>;
    try {
      const input =
        action === "move" ? parse(planVisitMoveSchema, { date: values.date, timeSlot: whenSlot || undefined }) : {};
      result = await visits.changePlanVisit(homeViewer(res).email, id, { action, ...input });
    } catch (error) {
      const refusal = refusalOf(error, values, { notFoundIsError: true });
      if (refusal) return renderPlanVisit(req, res, refusal);
      throw error;
    }
    const done =
      action === "move" ? (result.bookingId ? "booked" : "moved") : action === "skip" ? "skipped" : "restored";
    res.redirect(303, `/my-home/visits?done=${done}`);
  });

  // Calendar apps subscribe to this URL; the secret is the only credential. Unknown secrets: the same 404 as a wrong path.
  router.get("/my-home/calendar/feed/:file", async (req, res) => {
    const match = /^(.+)\.ics$/.exec(req.params.file);
    const ics = match ? await visits.feed(match[1]!) : null;
    if (!ics) throw new NotFoundError("Page not found");
    res.setHeader("Cache-Control", "private, max-age=300");
    res.type("text/calendar; charset=utf-8").send(ics);
  });

  return router;
}

/** The request form's service select carries 'propertyId:service' when the homeowner has more than one home. */
function splitService(value: string, propertyId: string): { service: string; propertyId: string } {
  const at = value.indexOf(":");
  if (at > 0 && /^\d+$/.test(value.slice(0, at)))
    return { propertyId: value.slice(0, at), service: value.slice(at + 1) };
  return { service: value, propertyId };
}
