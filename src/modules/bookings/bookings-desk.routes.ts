import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { idParams } from "../../http/fields.js";
import { createRouter } from "../../http/router.js";
import { body, firstProblem, params, parse } from "../../http/validate.js";
import { addDays, slotLabel, slotShortLabel, todayIn } from "../../shared/business-time.js";
import { BOOKING_SLOTS, type BookingChangeInput, bookingChangeSchema } from "./booking-changes.schemas.js";
import { BOOKING_STATUSES, type BookingsFilter } from "./bookings-desk.schemas.js";
import type { Booking } from "./bookings.schemas.js";
import type { BookingsService } from "./bookings.service.js";

/** What /admin/bookings uses; src/app.ts passes them. */
export interface BookingsDeskDeps {
  bookings: BookingsService;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage). */
  staffPage: RequestHandler[];
  timeZone: string;
  /** The business day; the real clock unless a test passes its own. */
  clock?: () => Date;
}

export const DESK_PAGE_SIZE = 25;
/** The range the desk opens on: today and the 30 days after it. */
export const DESK_DEFAULT_DAYS = 30;
/** The reschedule dialog's free times: 14 dates from the earliest a booking may move to (the wizard's 4-day lead). */
const FREE_TIME_DAYS = 14;

const blank = (v: unknown) => (v === "" ? undefined : v);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The page's query: what a person types or a link carries; anything unreadable falls back rather than refuses. */
const deskQuery = z.object({
  from: isoDate.optional().catch(undefined),
  to: isoDate.optional().catch(undefined),
  status: z.enum(BOOKING_STATUSES).optional().catch(undefined),
  inspector: z
    .union([z.literal("unassigned"), z.coerce.number().int().positive().max(2_147_483_647)])
    .optional()
    .catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
type DeskQuery = z.infer<typeof deskQuery>;

const inspectorField = z.preprocess(
  (v) => (v === "" || v === "none" ? null : v),
  z.coerce
    .number({ message: "Inspector must be an inspector or nobody" })
    .int("Inspector must be an inspector or nobody")
    .positive("Inspector must be an inspector or nobody")
    .max(2_147_483_647, "Inspector must be an inspector or nobody")
    .nullable(),
);
const assignForm = z.object({ inspectorId: inspectorField });
/**
 * The reschedule dialog: one of the inspectors' free times (`freeTime`, 'YYYY-MM-DD|slot'), or another time the office
 * picks (`otherDate` and `otherSlot`), which keeps the booking's inspector or takes the one chosen, hours unchecked
 * (docs/decisions.md#37, #58).
 */
const rescheduleForm = z
  .object({
    freeTime: z.preprocess(
      blank,
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}\|.{1,20}$/, "Choose one of the free times")
        .optional(),
    ),
    otherDate: z.preprocess(blank, isoDate.optional()),
    otherSlot: z.preprocess(blank, z.enum(BOOKING_SLOTS, { message: "Choose a time" }).optional()),
    inspectorId: z.preprocess(blank, z.union([z.literal("keep"), inspectorField]).optional()),
  })
  .superRefine((f, ctx) => {
    if (f.otherDate || f.otherSlot) {
      if (!f.otherDate) ctx.addIssue({ code: "custom", path: ["otherDate"], message: "Choose a date" });
      if (!f.otherSlot) ctx.addIssue({ code: "custom", path: ["otherSlot"], message: "Choose a time" });
    } else if (!f.freeTime)
      ctx.addIssue({ code: "custom", path: ["freeTime"], message: "Choose one of the free times, or another time" });
  });

const longDay = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" });
const weekday = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long" });
const shortDay = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});
const utcNoon = (date: string) => new Date(`${date}T12:00:00Z`);

/**
 * A visit's time in words, as the confirmations say it: 'Thursday 2:00 PM' within the coming week, else
 * 'Thursday, December 10, 2:00 PM'; a part of the day as its window ('Thursday 8 AM–12 PM').
 */
export function whenWords(date: string, slot: string, today: string): string {
  const time = slotShortLabel(slot);
  const soon = date >= today && date <= addDays(today, 6);
  return soon ? `${weekday.format(utcNoon(date))} ${time}` : `${longDay.format(utcNoon(date))}, ${time}`;
}

/**
 * /admin/bookings, the office's bookings desk (docs/decisions.md#58): every booking of a date range, filtered and
 * searched, by time, with CSV; assign, reassign, reschedule and cancel inline, each answered in words. The changes
 * are BookingsService.changeByStaff's, the calendar dialog's own (PATCH /api/inspection-bookings/{id}).
 */
export function bookingsDeskPages(deps: BookingsDeskDeps): Router {
  const router = createRouter();
  const clock = deps.clock ?? (() => new Date());
  const today = () => todayIn(deps.timeZone, clock());

  const filterOf = (q: DeskQuery) => {
    const from = q.from ?? today();
    const to = q.to && q.to >= from ? q.to : addDays(from, DESK_DEFAULT_DAYS);
    return { ...q, from, to };
  };
  const queryString = (q: ReturnType<typeof filterOf>, page = q.page) =>
    new URLSearchParams({
      from: q.from,
      to: q.to,
      ...(q.status ? { status: q.status } : {}),
      ...(q.inspector ? { inspector: String(q.inspector) } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(page > 1 ? { page: String(page) } : {}),
    }).toString();

  const listLocals = async (raw: DeskQuery, notice?: { title: string; variant: "success" }) => {
    const q = filterOf(raw);
    const filter: BookingsFilter = { from: q.from, to: q.to, status: q.status, inspector: q.inspector, q: q.q };
    const [{ rows, total }, inspectors] = await Promise.all([
      deps.bookings.listForStaff({
        ...filter,
        sort: "time",
        limit: DESK_PAGE_SIZE,
        offset: (q.page - 1) * DESK_PAGE_SIZE,
      }),
      deps.bookings.inspectorOptions(),
    ]);
    const now = today();
    return {
      title: "Bookings",
      admin: "bookings",
      noindex: true,
      filter: q,
      query: queryString(q),
      pageLink: (page: number) => `/admin/bookings?${queryString(q, page)}`,
      csvHref: `/api/inspection-bookings?${new URLSearchParams({
        format: "csv",
        sort: "time",
        from: q.from,
        to: q.to,
        ...(q.status ? { status: q.status } : {}),
        ...(q.inspector ? { inspector: String(q.inspector) } : {}),
        ...(q.q ? { q: q.q } : {}),
      })}`,
      bookings: rows.map((b) => ({
        ...b,
        dayLabel: shortDay.format(utcNoon(b.scheduledDate)),
        timeLabel: slotLabel(b.timeSlot),
        when: whenWords(b.scheduledDate, b.timeSlot, now),
      })),
      inspectors,
      statuses: BOOKING_STATUSES,
      total,
      page: q.page,
      pages: Math.max(1, Math.ceil(total / DESK_PAGE_SIZE)),
      pageSize: DESK_PAGE_SIZE,
      notice,
    };
  };

  /** The results with the confirmation on top (htmx swaps #bookings-results), or the whole page without script. */
  const answer = async (req: Request, res: Response, title: string) => {
    const locals = await listLocals(deskQuery.parse(req.query), { title, variant: "success" });
    res.page(req.get("hx-request") === "true" ? "bookings/_desk-results" : "bookings/desk", locals);
  };

  router.get("/admin/bookings", ...deps.staffPage, async (req, res) => {
    const locals = await listLocals(deskQuery.parse(req.query));
    if (req.get("hx-target") === "bookings-results") return res.page("bookings/_desk-results", locals);
    res.page("bookings/desk", locals);
  });

  const change = (id: number, input: Omit<BookingChangeInput, never>) =>
    deps.bookings.changeByStaff(id, parse(bookingChangeSchema(deps.bookings.calendar(clock())), input, firstProblem));
  const who = (b: Booking) => b.inspectorName ?? "nobody";

  // Assign or reassign (inspectorId empty: to nobody). Hours are not checked, overlaps are (docs/decisions.md#37).
  router.post("/admin/bookings/:id/assign", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const { inspectorId } = body(req, assignForm, firstProblem);
    const moved = await change(id, { inspectorId });
    const when = whenWords(moved.scheduledDate, moved.timeSlot, today());
    await answer(req, res, inspectorId === null ? `No inspector now for ${when}` : `Given to ${who(moved)}, ${when}`);
  });

  // The dialog: the inspectors' free times for this home, and another time the office may pick.
  router.get("/admin/bookings/:id/reschedule", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const booking = await deps.bookings.findForStaff(id);
    const { minDate } = deps.bookings.calendar(clock());
    const [free, inspectors] = await Promise.all([
      deps.bookings.availability({
        from: minDate,
        to: addDays(minDate, FREE_TIME_DAYS - 1),
        propertyId: booking.propertyId,
      }),
      deps.bookings.inspectorOptions(),
    ]);
    res.page("bookings/_desk-reschedule", {
      title: "Reschedule",
      // Without script the dialog is a page of its own, with its heading and a way back.
      asPage: req.get("hx-request") !== "true",
      admin: "bookings",
      noindex: true,
      booking,
      query: queryString(filterOf(deskQuery.parse(req.query))),
      when: whenWords(booking.scheduledDate, booking.timeSlot, today()),
      days: free.days
        .map((d) => ({
          date: d.date,
          label: longDay.format(utcNoon(d.date)),
          times: [...d.parts, ...d.slots].map((slot) => ({ value: `${d.date}|${slot}`, label: slotLabel(slot) })),
        }))
        .filter((d) => d.times.length),
      calendar: free.calendar,
      slots: BOOKING_SLOTS.map((s) => ({ value: s, label: slotLabel(s) })),
      minDate,
      minDateLabel: longDay.format(utcNoon(minDate)),
      inspectors,
    });
  });

  router.post("/admin/bookings/:id/reschedule", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const form = body(req, rescheduleForm, firstProblem);
    const outside = Boolean(form.otherDate);
    const [date, slot] = outside ? [form.otherDate!, form.otherSlot!] : (form.freeTime!.split("|") as [string, string]);
    const current = await deps.bookings.findForStaff(id);
    // Another time keeps the booking's inspector unless one is chosen: the office decides, hours unchecked.
    const chosen = form.inspectorId === undefined || form.inspectorId === "keep" ? undefined : form.inspectorId;
    const inspectorId = chosen !== undefined ? chosen : outside ? current.inspectorId : undefined;
    const moved = await change(id, {
      scheduledDate: date,
      timeSlot: slot,
      ...(inspectorId !== undefined ? { inspectorId } : {}),
    });
    const when = whenWords(moved.scheduledDate, moved.timeSlot, today());
    const withWhom = moved.inspectorName ? `with ${moved.inspectorName}` : "no inspector yet";
    await answer(
      req,
      res,
      `Moved to ${when}, ${withWhom}${outside ? " (outside the inspectors' free times)" : ""}. ${moved.clientName} is e-mailed the new time.`,
    );
  });

  router.post("/admin/bookings/:id/cancel", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const cancelled = await change(id, { status: "cancelled" });
    await answer(
      req,
      res,
      `Cancelled: ${cancelled.clientName}'s inspection of ${whenWords(cancelled.scheduledDate, cancelled.timeSlot, today())}`,
    );
  });

  return router;
}
