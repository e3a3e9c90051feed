import type { Response, Router } from "express";
import { z } from "zod";
import { NotFoundError } from "../../http/errors.js";
import { idParams, pathId } from "../../http/fields.js";
import { body, firstProblem, params, parse, query } from "../../http/validate.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import type { IdempotencyService } from "../../db/idempotency.js";
import { bookingChangeSchema } from "./booking-changes.schemas.js";
import { type BookingsService, SlotTakenError } from "./bookings.service.js";
import { rememberCustomer, submissionOf, viewerOf } from "../../http/viewer.js";
import { PROPERTY_TYPES, SUBSCRIPTION_PLANS, planLabel } from "../customers/customers.schemas.js";
import { sendCsv } from "../../http/csv.js";
import { staffBookingsQuerySchema } from "./bookings-desk.schemas.js";
import {
  ACCESS_INFO_MESSAGE,
  WIZARD_ACCESS_MESSAGE,
  WIZARD_MISSING_MESSAGE,
  WIZARD_REQUIRED_FIELDS,
  availabilityQuerySchema,
  pageBookingSchema,
  wizardBookingSchema,
} from "./bookings.schemas.js";
import { createRouter } from "../../http/router.js";
import { islandMessages, localePath, translator } from "../../i18n/index.js";
import { apiLocale } from "../../i18n/api-locale.js";
import { serverFields, serverMessage } from "../../i18n/server-messages.js";
import { type BookingCalendar, wizardLeft } from "./bookings.constants.js";

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** What the booking routes use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface BookingsRoutesDeps {
  bookings: BookingsService;
  idempotency: IdempotencyService;
  /** The contact lines the booking page shows. */
  settings: { supportEmail: string; supportPhone: string };
}

/**
 * The top-level message of a refused wizard payload: the spec's submit text when a required field is
 * missing, the access rule's text when that failed, otherwise the first field's own message.
 */
function wizardFailureMessage(payload: unknown, fields: Record<string, string>): string {
  const input = (payload && typeof payload === "object" ? payload : {}) as Record<string, unknown>;
  if (WIZARD_REQUIRED_FIELDS.some((f) => isBlank(input[f]))) return WIZARD_MISSING_MESSAGE;
  if (fields.accessCode === ACCESS_INFO_MESSAGE) return WIZARD_ACCESS_MESSAGE;
  return firstProblem(fields);
}

/** A booking that lost its time: 409 with the message, the field and fresh times (docs/decisions.md#37). */
async function orSlotTaken(res: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof SlotTakenError)) throw error;
    // In the language the wizard asked for (src/i18n/api-locale.ts).
    const t = translator(apiLocale(res.req));
    res.status(409).json({
      message: serverMessage(t, error.message),
      fields: serverFields(t, error.fields),
      availability: error.availability,
    });
  }
}

/**
 * The two booking payloads' schemas for the calendar of the day (and the year, which bounds a year built), built
 * once that day: a zod schema takes longer to build than to check a payload (bench/load.ts, docs/decisions.md#84).
 */
function bookingSchemas() {
  let key = "";
  let schemas: { wizard: ReturnType<typeof wizardBookingSchema>; page: ReturnType<typeof pageBookingSchema> };
  return (calendar: BookingCalendar) => {
    const day = `${calendar.today}|${calendar.minDate}|${calendar.maxDate}|${calendar.bookingDates.join()}|${new Date().getFullYear()}`;
    if (day !== key) {
      schemas = { wizard: wizardBookingSchema(calendar), page: pageBookingSchema(calendar) };
      key = day;
    }
    return schemas;
  };
}

export function bookingsApi(deps: BookingsRoutesDeps): Router {
  const router = createRouter();
  const schemasFor = bookingSchemas();

  // Public: the wizard and the booking page offer only the times some inspector is free.
  router.get("/inspection-bookings/availability", async (req, res) => {
    const q = query(req, availabilityQuerySchema(deps.bookings.calendar()));
    res.json(await deps.bookings.availability({ from: q.from, to: q.to, squareFootage: q.size }));
  });

  // Staff: the inspectors a booking may be given to (the calendar's booking dialog).
  router.get("/inspectors", requireStaffApi, async (_req, res) => {
    res.json(await deps.bookings.inspectorOptions());
  });

  router.get("/inspection-bookings", async (req, res) => {
    const viewer = viewerOf(req);
    if (viewer.kind === "staff") {
      // Staff: a page, newest first or by time, with the full count (docs/decisions.md#15) and the admin access
      // labels; the desk's filters (docs/decisions.md#58); `format=csv` every booking of the filter.
      const { format, ...filter } = query(req, staffBookingsQuerySchema);
      const scoped = { ...filter, inspectorId: inspectorScopeOf(req) };
      if (format === "csv") return sendCsv(res, { name: "bookings", batches: deps.bookings.exportForStaff(scoped) });
      const { rows, total } = await deps.bookings.listForStaff(scoped);
      res.setHeader("X-Total-Count", String(total));
      return void res.json(rows);
    }
    res.json(await deps.bookings.list(viewer));
  });

  // Two payloads share this path (customer-side §7): the booking page's carries propertyId.
  // Both are idempotent: a double click or a retried request books once and mails once.
  router.post("/inspection-bookings", async (req, res) => {
    const viewer = viewerOf(req);
    const calendar = deps.bookings.calendar();
    const payload: unknown = req.body ?? {};
    const submission = submissionOf(req, payload);
    if (payload && typeof payload === "object" && "propertyId" in payload) {
      const input = parse(schemasFor(calendar).page, payload, firstProblem);
      return orSlotTaken(res, async () => {
        const { result: booking } = await deps.idempotency.run("booking-page", submission, async (tx) => {
          const booked = await deps.bookings.bookForProperty(viewer, input, tx);
          // Thrown inside, so a refusal is never remembered as the answer to this submission.
          if (!booked) throw new NotFoundError("No property found");
          return booked;
        });
        res.status(201).json(booking);
      });
    }
    const input = parse(schemasFor(calendar).wizard, payload, (fields) => wizardFailureMessage(payload, fields));
    await orSlotTaken(res, async () => {
      const {
        result: booking,
        replayed,
        byBrowserKey,
      } = await deps.idempotency.run("wizard", submission, (tx) => deps.bookings.bookFromWizard(viewer, input, tx));
      // A replay found by the payload alone could come from another browser: it grants no access.
      if (!replayed || byBrowserKey) await rememberCustomer(req, booking.customerId);
      res.status(201).json(booking);
    });
  });

  // The door code, asked for by a tap on My Day or the form, never kept with their offline copies (no-store).
  router.get("/inspection-bookings/:id/access-code", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.set("Cache-Control", "no-store").json(await deps.bookings.accessCode(id));
  });

  // Staff reschedule or cancel a booking from the calendar's dialog.
  router.patch("/inspection-bookings/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const change = body(req, bookingChangeSchema(deps.bookings.calendar()));
    await orSlotTaken(res, async () => void res.json(await deps.bookings.changeByStaff(id, change)));
  });

  return router;
}

const wizardQuery = z.object({
  customer_id: pathId("Customer id").optional().catch(undefined),
  plan: z.enum(SUBSCRIPTION_PLANS).optional().catch(undefined),
});

const isPaidPlan = (plan: string) => ["basic", "standard", "premium"].includes(plan);

export function bookingsPages(deps: BookingsRoutesDeps): Router {
  const router = createRouter();
  const contact = () => ({ supportEmail: deps.settings.supportEmail, supportPhone: deps.settings.supportPhone });

  // The health report explainer links to /schedule (docs/decisions.md#13); keep its query string.
  router.get("/schedule", (req, res) => {
    const q = req.originalUrl.indexOf("?");
    res.redirect(301, `/schedule-inspection${q >= 0 ? req.originalUrl.slice(q) : ""}`);
  });

  router.get("/schedule-inspection", async (req, res) => {
    const { customer_id, plan } = wizardQuery.parse(req.query);
    const prefill = customer_id ? await deps.bookings.prefillFor(viewerOf(req), customer_id) : null;
    const { minDate, maxDate } = deps.bookings.calendar();
    const t = translator(req.locale);
    res.page("bookings/schedule-inspection", {
      title: t("booking.title"),
      description: t("booking.description"),
      footer: true,
      islands: true,
      left: wizardLeft(prefill),
      props: {
        propertyTypes: PROPERTY_TYPES,
        minDate,
        maxDate,
        prefill,
        // A paid plan by its name in the page's language (the plans namespace); another by its label.
        planLabel: plan ? (isPaidPlan(plan) ? t(`plans.${plan}.name`) : planLabel(plan)) : null,
        i18n: islandMessages(req.locale, "booking", "forms"),
      },
    });
  });

  router.get("/book-inspection", (req, res) => {
    res.page("bookings/book-inspection", {
      title: translator(req.locale)("booking.book.title"),
      islands: true,
      noindex: true,
      props: {
        dates: deps.bookings.calendar().bookingDates,
        i18n: islandMessages(req.locale, "booking"),
        paths: {
          intake: localePath("/property-intake", req.locale),
          confirmation: localePath("/booking-confirmation", req.locale),
        },
      },
    });
  });

  router.get("/booking-confirmation", (req, res) => {
    res.page("bookings/booking-confirmation", {
      title: translator(req.locale)("booking.confirmation.title"),
      islands: true,
      noindex: true,
      props: { ...contact(), i18n: islandMessages(req.locale, "booking") },
    });
  });

  return router;
}
