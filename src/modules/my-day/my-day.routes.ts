import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { NotFoundError, UnauthorizedError } from "../../http/errors.js";
import { pathId } from "../../http/fields.js";
import { params } from "../../http/validate.js";
import {
  DAY_PARTS,
  type DayPart,
  addDays,
  slotLabel,
  slotTo24h,
  todayIn,
  zonedInstant,
  clockFormat,
} from "../../shared/business-time.js";
import { accessCodeLabel, accessMethodWords } from "../bookings/bookings.constants.js";
import type { DayVisit, MyDayRepository } from "./my-day.repository.js";
import { myDayScript, myDayWorker } from "./my-day.offline.js";
import { createRouter } from "../../http/router.js";

/** What /admin/my-day uses; src/app.ts passes them. Inspections (a higher layer) arrive as a function. */
export interface MyDayDeps {
  visits: MyDayRepository;
  /** Starts the inspection of a booking's property (InspectionsService.create) and answers its id. */
  startInspection: (propertyId: number, staffUserId: number, date: string) => Promise<number>;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
  timeZone: string;
  /** The business day; the real clock unless a test passes its own. */
  clock?: () => Date;
}

/** A visit as the page shows it. */
export interface VisitView extends DayVisit {
  timeLabel: string;
  /** The access method in words ('Meet inspector at property'), never its code. */
  accessWords: string | null;
  /** 'Lockbox code' or 'Door code', when one was given. */
  accessCodeLabel: string | null;
  mapUrl: string;
  telUrl: string | null;
}

const startOf = (v: DayVisit, timeZone: string): number => {
  if (v.startsAt) return Date.parse(v.startsAt);
  const hhmm = slotTo24h(v.timeSlot) ?? DAY_PARTS[v.timeSlot as DayPart]?.start ?? "23:59";
  return zonedInstant(v.scheduledDate, hhmm, timeZone).getTime();
};

export const mapUrlOf = (v: Pick<DayVisit, "address" | "city" | "province" | "postalCode">) =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(
    [v.address, v.city, [v.province, v.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", "),
  )}`;

export const telUrlOf = (phone: string | null) => {
  const digits = phone?.replace(/[^\d+]/g, "") ?? "";
  return digits.replace(/\D/g, "").length >= 7 ? `tel:${digits}` : null;
};

const bookingParams = z.object({ bookingId: pathId("Booking") });

/** My Day shows today and the 7 days after it (docs/decisions.md#55): a visit booked for Thursday is on it. */
export const DAYS_AHEAD = 7;

/** One day of the page, headed by its date. */
interface DayView {
  key: string;
  label: string;
  date: string;
  dateLabel: string;
  count: number;
  groups: { inspector: string; visits: VisitView[] }[];
}

/**
 * What the page lists: today and tomorrow always, then each later day with visits; a run of later days with none
 * folds into one line ("Saturday, December 5 – Monday, December 7: no visits"), so a phone scrolls past one line.
 */
export type DayBlock = ({ kind: "day" } & DayView) | { kind: "empty"; key: string; label: string };

export function foldDays(days: DayView[]): DayBlock[] {
  const blocks: DayBlock[] = [];
  let run: DayView[] = [];
  const flush = () => {
    if (!run.length) return;
    const first = run[0]!;
    const last = run.at(-1)!;
    const span = first === last ? first.dateLabel : `${first.dateLabel} – ${last.dateLabel}`;
    blocks.push({ kind: "empty", key: `empty-${first.date}`, label: `${span}: no visits` });
    run = [];
  };
  for (const [i, day] of days.entries()) {
    if (i >= 2 && !day.count) {
      run.push(day);
      continue;
    }
    flush();
    blocks.push({ kind: "day", ...day });
  }
  flush();
  return blocks;
}

/**
 * /admin/my-day (docs/decisions.md#38, #55): the visits of today and the 7 days after it, in time order. An
 * inspector sees their own bookings; an owner or the office sees everyone's, grouped by inspector. Kept for offline use by a small
 * service worker of its own (my-day.offline.ts), as the inspection form is (docs/decisions.md#18).
 */
export function myDayPages(deps: MyDayDeps): Router {
  const router = createRouter();
  const clock = deps.clock ?? (() => new Date());
  const time = clockFormat({ timeZone: deps.timeZone, hour: "numeric", minute: "2-digit" });
  const dayName = new Intl.DateTimeFormat("en-CA", {
    timeZone: "UTC",
    weekday: "long",
    month: "long",
    day: "numeric",
  });

  const view = (v: DayVisit): VisitView => ({
    ...v,
    timeLabel:
      v.startsAt && v.endsAt
        ? `${time.format(new Date(v.startsAt))} – ${time.format(new Date(v.endsAt))}`
        : slotLabel(v.timeSlot),
    mapUrl: mapUrlOf(v),
    telUrl: telUrlOf(v.clientPhone),
    accessWords: accessMethodWords(v.accessMethod),
    accessCodeLabel: v.hasAccessCode ? accessCodeLabel(v.accessMethod) : null,
  });

  router.get("/admin/my-day", ...deps.staffPage, async (req, res) => {
    const user = req.staffUser ?? res.locals.staffUser;
    if (!user) throw new UnauthorizedError();
    const now = clock();
    const today = todayIn(deps.timeZone, now);
    const last = addDays(today, DAYS_AHEAD);
    const mine = user.role === "inspector";
    const visits = await deps.visits.visits({ from: today, to: last, inspectorId: mine ? user.id : undefined });
    visits.sort((a, b) => startOf(a, deps.timeZone) - startOf(b, deps.timeZone) || a.bookingId - b.bookingId);
    const dates = Array.from({ length: DAYS_AHEAD + 1 }, (_, i) => addDays(today, i));
    const days: DayView[] = dates
      .map((date, i) => ({
        key: i === 0 ? "today" : i === 1 ? "tomorrow" : date,
        label: i === 0 ? "Today" : i === 1 ? "Tomorrow" : dayName.format(new Date(`${date}T12:00:00Z`)),
        date,
      }))
      .map((d) => {
        const ofDay = visits.filter((v) => v.scheduledDate === d.date).map(view);
        // Everyone's day: one group per inspector (by name), the unassigned last.
        const groups = new Map<string, VisitView[]>();
        for (const v of ofDay) {
          const name = mine ? "" : (v.inspectorName ?? "Not assigned");
          groups.set(name, [...(groups.get(name) ?? []), v]);
        }
        const sorted = [...groups.entries()].sort(([a], [b]) =>
          a === "Not assigned" ? 1 : b === "Not assigned" ? -1 : a.localeCompare(b),
        );
        return {
          ...d,
          dateLabel: dayName.format(new Date(`${d.date}T12:00:00Z`)),
          count: ofDay.length,
          groups: sorted.map(([inspector, list]) => ({ inspector, visits: list })),
        };
      });
    res.page("admin/my-day", {
      title: "My Day",
      admin: "my-day",
      noindex: true,
      mine,
      days: foldDays(days),
      daysAhead: DAYS_AHEAD,
      asOf: time.format(now),
    });
  });

  // Opens the booking's inspection, or starts one (an inspector only for their own booking).
  router.post("/admin/my-day/:bookingId/start", ...deps.staffPage, async (req, res) => {
    const user = req.staffUser ?? res.locals.staffUser;
    if (!user) throw new UnauthorizedError();
    const { bookingId } = params(req, bookingParams);
    const today = todayIn(deps.timeZone, clock());
    // Any visit the page lists (and yesterday's, for a visit that ran past midnight).
    const [visit] = await deps.visits.visits({
      from: addDays(today, -1),
      to: addDays(today, DAYS_AHEAD),
      bookingId,
      inspectorId: user.role === "inspector" ? user.id : undefined,
    });
    if (!visit) throw new NotFoundError("No such visit on My Day");
    const inspectionId = visit.inspectionId ?? (await deps.startInspection(visit.propertyId, user.id, today));
    res.redirect(303, `/admin/inspections/edit/${inspectionId}`);
  });

  // The worker and its registration: plain scripts (CSP allows only same-origin files), nothing personal.
  router.get("/my-day-sw.js", (_req, res) => {
    res.type("application/javascript").set("Cache-Control", "no-cache").send(myDayWorker);
  });
  router.get("/my-day.js", (_req, res) => {
    res.type("application/javascript").set("Cache-Control", "no-cache").send(myDayScript);
  });
  return router;
}
